// The GUI's pure helpers: data decoders, offset parsing, clipboard text, scroll mapping.
#include <QTest>

#include <array>
#include <cstdint>
#include <limits>

#include "app/widgets/byte_text.h"
#include "app/widgets/data_decoders.h"
#include "app/widgets/hex_scroll_mapping.h"
#include "app/widgets/offset_expression.h"

using namespace strata::gui;

namespace {

QString valueNamed(const QList<DecodedValue>& values, const QString& name) {
    for (const DecodedValue& v : values) {
        if (v.name == name) {
            return v.value;
        }
    }
    return QStringLiteral("<missing %1>").arg(name);
}

}  // namespace

class GuiLogicTest : public QObject {
    Q_OBJECT
private slots:
    void halfFloats() {
        QCOMPARE(halfToDouble(0x3C00), 1.0);
        QCOMPARE(halfToDouble(0xC000), -2.0);
        QCOMPARE(halfToDouble(0x7BFF), 65504.0);
        QCOMPARE(halfToDouble(0x0001), 5.960464477539063e-08);  // smallest subnormal
        QVERIFY(std::isinf(halfToDouble(0x7C00)));
        QVERIFY(std::isnan(halfToDouble(0x7E00)));
    }

    void bfloat16() {
        QCOMPARE(bfloat16ToDouble(0x3F80), 1.0);
        QCOMPARE(bfloat16ToDouble(0xC040), -3.0);
        QCOMPARE(bfloat16ToDouble(0x0000), 0.0);
    }

    void uleb128() {
        const std::array<std::uint8_t, 3> bytes{0xE5, 0x8E, 0x26};
        const auto v = decodeUleb128(bytes);
        QVERIFY(v.has_value());
        QCOMPARE(v->value, std::uint64_t{624485});
        QCOMPARE(v->length, 3);
        QVERIFY(!v->nonShortest);

        const std::array<std::uint8_t, 2> padded{0x85, 0x00};  // 5, padded to two bytes
        const auto p = decodeUleb128(padded);
        QVERIFY(p.has_value());
        QCOMPARE(p->value, std::uint64_t{5});
        QVERIFY(p->nonShortest);

        const std::array<std::uint8_t, 2> unterminated{0x80, 0x80};
        QVERIFY(!decodeUleb128(unterminated).has_value());

        std::array<std::uint8_t, 10> max{};
        max.fill(0xFF);
        max[9] = 0x01;
        const auto m = decodeUleb128(max);
        QVERIFY(m.has_value());
        QCOMPARE(m->value, std::numeric_limits<std::uint64_t>::max());
        QVERIFY(!m->overflow);
        max[9] = 0x02;
        QVERIFY(decodeUleb128(max)->overflow);
    }

    void unixTime() {
        QCOMPARE(unixTimeToIso(0), QStringLiteral("1970-01-01T00:00:00Z"));
        QCOMPARE(unixTimeToIso(1709294400), QStringLiteral("2024-03-01T12:00:00Z"));
        QVERIFY(unixTimeToIso(std::numeric_limits<std::int64_t>::max()).isEmpty());
    }

    void utf8() {
        const std::array<std::uint8_t, 4> e{0xC3, 0xA9, 'x', 0};
        QVERIFY(describeUtf8CodePoint(e).startsWith(QStringLiteral("U+00E9")));
        QCOMPARE(utf8Prefix(e), QStringLiteral("éx"));
        const std::array<std::uint8_t, 2> overlong{0xC0, 0x80};
        QVERIFY(describeUtf8CodePoint(overlong).contains(QStringLiteral("invalid")));
    }

    void decodeAllTable() {
        const std::array<std::uint8_t, 8> bytes{0x00, 0x3C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
        const QList<DecodedValue> values = decodeAll(bytes);
        QCOMPARE(valueNamed(values, QStringLiteral("u16 LE")), QStringLiteral("15360"));
        QCOMPARE(valueNamed(values, QStringLiteral("u16 BE")), QStringLiteral("60"));
        QCOMPARE(valueNamed(values, QStringLiteral("f16 LE")), QStringLiteral("1"));
        QCOMPARE(valueNamed(values, QStringLiteral("i8")), QStringLiteral("0"));
        const std::array<std::uint8_t, 4> f32{0x00, 0x00, 0x80, 0x3F};
        QCOMPARE(valueNamed(decodeAll(f32), QStringLiteral("f32 LE")), QStringLiteral("1"));
        QCOMPARE(valueNamed(decodeAll(f32), QStringLiteral("i8")), QStringLiteral("0"));
        const std::array<std::uint8_t, 1> neg{0xFF};
        QCOMPARE(valueNamed(decodeAll(neg), QStringLiteral("i8")), QStringLiteral("-1"));
        QVERIFY(valueNamed(decodeAll(neg), QStringLiteral("u32 LE"))
                    .contains(QStringLiteral("not enough")));
        const std::array<std::uint8_t, 3> uleb{0xE5, 0x8E, 0x26};
        QVERIFY(valueNamed(decodeAll(uleb), QStringLiteral("uleb128"))
                    .startsWith(QStringLiteral("624485")));
    }

    void offsetExpressions() {
        QCOMPARE(parseOffsetExpression(QStringLiteral("0x10"), 0, 100).offset, std::uint64_t{16});
        QCOMPARE(parseOffsetExpression(QStringLiteral(" 42 "), 0, 100).offset, std::uint64_t{42});
        QCOMPARE(parseOffsetExpression(QStringLiteral("+0x10"), 8, 100).offset, std::uint64_t{24});
        QCOMPARE(parseOffsetExpression(QStringLiteral("-8"), 8, 100).offset, std::uint64_t{0});
        QCOMPARE(parseOffsetExpression(QStringLiteral("0X1_0"), 0, 100).offset, std::uint64_t{16});
        QVERIFY(!parseOffsetExpression(QStringLiteral("-9"), 8, 100).offset);
        QVERIFY(!parseOffsetExpression(QStringLiteral("100"), 0, 100).offset);
        QVERIFY(!parseOffsetExpression(QStringLiteral("0x"), 0, 100).offset);
        QVERIFY(!parseOffsetExpression(QStringLiteral("12zz"), 0, 100).offset);
        QVERIFY(!parseOffsetExpression(QString(), 0, 100).offset);
        QVERIFY(!parseOffsetExpression(QStringLiteral("0x1ffffffffffffffff"), 0, 100).offset);
        const auto max = std::numeric_limits<std::uint64_t>::max();
        QVERIFY(!parseOffsetExpression(QStringLiteral("+2"), max - 1, max).offset);
        QVERIFY(parseOffsetExpression(QStringLiteral("1"), 0, 100).error.isEmpty());
        QCOMPARE(parseOffsetExpression(QStringLiteral("0"), 0, 0).offset, std::uint64_t{0});
    }

    void clipboardText() {
        const QByteArray bytes("\xDE\xAD\x41\x00", 4);
        QCOMPARE(bytesToHexText(bytes), QStringLiteral("DE AD 41 00"));
        QCOMPARE(bytesToPrintableText(bytes), QStringLiteral("..A."));
        QCOMPARE(
            bytesToCArray(bytes),
            QStringLiteral("const unsigned char data[4] = {\n    0xde, 0xad, 0x41, 0x00,\n};\n"));
    }

    void scrollMappingSmall() {
        const HexScrollMapping m(1000);
        QVERIFY(!m.scaled());
        QCOMPARE(m.maximum(), 1000);
        QCOMPARE(m.rowForValue(500), quint64{500});
        QCOMPARE(m.valueForRow(999), 999);
    }

    void scrollMappingHuge() {
        // 3 TiB at 8 bytes per row, 40 rows on screen.
        const quint64 rows = (3ull << 40) / 8;
        const HexScrollMapping m(rows - 40);
        QVERIFY(m.scaled());
        QCOMPARE(m.maximum(), HexScrollMapping::kScaledMaximum);
        QCOMPARE(m.rowForValue(0), quint64{0});
        QCOMPARE(m.rowForValue(m.maximum()), rows - 40);
        for (quint64 row :
             {quint64{0}, quint64{1}, quint64{12345678901}, rows / 2, rows - 41, rows - 40}) {
            const int value = m.valueForRow(row);
            QVERIFY(m.rowForValue(value) <= row);
            QVERIFY(value == m.maximum() || m.rowForValue(value + 1) > row);
        }
        // Monotonic.
        QVERIFY(m.rowForValue(1000) < m.rowForValue(1001));
        // Even 2^64 - 1 bytes at 8 per row maps without overflow.
        const HexScrollMapping largest(std::numeric_limits<quint64>::max() / 8);
        QCOMPARE(largest.rowForValue(largest.maximum()), std::numeric_limits<quint64>::max() / 8);
        QVERIFY(largest.rowForValue(largest.maximum() - 1) < largest.maxTopRow());
    }
};

QTEST_GUILESS_MAIN(GuiLogicTest)
#include "gui_logic_test.moc"
