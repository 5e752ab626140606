// HexView over small buffers and a synthetic 3 TiB source: scroll mapping, navigation,
// selection, copy, painting, and edits requested (never applied) by the view.
#include <QApplication>
#include <QClipboard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <vector>

#include "app/widgets/goto_offset_dialog.h"
#include "app/widgets/hex_view.h"
#include "formats/common/bounds.h"
#include "formats/common/byte_source.h"
#include "model/core/byte_overlay.h"

using namespace strata::gui;
using strata::model::ByteOverlay;

namespace {

// Reports a huge size and reads as zeros, except that each 8-byte row's first byte is its
// row number's low byte so tests can see which row they read. Nothing is allocated beyond
// what a view asks for.
class HugeZeroSource : public strata::ByteSource {
public:
    explicit HugeZeroSource(std::uint64_t size) : size_(size) {}
    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return size_; }
    strata::ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = strata::clippedLength(offset, length, size_);
        if (n > (1u << 20)) {
            throw std::runtime_error("view too large for a test source");
        }
        auto buffer = std::make_shared<std::vector<std::uint8_t>>(n, 0);
        for (std::uint64_t i = 0; i < n; ++i) {
            if ((offset + i) % 8 == 0) {
                (*buffer)[i] = static_cast<std::uint8_t>((offset + i) / 8);
            }
        }
        ++views_;
        maxViewLength_ = std::max(maxViewLength_, n);
        return {std::span<const std::uint8_t>(buffer->data(), n), buffer};
    }
    mutable int views_ = 0;
    mutable std::uint64_t maxViewLength_ = 0;

private:
    std::uint64_t size_;
    std::string name_ = "<huge>";
};

std::vector<std::uint8_t> counting(std::size_t n) {
    std::vector<std::uint8_t> bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<std::uint8_t>(i);
    }
    return bytes;
}

}  // namespace

class HexViewTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        view_ = std::make_unique<HexView>();
        view_->resize(800, 400);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }
    void cleanup() {
        view_.reset();
        overlay_.reset();
    }

    void paintsSmallFile() {
        overlay_ = std::make_unique<ByteOverlay>(strata::makeBufferSource(counting(1000)));
        view_->setOverlay(overlay_.get());
        QCOMPARE(view_->size(), quint64{1000});
        const QImage image = view_->grab().toImage();
        QVERIFY(!image.isNull());
        // Something besides the background was drawn.
        const QColor base = view_->palette().color(QPalette::Base);
        int different = 0;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3) {
                different += image.pixelColor(x, y) != base;
            }
        }
        QVERIFY(different > 100);
    }

    void keyboardNavigationAndSelection() {
        overlay_ = std::make_unique<ByteOverlay>(strata::makeBufferSource(counting(1000)));
        view_->setOverlay(overlay_.get());
        view_->setBytesPerRow(16);
        view_->setFocus();
        QSignalSpy cursor(view_.get(), &HexView::cursorMoved);
        QTest::keyClick(view_.get(), Qt::Key_Right);
        QCOMPARE(view_->cursorOffset(), quint64{1});
        QTest::keyClick(view_.get(), Qt::Key_Down);
        QCOMPARE(view_->cursorOffset(), quint64{17});
        QTest::keyClick(view_.get(), Qt::Key_End);
        QCOMPARE(view_->cursorOffset(), quint64{31});
        QTest::keyClick(view_.get(), Qt::Key_Home);
        QCOMPARE(view_->cursorOffset(), quint64{16});
        QTest::keyClick(view_.get(), Qt::Key_End, Qt::ControlModifier);
        QCOMPARE(view_->cursorOffset(), quint64{999});
        QTest::keyClick(view_.get(), Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(view_->cursorOffset(), quint64{0});
        QVERIFY(cursor.count() >= 6);
        QVERIFY(!view_->hasSelection());

        QTest::keyClick(view_.get(), Qt::Key_Right, Qt::ShiftModifier);
        QTest::keyClick(view_.get(), Qt::Key_Right, Qt::ShiftModifier);
        QVERIFY(view_->hasSelection());
        QCOMPARE(view_->selectionStart(), quint64{0});
        QCOMPARE(view_->selectionLength(), quint64{3});
        QTest::keyClick(view_.get(), Qt::Key_PageDown);
        QVERIFY(!view_->hasSelection());
        QVERIFY(view_->cursorOffset() > 16);
    }

    void setSelectionAndCopy() {
        overlay_ = std::make_unique<ByteOverlay>(strata::makeBufferSource(counting(300)));
        view_->setOverlay(overlay_.get());
        QSignalSpy selection(view_.get(), &HexView::selectionChanged);
        view_->setSelection(0x40, 4);
        QCOMPARE(selection.count(), 1);
        QCOMPARE(selection.first().at(0).toULongLong(), quint64{0x40});
        QCOMPARE(selection.first().at(1).toULongLong(), quint64{4});
        QCOMPARE(view_->cursorOffset(), quint64{0x40});
        view_->copyAsHex();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("40 41 42 43"));
        view_->copyAsText();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("@ABC"));
        view_->copyAsCArray();
        QVERIFY(
            QApplication::clipboard()->text().contains(QStringLiteral("0x40, 0x41, 0x42, 0x43,")));
        // Past the end is clipped.
        view_->setSelection(290, 100);
        QCOMPARE(view_->selectionLength(), quint64{10});
    }

    void mouseSelects() {
        overlay_ = std::make_unique<ByteOverlay>(strata::makeBufferSource(counting(300)));
        view_->setOverlay(overlay_.get());
        // Find where byte 5 and byte 20 are by probing hitTest.
        QPoint at5;
        QPoint at20;
        for (int y = 2; y < 60 && (at5.isNull() || at20.isNull()); y += 2) {
            for (int x = 0; x < 600; ++x) {
                const auto hit = view_->hitTest({x, y});
                if (hit && hit->second == HexView::Column::Hex) {
                    if (hit->first == 5 && at5.isNull()) {
                        at5 = {x + 2, y};
                    }
                    if (hit->first == 20 && at20.isNull()) {
                        at20 = {x + 2, y};
                    }
                }
            }
        }
        QVERIFY(!at5.isNull() && !at20.isNull());
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, at5);
        QCOMPARE(view_->cursorOffset(), quint64{5});
        QTest::mousePress(view_->viewport(), Qt::LeftButton, {}, at5);
        QMouseEvent move(QEvent::MouseMove, at20, view_->viewport()->mapToGlobal(at20),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view_->viewport(), &move);
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, {}, at20);
        QCOMPARE(view_->selectionStart(), quint64{5});
        QCOMPARE(view_->selectionLength(), quint64{16});
    }

    void hugeSourceScrollsToTheEnd() {
        const std::uint64_t size = 3ull << 40;  // 3 TiB
        auto source = std::make_shared<HugeZeroSource>(size);
        overlay_ = std::make_unique<ByteOverlay>(source);
        view_->setOverlay(overlay_.get());
        view_->setBytesPerRow(8);
        QVERIFY(view_->scrollMapping().scaled());
        QVERIFY(view_->verticalScrollBar()->maximum() <= HexScrollMapping::kScaledMaximum);

        view_->goToOffset(size - 1);
        QCOMPARE(view_->cursorOffset(), size - 1);
        const quint64 lastRow = (size - 1) / 8;
        QVERIFY(view_->topRow() <= lastRow);
        QVERIFY(lastRow < view_->topRow() + quint64(view_->visibleRows()));
        QCOMPARE(view_->firstVisibleOffset() + view_->visibleByteCount(), size);

        // Painting reads only what is on screen.
        source->maxViewLength_ = 0;
        const QImage image = view_->grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY(source->views_ > 0);
        QVERIFY(source->maxViewLength_ <= 64 * 8);

        // Keyboard at the very end stays in range; Ctrl+Home goes back to the top.
        view_->setFocus();
        QTest::keyClick(view_.get(), Qt::Key_Right);
        QCOMPARE(view_->cursorOffset(), size - 1);
        QTest::keyClick(view_.get(), Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(view_->cursorOffset(), quint64{0});
        QCOMPARE(view_->topRow(), quint64{0});
        QCOMPARE(view_->verticalScrollBar()->value(), 0);

        // Dragging the scrollbar to the maximum shows the last rows; one row down from the
        // middle moves exactly one row even though one scrollbar step spans thousands.
        view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum());
        QCOMPARE(view_->topRow(), view_->scrollMapping().maxTopRow());
        view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum() / 2);
        const quint64 middle = view_->topRow();
        QVERIFY(middle > quint64(INT_MAX));
        view_->verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        QCOMPARE(view_->topRow(), middle + 1);
        view_->grab();
    }

    void editingRequestsOverwrites() {
        overlay_ = std::make_unique<ByteOverlay>(strata::makeBufferSource(counting(64)));
        view_->setOverlay(overlay_.get());
        view_->setFocus();
        QSignalSpy requests(view_.get(), &HexView::overwriteRequested);
        QTest::keyClick(view_.get(), Qt::Key_A);  // not editable: nothing
        QCOMPARE(requests.count(), 0);
        view_->setEditable(true);
        view_->goToOffset(2);
        QTest::keyClicks(view_.get(), QStringLiteral("ab"));
        QCOMPARE(requests.count(), 2);
        QCOMPARE(requests.at(0).at(0).toULongLong(), quint64{2});
        QCOMPARE(requests.at(0).at(1).toByteArray(), QByteArray("\xA2", 1));  // high nibble
        // The view never writes by itself: the byte is unchanged, so the low nibble goes over
        // the original byte 0x02.
        QCOMPARE(requests.at(1).at(1).toByteArray(), QByteArray("\x0B", 1));
        QCOMPARE(view_->cursorOffset(), quint64{3});
        QCOMPARE(overlay_->read(2, 1), QByteArray("\x02", 1));

        view_->setActiveColumn(HexView::Column::Text);
        QTest::keyClicks(view_.get(), QStringLiteral("Hi"));
        QCOMPARE(requests.count(), 4);
        QCOMPARE(requests.at(2).at(1).toByteArray(), QByteArray("H"));
        QCOMPARE(requests.at(3).at(0).toULongLong(), quint64{4});
        QCOMPARE(view_->cursorOffset(), quint64{5});
    }

    void editedBytesAndHighlightsPaint() {
        overlay_ = std::make_unique<ByteOverlay>(strata::makeBufferSource(counting(64)));
        view_->setOverlay(overlay_.get());
        overlay_->write(3, QByteArray("\xFF", 1));
        QVERIFY(overlay_->isEdited(3));
        view_->setHighlights({{0, 8, QColor(255, 0, 0, 100)}, {60, 100, QColor(0, 0, 255, 100)}});
        view_->setNodeRegion(8, 16, {{8, 4, QColor(0, 255, 0, 120)}});
        QVERIFY(!view_->grab().isNull());
        view_->clearNodeRegion();
        view_->setBytesPerRow(32);
        QCOMPARE(view_->bytesPerRow(), 32);
        view_->setBytesPerRow(100);
        QCOMPARE(view_->bytesPerRow(), 32);
        view_->setBytesPerRow(1);
        QCOMPARE(view_->bytesPerRow(), 8);
        QVERIFY(!view_->grab().isNull());
    }

    void emptySource() {
        overlay_ =
            std::make_unique<ByteOverlay>(strata::makeBufferSource(std::vector<std::uint8_t>{}));
        view_->setOverlay(overlay_.get());
        view_->setFocus();
        QTest::keyClick(view_.get(), Qt::Key_Right);
        QTest::keyClick(view_.get(), Qt::Key_End, Qt::ControlModifier);
        QCOMPARE(view_->cursorOffset(), quint64{0});
        QVERIFY(view_->selectedBytes().isEmpty());
        QVERIFY(!view_->grab().isNull());
    }

    void goToDialogParsesAsYouType() {
        GoToOffsetDialog dialog(0x100, 0x1000);
        dialog.setText(QStringLiteral("+0x10"));
        QCOMPARE(dialog.offset(), std::optional<quint64>(0x110));
        dialog.setText(QStringLiteral("4096"));
        QVERIFY(!dialog.offset().has_value());  // one past the end
        dialog.setText(QStringLiteral("0xfff"));
        QCOMPARE(dialog.offset(), std::optional<quint64>(0xfff));
    }

private:
    std::unique_ptr<HexView> view_;
    std::unique_ptr<ByteOverlay> overlay_;
};

QTEST_MAIN(HexViewTest)
#include "hex_view_test.moc"
