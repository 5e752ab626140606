// The zTensor editor: every edit is one undo step that undo and redo reverse exactly; refused
// edits push nothing; Save writes a file that reads back with the edits applied and the same
// logical values.
#include <QCryptographicHash>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QFileInfo>
#include <QFont>

#include <memory>
#include <numeric>

#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_digest.h"
#include "formats/ztensor/zt_validator.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ztensor/zt_editor.h"
#include "model/ztensor/zt_manifest_models.h"
#include "model/ztensor/zt_tensor_table_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::model;

namespace {

QString corpus(const QString& relative) {
    return QString::fromStdString((strata::test::corpusRoot() / "ztensor").string()) + '/' +
           relative;
}

std::shared_ptr<const ztensor::ZtFile> fileOf(const Document& document) {
    return ztensor::ZtFile::open(document.opened()->sources.front());
}

QByteArray logicalSha(const ztensor::ZtFile& file, const ztensor::ZtTensor& tensor) {
    const ztensor::ZtBytes bytes = ztensor::ztTensorBytes(file, tensor);
    return QCryptographicHash::hash(QByteArray(reinterpret_cast<const char*>(bytes.view.data()),
                                               static_cast<qsizetype>(bytes.view.size())),
                                    QCryptographicHash::Sha256);
}

}  // namespace

class ZtEditorTest : public QObject {
    Q_OBJECT
private slots:
    void init();
    void renameWithUndoRedo();
    void deleteWithUndoRedo();
    void encodingAndDigestWithUndoRedo();
    void attributesWithUndoRedo();
    void tableShowsPlan();
    void saveAndReopen();
    void saveRefusesDuplicateNames();
    void saveKeepsSparseTensors();

private:
    std::unique_ptr<Document> openCopy(const QString& relative);

    std::unique_ptr<QTemporaryDir> dir_;
};

void ZtEditorTest::init() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
}

std::unique_ptr<Document> ZtEditorTest::openCopy(const QString& relative) {
    const QString copy = dir_->filePath(QFileInfo(relative).fileName());
    QFile::remove(copy);
    if (!QFile::copy(corpus(relative), copy)) {
        return nullptr;
    }
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    QString error;
    auto document = Document::open(copy, &error);
    if (!document) {
        qWarning() << error;
    }
    return document;
}

void ZtEditorTest::renameWithUndoRedo() {
    auto document = openCopy(QStringLiteral("valid/dense_raw.zt"));
    QVERIFY(document);
    auto* editor = new ZtEditor(*document, fileOf(*document));
    document->setEditor(editor);
    QSignalSpy changed(editor, &ZtEditor::planChanged);
    const auto before = editor->plan();
    QVERIFY(editor->renameTensor(0, QStringLiteral("renamed")));
    QCOMPARE(editor->plan().tensors[0].name, std::string("renamed"));
    QCOMPARE(document->undoStack()->count(), 1);
    QVERIFY(document->isModified());
    QCOMPARE(changed.count(), 1);
    document->undoStack()->undo();
    QCOMPARE(editor->plan(), before);
    QVERIFY(!document->isModified());
    document->undoStack()->redo();
    QCOMPARE(editor->plan().tensors[0].name, std::string("renamed"));

    // Refused: empty, taken, unchanged. None of them adds an undo step.
    QString error;
    QVERIFY(!editor->renameTensor(0, QString(), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!editor->renameTensor(0, QString::fromStdString(editor->plan().tensors[1].name)));
    QVERIFY(!editor->renameTensor(0, QStringLiteral("renamed")));
    QVERIFY(!editor->renameTensor(999, QStringLiteral("x")));
    QCOMPARE(document->undoStack()->count(), 1);
}

void ZtEditorTest::deleteWithUndoRedo() {
    auto document = openCopy(QStringLiteral("valid/dense_raw.zt"));
    QVERIFY(document);
    auto* editor = new ZtEditor(*document, fileOf(*document));
    QVERIFY(editor->setDeleted({1, 2}, true));
    QVERIFY(editor->plan().tensors[1].deleted && editor->plan().tensors[2].deleted);
    QVERIFY(!editor->plan().tensors[0].deleted);
    // A deleted tensor's name is free again.
    QVERIFY(editor->renameTensor(0, QString::fromStdString(editor->plan().tensors[1].name)));
    document->undoStack()->undo();
    document->undoStack()->undo();
    QVERIFY(!editor->plan().tensors[1].deleted);
    document->undoStack()->redo();
    QVERIFY(editor->plan().tensors[2].deleted);
    QVERIFY(!editor->setDeleted({1, 2}, true));  // nothing changes
}

void ZtEditorTest::encodingAndDigestWithUndoRedo() {
    auto document = openCopy(QStringLiteral("valid/dense_raw.zt"));
    QVERIFY(document);
    auto file = fileOf(*document);
    auto* editor = new ZtEditor(*document, file);
    QVERIFY(editor->setEncoding({0}, ZtEncodingChoice::Zstd));
    QVERIFY(editor->setDigest({0, 1}, ZtDigestChoice::Sha256));
    QVERIFY(editor->setZstdLevel(9));
    const ztensor::ZtComponent& data = file->components()[file->tensors()[0].components.front()];
    QCOMPARE(ztPlannedEncoding(data, editor->plan().tensors[0]), ztensor::ZtEncoding::Zstd);
    QCOMPARE(ztPlannedDigest(data, editor->plan().tensors[0]), ztensor::ZtDigestAlgorithm::Sha256);
    QCOMPARE(editor->plan().zstdLevel, 9);
    document->undoStack()->undo();
    QCOMPARE(editor->plan().zstdLevel, 3);
    document->undoStack()->undo();
    QCOMPARE(editor->plan().tensors[1].digest, ZtDigestChoice::Keep);
    QCOMPARE(ztPlannedDigest(data, editor->plan().tensors[0]), std::nullopt);
    document->undoStack()->undo();
    QCOMPARE(ztPlannedEncoding(data, editor->plan().tensors[0]), ztensor::ZtEncoding::Raw);
    document->undoStack()->redo();
    QCOMPARE(editor->plan().tensors[0].encoding, ZtEncodingChoice::Zstd);
}

void ZtEditorTest::attributesWithUndoRedo() {
    auto document = openCopy(QStringLiteral("valid/attrs_extra_keys.zt"));
    QVERIFY(document);
    auto file = fileOf(*document);
    auto* editor = new ZtEditor(*document, file);
    ZtAttributesModel model(file, editor);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.flags(model.index(0, 1)) & Qt::ItemIsEditable);
    QVERIFY(editor->setAttribute(QStringLiteral("new"), QStringLiteral("value")));
    QCOMPARE(model.rowCount(), 4);
    QVERIFY(model.setData(model.index(3, 1), QStringLiteral("changed")));
    QCOMPARE(model.index(3, 1).data().toString(), QStringLiteral("changed"));
    QVERIFY(model.setData(model.index(3, 0), QStringLiteral("renamed")));
    QCOMPARE(model.index(3, 0).data().toString(), QStringLiteral("renamed"));
    // Renaming onto another key is refused with a reason.
    QVERIFY(!model.setData(model.index(3, 0), model.index(0, 0).data()));
    QVERIFY(!model.lastError().isEmpty());
    QVERIFY(editor->removeAttribute(QStringLiteral("renamed")));
    QVERIFY(!editor->removeAttribute(QStringLiteral("renamed")));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(document->undoStack()->count(), 4);
    for (int i = 0; i < 4; ++i) {
        document->undoStack()->undo();
    }
    QCOMPARE(editor->plan().attributes, file->attributes());
    document->undoStack()->redo();
    document->undoStack()->redo();
    QCOMPARE(model.index(3, 1).data().toString(), QStringLiteral("changed"));
}

void ZtEditorTest::tableShowsPlan() {
    auto document = openCopy(QStringLiteral("valid/single_f32_raw.zt"));
    QVERIFY(document);
    auto file = fileOf(*document);
    auto* editor = new ZtEditor(*document, file);
    ZtTensorTableModel model(file, editor);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(editor->renameTensor(0, QStringLiteral("y")));
    QVERIFY(editor->setEncoding({0}, ZtEncodingChoice::Zstd));
    QVERIFY(editor->setDeleted({0}, true));
    QCOMPARE(changed.count(), 3);
    QCOMPARE(model.index(0, ZtTensorTableModel::Name).data().toString(),
             QStringLiteral("y (was x)"));
    QCOMPARE(model.index(0, ZtTensorTableModel::Encoding).data().toString(),
             QStringLiteral("raw → zstd"));
    QVERIFY(model.index(0, 0).data(Qt::FontRole).value<QFont>().strikeOut());
}

void ZtEditorTest::saveAndReopen() {
    auto document = openCopy(QStringLiteral("valid/dense_raw.zt"));
    QVERIFY(document);
    auto file = fileOf(*document);
    auto* editor = new ZtEditor(*document, file);
    document->setEditor(editor);
    const ztensor::ZtTensor* f32 = file->findTensor("t_float32");
    const ztensor::ZtTensor* i64 = file->findTensor("t_int64");
    const ztensor::ZtTensor* big = file->findTensor("t_big_f32");
    QVERIFY(f32 && i64 && big);
    const auto index = [&](const ztensor::ZtTensor* t) {
        return static_cast<std::size_t>(t - &file->tensors()[0]);
    };
    QVERIFY(editor->renameTensor(index(f32), QStringLiteral("weights")));
    QVERIFY(editor->setDeleted({index(i64)}, true));
    QVERIFY(editor->setEncoding({index(big)}, ZtEncodingChoice::Zstd));
    QVERIFY(editor->setDigest({index(big)}, ZtDigestChoice::Crc32c));
    QVERIFY(editor->setDigest({index(f32)}, ZtDigestChoice::Sha256));
    QVERIFY(editor->setAttribute(QStringLiteral("note"), QStringLiteral("edited")));

    const QString out = dir_->filePath(QStringLiteral("saved.zt"));
    JobRunner runner;
    QString error;
    Job* job = editor->startSave(runner, out, &error);
    QVERIFY2(job, qPrintable(error));
    QSignalSpy finished(job, &Job::finished);
    QVERIFY(finished.wait(60000));
    QCOMPARE(job->state(), Job::State::Finished);
    QVERIFY(!document->isModified());
    QCOMPARE(document->path(), document->path());  // the document stays open

    auto saved = ztensor::ZtFile::open(openMappedFile(out.toStdString()));
    QCOMPARE(saved->status(), Status::Ok);
    QCOMPARE(saved->tensors().size(), file->tensors().size() - 1);
    QVERIFY(saved->findTensor("t_int64") == nullptr);
    QVERIFY(saved->findTensor("t_float32") == nullptr);
    const ztensor::ZtTensor* weights = saved->findTensor("weights");
    QVERIFY(weights);
    QCOMPARE(logicalSha(*saved, *weights), logicalSha(*file, *f32));
    const ztensor::ZtComponent* weightsData = saved->component(*weights, "data");
    QVERIFY(weightsData->digest && weightsData->digest->starts_with("sha256:"));
    const ztensor::ZtTensor* savedBig = saved->findTensor("t_big_f32");
    const ztensor::ZtComponent* bigData = saved->component(*savedBig, "data");
    QCOMPARE(bigData->encoding, ztensor::ZtEncoding::Zstd);
    QVERIFY(bigData->digest && bigData->digest->starts_with("crc32c:0x"));
    QVERIFY(*bigData->length < 16384);
    QCOMPARE(logicalSha(*saved, *savedBig), logicalSha(*file, *big));
    for (const ztensor::ZtTensor& t : saved->tensors()) {
        const ztensor::ZtTensor* original =
            file->findTensor(t.name == "weights" ? "t_float32" : t.name);
        QVERIFY(original);
        QCOMPARE(logicalSha(*saved, t), logicalSha(*file, *original));
    }
    bool sawNote = false;
    for (const auto& [key, value] : saved->attributes()) {
        sawNote |= key == "note" && value == "edited";
    }
    QVERIFY(sawNote);
    // The saved file passes the full validator (digests included).
    CollectingSink sink;
    ztensor::ZtValidator(saved).run(sink, {});
    QCOMPARE(sink.countOf(Severity::Error), 0u);
    QCOMPARE(sink.countOf(Severity::Warning), 0u);
}

void ZtEditorTest::saveRefusesDuplicateNames() {
    auto document = openCopy(QStringLiteral("valid/dense_raw.zt"));
    QVERIFY(document);
    auto file = fileOf(*document);
    auto* editor = new ZtEditor(*document, file);
    // Rename 0 to 1's name while 1 is deleted, then restore 1: a clash the save refuses.
    QVERIFY(editor->setDeleted({1}, true));
    QVERIFY(editor->renameTensor(0, QString::fromStdString(file->tensors()[1].name)));
    QVERIFY(editor->setDeleted({1}, false));
    QVERIFY(!ztPlanProblem(*file, editor->plan()).empty());
    JobRunner runner;
    QString error;
    QVERIFY(editor->startSave(runner, dir_->filePath(QStringLiteral("no.zt")), &error) == nullptr);
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(dir_->filePath(QStringLiteral("no.zt"))));
}

void ZtEditorTest::saveKeepsSparseTensors() {
    auto document = openCopy(QStringLiteral("valid/sparse_zstd_crc32c.zt"));
    QVERIFY(document);
    auto file = fileOf(*document);
    auto* editor = new ZtEditor(*document, file);
    std::vector<std::size_t> all(file->tensors().size());
    std::iota(all.begin(), all.end(), 0);
    QVERIFY(editor->setEncoding(all, ZtEncodingChoice::Raw));
    const QString out = dir_->filePath(QStringLiteral("sparse.zt"));
    JobRunner runner;
    QString error;
    Job* job = editor->startSave(runner, out, &error);
    QVERIFY2(job, qPrintable(error));
    QSignalSpy finished(job, &Job::finished);
    QVERIFY(finished.wait(60000));
    QCOMPARE(job->state(), Job::State::Finished);
    auto saved = ztensor::ZtFile::open(openMappedFile(out.toStdString()));
    QCOMPARE(saved->tensors().size(), file->tensors().size());
    for (const ztensor::ZtTensor& t : saved->tensors()) {
        const ztensor::ZtTensor* original = file->findTensor(t.name);
        QVERIFY(original);
        QCOMPARE(t.formatName, original->formatName);
        QCOMPARE(logicalSha(*saved, t), logicalSha(*file, *original));
        for (std::size_t c : t.components) {
            QCOMPARE(saved->components()[c].encoding, ztensor::ZtEncoding::Raw);
            // "As stored": the crc32c digests are kept, recomputed over the new bytes.
            QVERIFY(saved->components()[c].digest.has_value());
        }
    }
    CollectingSink sink;
    ztensor::ZtValidator(saved).run(sink, {});
    QCOMPARE(sink.countOf(Severity::Error), 0u);
}

QTEST_GUILESS_MAIN(ZtEditorTest)
#include "zt_editor_test.moc"
