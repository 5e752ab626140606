// The hex view: offset, hex and text columns painted straight from a ByteOverlay, one visible
// row at a time, so a 3 TiB file costs what a 3 KiB one does. Cursor, selection, highlighted
// regions, copy, and overwrite editing that goes through the document's undo stack.
#pragma once

#include <QAbstractScrollArea>
#include <QColor>
#include <QList>
#include <QPointer>

#include <cstdint>
#include <optional>

#include "hex_scroll_mapping.h"
#include "model/core/byte_overlay.h"

class QMenu;
class QTimer;

namespace strata::model {
class ByteOverlay;
}

namespace strata::gui {

// A coloured byte range: node kinds, diagnostics, search hits.
struct HexHighlight {
    quint64 offset = 0;
    quint64 length = 0;
    QColor color;
};

class HexView : public QAbstractScrollArea {
    Q_OBJECT
public:
    enum class Column { Hex, Text };
    static constexpr int kMinBytesPerRow = 8;
    static constexpr int kMaxBytesPerRow = 32;
    // The clipboard gets at most this much; larger selections are refused with a message.
    static constexpr quint64 kMaxCopyBytes = 16 * 1024 * 1024;

    explicit HexView(QWidget* parent = nullptr);
    ~HexView() override;

    // Not owned. The view repaints when the overlay reports a change.
    void setOverlay(model::ByteOverlay* overlay);
    model::ByteOverlay* overlay() const { return overlay_; }
    quint64 size() const;

    int bytesPerRow() const { return bytesPerRow_; }
    void setBytesPerRow(int count);
    // True while the bytes last painted were still on their way from a server (placeholders
    // shown; the view repaints shortly to pick them up).
    bool isWaitingForBytes() const;

    quint64 cursorOffset() const { return cursor_; }
    bool hasSelection() const { return anchor_.has_value(); }
    // The selected range; with no selection, offset is the cursor and length 0.
    quint64 selectionStart() const;
    quint64 selectionLength() const;
    Column activeColumn() const { return column_; }
    void setActiveColumn(Column column);

    // Moves the cursor (clearing the selection) and scrolls it to the middle of the view.
    void goToOffset(quint64 offset);
    // Selects [offset, offset + length) with the cursor on its first byte, scrolled into view.
    void setSelection(quint64 offset, quint64 length);
    void clearSelection();
    // The selected bytes (or the byte at the cursor), capped at `limit`.
    QByteArray selectedBytes(quint64 limit = kMaxCopyBytes) const;

    // Background colours for regions (node kinds, diagnostics); painted under everything else.
    void setHighlights(QList<HexHighlight> highlights);
    const QList<HexHighlight>& highlights() const { return highlights_; }
    // The selected node's bytes, shaded, and its fields' bytes shaded more strongly.
    void setNodeRegion(quint64 offset, quint64 length, QList<HexHighlight> fields = {});
    void clearNodeRegion();

    bool isEditable() const { return editable_; }
    void setEditable(bool editable);

    quint64 topRow() const { return topRow_; }
    // Scrolls so that `row` is the first one shown (a restored view).
    void scrollToRow(quint64 row) { setTopRow(row); }
    int visibleRows() const;
    quint64 firstVisibleOffset() const;
    quint64 visibleByteCount() const;
    const HexScrollMapping& scrollMapping() const { return mapping_; }
    // The byte under a viewport position and the column it is in; nothing past the data.
    std::optional<std::pair<quint64, Column>> hitTest(QPoint viewportPos) const;

public slots:
    void copy();
    void copyAsHex();
    void copyAsText();
    void copyAsCArray();
    void selectAll();

signals:
    void cursorMoved(quint64 offset);
    void selectionChanged(quint64 offset, quint64 length);
    // The user typed over bytes; the owner turns this into an undoable document edit.
    void overwriteRequested(quint64 offset, const QByteArray& bytes);
    void viewportMoved(quint64 firstOffset, quint64 length);
    void bytesPerRowChanged(int count);
    void editableChanged(bool editable);
    void statusMessage(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool focusNextPrevChild(bool next) override;

private:
    struct Layout {
        qreal charWidth = 8;
        qreal lineHeight = 16;
        qreal ascent = 12;
        qreal margin = 4;
        int offsetDigits = 8;
        qreal hexX = 0;
        qreal textX = 0;
        qreal totalWidth = 0;
        qreal byteX(int index) const { return hexX + (index * 3 + index / 8) * charWidth; }
        qreal charX(int index) const { return textX + index * charWidth; }
    };

    void updateLayout();
    void updateScrollBars();
    void setTopRow(quint64 row);
    void onScrollValueChanged(int value);
    void onScrollAction(int action);
    void moveCursor(quint64 offset, bool extend);
    void ensureCursorVisible();
    void emitViewport();
    bool handleNavigation(QKeyEvent* event);
    bool handleEditing(QKeyEvent* event);
    void copyText(const QString& text);
    QMenu* makeContextMenu();

    void paintRow(QPainter& p, int rowIndex, quint64 rowOffset, const QByteArray& rowBytes,
                  const QList<HexHighlight>& visible) const;
    void fillSpan(QPainter& p, qreal y, int first, int last, const QColor& color) const;
    void paintSpansInRow(QPainter& p, qreal y, quint64 rowOffset, int rowLength,
                         const QList<HexHighlight>& ranges) const;
    void paintCursor(QPainter& p, qreal y, int index) const;
    void paintPendingRows(QPainter& p, quint64 first, int rows) const;
    void paintHeader(QPainter& p, const QRect& area) const;
    void placeHeader();

    class Header;
    friend class Header;

    QPointer<model::ByteOverlay> overlay_;
    QWidget* header_ = nullptr;         // the column ruler above the viewport
    QTimer* pendingRepaint_ = nullptr;  // runs while painted bytes are still being fetched
    Layout layout_;
    HexScrollMapping mapping_;
    int bytesPerRow_ = 16;
    quint64 topRow_ = 0;
    quint64 cursor_ = 0;
    std::optional<quint64> anchor_;
    std::optional<quint64> pressOffset_;
    Column column_ = Column::Hex;
    bool editable_ = false;
    int pendingNibble_ = 0;  // 1 after the high nibble of the cursor byte was typed
    bool syncingScrollBar_ = false;
    int wheelRemainder_ = 0;

    QList<HexHighlight> highlights_;
    std::optional<HexHighlight> nodeRegion_;
    QList<HexHighlight> fieldRegions_;
};

}  // namespace strata::gui
