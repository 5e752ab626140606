// Saving ZDS edits keeps the collection's history: superseded and deleted lines stay in
// data.jsonl as they were, an edit is a new line after the one it supersedes (as the format's
// own updates add lines), and the saved dataset's live documents are exactly the table's rows.
#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/zds/zds_edit_commands.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_table_model.h"

namespace fs = std::filesystem;
using namespace strata;
using namespace strata::model;

namespace {

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeFile(const fs::path& p, const std::string& bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

// data.jsonl with an older version of "a", a deleted "gone" and three live documents; the
// index lists a (its newer line), b and c.
const std::string kData = R"({"_id":"a","v":1})"
                          "\n"
                          R"({"_id":"gone","v":1})"
                          "\n"
                          R"({"_id":"b","v":1})"
                          "\n"
                          R"({"_id":"a","v":2})"
                          "\n"
                          R"({"_id":"c","v":1})"
                          "\n";

fs::path makeDataset(const fs::path& root) {
    const fs::path meta = root / "collections" / "c" / "meta";
    writeFile(meta / "data.jsonl", kData);
    std::vector<zds::ZdsLineEntry> entries;
    for (const std::string line :
         {R"({"_id":"b","v":1})", R"({"_id":"a","v":2})", R"({"_id":"c","v":1})"}) {
        zds::ZdsLineEntry e;
        e.id =
            *zds::extractJsonId({reinterpret_cast<const std::uint8_t*>(line.data()), line.size()});
        e.hasId = true;
        e.offset = kData.find(line);
        e.length = line.size() + 1;
        entries.push_back(e);
    }
    writeFile(meta / "index.bin", zds::encodeZdx(entries));
    return root;
}

bool waitFor(JobRunner& runner, const std::function<bool()>& done) {
    for (int i = 0; i < 2000 && !done(); ++i) {
        runner.waitForDone();
        QCoreApplication::processEvents();
        if (!done()) {
            QTest::qWait(5);
        }
    }
    return done();
}

// id -> bytes of the live documents of the dataset's only collection.
std::map<std::string, std::string> liveDocuments(const fs::path& path) {
    const auto ds = zds::ZdsDataset::open(path);
    const zds::ZdsCollection& c = *ds->collections.at(0);
    std::map<std::string, std::string> out;
    for (std::uint64_t i = 0; i < c.documentCount(); ++i) {
        const ByteView v = c.documentBytes(i);
        out[c.document(i).id] = std::string(v.bytes.begin(), v.bytes.end());
    }
    return out;
}

}  // namespace

class ZdsEditorSaveTest : public QObject {
    Q_OBJECT
private slots:
    void saveKeepsSupersededAndDeletedLines();
};

void ZdsEditorSaveTest::saveKeepsSupersededAndDeletedLines() {
    QTemporaryDir dir;
    const fs::path path = makeDataset(fs::path(dir.path().toStdString()) / "ds");
    std::map<std::string, std::string> rows;  // what the table holds when saved
    {
        QString error;
        auto document = Document::open(QString::fromStdString(path.string()), &error);
        QVERIFY2(document, qPrintable(error));
        JobRunner runner;
        auto* editor = new ZdsEditor(*document, zds::ZdsDataset::open(path));
        document->setEditor(editor);
        editor->startLoading(runner);
        QVERIFY(waitFor(runner, [&] { return editor->loaded(); }));
        ZdsTableModel* table = editor->table(0);
        QCOMPARE(table->documentCount(), 3);
        int b = -1;
        for (int i = 0; i < table->documentCount(); ++i) {
            b = table->id(i) == "b" ? i : b;
        }
        QVERIFY(b >= 0);
        QCOMPARE(replaceZdsDocument(document->undoStack(), table, b, R"({"_id":"b","v":2})"),
                 QString());
        for (int i = 0; i < table->documentCount(); ++i) {
            rows[table->id(i)] = table->text(i);
        }
        Job* job = editor->startSave(runner, QString::fromStdString(path.string()), &error);
        QVERIFY2(job, qPrintable(error));
        QVERIFY(waitFor(runner, [&] { return !job->isRunning(); }));
        QCOMPARE(job->state(), Job::State::Finished);
    }
    // The old lines, history included, are still there, byte for byte; the edit follows the
    // line it replaces.
    const std::string data = readFile(path / "collections/c/meta/data.jsonl");
    const std::size_t after = kData.find(R"({"_id":"a","v":2})");
    QCOMPARE(data, kData.substr(0, after) + R"({"_id":"b","v":2})" + "\n" + kData.substr(after));
    // The saved live documents are the table's rows: "gone" stays deleted, "a" is its newer
    // version, "b" the edit.
    QCOMPARE(liveDocuments(path), rows);
    QCOMPARE(rows.at("a"), std::string(R"({"_id":"a","v":2})"));
    QCOMPARE(rows.at("b"), std::string(R"({"_id":"b","v":2})"));
    QVERIFY(rows.count("gone") == 0);
}

QTEST_MAIN(ZdsEditorSaveTest)
#include "zds_editor_save_test.moc"
