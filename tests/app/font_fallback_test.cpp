// Text in Greek, Cyrillic, CJK and emoji draws with real glyphs, not empty boxes: with the
// fonts the package recommends installed (Noto), every character of such text finds a glyph
// in the application font or the fallbacks Strata registers, in the proportional font the
// editors use and in the fixed-width font of the hex and text views. A script whose font is
// not installed is skipped (CI installs them all).
#include <QApplication>
#include <QFontDatabase>
#include <QTest>

#include "app/widgets/font_fallback.h"

using namespace strata::gui;

class FontFallbackTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { installFontFallbacks(); }

    void everyScriptHasGlyphs_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("family");  // the font that covers the script
        QTest::newRow("greek") << QStringLiteral("Καλημέρα κόσμε, ή πρόσθεση")
                               << QStringLiteral("Noto Sans");
        QTest::newRow("cyrillic") << QStringLiteral("Съешь же ещё этих мягких булок")
                                  << QStringLiteral("Noto Sans");
        QTest::newRow("cjk") << QStringLiteral("数据集的文档、日本語のテキスト、한국어 문서")
                             << QStringLiteral("Noto Sans CJK SC");
        QTest::newRow("emoji") << QStringLiteral("\U0001F600\U0001F680\U0001F4BE")
                               << QStringLiteral("Noto Color Emoji");
    }

    void everyScriptHasGlyphs() {
        QFETCH(QString, text);
        QFETCH(QString, family);
        if (!QFontDatabase::families().contains(family)) {
            QSKIP(qPrintable(family + QStringLiteral(" is not installed")));
        }
        for (const QFont& font :
             {QApplication::font(), QFontDatabase::systemFont(QFontDatabase::FixedFont)}) {
            QCOMPARE(missingGlyphCount(text, font), 0);
        }
    }

    // The check itself can fail: a character no installed font has (a private-use code point)
    // is counted as missing.
    void aCharacterNoFontHasIsCounted() {
        QVERIFY(missingGlyphCount(QStringLiteral("a\U000F0001b"), QApplication::font()) > 0);
    }
};

QTEST_MAIN(FontFallbackTest)
#include "font_fallback_test.moc"
