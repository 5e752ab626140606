// Text in any script: the fonts the package recommends (Noto: most scripts, CJK, emoji) are
// registered as substitutes of the families the views draw with, so Greek, Cyrillic, CJK and
// emoji in a document show as glyphs, not empty boxes, even where the desktop's default font
// lacks them. Fonts that are not installed are simply skipped.
#pragma once

#include <QFont>
#include <QString>
#include <QStringList>

namespace strata::gui {

// The families tried after a view's own, in order.
QStringList fallbackFamilies();
// Registers fallbackFamilies() as substitutes of the application font's family and of the
// fixed-width font's (the hex view and the text editors). Call once the QApplication exists.
void installFontFallbacks();
// How many characters of `text` `font` (with its substitutes) would draw with no glyph at all
// (the font's "missing" glyph, an empty box).
int missingGlyphCount(const QString& text, const QFont& font);

}  // namespace strata::gui
