// Text forms of a byte range for the clipboard: hex, printable text, a C array.
#pragma once

#include <QByteArray>
#include <QString>

namespace strata::gui {

// "DE AD BE EF".
QString bytesToHexText(const QByteArray& bytes);
// Printable ASCII as is, anything else as '.'.
QString bytesToPrintableText(const QByteArray& bytes);
// "const unsigned char data[4] = {\n    0xde, 0xad, 0xbe, 0xef,\n};\n", 12 values a line.
QString bytesToCArray(const QByteArray& bytes, const QString& name = QStringLiteral("data"));
// Whether the hex view shows this byte as itself in the text column.
constexpr bool isPrintableByte(unsigned char b) {
    return b >= 0x20 && b < 0x7F;
}

}  // namespace strata::gui
