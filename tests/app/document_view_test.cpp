// DocumentView: tree and hex view linked both ways, overwrite editing through the undo stack,
// Save As, the data inspector, byte search, and opening real files (temp and corpus).
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <memory>
#include <vector>

#include "app/gui/builtin_format_views.h"
#include "app/widgets/data_inspector.h"
#include "app/widgets/document_view.h"
#include "app/widgets/file_map.h"
#include "app/widgets/hex_view.h"
#include "app/widgets/search_bar.h"
#include "fake_format.h"
#include "formats/registry/format_handler.h"
#include "formats/registry/format_registry.h"
#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/core/structure_model.h"
#include "test_corpus.h"

using namespace strata::gui;
using strata::Node;
using strata::Region;

namespace {

std::vector<std::uint8_t> counting(std::size_t n) {
    std::vector<std::uint8_t> bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<std::uint8_t>(i);
    }
    return bytes;
}

// A 256-byte "file": header [0,16) with fields magic [0,4) and version [4,8); body [16,256)
// with 15 records of 16 bytes.
struct TestTree {
    strata::ByteSourcePtr source;
    const Node* header = nullptr;
    const Node* body = nullptr;
    const Node* record3 = nullptr;
};

std::unique_ptr<strata::model::Document> makeDocument(TestTree& t,
                                                      strata::ByteSourcePtr source = nullptr) {
    t.source = source ? source : strata::makeBufferSource(counting(256), "test.bin");
    const strata::ByteSource* s = t.source.get();
    auto opened = std::make_unique<strata::OpenedDocument>();
    opened->format = strata::kRawBinaryFormat;
    opened->path = "test.bin";
    opened->sources = {t.source};
    auto root = std::make_unique<Node>("test.file", "test.bin", Region{s, 0, 256});
    auto header = std::make_unique<Node>("test.header", "header", Region{s, 0, 16});
    header->addField("magic", std::string("\x00\x01\x02\x03", 4), Region{s, 0, 4});
    header->addField("version", std::uint64_t{0x07060504}, Region{s, 4, 4});
    t.header = root->appendChild(std::move(header));
    auto body = std::make_unique<Node>("test.body", "body", Region{s, 16, 240});
    for (int i = 0; i < 15; ++i) {
        const auto offset = static_cast<std::uint64_t>(16 + 16 * i);
        Node* record = body->appendChild(std::make_unique<Node>(
            "test.record", "record " + std::to_string(i), Region{s, offset, 16}));
        if (i == 3) {
            t.record3 = record;
        }
    }
    t.body = root->appendChild(std::move(body));
    opened->root = std::move(root);
    return std::make_unique<strata::model::Document>(std::move(opened));
}

}  // namespace

class DocumentViewTest : public QObject {
    Q_OBJECT
private slots:
    void init() { runner_ = std::make_unique<strata::model::JobRunner>(); }
    void cleanup() {
        view_.reset();
        runner_->waitForDone();
        QCoreApplication::processEvents();
        runner_.reset();
    }

    void treeSelectionSelectsBytes() {
        TestTree t;
        makeView(makeDocument(t));
        view_->selectNode(t.record3);
        QCOMPARE(view_->currentNode(), t.record3);
        QCOMPARE(view_->hexView()->selectionStart(), quint64{16 + 48});
        QCOMPARE(view_->hexView()->selectionLength(), quint64{16});
        // The tree shows the node as current.
        const QModelIndex current = view_->treeView()->currentIndex();
        QCOMPARE(view_->structureModel()->nodeAt(current), t.record3);

        view_->selectNode(t.header);
        QCOMPARE(view_->hexView()->selectionStart(), quint64{0});
        QCOMPARE(view_->hexView()->selectionLength(), quint64{16});
        // Properties list the header's fields; clicking one selects its bytes and keeps the node.
        QTableWidget* props = view_->propertiesTable();
        QVERIFY(props->rowCount() >= 2);
        QCOMPARE(props->item(1, 0)->text(), QStringLiteral("version"));
        const QRect cell = props->visualItemRect(props->item(1, 0));
        QTest::mouseClick(props->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(view_->hexView()->selectionStart(), quint64{4});
        QCOMPARE(view_->hexView()->selectionLength(), quint64{4});
        QCOMPARE(view_->currentNode(), t.header);
    }

    void hexCursorSelectsDeepestNode() {
        TestTree t;
        makeView(makeDocument(t));
        view_->hexView()->goToOffset(16 + 48 + 5);  // inside record 3
        QCOMPARE(view_->currentNode(), t.record3);
        QCOMPARE(view_->structureModel()->nodeAt(view_->treeView()->currentIndex()), t.record3);
        // Its parent was expanded so the row can be seen.
        QVERIFY(view_->treeView()->isExpanded(view_->structureModel()->indexForNode(t.body)));
        // The hex cursor stays where it was put (the tree did not select the node's bytes).
        QCOMPARE(view_->hexView()->cursorOffset(), quint64{16 + 48 + 5});
        QVERIFY(!view_->hexView()->hasSelection());

        view_->hexView()->setFocus();
        QTest::keyClick(view_->hexView(), Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(view_->currentNode(), t.header);
        QCOMPARE(view_->dataInspector()->offset(), quint64{0});
        QCOMPARE(view_->dataInspector()->valueOf(QStringLiteral("u32 LE")),
                 QStringLiteral("50462976"));  // 03 02 01 00
    }

    void overwriteUndoAndSaveAs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString original = dir.filePath(QStringLiteral("original.bin"));
        {
            QFile f(original);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const auto bytes = counting(256);
            f.write(reinterpret_cast<const char*>(bytes.data()), 256);
        }
        QString error;
        auto document = strata::model::Document::open(original, &error);
        QVERIFY2(document, qPrintable(error));
        makeView(std::move(document));
        strata::model::Document* doc = view_->document();
        HexView* hex = view_->hexView();
        hex->setEditable(true);
        hex->setFocus();
        hex->goToOffset(0x10);
        QTest::keyClicks(hex, QStringLiteral("ff"));
        QVERIFY(doc->isModified());
        QCOMPARE(doc->primaryFile()->read(0x10, 2), QByteArray("\xFF\x11", 2));
        hex->setActiveColumn(HexView::Column::Text);
        hex->goToOffset(0x20);
        QTest::keyClicks(hex, QStringLiteral("OK"));
        QCOMPARE(doc->primaryFile()->read(0x20, 2), QByteArray("OK"));

        // Undo takes back the text edit only.
        const int steps = doc->undoStack()->count();
        QVERIFY(steps >= 2);
        doc->undoStack()->undo();
        QCOMPARE(doc->primaryFile()->read(0x20, 2), QByteArray("\x20\x21", 2));
        QCOMPARE(doc->primaryFile()->read(0x10, 1), QByteArray("\xFF", 1));
        doc->undoStack()->redo();

        const QString saved = dir.filePath(QStringLiteral("saved.bin"));
        QCOMPARE(doc->saveAs(saved), QString());
        QFile f(saved);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray expected(reinterpret_cast<const char*>(counting(256).data()), 256);
        expected[0x10] = '\xFF';
        expected[0x20] = 'O';
        expected[0x21] = 'K';
        QCOMPARE(f.readAll(), expected);
        QVERIFY(!doc->isModified());
        // The original is untouched.
        QFile o(original);
        QVERIFY(o.open(QIODevice::ReadOnly));
        QCOMPARE(o.read(0x11).right(1), QByteArray("\x10", 1));
    }

    void searchFindsBytes() {
        TestTree t;
        makeView(makeDocument(t));
        SearchBar* bar = view_->searchBar();
        view_->showSearchBar();
        bar->setMode(strata::model::SearchPattern::Mode::Hex);
        bar->setPatternText(QStringLiteral("80 81 ?? 83"));
        view_->find(false);
        QTRY_VERIFY(!bar->isBusy());
        QCOMPARE(view_->hexView()->selectionStart(), quint64{0x80});
        QCOMPARE(view_->hexView()->selectionLength(), quint64{4});
        // Backwards from the match: the previous occurrence of 10 11 is at 0x10.
        bar->setPatternText(QStringLiteral("10 11"));
        view_->find(false, true);
        QTRY_VERIFY(!bar->isBusy());
        QCOMPARE(view_->hexView()->selectionStart(), quint64{0x10});
        // Find all highlights every match and selects the first.
        bar->setPatternText(QStringLiteral("0?"));
        view_->find(true);
        QTRY_VERIFY(!bar->isBusy());
        QCOMPARE(view_->hexView()->selectionStart(), quint64{0});
        QVERIFY(bar->message().contains(QStringLiteral("16")));
        bar->setPatternText(QStringLiteral("zz"));
        view_->find(false);
        QVERIFY(!bar->message().isEmpty());
        QVERIFY(!bar->isBusy());
    }

    void fileMapJumps() {
        TestTree t;
        makeView(makeDocument(t));
        FileMap* map = view_->fileMap();
        QVERIFY(map->height() > 10);
        const int y = map->yFor(200);
        QTest::mouseClick(map, Qt::LeftButton, {}, QPoint(map->width() / 2, y + 1));
        const quint64 cursor = view_->hexView()->cursorOffset();
        QVERIFY2(cursor >= 190 && cursor <= 215, qPrintable(QString::number(cursor)));
        QVERIFY(map->describe(20).contains(QStringLiteral("record 0")));
    }

    void opensTempFileAndValidates() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("blob.dat"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(5000, 'x'));
        f.close();
        QString error;
        auto document = strata::model::Document::open(path, &error);
        QVERIFY2(document, qPrintable(error));
        makeView(std::move(document));
        QCOMPARE(view_->hexView()->size(), quint64{5000});
        // Raw binaries get an entropy tab, computed in the background.
        QVERIFY(view_->entropyView() != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(view_->entropy().has_value(), 20000);
        QVERIFY(view_->entropy()->bucketCount() > 0);
        view_->validate();
        runner_->waitForDone();
        QVERIFY(!view_->grab().isNull());
    }

    void opensCorpusFile() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        const QDir corpus(QString::fromStdString(strata::test::corpusRoot().string()));
        const QString zs = corpus.filePath(QStringLiteral("zs/valid"));
        const QStringList files =
            QDir(zs).entryList({QStringLiteral("*.zs")}, QDir::Files, QDir::Size | QDir::Reversed);
        QVERIFY(!files.isEmpty());
        QString error;
        auto document = strata::model::Document::open(QDir(zs).filePath(files.first()), &error);
        QVERIFY2(document, qPrintable(error));
        makeView(std::move(document));
        QVERIFY(view_->structureModel()->rowCount() == 1);
        const strata::Node* root = view_->document()->root();
        QVERIFY(root != nullptr);
        if (root->childCount() > 0) {
            const strata::Node* first = root->child(0);
            view_->selectNode(first);
            QCOMPARE(view_->currentNode(), first);
            if (first->region().length > 0) {
                QCOMPARE(view_->hexView()->selectionStart(), first->region().offset);
            }
        }
        strata::model::Job* job = view_->validate();
        runner_->waitForDone();
        QCoreApplication::processEvents();
        if (job != nullptr) {
            QTRY_VERIFY(!job->isRunning());
            QCOMPARE(view_->document()->diagnostics()->countOf(strata::Severity::Error), 0);
        }
        QVERIFY(!view_->grab().isNull());
    }

    // A format registered from outside (tests/support/fake_format.h) gets its tree, its
    // validation and its own tab in the shared view through the registries alone.
    void aRegisteredFormatGetsItsViews() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("records.fake"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("FAKE\nok one\nbroken\n");
        f.close();
        strata::FormatRegistry registry;
        registry.add(std::make_unique<strata::test::FakeFormat>());
        auto opened = registry.open(std::filesystem::path(path.toStdString()));
        QCOMPARE(opened->format, strata::test::kFakeFormat);
        FormatViews views = builtinFormatViews();
        views.add(strata::test::kFakeFormat, [](DocumentView& view) {
            view.centreTabs()->addTab(new QLabel(QStringLiteral("fake records")),
                                      QStringLiteral("Records"));
        });
        makeView(std::make_unique<strata::model::Document>(std::move(opened)), views);
        QStringList tabs;
        for (int i = 0; i < view_->centreTabs()->count(); ++i) {
            tabs << view_->centreTabs()->tabText(i);
        }
        QVERIFY2(tabs.contains(QStringLiteral("Records")), qPrintable(tabs.join(u',')));
        QCOMPARE(view_->document()->formatName(), QStringLiteral("Fake"));
        QCOMPARE(view_->document()->root()->childCount(), std::uint64_t{2});
        view_->validate();
        runner_->waitForDone();
        QTRY_COMPARE(view_->document()->diagnostics()->countOf(strata::Severity::Error), 1);
    }

private:
    void makeView(std::unique_ptr<strata::model::Document> document,
                  const FormatViews& views = builtinFormatViews()) {
        view_ = std::make_unique<DocumentView>(std::move(document), runner_.get(), views);
        view_->resize(1400, 800);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }

    std::unique_ptr<strata::model::JobRunner> runner_;
    std::unique_ptr<DocumentView> view_;
};

QTEST_MAIN(DocumentViewTest)
#include "document_view_test.moc"
