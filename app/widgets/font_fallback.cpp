#include "font_fallback.h"

#include <QFontDatabase>
#include <QGlyphRun>
#include <QGuiApplication>
#include <QTextLayout>

namespace strata::gui {

QStringList fallbackFamilies() {
    return {QStringLiteral("Noto Sans"),         QStringLiteral("Noto Sans Mono"),
            QStringLiteral("Noto Sans CJK SC"),  QStringLiteral("Noto Sans CJK JP"),
            QStringLiteral("Noto Sans CJK KR"),  QStringLiteral("Noto Color Emoji"),
            QStringLiteral("Noto Sans Symbols"), QStringLiteral("Noto Sans Symbols2"),
            QStringLiteral("DejaVu Sans")};
}

void installFontFallbacks() {
    const QStringList installed = QFontDatabase::families();
    QStringList substitutes;
    for (const QString& family : fallbackFamilies()) {
        if (installed.contains(family)) {
            substitutes << family;
        }
    }
    for (const QString& family : {QGuiApplication::font().family(),
                                  QFontDatabase::systemFont(QFontDatabase::FixedFont).family()}) {
        QFont::insertSubstitutions(family, substitutes);
    }
}

int missingGlyphCount(const QString& text, const QFont& font) {
    QTextLayout layout(text, font);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(1e6);
    layout.endLayout();
    int missing = 0;
    for (const QGlyphRun& run : layout.glyphRuns()) {
        for (const quint32 glyph : run.glyphIndexes()) {
            missing += glyph == 0 ? 1 : 0;  // glyph 0 is every font's "missing" glyph
        }
    }
    return missing;
}

}  // namespace strata::gui
