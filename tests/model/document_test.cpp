#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/save_job.h"

using strata::model::Bookmark;
using strata::model::Document;
using strata::model::Job;

namespace {

class FixedValidator final : public strata::Validator {
public:
    strata::JobOutcome run(strata::DiagnosticSink& sink,
                           const strata::ValidationOptions&) override {
        sink.report({strata::Severity::Warning, "TEST-RULE", "a finding", {}, "", ""});
        return strata::JobOutcome::Completed;
    }
};

// Two files; the root covers the first, a child node the whole second one.
std::unique_ptr<strata::OpenedDocument> makeOpened() {
    auto opened = std::make_unique<strata::OpenedDocument>();
    opened->format = strata::kRawBinaryFormat;
    opened->path = "/data/example.bin";
    opened->sources.push_back(strata::makeBufferSource(std::string_view("0123456789"), "a"));
    opened->sources.push_back(strata::makeBufferSource(std::string_view("abcdef"), "b"));
    const strata::ByteSource* a = opened->sources[0].get();
    const strata::ByteSource* b = opened->sources[1].get();
    opened->root =
        std::make_unique<strata::Node>("raw.file", "example.bin", strata::Region{a, 0, 10});
    opened->root->appendChild(
        std::make_unique<strata::Node>("raw.part", "head", strata::Region{a, 0, 4}));
    opened->root->appendChild(
        std::make_unique<strata::Node>("raw.other", "b", strata::Region{b, 0, 6}));
    opened->facts = {{"Size", "10 bytes"}};
    opened->makeValidator = [] { return std::make_unique<FixedValidator>(); };
    return opened;
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class DocumentTest : public QObject {
    Q_OBJECT
private slots:
    void describesTheOpenedDocument() {
        Document doc(makeOpened());
        QCOMPARE(doc.path(), QString("/data/example.bin"));
        QCOMPARE(doc.displayName(), QString("example.bin"));
        QCOMPARE(doc.format(), strata::kRawBinaryFormat);
        QVERIFY(!doc.formatName().isEmpty());
        QCOMPARE(doc.root()->kind(), std::string("raw.file"));
        QCOMPARE(doc.facts().size(), std::size_t(1));
        QCOMPARE(doc.files().size(), 2);
        QCOMPARE(doc.primaryFile()->name(), QString("a"));
        QCOMPARE(doc.overlayFor(doc.opened()->sources[1].get()), doc.files().at(1));
        QCOMPARE(doc.overlayFor(nullptr), nullptr);
    }

    void findsTheNodeCoveringEachFile() {
        Document doc(makeOpened());
        const strata::ByteSource* a = doc.opened()->sources[0].get();
        const strata::ByteSource* b = doc.opened()->sources[1].get();
        QCOMPARE(doc.fileNodeFor(a), doc.root());
        QCOMPARE(doc.fileNodeFor(b)->kind(), std::string("raw.other"));
        QCOMPARE(doc.fileNodeFor(b)->deepestAt(3, b), doc.fileNodeFor(b));
    }

    void overwriteUndoRedoAndModifiedFlag() {
        Document doc(makeOpened());
        QSignalSpy modified(&doc, &Document::modifiedChanged);
        QSignalSpy bytes(&doc, &Document::bytesChanged);
        auto* file = doc.primaryFile();
        QVERIFY(!doc.isModified());

        doc.overwrite(file, 2, "A");
        doc.overwrite(file, 3, "B");  // continues the run: merged
        doc.overwrite(file, 3, "C");  // second nibble of the same byte: merged
        QCOMPARE(file->read(0, 10), QByteArray("01AC456789"));
        QVERIFY(doc.isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.at(0).at(0).toBool(), true);
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(bytes.count() >= 3);

        doc.overwrite(file, 8, "Z", false);  // not mergeable: its own step
        QCOMPARE(doc.undoStack()->count(), 2);

        doc.undoStack()->undo();
        QCOMPARE(file->read(0, 10), QByteArray("01AC456789"));
        doc.undoStack()->undo();
        QCOMPARE(file->read(0, 10), QByteArray("0123456789"));
        QVERIFY(!doc.isModified());
        QVERIFY(!file->hasEdits());
        QCOMPARE(modified.last().at(0).toBool(), false);

        doc.undoStack()->redo();
        QCOMPARE(file->read(0, 10), QByteArray("01AC456789"));
        QVERIFY(doc.isModified());

        // Edits past the end do nothing and push nothing.
        doc.overwrite(file, 10, "x");
        QCOMPARE(doc.undoStack()->index(), 1);
    }

    void editsInDifferentFilesDoNotMerge() {
        Document doc(makeOpened());
        doc.overwrite(doc.files().at(0), 0, "x");
        doc.overwrite(doc.files().at(1), 1, "y");
        QCOMPARE(doc.undoStack()->count(), 2);
        QCOMPARE(doc.files().at(1)->read(0, 6), QByteArray("aycdef"));
    }

    void saveAsWritesThePrimaryFileAndMarksClean() {
        QTemporaryDir dir;
        Document doc(makeOpened());
        doc.overwrite(doc.primaryFile(), 0, "##");
        QVERIFY(doc.isModified());
        const QString target = dir.filePath("saved.bin");
        QCOMPARE(doc.saveAs(target), QString());
        QCOMPARE(readFile(target), QByteArray("##23456789"));
        QVERIFY(!doc.isModified());
        QVERIFY(!doc.saveAs(dir.filePath("no/such/dir.bin")).isEmpty());
        QCOMPARE(doc.saveFileAs(doc.files().at(1), dir.filePath("b.bin")), QString());
        QCOMPARE(readFile(dir.filePath("b.bin")), QByteArray("abcdef"));
    }

    void editsAfterASaveStartANewUndoStep() {
        QTemporaryDir dir;
        Document doc(makeOpened());
        doc.overwrite(doc.primaryFile(), 0, "a");
        QCOMPARE(doc.saveAs(dir.filePath("one.bin")), QString());
        QVERIFY(!doc.isModified());
        doc.overwrite(doc.primaryFile(), 1, "b");  // would merge, but the saved step stays
        QCOMPARE(doc.undoStack()->count(), 2);
        QVERIFY(doc.isModified());
        doc.undoStack()->undo();
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.primaryFile()->read(0, 3), QByteArray("a12"));
    }

    void backgroundSaveMarksCleanUnlessEditedMeanwhile() {
        QTemporaryDir dir;
        strata::model::JobRunner runner;
        Document doc(makeOpened());
        doc.overwrite(doc.primaryFile(), 0, "Q");
        QSignalSpy saved(&doc, &Document::saved);
        Job* job = strata::model::startSaveAs(runner, doc, dir.filePath("bg.bin"));
        QVERIFY(job != nullptr);
        QTRY_COMPARE(job->state(), Job::State::Finished);
        QTRY_COMPARE(saved.count(), 1);
        QVERIFY(!doc.isModified());
        QCOMPARE(readFile(dir.filePath("bg.bin")), QByteArray("Q123456789"));

        doc.overwrite(doc.primaryFile(), 5, "R", false);
        Job* second = strata::model::startSaveAs(runner, doc, dir.filePath("bg2.bin"));
        doc.overwrite(doc.primaryFile(), 6, "S", false);  // after the snapshot
        QTRY_COMPARE(second->state(), Job::State::Finished);
        QTRY_COMPARE(saved.count(), 2);
        QVERIFY(doc.isModified());
        QCOMPARE(readFile(dir.filePath("bg2.bin")), QByteArray("Q1234R6789"));

        Job* failing = strata::model::startSaveAs(runner, doc, dir.filePath("none/x.bin"));
        QTRY_COMPARE(failing->state(), Job::State::Failed);
        QVERIFY(!failing->errorText().isEmpty());
    }

    void bookmarks() {
        Document doc(makeOpened());
        QSignalSpy changed(&doc, &Document::bookmarksChanged);
        const strata::ByteSource* a = doc.opened()->sources[0].get();
        doc.addBookmark({a, 4, 2, "crc"});
        doc.addBookmark({a, 8, 1, "tail"});
        QCOMPARE(doc.bookmarks().size(), 2);
        doc.removeBookmark(0);
        QCOMPARE(doc.bookmarks().size(), 1);
        QCOMPARE(doc.bookmarks().front().name, QString("tail"));
        doc.removeBookmark(5);
        QCOMPARE(changed.count(), 3);
        doc.clearBookmarks();
        QVERIFY(doc.bookmarks().isEmpty());
    }

    void makesValidators() {
        Document doc(makeOpened());
        auto validator = doc.makeValidator();
        QVERIFY(validator != nullptr);
        strata::CollectingSink sink;
        validator->run(sink, {});
        QVERIFY(sink.hasCode("TEST-RULE"));
        QVERIFY(doc.diagnostics() != nullptr);

        auto bare = std::make_unique<strata::OpenedDocument>();
        Document empty(std::move(bare));
        QVERIFY(empty.makeValidator() == nullptr);
        QVERIFY(empty.primaryFile() == nullptr);
        QVERIFY(!empty.saveAs("/tmp/never-written").isEmpty());
    }

    void tellsUrlsFromPaths() {
        using strata::model::isRefusedScheme;
        using strata::model::isRemoteUrl;
        QVERIFY(isRemoteUrl(QStringLiteral("http://127.0.0.1/a.zs")));
        QVERIFY(isRemoteUrl(QStringLiteral("HTTPS://host/a.zt")));
        QVERIFY(isRemoteUrl(QStringLiteral("s3://bucket/key.zt")));
        QVERIFY(!isRemoteUrl(QStringLiteral("/tmp/a.zs")));
        QVERIFY(!isRemoteUrl(QStringLiteral("file:///tmp/a.zs")));
        QVERIFY(isRefusedScheme(QStringLiteral("ftp://host/a.zs")));
        QVERIFY(!isRefusedScheme(QStringLiteral("file:///tmp/a.zs")));
        QVERIFY(!isRefusedScheme(QStringLiteral("http://host/a.zs")));
        // A local document is not remote and shows no network totals.
        Document local(makeOpened());
        QVERIFY(!local.isRemote());
        QVERIFY(!local.isReadOnly());
        QCOMPARE(local.networkStats().requests, 0u);
    }

    void refusesOtherSchemes() {
        QString error;
        QVERIFY(Document::open(QStringLiteral("ftp://127.0.0.1/a.zs"), &error) == nullptr);
        QVERIFY2(error.contains(QStringLiteral("ftp://127.0.0.1/a.zs")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("refused")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(DocumentTest)
#include "document_test.moc"
