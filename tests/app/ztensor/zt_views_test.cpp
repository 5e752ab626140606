// The zTensor tabs of a DocumentView: installed with an editor, the table linked to the hex
// view, values loaded off the GUI thread for zstd tensors, statistics and digest jobs filling
// their views, attribute edits through the undo stack. With STRATA_ZT_SHOTS set to a folder it
// also saves a PNG of each tab there (for the docs).
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <memory>

#include "app/gui/builtin_format_views.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "app/ztensor/zt_manifest_tab.h"
#include "app/ztensor/zt_stats_tab.h"
#include "app/ztensor/zt_tensors_tab.h"
#include "app/ztensor/zt_values_tab.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/ztensor/zt_editor.h"
#include "model/ztensor/zt_manifest_models.h"
#include "model/ztensor/zt_tensor_table_model.h"
#include "model/ztensor/zt_values_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;

namespace {

QString corpus(const QString& relative) {
    return QString::fromStdString((strata::test::corpusRoot() / "ztensor").string()) + '/' +
           relative;
}

template <typename T>
T* tab(DocumentView& view, const char* name) {
    return view.centreTabs()->findChild<T*>(QString::fromLatin1(name));
}

// Saves the view showing `page` when STRATA_ZT_SHOTS names a folder.
void shot(DocumentView& view, QWidget* page, const QString& name) {
    const QString folder = qEnvironmentVariable("STRATA_ZT_SHOTS");
    if (folder.isEmpty()) {
        return;
    }
    view.centreTabs()->setCurrentWidget(page);
    QApplication::processEvents();
    view.grab().save(folder + QStringLiteral("/ztensor-") + name + QStringLiteral(".png"));
}

}  // namespace

class ZtViewsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { STRATA_QSKIP_WITHOUT_CORPUS(); }  // every test opens corpus data
    void init();
    void cleanup();
    void installsTabsAndEditor();
    void rowSelectsComponentBytes();
    void filterAndSort();
    void sortedFilteredRowActsOnItsTensor();
    void valuesOfZstdTensorLoadInBackground();
    void sparseTensorShowsNonZeros();
    void statsJobFillsChart();
    void verifyDigestsFillsColumn();
    void attributeEditIsUndoable();
    void corruptFilesOpenInEveryTab();

private:
    void open(const QString& relative);

    std::unique_ptr<model::JobRunner> runner_;
    std::unique_ptr<DocumentView> view_;
};

void ZtViewsTest::init() {
    runner_ = std::make_unique<model::JobRunner>();
}

void ZtViewsTest::cleanup() {
    view_.reset();
    runner_.reset();
}

void ZtViewsTest::open(const QString& relative) {
    QString error;
    auto document = model::Document::open(corpus(relative), &error);
    QVERIFY2(document, qPrintable(error));
    view_ =
        std::make_unique<DocumentView>(std::move(document), runner_.get(), builtinFormatViews());
    view_->resize(1200, 800);
    view_->show();
}

void ZtViewsTest::installsTabsAndEditor() {
    open(QStringLiteral("valid/dense_raw.zt"));
    QVERIFY(tab<ZtTensorsTab>(*view_, "ztTensorsTab"));
    QVERIFY(tab<ZtValuesTab>(*view_, "ztValuesTab"));
    QVERIFY(tab<ZtStatsTab>(*view_, "ztStatsTab"));
    QVERIFY(tab<ZtManifestTab>(*view_, "ztManifestTab"));
    QCOMPARE(view_->centreTabs()->currentWidget(), tab<ZtTensorsTab>(*view_, "ztTensorsTab"));
    QVERIFY(qobject_cast<model::ZtEditor*>(view_->document()->editor()));
    auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
    QCOMPARE(tensors->tableView()->model()->rowCount(), 16);
}

void ZtViewsTest::rowSelectsComponentBytes() {
    open(QStringLiteral("valid/dense_raw.zt"));
    auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
    auto* values = tab<ZtValuesTab>(*view_, "ztValuesTab");
    const auto& file = tensors->tableModel()->file();
    const ztensor::ZtTensor* big = file.findTensor("t_big_f32");
    QVERIFY(big);
    const auto index = static_cast<std::size_t>(big - file.tensors().data());
    tensors->selectTensor(index);
    // logical.jsonl: t_big_f32 data at offset 1024, 16384 bytes.
    QCOMPARE(view_->hexView()->selectionStart(), 1024u);
    QCOMPARE(view_->hexView()->selectionLength(), 16384u);
    QCOMPARE(values->currentTensor(), static_cast<int>(index));
    QCOMPARE(values->valuesModel()->rowCount(), 64);
    QCOMPARE(values->valuesModel()->columnCount(), 64);
    QCOMPARE(tensors->selectedTensors(), std::vector<std::size_t>{index});
    // A value cell selects the element's 4 bytes: row 2, column 3 is element 131.
    auto* grid = values->findChild<QTableView*>();
    QVERIFY(grid);
    grid->setCurrentIndex(values->valuesModel()->index(2, 3));
    QCOMPARE(view_->hexView()->selectionStart(), 1024u + 131u * 4u);
    QCOMPARE(view_->hexView()->selectionLength(), 4u);
    shot(*view_, tensors, QStringLiteral("tensors"));
    shot(*view_, values, QStringLiteral("values"));
}

void ZtViewsTest::filterAndSort() {
    open(QStringLiteral("valid/dense_raw.zt"));
    auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
    QAbstractItemModel* proxy = tensors->tableView()->model();
    tensors->filterEdit()->setText(QStringLiteral("uint"));
    QCOMPARE(proxy->rowCount(), 4);  // uint8, uint16, uint32, uint64
    tensors->filterEdit()->clear();
    tensors->tableView()->sortByColumn(model::ZtTensorTableModel::Logical, Qt::DescendingOrder);
    QCOMPARE(proxy->index(0, model::ZtTensorTableModel::Name).data().toString(),
             QStringLiteral("t_big_f32"));
    tensors->tableView()->sortByColumn(model::ZtTensorTableModel::Logical, Qt::AscendingOrder);
    QCOMPARE(proxy->index(0, model::ZtTensorTableModel::Name).data().toString(),
             QStringLiteral("t_empty_f32"));
}

// In a sorted and filtered table, Delete and Rename act on the tensor of the highlighted row, and
// the highlight stays on that tensor when an edit re-sorts the rows, and through undo.
void ZtViewsTest::sortedFilteredRowActsOnItsTensor() {
    open(QStringLiteral("valid/dense_raw.zt"));
    auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
    auto* editor = qobject_cast<model::ZtEditor*>(view_->document()->editor());
    QVERIFY(editor);
    QAbstractItemModel* proxy = tensors->tableView()->model();
    tensors->tableView()->sortByColumn(model::ZtTensorTableModel::Name, Qt::DescendingOrder);
    tensors->filterEdit()->setText(QStringLiteral("uint"));
    const QModelIndex row = proxy->index(1, model::ZtTensorTableModel::Name);
    const QString name = row.data().toString();
    tensors->tableView()->selectionModel()->setCurrentIndex(
        row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const auto selected = tensors->selectedTensors();
    QCOMPARE(selected.size(), std::size_t{1});
    const std::size_t tensor = selected.front();
    QCOMPARE(QString::fromStdString(editor->plan().tensors[tensor].name), name);

    QVERIFY(editor->renameTensor(tensor, QStringLiteral("uint_zz_first")));
    QCOMPARE(tensors->selectedTensors(), std::vector<std::size_t>{tensor});
    // Moved to the top, still highlighted.
    QVERIFY(proxy->index(0, model::ZtTensorTableModel::Name)
                .data()
                .toString()
                .startsWith(QStringLiteral("uint_zz_first")));
    QCOMPARE(tensors->tableView()->selectionModel()->selectedRows().front().row(), 0);
    for (QPushButton* button : tensors->findChildren<QPushButton*>()) {
        if (button->text() == QStringLiteral("Delete")) {
            button->click();
        }
    }
    for (std::size_t t = 0; t < editor->plan().tensors.size(); ++t) {
        QCOMPARE(editor->plan().tensors[t].deleted, t == tensor);
    }
    view_->document()->undoStack()->undo();
    view_->document()->undoStack()->undo();
    QCOMPARE(QString::fromStdString(editor->plan().tensors[tensor].name), name);
    QCOMPARE(tensors->selectedTensors(), std::vector<std::size_t>{tensor});
}

void ZtViewsTest::valuesOfZstdTensorLoadInBackground() {
    open(QStringLiteral("valid/dense_zstd.zt"));
    auto* values = tab<ZtValuesTab>(*view_, "ztValuesTab");
    const auto& file = tab<ZtTensorsTab>(*view_, "ztTensorsTab")->tableModel()->file();
    const ztensor::ZtTensor* f32 = file.findTensor("t_float32");
    QSignalSpy loaded(values, &ZtValuesTab::loaded);
    values->showTensor(static_cast<int>(f32 - file.tensors().data()));
    QCOMPARE(values->valuesModel()->rowCount(), 0);  // not yet: a job decodes it
    QVERIFY(loaded.wait(30000));
    QCOMPARE(values->valuesModel()->rank(), 3);
    QCOMPARE(values->valuesModel()->index(0, 0).data(Qt::UserRole).toDouble(), -3.0);
    // Slicing through the axis boxes: rows along axis 0, columns along axis 2.
    values->rowAxisBox()->setCurrentIndex(0);
    QCOMPARE(values->valuesModel()->rowAxis(), 0);
    QCOMPARE(values->valuesModel()->rowCount(), 2);
    QCOMPARE(values->valuesModel()->columnCount(), 4);
}

void ZtViewsTest::sparseTensorShowsNonZeros() {
    open(QStringLiteral("valid/sparse_raw.zt"));
    auto* values = tab<ZtValuesTab>(*view_, "ztValuesTab");
    const auto& file = tab<ZtTensorsTab>(*view_, "ztTensorsTab")->tableModel()->file();
    const ztensor::ZtTensor* coo = file.findTensor("coo_i32");
    QSignalSpy loaded(values, &ZtValuesTab::loaded);
    values->showTensor(static_cast<int>(coo - file.tensors().data()));
    QVERIFY(loaded.count() > 0 || loaded.wait(30000));
    QCOMPARE(values->entriesModel()->rowCount(), 3);
    QCOMPARE(values->entriesModel()->index(0, 3).data().toString(), QStringLiteral("10"));
    QCOMPARE(values->valuesModel()->rank(), 3);  // densified: 24 elements
    shot(*view_, values, QStringLiteral("sparse"));
}

void ZtViewsTest::statsJobFillsChart() {
    open(QStringLiteral("valid/dense_raw.zt"));
    auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
    auto* stats = tab<ZtStatsTab>(*view_, "ztStatsTab");
    const auto& file = tensors->tableModel()->file();
    tensors->selectTensor(
        static_cast<std::size_t>(file.findTensor("t_float32") - file.tensors().data()));
    model::Job* job = stats->compute();
    QVERIFY(job);
    QSignalSpy finished(job, &model::Job::finished);
    QVERIFY(finished.wait(30000));
    QVERIFY(stats->stats().has_value());
    QCOMPARE(stats->stats()->count, 24u);
    QCOMPARE(stats->stats()->min, -3.0);
    QCOMPARE(stats->stats()->max, 2.75);
    QCOMPARE(stats->stats()->zeros, 1u);
    QVERIFY(stats->summaryLabel()->text().contains(QStringLiteral("min -3")));
    QCOMPARE(stats->chartView()->chart()->series().size(), 1);
    shot(*view_, stats, QStringLiteral("stats"));
}

void ZtViewsTest::verifyDigestsFillsColumn() {
    open(QStringLiteral("corrupt/digest_mismatch.zt"));
    auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
    model::Job* job = tensors->verifyDigests();
    QVERIFY(job);
    QSignalSpy finished(job, &model::Job::finished);
    QVERIFY(finished.wait(30000));
    auto* model = tensors->tableModel();
    int bad = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        bad += model->digestStatus(row) == model::ZtDigestStatus::Bad;
    }
    QVERIFY(bad >= 1);
}

void ZtViewsTest::attributeEditIsUndoable() {
    open(QStringLiteral("valid/attrs_extra_keys.zt"));
    auto* manifest = tab<ZtManifestTab>(*view_, "ztManifestTab");
    QVERIFY(manifest->treeView()->model()->rowCount() >= 4);
    auto* attributes = manifest->attributesModel();
    QCOMPARE(attributes->rowCount(), 3);
    QVERIFY(attributes->setData(attributes->index(0, 1), QStringLiteral("someone else")));
    QVERIFY(view_->document()->isModified());
    QCOMPARE(attributes->index(0, 1).data().toString(), QStringLiteral("someone else"));
    view_->document()->undoStack()->undo();
    QVERIFY(!view_->document()->isModified());
    QVERIFY(attributes->index(0, 1).data().toString() != QStringLiteral("someone else"));
    shot(*view_, manifest, QStringLiteral("manifest"));
}

// Every damaged corpus file opens with its tabs; every tensor's values and statistics load or
// say why not.
void ZtViewsTest::corruptFilesOpenInEveryTab() {
    const QDir dir(corpus(QStringLiteral("corrupt")));
    for (const QString& name : dir.entryList({QStringLiteral("*.zt")}, QDir::Files)) {
        QString error;
        auto document = model::Document::open(dir.filePath(name), &error);
        if (!document) {
            continue;  // not recognised as zTensor at all (too short, say)
        }
        view_ = std::make_unique<DocumentView>(std::move(document), runner_.get(),
                                               builtinFormatViews());
        auto* tensors = tab<ZtTensorsTab>(*view_, "ztTensorsTab");
        if (tensors == nullptr) {
            continue;  // opened as another format
        }
        auto* values = tab<ZtValuesTab>(*view_, "ztValuesTab");
        auto* stats = tab<ZtStatsTab>(*view_, "ztStatsTab");
        const int count = static_cast<int>(tensors->tableModel()->file().tensors().size());
        for (int t = 0; t < count; ++t) {
            tensors->selectTensor(static_cast<std::size_t>(t));
            model::Job* job = stats->compute();
            QVERIFY(job);
            QSignalSpy finished(job, &model::Job::finished);
            QVERIFY2(finished.wait(30000), qPrintable(name));
            QVERIFY(job->state() != model::Job::State::Running);
        }
        runner_->waitForDone();
        QApplication::processEvents();
        QVERIFY(values->valuesModel()->rowCount() >= 0);
        view_.reset();
    }
}

QTEST_MAIN(ZtViewsTest)
#include "zt_views_test.moc"
