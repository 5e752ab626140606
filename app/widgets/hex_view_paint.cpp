// HexView's painting: the ruler, the visible rows with their highlights, selection and cursor,
// and rows whose bytes are still on their way.
#include <QPainter>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

#include "byte_text.h"
#include "hex_view.h"
#include "model/core/byte_overlay.h"

namespace strata::gui {
namespace {

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

constexpr char kHexDigits[] = "0123456789ABCDEF";

}  // namespace

void HexView::paintHeader(QPainter& p, const QRect& area) const {
    const QPalette& pal = palette();
    p.fillRect(area, pal.color(QPalette::AlternateBase));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(area.bottomLeft(), area.bottomRight());
    p.translate(-horizontalScrollBar()->value(), 0);
    p.setFont(font());
    p.setPen(pal.color(QPalette::PlaceholderText));
    const qreal baseline = 1 + layout_.ascent;
    QString hex;
    QString text;
    for (int i = 0; i < bytesPerRow_; ++i) {
        hex += QStringLiteral("%1").arg(i, 2, 16, QLatin1Char('0')).toUpper();
        hex += (i + 1) % 8 == 0 ? QLatin1String("  ") : QLatin1String(" ");
        text += QLatin1Char(kHexDigits[i % 16]);
    }
    p.drawText(QPointF(layout_.byteX(0), baseline), hex);
    p.drawText(QPointF(layout_.charX(0), baseline), text);
    if (overlay_ && cursor_ < size()) {
        // Mark the cursor's column.
        const int column = static_cast<int>(cursor_ % static_cast<quint64>(bytesPerRow_));
        p.fillRect(QRectF(layout_.byteX(column), area.bottom() - 1, layout_.charWidth * 2, 2),
                   pal.color(QPalette::Highlight));
    }
}

void HexView::fillSpan(QPainter& p, qreal y, int first, int last, const QColor& color) const {
    const qreal cw = layout_.charWidth;
    const qreal h = layout_.lineHeight;
    const qreal hexLeft = layout_.byteX(first) - cw / 2;
    const qreal hexRight = layout_.byteX(last) + cw * 2.5;
    p.fillRect(QRectF(hexLeft, y, hexRight - hexLeft, h), color);
    const qreal textLeft = layout_.charX(first);
    p.fillRect(QRectF(textLeft, y, layout_.charX(last + 1) - textLeft, h), color);
}

void HexView::paintSpansInRow(QPainter& p, qreal y, quint64 rowOffset, int rowLength,
                              const QList<HexHighlight>& ranges) const {
    const quint64 rowEnd = rowOffset + static_cast<quint64>(rowLength);
    for (const HexHighlight& range : ranges) {
        const quint64 end = saturatingEnd(range.offset, range.length);
        if (range.length == 0 || end <= rowOffset || range.offset >= rowEnd) {
            continue;
        }
        const int first = static_cast<int>(std::max(range.offset, rowOffset) - rowOffset);
        const int last = static_cast<int>(std::min(end, rowEnd) - rowOffset) - 1;
        fillSpan(p, y, first, last, range.color);
    }
}

void HexView::paintCursor(QPainter& p, qreal y, int index) const {
    const qreal cw = layout_.charWidth;
    const qreal h = layout_.lineHeight;
    const QColor strong = palette().color(QPalette::Text);
    const QColor weak = withAlpha(strong, 110);
    const QRectF hexBox(layout_.byteX(index) - 1, y, cw * 2 + 2, h);
    const QRectF textBox(layout_.charX(index), y, cw, h);
    const bool focused = hasFocus();
    p.save();
    p.setBrush(Qt::NoBrush);
    QPen pen(column_ == Column::Hex ? strong : weak);
    pen.setCosmetic(true);
    pen.setWidthF(column_ == Column::Hex && focused ? 2.0 : 1.0);
    p.setPen(pen);
    p.drawRect(hexBox.adjusted(0.5, 0.5, -0.5, -0.5));
    pen.setColor(column_ == Column::Text ? strong : weak);
    pen.setWidthF(column_ == Column::Text && focused ? 2.0 : 1.0);
    p.setPen(pen);
    p.drawRect(textBox.adjusted(0.5, 0.5, -0.5, -0.5));
    if (editable_ && column_ == Column::Hex) {
        // Underline the nibble the next hex digit will replace.
        const qreal x = layout_.byteX(index) + pendingNibble_ * cw;
        p.fillRect(QRectF(x, y + h - 2, cw, 2), strong);
    }
    p.restore();
}

void HexView::paintRow(QPainter& p, int rowIndex, quint64 rowOffset, const QByteArray& rowBytes,
                       const QList<HexHighlight>& visible) const {
    const qreal y = rowIndex * layout_.lineHeight;
    const int count = static_cast<int>(rowBytes.size());
    const QPalette& pal = palette();
    const bool dark = isDark(pal);

    // Backgrounds, weakest first.
    paintSpansInRow(p, y, rowOffset, count, visible);
    if (nodeRegion_) {
        HexHighlight node = *nodeRegion_;
        node.color = withAlpha(pal.color(QPalette::Highlight), 45);
        paintSpansInRow(p, y, rowOffset, count, {node});
        paintSpansInRow(p, y, rowOffset, count, fieldRegions_);
    }
    const quint64 selStart = selectionStart();
    const quint64 selLength = selectionLength();
    if (selLength > 0) {
        paintSpansInRow(p, y, rowOffset, count,
                        {HexHighlight{selStart, selLength, pal.color(QPalette::Highlight)}});
    }

    // Offset column.
    const qreal baseline = y + layout_.ascent;
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(
        QPointF(layout_.margin, baseline),
        QStringLiteral("%1").arg(rowOffset, layout_.offsetDigits, 16, QLatin1Char('0')).toUpper());

    // Hex and text, in runs of one colour so a row costs a handful of drawText calls.
    const QColor normal = pal.color(QPalette::Text);
    const QColor dim = pal.color(QPalette::PlaceholderText);
    const QColor selected = pal.color(QPalette::HighlightedText);
    const QColor edited = dark ? QColor(255, 120, 110) : QColor(200, 30, 30);
    auto colourOf = [&](int i) {
        const quint64 at = rowOffset + static_cast<quint64>(i);
        if (selLength > 0 && at >= selStart && at - selStart < selLength) {
            return selected;
        }
        if (overlay_->isEdited(at)) {
            return edited;
        }
        return rowBytes[i] == 0 ? dim : normal;
    };
    int runStart = 0;
    while (runStart < count) {
        const QColor colour = colourOf(runStart);
        int runEnd = runStart + 1;
        while (runEnd < count && colourOf(runEnd) == colour) {
            ++runEnd;
        }
        QString hex;
        QString text;
        for (int i = runStart; i < runEnd; ++i) {
            const auto b = static_cast<unsigned char>(rowBytes[i]);
            hex += QLatin1Char(kHexDigits[b >> 4]);
            hex += QLatin1Char(kHexDigits[b & 0x0F]);
            hex += (i + 1) % 8 == 0 ? QLatin1String("  ") : QLatin1String(" ");
            text += isPrintableByte(b) ? QChar(b) : QChar(0xB7);
        }
        p.setPen(colour);
        p.drawText(QPointF(layout_.byteX(runStart), baseline), hex);
        p.drawText(QPointF(layout_.charX(runStart), baseline), text);
        runStart = runEnd;
    }

    if (cursor_ >= rowOffset && cursor_ - rowOffset < static_cast<quint64>(count)) {
        paintCursor(p, y, static_cast<int>(cursor_ - rowOffset));
    }
}

void HexView::paintPendingRows(QPainter& p, quint64 first, int rows) const {
    const QPalette& pal = palette();
    p.setPen(pal.color(QPalette::PlaceholderText));
    const quint64 bpr = static_cast<quint64>(bytesPerRow_);
    const QString placeholder(2, QChar(0xB7));
    const QString text(bytesPerRow_, QChar(0xB7));
    for (int r = 0; r < rows; ++r) {
        const qreal baseline = r * layout_.lineHeight + layout_.ascent;
        const quint64 rowOffset = first + static_cast<quint64>(r) * bpr;
        p.drawText(QPointF(layout_.margin, baseline),
                   QStringLiteral("%1")
                       .arg(rowOffset, layout_.offsetDigits, 16, QLatin1Char('0'))
                       .toUpper());
        for (int i = 0; i < bytesPerRow_; ++i) {
            p.drawText(QPointF(layout_.byteX(i), baseline), placeholder);
        }
        p.drawText(QPointF(layout_.charX(0), baseline), text);
    }
}

void HexView::paintEvent(QPaintEvent* event) {
    Q_UNUSED(event);
    QPainter p(viewport());
    const QPalette& pal = palette();
    p.fillRect(viewport()->rect(), pal.color(QPalette::Base));
    p.translate(-horizontalScrollBar()->value(), 0);
    p.fillRect(QRectF(0, 0, layout_.hexX - layout_.charWidth, viewport()->height()),
               pal.color(QPalette::AlternateBase));
    const quint64 total = size();
    if (total == 0) {
        return;
    }
    p.setFont(font());
    const quint64 bpr = static_cast<quint64>(bytesPerRow_);
    const int rows = static_cast<int>(std::ceil(viewport()->height() / layout_.lineHeight));
    const quint64 first = firstVisibleOffset();
    if (first >= total) {
        return;
    }
    // Only the bytes on screen are read, whatever the file size.
    const quint64 wanted = std::min(static_cast<quint64>(rows) * bpr, total - first);
    bool pending = false;
    const QByteArray bytes = overlay_->readIfReady(first, wanted, &pending);
    if (pending) {
        // A remote file's bytes on their way: offsets and placeholders now, the bytes when
        // they have come (the view never waits for a server while it paints).
        paintPendingRows(p, first, std::min(rows, static_cast<int>((wanted + bpr - 1) / bpr)));
        pendingRepaint_->start();
        return;
    }
    pendingRepaint_->stop();
    QList<HexHighlight> visible;
    for (const HexHighlight& h : highlights_) {
        if (h.length > 0 && saturatingEnd(h.offset, h.length) > first &&
            h.offset < first + wanted) {
            visible.append(h);
        }
    }
    for (int r = 0; r < rows; ++r) {
        const qsizetype start = static_cast<qsizetype>(r) * static_cast<qsizetype>(bpr);
        if (start >= bytes.size()) {
            break;
        }
        paintRow(p, r, first + static_cast<quint64>(start),
                 bytes.mid(start, static_cast<qsizetype>(bpr)), visible);
    }
}

}  // namespace strata::gui
