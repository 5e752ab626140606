#include "hex_view.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "byte_text.h"
#include "formats/common/bounds.h"
#include "model/core/byte_overlay.h"

namespace strata::gui {
namespace {

int hexDigitValue(const QString& text) {
    if (text.size() != 1) {
        return -1;
    }
    const QChar c = text.front();
    if (c >= QLatin1Char('0') && c <= QLatin1Char('9')) {
        return c.unicode() - '0';
    }
    const QChar lower = c.toLower();
    if (lower >= QLatin1Char('a') && lower <= QLatin1Char('f')) {
        return lower.unicode() - 'a' + 10;
    }
    return -1;
}

}  // namespace

// The ruler above the rows: "00 01 02 …" over the hex column, "0123…" over the text.
class HexView::Header : public QWidget {
public:
    explicit Header(HexView* view) : QWidget(view), view_(view) {}

protected:
    void paintEvent(QPaintEvent* event) override {
        Q_UNUSED(event);
        QPainter p(this);
        view_->paintHeader(p, rect());
    }

private:
    HexView* view_;
};

HexView::HexView(QWidget* parent) : QAbstractScrollArea(parent) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
    setAttribute(Qt::WA_InputMethodEnabled, false);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &HexView::onScrollValueChanged);
    connect(verticalScrollBar(), &QScrollBar::actionTriggered, this, &HexView::onScrollAction);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(),
            qOverload<>(&QWidget::update));
    pendingRepaint_ = new QTimer(this);
    pendingRepaint_->setSingleShot(true);
    pendingRepaint_->setInterval(100);
    connect(pendingRepaint_, &QTimer::timeout, viewport(), qOverload<>(&QWidget::update));
    header_ = new Header(this);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, header_,
            qOverload<>(&QWidget::update));
    updateLayout();
    updateScrollBars();
}

HexView::~HexView() = default;

bool HexView::isWaitingForBytes() const {
    return pendingRepaint_->isActive();
}

void HexView::setOverlay(model::ByteOverlay* overlay) {
    if (overlay_) {
        disconnect(overlay_, nullptr, this, nullptr);
    }
    overlay_ = overlay;
    if (overlay_) {
        connect(overlay_, &model::ByteOverlay::changed, viewport(), qOverload<>(&QWidget::update));
    }
    cursor_ = 0;
    anchor_.reset();
    pressOffset_.reset();
    pendingNibble_ = 0;
    topRow_ = 0;
    highlights_.clear();
    nodeRegion_.reset();
    fieldRegions_.clear();
    updateLayout();
    updateScrollBars();
    viewport()->update();
    emit cursorMoved(cursor_);
    emit selectionChanged(cursor_, 0);
    emitViewport();
}

quint64 HexView::size() const {
    return overlay_ ? overlay_->size() : 0;
}

void HexView::setBytesPerRow(int count) {
    count = std::clamp(count, kMinBytesPerRow, kMaxBytesPerRow);
    if (count == bytesPerRow_) {
        return;
    }
    bytesPerRow_ = count;
    updateLayout();
    updateScrollBars();
    ensureCursorVisible();
    viewport()->update();
    emit bytesPerRowChanged(count);
    emitViewport();
}

quint64 HexView::selectionStart() const {
    return anchor_ ? std::min(*anchor_, cursor_) : cursor_;
}

quint64 HexView::selectionLength() const {
    if (!anchor_) {
        return 0;
    }
    return (std::max(*anchor_, cursor_) - std::min(*anchor_, cursor_)) + 1;
}

void HexView::setActiveColumn(Column column) {
    column_ = column;
    pendingNibble_ = 0;
    viewport()->update();
}

void HexView::goToOffset(quint64 offset) {
    moveCursor(offset, false);
    const quint64 row = cursor_ / static_cast<quint64>(bytesPerRow_);
    const quint64 half = static_cast<quint64>(visibleRows() / 2);
    setTopRow(row > half ? row - half : 0);
}

void HexView::setSelection(quint64 offset, quint64 length) {
    const quint64 total = size();
    if (total == 0) {
        return;
    }
    offset = std::min(offset, total - 1);
    length = std::min(length, total - offset);
    if (length == 0) {
        moveCursor(offset, false);
        return;
    }
    const quint64 oldStart = selectionStart();
    const quint64 oldLength = selectionLength();
    anchor_ = offset + length - 1;
    cursor_ = offset;
    pendingNibble_ = 0;
    // Show the start; when the region fits on screen show all of it.
    const quint64 bpr = static_cast<quint64>(bytesPerRow_);
    const quint64 firstRow = offset / bpr;
    const quint64 lastRow = *anchor_ / bpr;
    const auto rows = static_cast<quint64>(visibleRows());
    if (firstRow < topRow_ || lastRow >= topRow_ + rows) {
        const quint64 span = lastRow - firstRow + 1;
        const quint64 above = span < rows ? (rows - span) / 2 : 0;
        setTopRow(firstRow > above ? firstRow - above : 0);
    }
    viewport()->update();
    emit cursorMoved(cursor_);
    if (oldStart != selectionStart() || oldLength != selectionLength()) {
        emit selectionChanged(selectionStart(), selectionLength());
    }
}

void HexView::clearSelection() {
    if (!anchor_) {
        return;
    }
    anchor_.reset();
    viewport()->update();
    emit selectionChanged(cursor_, 0);
}

QByteArray HexView::selectedBytes(quint64 limit) const {
    if (!overlay_ || size() == 0) {
        return {};
    }
    const quint64 length = hasSelection() ? selectionLength() : 1;
    return overlay_->read(selectionStart(), std::min(length, limit));
}

void HexView::setHighlights(QList<HexHighlight> highlights) {
    highlights_ = std::move(highlights);
    viewport()->update();
}

void HexView::setNodeRegion(quint64 offset, quint64 length, QList<HexHighlight> fields) {
    nodeRegion_ = HexHighlight{offset, length, {}};
    fieldRegions_ = std::move(fields);
    viewport()->update();
}

void HexView::clearNodeRegion() {
    nodeRegion_.reset();
    fieldRegions_.clear();
    viewport()->update();
}

void HexView::setEditable(bool editable) {
    if (editable == editable_) {
        return;
    }
    editable_ = editable;
    pendingNibble_ = 0;
    viewport()->update();
    emit editableChanged(editable);
}

int HexView::visibleRows() const {
    return std::max(1, static_cast<int>(viewport()->height() / layout_.lineHeight));
}

quint64 HexView::firstVisibleOffset() const {
    return topRow_ * static_cast<quint64>(bytesPerRow_);
}

quint64 HexView::visibleByteCount() const {
    const quint64 first = firstVisibleOffset();
    const quint64 total = size();
    if (first >= total) {
        return 0;
    }
    const quint64 shown = static_cast<quint64>(visibleRows()) * static_cast<quint64>(bytesPerRow_);
    return std::min(shown, total - first);
}

std::optional<std::pair<quint64, HexView::Column>> HexView::hitTest(QPoint viewportPos) const {
    const quint64 total = size();
    if (total == 0) {
        return std::nullopt;
    }
    const qreal x = viewportPos.x() + horizontalScrollBar()->value();
    const qreal y = std::max(0, viewportPos.y());
    const auto rowIndex = static_cast<quint64>(y / layout_.lineHeight);
    const quint64 bpr = static_cast<quint64>(bytesPerRow_);
    const quint64 row = topRow_ + rowIndex;
    Column column = Column::Hex;
    int index = 0;
    if (x >= layout_.textX - layout_.charWidth / 2) {
        column = Column::Text;
        index = static_cast<int>(std::floor((x - layout_.textX) / layout_.charWidth));
    } else {
        for (int i = 0; i < bytesPerRow_; ++i) {
            if (x >= layout_.byteX(i) - layout_.charWidth / 2) {
                index = i;
            }
        }
    }
    index = std::clamp(index, 0, bytesPerRow_ - 1);
    const quint64 lastRow = (total - 1) / bpr;
    if (row > lastRow) {
        return std::pair{total - 1, column};
    }
    return std::pair{std::min(row * bpr + static_cast<quint64>(index), total - 1), column};
}

// ---- layout and scrolling ---------------------------------------------------------------

void HexView::updateLayout() {
    const QFontMetricsF fm(font());
    Layout l;
    l.charWidth = fm.horizontalAdvance(QLatin1Char('0'));
    l.lineHeight = std::ceil(fm.height());
    l.ascent = fm.ascent();
    l.margin = l.charWidth / 2;
    const quint64 total = size();
    int digits = 0;
    for (quint64 last = total > 0 ? total - 1 : 0; last != 0; last >>= 4) {
        ++digits;
    }
    l.offsetDigits = std::max(8, digits + (digits % 2));
    l.hexX = l.margin + (l.offsetDigits + 2) * l.charWidth;
    l.textX = l.byteX(bytesPerRow_) + l.charWidth;
    l.totalWidth = l.charX(bytesPerRow_) + l.margin;
    layout_ = l;
    if (header_ != nullptr) {
        setViewportMargins(0, static_cast<int>(l.lineHeight) + 2, 0, 0);
        placeHeader();
        header_->update();
    }
}

void HexView::placeHeader() {
    const QRect vp = viewport()->geometry();
    const int height = static_cast<int>(layout_.lineHeight) + 2;
    header_->setGeometry(vp.left(), vp.top() - height, vp.width(), height);
}

void HexView::updateScrollBars() {
    const quint64 total = size();
    const quint64 bpr = static_cast<quint64>(bytesPerRow_);
    const quint64 rows = total == 0 ? 0 : (total - 1) / bpr + 1;
    const auto shown = static_cast<quint64>(visibleRows());
    mapping_ = HexScrollMapping(rows > shown ? rows - shown : 0);
    QScrollBar* bar = verticalScrollBar();
    syncingScrollBar_ = true;
    bar->setRange(0, mapping_.maximum());
    bar->setSingleStep(1);
    bar->setPageStep(mapping_.scaled() ? 1 : static_cast<int>(shown));
    topRow_ = std::min(topRow_, mapping_.maxTopRow());
    bar->setValue(mapping_.valueForRow(topRow_));
    syncingScrollBar_ = false;

    QScrollBar* hbar = horizontalScrollBar();
    const int width = static_cast<int>(std::ceil(layout_.totalWidth));
    hbar->setRange(0, std::max(0, width - viewport()->width()));
    hbar->setPageStep(viewport()->width());
    hbar->setSingleStep(static_cast<int>(layout_.charWidth));
}

void HexView::setTopRow(quint64 row) {
    row = std::min(row, mapping_.maxTopRow());
    topRow_ = row;
    syncingScrollBar_ = true;
    verticalScrollBar()->setValue(mapping_.valueForRow(row));
    syncingScrollBar_ = false;
    viewport()->update();
    emitViewport();
}

void HexView::onScrollValueChanged(int value) {
    if (syncingScrollBar_ || mapping_.valueForRow(topRow_) == value) {
        return;
    }
    topRow_ = mapping_.rowForValue(value);
    viewport()->update();
    emitViewport();
}

void HexView::onScrollAction(int action) {
    if (!mapping_.scaled()) {
        return;
    }
    // In scaled mode one scrollbar step spans many rows; keep arrows and page clicks exact.
    const auto page = static_cast<quint64>(visibleRows());
    quint64 row = topRow_;
    switch (action) {
        case QAbstractSlider::SliderSingleStepAdd:
            row = topRow_ + 1;
            break;
        case QAbstractSlider::SliderSingleStepSub:
            row = topRow_ > 0 ? topRow_ - 1 : 0;
            break;
        case QAbstractSlider::SliderPageStepAdd:
            row = topRow_ + page;
            break;
        case QAbstractSlider::SliderPageStepSub:
            row = topRow_ > page ? topRow_ - page : 0;
            break;
        default:
            return;
    }
    topRow_ = std::min(row, mapping_.maxTopRow());
    verticalScrollBar()->setSliderPosition(mapping_.valueForRow(topRow_));
    viewport()->update();
    emitViewport();
}

void HexView::ensureCursorVisible() {
    const quint64 row = cursor_ / static_cast<quint64>(bytesPerRow_);
    const auto rows = static_cast<quint64>(visibleRows());
    if (row < topRow_) {
        setTopRow(row);
    } else if (row >= topRow_ + rows) {
        setTopRow(row - rows + 1);
    }
}

void HexView::emitViewport() {
    emit viewportMoved(firstVisibleOffset(), visibleByteCount());
}

void HexView::moveCursor(quint64 offset, bool extend) {
    const quint64 total = size();
    offset = total == 0 ? 0 : std::min(offset, total - 1);
    const quint64 oldStart = selectionStart();
    const quint64 oldLength = selectionLength();
    if (extend && !anchor_) {
        anchor_ = cursor_;
    } else if (!extend) {
        anchor_.reset();
    }
    const bool moved = offset != cursor_;
    cursor_ = offset;
    pendingNibble_ = 0;
    ensureCursorVisible();
    viewport()->update();
    header_->update();
    if (moved) {
        emit cursorMoved(cursor_);
    }
    if (oldStart != selectionStart() || oldLength != selectionLength()) {
        emit selectionChanged(selectionStart(), selectionLength());
    }
}

void HexView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    placeHeader();
    updateScrollBars();
    emitViewport();
}

void HexView::changeEvent(QEvent* event) {
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::StyleChange) {
        updateLayout();
        updateScrollBars();
        viewport()->update();
    }
}

void HexView::wheelEvent(QWheelEvent* event) {
    const int dy = event->angleDelta().y();
    if (dy == 0 || event->modifiers() & Qt::ShiftModifier) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    // Three rows per notch; high-resolution wheels send fractions of a notch.
    wheelRemainder_ += dy * 3;
    const int rows = wheelRemainder_ / 120;
    wheelRemainder_ %= 120;
    if (rows > 0) {
        setTopRow(topRow_ > static_cast<quint64>(rows) ? topRow_ - rows : 0);
    } else if (rows < 0) {
        setTopRow(topRow_ + static_cast<quint64>(-rows));
    }
    event->accept();
}

// ---- keyboard ---------------------------------------------------------------------------

bool HexView::focusNextPrevChild(bool next) {
    Q_UNUSED(next);
    return false;  // Tab switches between the hex and text columns instead
}

bool HexView::handleNavigation(QKeyEvent* event) {
    const quint64 total = size();
    if (total == 0) {
        return false;
    }
    const quint64 last = total - 1;
    const quint64 bpr = static_cast<quint64>(bytesPerRow_);
    const quint64 page = static_cast<quint64>(std::max(1, visibleRows() - 1)) * bpr;
    const quint64 rowStart = cursor_ - cursor_ % bpr;
    struct Move {
        QKeySequence::StandardKey move;
        QKeySequence::StandardKey select;
        quint64 target;
    };
    const Move moves[] = {
        {QKeySequence::MoveToPreviousChar, QKeySequence::SelectPreviousChar,
         cursor_ > 0 ? cursor_ - 1 : 0},
        {QKeySequence::MoveToNextChar, QKeySequence::SelectNextChar, std::min(cursor_ + 1, last)},
        {QKeySequence::MoveToPreviousLine, QKeySequence::SelectPreviousLine,
         cursor_ >= bpr ? cursor_ - bpr : cursor_},
        {QKeySequence::MoveToNextLine, QKeySequence::SelectNextLine,
         last - cursor_ >= bpr ? cursor_ + bpr : last},
        {QKeySequence::MoveToPreviousPage, QKeySequence::SelectPreviousPage,
         cursor_ >= page ? cursor_ - page : cursor_ % bpr},
        {QKeySequence::MoveToNextPage, QKeySequence::SelectNextPage,
         last - cursor_ >= page ? cursor_ + page : last},
        {QKeySequence::MoveToStartOfLine, QKeySequence::SelectStartOfLine, rowStart},
        {QKeySequence::MoveToEndOfLine, QKeySequence::SelectEndOfLine,
         std::min(rowStart + bpr - 1, last)},
        {QKeySequence::MoveToStartOfDocument, QKeySequence::SelectStartOfDocument, 0},
        {QKeySequence::MoveToEndOfDocument, QKeySequence::SelectEndOfDocument, last},
    };
    for (const Move& m : moves) {
        if (event->matches(m.move) || event->matches(m.select)) {
            const bool extend = event->matches(m.select);
            if (m.move == QKeySequence::MoveToNextPage) {
                setTopRow(topRow_ + page / bpr);
            } else if (m.move == QKeySequence::MoveToPreviousPage) {
                setTopRow(topRow_ > page / bpr ? topRow_ - page / bpr : 0);
            }
            moveCursor(m.target, extend);
            return true;
        }
    }
    return false;
}

bool HexView::handleEditing(QKeyEvent* event) {
    if (!editable_ || !overlay_ || size() == 0 ||
        (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
        return false;
    }
    const QString text = event->text();
    if (column_ == Column::Hex) {
        const int digit = hexDigitValue(text);
        if (digit < 0) {
            return false;
        }
        clearSelection();
        const QByteArray current = overlay_->read(cursor_, 1);
        if (current.isEmpty()) {
            return false;  // unreadable here (a failed remote read)
        }
        const auto old = static_cast<unsigned char>(current.at(0));
        const int value = pendingNibble_ == 0 ? (digit << 4) | (old & 0x0F) : (old & 0xF0) | digit;
        const quint64 at = cursor_;
        emit overwriteRequested(at, QByteArray(1, static_cast<char>(value)));
        if (pendingNibble_ == 0) {
            pendingNibble_ = 1;
            viewport()->update();
        } else {
            moveCursor(std::min(at + 1, size() - 1), false);
        }
        return true;
    }
    if (text.isEmpty() || !text.front().isPrint()) {
        return false;
    }
    clearSelection();
    const QByteArray bytes = text.toUtf8();
    const quint64 at = cursor_;
    emit overwriteRequested(at, bytes);
    const quint64 room = size() - 1 - at;
    moveCursor(at + std::min(room, static_cast<quint64>(bytes.size())), false);
    return true;
}

void HexView::keyPressEvent(QKeyEvent* event) {
    if (handleNavigation(event)) {
        return;
    }
    if (event->matches(QKeySequence::Copy)) {
        copy();
        return;
    }
    if (event->matches(QKeySequence::SelectAll)) {
        selectAll();
        return;
    }
    if (event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab) {
        setActiveColumn(column_ == Column::Hex ? Column::Text : Column::Hex);
        return;
    }
    if (event->key() == Qt::Key_Escape && hasSelection()) {
        clearSelection();
        return;
    }
    if (handleEditing(event)) {
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

// ---- mouse ------------------------------------------------------------------------------

void HexView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const auto hit = hitTest(event->position().toPoint());
    if (!hit) {
        return;
    }
    column_ = hit->second;
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    pressOffset_ = extend ? (anchor_ ? *anchor_ : cursor_) : hit->first;
    moveCursor(hit->first, extend);
}

void HexView::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton) || !pressOffset_) {
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (pos.y() < 0 && topRow_ > 0) {
        setTopRow(topRow_ - 1);
    } else if (pos.y() > viewport()->height()) {
        setTopRow(topRow_ + 1);
    }
    const auto hit = hitTest({pos.x(), std::min(pos.y(), viewport()->height() - 1)});
    if (!hit) {
        return;
    }
    if (hit->first == *pressOffset_ && !anchor_) {
        return;
    }
    if (!anchor_) {
        anchor_ = *pressOffset_;
    }
    moveCursor(hit->first, true);
}

void HexView::mouseReleaseEvent(QMouseEvent* event) {
    pressOffset_.reset();
    QAbstractScrollArea::mouseReleaseEvent(event);
}

// ---- clipboard and menu -----------------------------------------------------------------

void HexView::copyText(const QString& text) {
    if (text.isEmpty()) {
        return;
    }
    QApplication::clipboard()->setText(text);
}

void HexView::copy() {
    if (column_ == Column::Text) {
        copyAsText();
    } else {
        copyAsHex();
    }
}

namespace {
bool tooBigToCopy(quint64 length) {
    return length > HexView::kMaxCopyBytes;
}
}  // namespace

void HexView::copyAsHex() {
    if (tooBigToCopy(selectionLength())) {
        emit statusMessage(
            tr("The selection is too large to copy (limit %1 MiB).").arg(kMaxCopyBytes >> 20));
        return;
    }
    copyText(bytesToHexText(selectedBytes()));
}

void HexView::copyAsText() {
    if (tooBigToCopy(selectionLength())) {
        emit statusMessage(
            tr("The selection is too large to copy (limit %1 MiB).").arg(kMaxCopyBytes >> 20));
        return;
    }
    copyText(bytesToPrintableText(selectedBytes()));
}

void HexView::copyAsCArray() {
    if (tooBigToCopy(selectionLength())) {
        emit statusMessage(
            tr("The selection is too large to copy (limit %1 MiB).").arg(kMaxCopyBytes >> 20));
        return;
    }
    copyText(bytesToCArray(selectedBytes()));
}

void HexView::selectAll() {
    if (size() > 0) {
        setSelection(0, size());
    }
}

QMenu* HexView::makeContextMenu() {
    auto* menu = new QMenu(this);
    menu->addAction(tr("Copy as &Hex"), this, &HexView::copyAsHex);
    menu->addAction(tr("Copy as &Text"), this, &HexView::copyAsText);
    menu->addAction(tr("Copy as &C Array"), this, &HexView::copyAsCArray);
    menu->addAction(tr("Select &All"), this, &HexView::selectAll);
    menu->addSeparator();
    QMenu* widths = menu->addMenu(tr("&Bytes per Row"));
    auto* group = new QActionGroup(widths);
    for (int count : {8, 16, 24, 32}) {
        QAction* action = widths->addAction(QString::number(count));
        action->setCheckable(true);
        action->setChecked(count == bytesPerRow_);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, count] { setBytesPerRow(count); });
    }
    menu->addSeparator();
    QAction* edit = menu->addAction(tr("&Overwrite Mode"));
    edit->setCheckable(true);
    edit->setChecked(editable_);
    connect(edit, &QAction::toggled, this, &HexView::setEditable);
    return menu;
}

void HexView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = makeContextMenu();
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

}  // namespace strata::gui
