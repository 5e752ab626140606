// The selection history's rules (picks add entries, moves in the hex view near the current
// entry follow it, a new entry after Back drops the forward ones, the length is bounded) and
// finding a recorded location again in a document, also once its node is gone.
#include <QSignalSpy>
#include <QTest>

#include "formats/common/byte_source.h"
#include "model/core/document.h"
#include "model/core/selection_history.h"
#include "model/core/selection_location.h"

using strata::model::SelectionHistory;
using strata::model::SelectionLocation;
using strata::model::SelectionMove;

namespace {

SelectionLocation at(quint64 offset, quint64 length = 0, const QString& file = "a.bin") {
    SelectionLocation location;
    location.file = file;
    location.offset = offset;
    location.length = length;
    return location;
}

// A file of `labels.size()` records of 16 bytes each after `start` bytes, under one root node.
std::unique_ptr<strata::model::Document> recordsDocument(const std::vector<std::string>& labels,
                                                         std::uint64_t start = 0) {
    auto opened = std::make_shared<strata::OpenedDocument>();
    opened->path = "records.bin";
    auto source = strata::makeBufferSource(std::vector<std::uint8_t>(start + labels.size() * 16),
                                           "records.bin");
    const strata::ByteSource* s = source.get();
    opened->root =
        std::make_unique<strata::Node>("test.file", "file", strata::Region{s, 0, s->size()});
    for (std::size_t i = 0; i < labels.size(); ++i) {
        opened->root->appendChild(std::make_unique<strata::Node>(
            "test.record", labels[i], strata::Region{s, start + i * 16, 16}));
    }
    opened->sources.push_back(std::move(source));
    return std::make_unique<strata::model::Document>(std::move(opened));
}

}  // namespace

class SelectionHistoryTest : public QObject {
    Q_OBJECT

private slots:
    void picksAddEntriesAndBackAndForwardWalkThem() {
        SelectionHistory history;
        QSignalSpy changed(&history, &SelectionHistory::changed);
        QVERIFY(!history.canGoBack() && !history.canGoForward());
        for (quint64 offset : {0, 100, 200}) {
            history.record(at(offset, 16), SelectionMove::Jump);
        }
        QCOMPARE(history.entries().size(), 3);
        QCOMPARE(changed.count(), 3);
        QVERIFY(history.canGoBack() && !history.canGoForward());
        QCOMPARE(history.goBack()->offset, 100u);
        QCOMPARE(history.goBack()->offset, 0u);
        QVERIFY(!history.canGoBack() && history.canGoForward());
        QVERIFY(!history.goBack());
        QCOMPARE(history.goForward()->offset, 100u);
        QCOMPARE(history.currentIndex(), 1);
    }

    void theSamePlaceIsNotRecordedTwice() {
        SelectionHistory history;
        history.record(at(10, 4), SelectionMove::Jump);
        history.record(at(10, 4), SelectionMove::Jump);
        QCOMPARE(history.entries().size(), 1);
        // The same bytes with their node found later update the entry.
        SelectionLocation withNode = at(10, 4);
        withNode.hasNode = true;
        withNode.nodeLabel = QStringLiteral("field");
        history.record(withNode, SelectionMove::Jump);
        QCOMPARE(history.entries().size(), 1);
        QCOMPARE(history.entries().front().nodeLabel, QStringLiteral("field"));
    }

    void movesInTheHexViewNearTheCurrentEntryFollowIt() {
        SelectionHistory history;
        history.record(at(0x1000, 16), SelectionMove::Jump);
        // A walk with the arrow keys, a byte at a time, far beyond where it started.
        for (quint64 offset = 0x1000; offset < 0x9000; ++offset) {
            history.record(at(offset), SelectionMove::Step);
        }
        // A drag selecting from there.
        for (quint64 length = 1; length < 64; ++length) {
            history.record(at(0x8fff, length), SelectionMove::Step);
        }
        QCOMPARE(history.entries().size(), 1);
        QCOMPARE(history.entries().front().offset, 0x8fffu);
        QCOMPARE(history.entries().front().length, 63u);
        // A click far away is a place of its own; so is the same offset in another file.
        history.record(at(0x8fff + 63 + SelectionHistory::kStepReach + 1), SelectionMove::Step);
        QCOMPARE(history.entries().size(), 2);
        history.record(at(0, 0, QStringLiteral("b.bin")), SelectionMove::Step);
        QCOMPARE(history.entries().size(), 3);
        // A pick is always a place of its own, even beside the current one.
        history.record(at(1, 0, QStringLiteral("b.bin")), SelectionMove::Jump);
        QCOMPARE(history.entries().size(), 4);
    }

    // Where a view settles by itself once loaded takes the place of where it opened: nothing
    // to go back to.
    void aSettledPlaceReplacesTheCurrentEntry() {
        SelectionHistory history;
        history.record(at(0), SelectionMove::Jump);
        history.record(at(0x123456, 41), SelectionMove::Settle);
        QCOMPARE(history.entries().size(), 1);
        QCOMPARE(history.entries().front().offset, 0x123456u);
        QVERIFY(!history.canGoBack());
        history.record(at(0x200000), SelectionMove::Jump);
        QCOMPARE(history.entries().size(), 2);
    }

    void aNewPlaceAfterBackDropsTheForwardEntries() {
        SelectionHistory history;
        for (quint64 offset : {0, 10000, 20000, 30000}) {
            history.record(at(offset), SelectionMove::Jump);
        }
        history.goBack();
        history.goBack();
        // Moving about where Back landed keeps the way forward.
        history.record(at(10001), SelectionMove::Step);
        QVERIFY(history.canGoForward());
        QCOMPARE(history.entries().size(), 4);
        QCOMPARE(history.entries()[1].offset, 10001u);
        // Going somewhere else drops it.
        history.record(at(50000), SelectionMove::Jump);
        QVERIFY(!history.canGoForward());
        QCOMPARE(history.entries().size(), 3);
        QCOMPARE(history.entries().back().offset, 50000u);
        QCOMPARE(history.goBack()->offset, 10001u);
    }

    void theLengthIsBounded() {
        SelectionHistory history(nullptr, 100);
        for (quint64 i = 0; i < 150; ++i) {
            history.record(at(i * 100000), SelectionMove::Jump);
        }
        QCOMPARE(history.entries().size(), 100);
        QCOMPARE(history.currentIndex(), 99);
        QCOMPARE(history.entries().front().offset, 50u * 100000);
        int backs = 0;
        while (history.goBack()) {
            ++backs;
        }
        QCOMPARE(backs, 99);
    }

    void aSavedHistoryComesBack() {
        SelectionHistory history;
        SelectionLocation node = at(32, 16);
        node.hasNode = true;
        node.nodeRows = {0, 2};
        node.nodeKind = QStringLiteral("test.record");
        node.nodeLabel = QStringLiteral("c");
        node.nodeOffset = 32;
        history.record(at(0), SelectionMove::Jump);
        history.record(node, SelectionMove::Jump);
        history.record(at(90000, 3), SelectionMove::Jump);
        history.goBack();
        SelectionHistory copy;
        QSignalSpy changed(&copy, &SelectionHistory::changed);
        copy.restore(history.toVariant());
        QCOMPARE(copy.entries(), history.entries());
        QCOMPARE(copy.currentIndex(), 1);
        QCOMPARE(changed.count(), 1);
    }

    void aLocationIsFoundAgainByItsNode() {
        auto document = recordsDocument({"a", "b", "c"});
        const strata::Node* b = document->root()->child(1);
        const SelectionLocation location =
            strata::model::locationOf(document->primaryFile()->source(), 18, 4, b);
        QCOMPARE(location.nodeRows, QList<quint64>{1});
        const auto resolved = strata::model::resolveLocation(*document, location);
        QVERIFY(resolved);
        QCOMPARE(resolved->node, b);
        QCOMPARE(resolved->file, document->primaryFile());
        QCOMPARE(resolved->offset, 18u);
        QCOMPARE(resolved->length, 4u);
    }

    void aMovedNodeTakesTheSelectionAlong() {
        auto before = recordsDocument({"a", "b", "c"});
        const SelectionLocation inC = strata::model::locationOf(before->primaryFile()->source(), 36,
                                                                4, before->root()->child(2));
        // Written again with 8 more bytes before the records.
        auto after = recordsDocument({"a", "b", "c"}, 8);
        const auto c = strata::model::resolveLocation(*after, inC);
        QVERIFY(c);
        QCOMPARE(c->node, after->root()->child(2));
        QCOMPARE(c->offset, 44u);
        QCOMPARE(c->length, 4u);
    }

    void aRemovedNodeFallsBackToTheBytesClamped() {
        auto before = recordsDocument({"a", "b", "c"});
        const SelectionLocation inB = strata::model::locationOf(before->primaryFile()->source(), 16,
                                                                16, before->root()->child(1));
        const SelectionLocation inC = strata::model::locationOf(before->primaryFile()->source(), 32,
                                                                16, before->root()->child(2));
        // "b" deleted and the file written again: "c" is at b's rows and bytes now.
        auto after = recordsDocument({"a", "c"});
        const auto b = strata::model::resolveLocation(*after, inB);
        QVERIFY(b);
        QVERIFY(b->node == nullptr);  // not "c", though c sits at b's rows
        QCOMPARE(b->file, after->primaryFile());
        QCOMPARE(b->offset, 16u);
        QCOMPARE(b->length, 16u);
        // c's rows are past the end of the root's children, its bytes past the end of the
        // shorter file: the last byte.
        const auto c = strata::model::resolveLocation(*after, inC);
        QVERIFY(c);
        QVERIFY(c->node == nullptr);
        QCOMPARE(c->offset, 31u);
        QCOMPARE(c->length, 1u);
        // A file the document no longer has is nowhere.
        SelectionLocation elsewhere = inC;
        elsewhere.file = QStringLiteral("gone.bin");
        elsewhere.hasNode = false;
        QVERIFY(!strata::model::resolveLocation(*after, elsewhere));
    }
};

QTEST_GUILESS_MAIN(SelectionHistoryTest)
#include "selection_history_test.moc"
