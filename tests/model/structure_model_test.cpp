#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <atomic>

#include "model/core/structure_model.h"

using strata::model::StructureModel;

namespace {

std::atomic<std::uint64_t> g_madeChildren{0};

// A record table with `count` children of 16 bytes each, built on demand.
class LazyRecords final : public strata::Node {
public:
    LazyRecords(const strata::ByteSource* source, std::uint64_t offset, std::uint64_t count)
        : Node("test.records", "records", {source, offset, count * 16}), count_(count) {}

protected:
    bool hasLazyChildren() const override { return count_ > 0; }
    std::uint64_t lazyChildCount() const override { return count_; }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        ++g_madeChildren;
        auto child = std::make_unique<Node>(
            "test.record", "record " + std::to_string(index),
            strata::Region{region().source, region().offset + index * 16, 16});
        child->addField("id", index, {region().source, region().offset + index * 16, 8});
        if (index % 1000 == 7) {
            child->setStatus(strata::Status::Warning);
        }
        return child;
    }

private:
    std::uint64_t count_;
};

struct Tree {
    strata::ByteSourcePtr source;
    std::unique_ptr<strata::Node> root;
    const strata::Node* records = nullptr;
};

// root ─ header (eager, two fields as children) ─ records (lazy, `count` children)
Tree makeTree(std::uint64_t count) {
    Tree t;
    // The nodes only need a source identity and size; the bytes are never read.
    t.source = strata::makeBufferSource(std::vector<std::uint8_t>(64), "records.bin");
    const strata::ByteSource* s = t.source.get();
    t.root =
        std::make_unique<strata::Node>("test.file", "file", strata::Region{s, 0, 64 + count * 16});
    auto* header = t.root->appendChild(
        std::make_unique<strata::Node>("test.header", "header", strata::Region{s, 0, 64}));
    header->appendChild(
        std::make_unique<strata::Node>("test.magic", "magic", strata::Region{s, 0, 4}));
    header->appendChild(
        std::make_unique<strata::Node>("test.count", "count", strata::Region{s, 4, 8}));
    t.records = t.root->appendChild(std::make_unique<LazyRecords>(s, 64, count));
    return t;
}

}  // namespace

class StructureModelTest : public QObject {
    Q_OBJECT
private slots:
    void init() { g_madeChildren = 0; }

    void passesTheModelTesterOnAMillionChildNode() {
        Tree t = makeTree(1'000'000);
        StructureModel model(t.root.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(model.nodeAt(root), t.root.get());
        // The tester fetched the first batches while walking; fetch one more batch of records.
        if (model.canFetchMore(root)) {
            model.fetchMore(root);
        }
        QCOMPARE(model.rowCount(root), 2);
        const QModelIndex records = model.index(1, 0, root);
        QVERIFY(model.hasChildren(records));
        const int before = model.rowCount(records);
        QVERIFY(before >= 0 && before <= 2 * StructureModel::kFetchBatch);
        QVERIFY(model.canFetchMore(records));
        model.fetchMore(records);
        // The tester may fetch further batches while it re-checks the model.
        QVERIFY(model.rowCount(records) >= before + StructureModel::kFetchBatch);
        QCOMPARE(model.rowCount(records) % StructureModel::kFetchBatch, 0);
        // Far fewer children were built than exist.
        QVERIFY(g_madeChildren.load() < 10'000);
    }

    void passesTheModelTesterWhenRevealingDeepRows() {
        Tree t = makeTree(5000);
        StructureModel model(t.root.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const strata::Node* target = t.records->child(4321);
        const QModelIndex index = model.indexForNode(target);
        QVERIFY(index.isValid());
        QCOMPARE(model.nodeAt(index), target);
        QCOMPARE(index.row(), 4321);
    }

    void indexForNodeReachesTheLastOfAMillionChildrenCheaply() {
        Tree t = makeTree(1'000'000);
        StructureModel model(t.root.get());
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const strata::Node* last = t.records->child(999'999);
        QCOMPARE(g_madeChildren.load(), 1u);

        const QModelIndex index = model.indexForNode(last);
        QVERIFY(index.isValid());
        QCOMPARE(index.row(), 999'999);
        QCOMPARE(model.nodeAt(index), last);
        QCOMPARE(model.data(index).toString(), QString("record 999999"));
        QCOMPARE(model.data(index, StructureModel::OffsetRole).toULongLong(),
                 64ull + 999'999ull * 16);
        QCOMPARE(model.data(index, StructureModel::LengthRole).toULongLong(), 16ull);
        QCOMPARE(model.data(index, StructureModel::KindRole).toString(), QString("test.record"));
        QCOMPARE(model.data(index, StructureModel::NodeRole).value<quintptr>(), quintptr(last));

        const QModelIndex parent = model.parent(index);
        QCOMPARE(model.nodeAt(parent), t.records);
        QCOMPARE(model.rowCount(parent), 1'000'000);
        QVERIFY(!model.canFetchMore(parent));
        QCOMPARE(model.nodeAt(model.parent(parent)), t.root.get());
        QVERIFY(!model.parent(model.parent(parent)).isValid());
        // Only the target (and nothing in between) was built.
        QVERIFY2(g_madeChildren.load() <= 2, qPrintable(QString::number(g_madeChildren.load())));
        QVERIFY(inserted.count() >= 2);

        // A node found by offset, as a click in the hex view does.
        const strata::Node* hit = t.root->deepestAt(64 + 500'000 * 16 + 3);
        QVERIFY(hit != nullptr);
        QCOMPARE(hit->row(), 500'000u);
        const QModelIndex hitIndex = model.indexForNode(hit, StructureModel::OffsetColumn);
        QCOMPARE(hitIndex.column(), int(StructureModel::OffsetColumn));
        QCOMPARE(model.nodeAt(hitIndex), hit);
        QVERIFY(g_madeChildren.load() < 64);
    }

    void indexForNodeRejectsForeignNodes() {
        Tree t = makeTree(10);
        Tree other = makeTree(10);
        StructureModel model(t.root.get());
        QVERIFY(!model.indexForNode(other.records->child(3)).isValid());
        QVERIFY(!model.indexForNode(nullptr).isValid());
        QCOMPARE(model.nodeAt(model.indexForNode(t.root.get())), t.root.get());
    }

    void columnsAndRoles() {
        Tree t = makeTree(10);
        StructureModel model(t.root.get());
        const strata::Node* warn = t.records->child(7);
        const QModelIndex name = model.indexForNode(warn);
        QCOMPARE(model.columnCount(), int(StructureModel::ColumnCount));
        QCOMPARE(model.headerData(StructureModel::SizeColumn, Qt::Horizontal).toString(),
                 QString("Size"));
        QCOMPARE(name.siblingAtColumn(StructureModel::OffsetColumn).data().toString(),
                 QString("0x%1").arg(64 + 7 * 16, 0, 16).toUpper().replace("0X", "0x"));
        QVERIFY(
            name.siblingAtColumn(StructureModel::SizeColumn).data().toString().startsWith("16"));
        QCOMPARE(name.siblingAtColumn(StructureModel::StatusColumn).data().toString(),
                 QString("warning"));
        QCOMPARE(name.data(StructureModel::StatusRole).toInt(), int(strata::Status::Warning));
        QVERIFY(name.data(Qt::DecorationRole).value<QColor>().isValid());
        QVERIFY(name.siblingAtColumn(StructureModel::StatusColumn)
                    .data(Qt::ForegroundRole)
                    .value<QColor>()
                    .isValid());
        QVERIFY(!model.hasChildren(name));
        QVERIFY(model.flags(name) & Qt::ItemNeverHasChildren);
    }

    void resetOnNewRoot() {
        Tree t = makeTree(10);
        StructureModel model;
        QCOMPARE(model.rowCount(), 0);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setRoot(t.root.get());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        model.setRoot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(StructureModelTest)
#include "structure_model_test.moc"
