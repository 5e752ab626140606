#include "byte_text.h"

namespace strata::gui {

QString bytesToHexText(const QByteArray& bytes) {
    return QString::fromLatin1(bytes.toHex(' ').toUpper());
}

QString bytesToPrintableText(const QByteArray& bytes) {
    QString out;
    out.reserve(bytes.size());
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += isPrintableByte(b) ? QChar(b) : QLatin1Char('.');
    }
    return out;
}

QString bytesToCArray(const QByteArray& bytes, const QString& name) {
    constexpr int kPerLine = 12;
    QString out = QStringLiteral("const unsigned char %1[%2] = {").arg(name).arg(bytes.size());
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        out += (i % kPerLine == 0) ? QStringLiteral("\n    ") : QStringLiteral(" ");
        out += QStringLiteral("0x%1,").arg(static_cast<unsigned char>(bytes[i]), 2, 16,
                                           QLatin1Char('0'));
    }
    out += QStringLiteral("\n};\n");
    return out;
}

}  // namespace strata::gui
