// The dataset writer: saved datasets read back and validate clean, unchanged documents keep
// their bytes, index and manifests agree, bad input leaves the dataset untouched, a save killed
// at a random point leaves the old or the new dataset, never a mix.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_writer.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using zds_test::corpusDir;
using zds_test::ScratchDir;

std::string bytesOf(const ByteView& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

// id → document bytes, for every collection.
std::map<std::string, std::map<std::string, std::string>> snapshot(const fs::path& path) {
    const auto ds = zds::ZdsDataset::open(path);
    std::map<std::string, std::map<std::string, std::string>> out;
    for (const auto& c : ds->collections) {
        auto& docs = out[c->name()];
        for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
            docs[c->document(i).id] = bytesOf(c->documentBytes(i));
        }
    }
    return out;
}

std::vector<zds::ZdsCollectionWrite> rewriteAll(const zds::ZdsDataset& ds) {
    std::vector<zds::ZdsCollectionWrite> out;
    for (const auto& c : ds.collections) {
        out.push_back(zds::unchangedCollection(*c));
    }
    return out;
}

std::size_t validationErrors(const fs::path& path, std::string* report = nullptr) {
    CollectingSink sink;
    zds_test::validate(path, sink);
    if (report != nullptr) {
        *report = zds_test::describe(sink);
    }
    return sink.countOf(Severity::Error);
}

std::string writerCaseName(const ::testing::TestParamInfo<std::string>& param) {
    std::string n = param.param;
    std::replace(n.begin(), n.end(), '.', '_');
    return n;
}

class ZdsWriterCorpus : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override { STRATA_SKIP_WITHOUT_CORPUS(); }
};

TEST_P(ZdsWriterCorpus, UnchangedSaveReadsBackTheSameDocuments) {
    ScratchDir dir("rt");
    const fs::path src = corpusDir() / "valid" / GetParam();
    const fs::path copy = dir.path() / GetParam();
    fs::copy(src, copy, fs::copy_options::recursive);
    const auto before = snapshot(copy);
    {
        const auto ds = zds::ZdsDataset::open(copy);
        const zds::ZdsWriteResult r = zds::writeZdsDataset(ds.get(), rewriteAll(*ds), copy);
        EXPECT_FALSE(r.cancelled);
    }
    EXPECT_EQ(snapshot(copy), before);
    std::string report;
    EXPECT_EQ(validationErrors(copy, &report), 0u) << report;
    // Nothing of the staging is left behind.
    for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
        EXPECT_EQ(e.path().string().find("strata-stage"), std::string::npos) << e.path();
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ZdsWriterCorpus,
                         ::testing::Values("jsonl_two_collections", "jsonl_100k", "jsonl_compacted",
                                           "jsonl_empty_collection", "jsonl_index_absent",
                                           "python_fast_store", "docs_mode", "python_file_store",
                                           "zds_json_documented", "jsonl_two_collections.zds",
                                           "docs_mode.zds", "jsonl_100k.zds"),
                         writerCaseName);

TEST(ZdsWriter, SecondUnchangedSaveIsByteIdentical) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("ident");
    const fs::path copy = dir.path() / "ds";
    fs::copy(corpusDir() / "valid" / "jsonl_compacted", copy, fs::copy_options::recursive);
    const fs::path meta = copy / "collections" / "main" / "meta";
    ASSERT_TRUE(fs::exists(meta / "data.jsonl"));
    const auto save = [&] {
        const auto ds = zds::ZdsDataset::open(copy);
        zds::writeZdsDataset(ds.get(), rewriteAll(*ds), copy);
    };
    save();  // drops lines no index entry points at
    const std::string data = zds_test::readAll(meta / "data.jsonl");
    const std::string index = zds_test::readAll(meta / "index.bin");
    save();
    EXPECT_EQ(zds_test::readAll(meta / "data.jsonl"), data);
    EXPECT_EQ(zds_test::readAll(meta / "index.bin"), index);
}

TEST(ZdsWriter, EditsKeepUntouchedBytesAndIndexAgrees) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("edit");
    const fs::path copy = dir.path() / "ds";
    fs::copy(corpusDir() / "valid" / "jsonl_two_collections", copy, fs::copy_options::recursive);
    const auto before = snapshot(copy);
    {
        const auto ds = zds::ZdsDataset::open(copy);
        const zds::ZdsCollection* train = nullptr;
        for (const auto& c : ds->collections) {
            if (c->name() == "train") {
                train = c.get();
            }
        }
        ASSERT_NE(train, nullptr);
        zds::ZdsCollectionWrite w = zds::unchangedCollection(*train);
        ASSERT_GE(w.documents.size(), 3u);
        const std::string removedId = train->document(*w.documents[1].originalIndex).id;
        const std::string changedId = train->document(*w.documents[0].originalIndex).id;
        w.documents.erase(w.documents.begin() + 1);
        w.documents[0] = zds::ZdsWriteDoc::text(R"({"_id":")" + changedId + R"(","fixed":true})");
        w.documents.push_back(
            zds::ZdsWriteDoc::text("{\"_id\":\"new_doc\",\n \"n\": 123456789012345678901234}"));
        zds::writeZdsDataset(ds.get(), {w}, copy);
        auto after = snapshot(copy);
        EXPECT_EQ(after["test"], before.at("test"));
        auto& docs = after["train"];
        EXPECT_EQ(docs.count(removedId), 0u);
        EXPECT_EQ(docs[changedId], R"({"_id":")" + changedId + R"(","fixed":true})");
        EXPECT_EQ(docs["new_doc"], R"({"_id":"new_doc",  "n": 123456789012345678901234})");
        for (const auto& [id, bytes] : before.at("train")) {
            if (id != removedId && id != changedId) {
                EXPECT_EQ(docs[id], bytes) << id;
            }
        }
        EXPECT_EQ(docs.size(), before.at("train").size());
    }
    std::string report;
    EXPECT_EQ(validationErrors(copy, &report), 0u) << report;
    EXPECT_EQ(report.find("COUNT"), std::string::npos) << report;
    const auto ds = zds::ZdsDataset::open(copy);
    const auto manifest =
        nlohmann::json::parse(zds_test::readAll(copy / "collections/train/meta/manifest.json"));
    const auto zdsJson = nlohmann::json::parse(zds_test::readAll(copy / "zds.json"));
    for (const auto& c : ds->collections) {
        EXPECT_TRUE(c->usesIndex());
        EXPECT_EQ(zdsJson["collections"][c->name()]["count"].get<std::uint64_t>(),
                  c->documentCount());
        if (c->name() == "train") {
            EXPECT_EQ(manifest["doc_count"].get<std::uint64_t>(), c->documentCount());
        }
    }
}

// A save through keepingHistory: every old line of data.jsonl stays, in order and byte for byte
// (older versions, deleted documents, a line that is not a document, a blank line), an edit
// follows the line it replaces, a new document comes last, and the live documents are exactly
// the edited set, read through the new index or (should it be lost) from the lines.
TEST(ZdsWriter, KeepingHistoryKeepsEveryOldLine) {
    ScratchDir dir("history");
    const fs::path ds = dir.path() / "ds";
    const fs::path meta = ds / "collections" / "c" / "meta";
    const std::string old = R"({"_id":"a","v":1})"
                            "\n"
                            R"({"_id":"b","v":1})"
                            "\n"
                            R"({"_id":"gone","v":1})"
                            "\n"
                            "not a document\n"
                            "\n"
                            R"({"_id":"a","v":2})"
                            "\n"
                            R"({"_id":"c","v":1})"
                            "\n"
                            R"({"_id":"d","v":1})";  // no final newline
    zds_test::writeAll(meta / "data.jsonl", old);
    // The index lists a (its second line), b, c and d: "gone" was deleted.
    std::vector<zds::ZdsLineEntry> entries;
    for (const auto& [id, line] :
         std::vector<std::pair<std::string, std::string>>{{"b", R"({"_id":"b","v":1})"},
                                                          {"a", R"({"_id":"a","v":2})"},
                                                          {"c", R"({"_id":"c","v":1})"},
                                                          {"d", R"({"_id":"d","v":1})"}}) {
        zds::ZdsLineEntry e;
        e.id = id;
        e.hasId = true;
        e.offset = old.find(line);
        e.length = line.size() + 1;
        entries.push_back(e);
    }
    zds_test::writeAll(meta / "index.bin", zds::encodeZdx(entries));
    {
        const auto dataset = zds::ZdsDataset::open(ds);
        const zds::ZdsCollection& c = *dataset->collections.at(0);
        ASSERT_EQ(c.documentCount(), 4u);
        zds::ZdsCollectionWrite w = zds::unchangedCollection(c);  // a, b, c, d in stored order
        ASSERT_EQ(c.document(*w.documents[0].originalIndex).id, "b");
        w.documents.erase(w.documents.begin());  // b deleted
        for (zds::ZdsWriteDoc& d : w.documents) {
            if (c.document(*d.originalIndex).id == "c") {
                d = zds::ZdsWriteDoc::text(R"({"_id":"c","v":2})");  // c edited
            }
        }
        w.documents.push_back(zds::ZdsWriteDoc::text(R"({"_id":"e","v":1})"));  // e added
        zds::writeZdsDataset(dataset.get(), {zds::keepingHistory(std::move(w))}, ds);
    }
    // The edit of c follows its old line; e, a new id, comes after every old line.
    const std::string data = zds_test::readAll(meta / "data.jsonl");
    const std::size_t d = old.find(R"({"_id":"d")");
    EXPECT_EQ(data, old.substr(0, d) + R"({"_id":"c","v":2})" + "\n" + old.substr(d) + "\n" +
                        R"({"_id":"e","v":1})" + "\n");
    const std::map<std::string, std::string> live = {{"a", R"({"_id":"a","v":2})"},
                                                     {"c", R"({"_id":"c","v":2})"},
                                                     {"d", R"({"_id":"d","v":1})"},
                                                     {"e", R"({"_id":"e","v":1})"}};
    EXPECT_EQ(snapshot(ds)["c"], live);
    std::string report;
    EXPECT_EQ(validationErrors(ds, &report), 1u) << report;  // the line that is not a document
    EXPECT_NE(report.find("ZDS-JSON"), std::string::npos) << report;
    // Without the index the last line of each _id is still the live one (deleted documents
    // come back, as they do for the reference).
    fs::remove(meta / "index.bin");
    auto fromLines = snapshot(ds)["c"];
    EXPECT_EQ(fromLines.erase("b") + fromLines.erase("gone"), 2u);
    EXPECT_EQ(fromLines, live);
}

TEST(ZdsWriter, NewDatasetFromTextOnly) {
    ScratchDir dir("new");
    zds::ZdsCollectionWrite w;
    w.name = "default";
    for (int i = 0; i < 5; ++i) {
        w.documents.push_back(zds::ZdsWriteDoc::text(R"({"_id":"d)" + std::to_string(i) +
                                                     R"(","i":)" + std::to_string(i) + "}"));
    }
    for (const char* name : {"folder", "archive.zds"}) {
        const fs::path target = dir.path() / name;
        zds::writeZdsDataset(nullptr, {w}, target);
        const auto snap = snapshot(target);
        ASSERT_EQ(snap.count("default"), 1u) << name;
        EXPECT_EQ(snap.at("default").size(), 5u);
        EXPECT_EQ(snap.at("default").at("d3"), R"({"_id":"d3","i":3})");
        std::string report;
        EXPECT_EQ(validationErrors(target, &report), 0u) << report;
    }
}

TEST(ZdsWriter, ArchiveMembersAreStoredUnlessAskedToDeflate) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("store");
    const fs::path target = dir.path() / "out.zds";
    const auto ds = zds::ZdsDataset::open(corpusDir() / "valid" / "jsonl_two_collections.zds");
    zds::writeZdsDataset(ds.get(), rewriteAll(*ds), target);
    const auto archive = ZipArchive::open(target);
    for (const ZipMember& m : archive->members()) {
        if (m.name.ends_with("data.jsonl") || m.name.ends_with("index.bin")) {
            EXPECT_EQ(m.method, kZipMethodStore) << m.name;
        }
    }
    zds::ZdsWriteOptions options;
    options.deflate = true;
    zds::writeZdsDataset(ds.get(), rewriteAll(*ds), target, options);
    const auto deflated = ZipArchive::open(target);
    bool sawDeflate = false;
    for (const ZipMember& m : deflated->members()) {
        sawDeflate = sawDeflate || m.method == kZipMethodDeflate;
    }
    EXPECT_TRUE(sawDeflate);
    EXPECT_EQ(snapshot(target), snapshot(corpusDir() / "valid" / "jsonl_two_collections.zds"));
}

TEST(ZdsWriter, SaveAsFolderFromArchiveAndBack) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("saveas");
    const fs::path zds = corpusDir() / "valid" / "docs_mode.zds";
    const auto ds = zds::ZdsDataset::open(zds);
    zds::writeZdsDataset(ds.get(), rewriteAll(*ds), dir.path() / "folder");
    EXPECT_EQ(snapshot(dir.path() / "folder"), snapshot(zds));
    const auto folder = zds::ZdsDataset::open(dir.path() / "folder");
    zds::writeZdsDataset(folder.get(), rewriteAll(*folder), dir.path() / "again.zds");
    EXPECT_EQ(snapshot(dir.path() / "again.zds"), snapshot(zds));
}

TEST(ZdsWriter, LayoutConversionKeepsValues) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("conv");
    const fs::path src = corpusDir() / "valid" / "docs_mode";
    const auto ds = zds::ZdsDataset::open(src);
    zds::ZdsCollectionWrite w = zds::unchangedCollection(*ds->collections.at(0));
    w.layout = zds::ZdsLayout::Jsonl;
    const fs::path jsonl = dir.path() / "jsonl";
    zds::writeZdsDataset(ds.get(), {w}, jsonl);
    const auto converted = zds::ZdsDataset::open(jsonl);
    const zds::ZdsCollection& c = *converted->collections.at(0);
    ASSERT_EQ(c.mode(), zds::ZdsStorageMode::Jsonl);
    ASSERT_EQ(c.documentCount(), 3u);
    std::vector<std::string> ids;
    for (std::uint64_t i = 0; i < c.documentCount(); ++i) {
        ids.push_back(c.document(i).id);
        const auto doc = nlohmann::json::parse(bytesOf(c.documentBytes(i)));
        EXPECT_EQ(doc["_id"], c.document(i).id);
    }
    EXPECT_EQ(ids, (std::vector<std::string>{"doc_b", "doc_a", "doc_c"}));

    // And back to one file per document, compared as JSON values.
    zds::ZdsCollectionWrite back = zds::unchangedCollection(c);
    back.layout = zds::ZdsLayout::Docs;
    const fs::path docs = dir.path() / "docs";
    zds::writeZdsDataset(converted.get(), {back}, docs);
    const auto original = snapshot(src);
    const auto again = snapshot(docs);
    for (const auto& [id, bytes] : original.at("default")) {
        EXPECT_EQ(nlohmann::json::parse(again.at("default").at(id)), nlohmann::json::parse(bytes))
            << id;
    }
}

TEST(ZdsWriter, BadDocumentsThrowAndLeaveTheDatasetAlone) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("bad");
    const fs::path copy = dir.path() / "ds";
    fs::copy(corpusDir() / "valid" / "jsonl_two_collections", copy, fs::copy_options::recursive);
    const auto before = snapshot(copy);
    const auto ds = zds::ZdsDataset::open(copy);
    for (const std::string& text : {std::string(R"({"v":1})"), std::string(R"({"_id":7})"),
                                    std::string("[1,2]"), std::string(R"({"_id":"x",)")}) {
        zds::ZdsCollectionWrite w = zds::unchangedCollection(*ds->collections.at(0));
        w.documents.push_back(zds::ZdsWriteDoc::text(text));
        EXPECT_THROW(zds::writeZdsDataset(ds.get(), {w}, copy), zds::ZdsWriteError) << text;
    }
    zds::ZdsCollectionWrite docs;
    docs.name = "train";
    docs.layout = zds::ZdsLayout::Docs;
    docs.documents.push_back(zds::ZdsWriteDoc::text(R"({"_id":"../escape"})"));
    EXPECT_THROW(zds::writeZdsDataset(ds.get(), {docs}, copy), zds::ZdsWriteError);
    EXPECT_FALSE(fs::exists(dir.path() / "escape.json"));
    EXPECT_EQ(snapshot(copy), before);
}

TEST(ZdsWriter, CancelLeavesTheDatasetAlone) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("cancel");
    const fs::path copy = dir.path() / "ds";
    fs::copy(corpusDir() / "valid" / "jsonl_100k", copy, fs::copy_options::recursive);
    const std::string data = zds_test::readAll(copy / "collections/default/meta/data.jsonl");
    const auto ds = zds::ZdsDataset::open(copy);
    std::vector<zds::ZdsCollectionWrite> writes = rewriteAll(*ds);
    int n = 0;
    for (auto& d : writes.at(0).documents) {
        d = zds::ZdsWriteDoc::text(R"({"_id":"n)" + std::to_string(n++) + R"(","x":1})");
    }
    CancelToken cancel;
    zds::ZdsWriteOptions options;
    options.cancel = &cancel;
    options.progress = [&](double fraction, const std::string&) {
        if (fraction > 0.2) {
            cancel.cancel();
        }
    };
    EXPECT_TRUE(zds::writeZdsDataset(ds.get(), writes, copy, options).cancelled);
    EXPECT_EQ(zds_test::readAll(copy / "collections/default/meta/data.jsonl"), data);
}

TEST(ZdsWriter, SixteenMegabyteDocument) {
    ScratchDir dir("big");
    const std::string big = R"({"_id":"big","s":")" + std::string(16u << 20, 'x') + "\"}";
    zds::ZdsCollectionWrite w;
    w.name = "default";
    w.documents = {zds::ZdsWriteDoc::text(R"({"_id":"small"})"), zds::ZdsWriteDoc::text(big)};
    for (const char* name : {"folder", "big.zds"}) {
        const fs::path target = dir.path() / name;
        zds::writeZdsDataset(nullptr, {w}, target);
        const auto snap = snapshot(target);
        EXPECT_EQ(snap.at("default").at("big"), big);
        std::string report;
        EXPECT_EQ(validationErrors(target, &report), 0u) << report;
    }
    const auto data = openMappedFile(dir.path() / "folder/collections/default/meta/data.jsonl");
    const auto lines = zds::indexJsonLines(*data);
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 2u);
    EXPECT_EQ((*lines)[1].id, "big");
    EXPECT_EQ((*lines)[1].length, big.size() + 1);
}

// Many batches of new documents (checked ahead on pool threads): the bytes are exactly the
// documents in order, line breaks become spaces, and the first problem in document order is
// the one reported, whatever batch it falls in.
TEST(ZdsWriter, ManyNewDocumentsInOrderAndFirstProblemWins) {
    ScratchDir dir("many");
    zds::ZdsCollectionWrite w;
    w.name = "default";
    std::string expected;
    for (int i = 0; i < 20000; ++i) {
        std::string doc = R"({"_id":"n)" + std::to_string(i) + R"(","v":)" + std::to_string(i) +
                          (i % 5000 == 7 ? ",\n\"nl\":1}" : "}");
        w.documents.push_back(zds::ZdsWriteDoc::text(doc));
        std::replace(doc.begin(), doc.end(), '\n', ' ');
        expected += doc + "\n";
    }
    const fs::path target = dir.path() / "ds";
    zds::writeZdsDataset(nullptr, {w}, target);
    EXPECT_EQ(zds_test::readAll(target / "collections/default/meta/data.jsonl"), expected);
    std::string report;
    EXPECT_EQ(validationErrors(target, &report), 0u) << report;

    zds::ZdsCollectionWrite bad = w;
    bad.documents[13000] = zds::ZdsWriteDoc::text(R"({"_id":5})");
    bad.documents[17000] = zds::ZdsWriteDoc::text("not json");
    try {
        zds::writeZdsDataset(nullptr, {bad}, dir.path() / "bad");
        ADD_FAILURE() << "no error";
    } catch (const zds::ZdsWriteError& e) {
        EXPECT_EQ(std::string(e.what()), "collection default, new document 13000: no string _id");
    }
    bad.documents[9000] = zds::ZdsWriteDoc::text(R"({"_id":"n3"})");
    try {
        zds::writeZdsDataset(nullptr, {bad}, dir.path() / "bad");
        ADD_FAILURE() << "no error";
    } catch (const zds::ZdsWriteError& e) {
        EXPECT_EQ(std::string(e.what()), "collection default: id n3 appears twice");
    }
    bad.documents[100] = zds::ZdsWriteDoc::text(R"({"_id":"x",)");
    try {
        zds::writeZdsDataset(nullptr, {bad}, dir.path() / "bad");
        ADD_FAILURE() << "no error";
    } catch (const zds::ZdsWriteError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("collection default, new document 100: not a JSON "
                                              "object: ",
                                              0),
                  0u)
            << e.what();
    }
    EXPECT_FALSE(fs::exists(dir.path() / "bad/collections"));
}

// ---- crash safety ----

constexpr int kKillDocs = 60000;

zds::ZdsCollectionWrite generation(int version) {
    zds::ZdsCollectionWrite w;
    w.name = "default";
    const int count = kKillDocs + version * 1000;
    for (int i = 0; i < count; ++i) {
        w.documents.push_back(zds::ZdsWriteDoc::text(
            R"({"_id":"k)" + std::to_string(i) + R"(","v":)" + std::to_string(version) +
            R"(,"pad":"................................"})"));
    }
    return w;
}

// The dataset is whole: index and data agree, every document has one generation's value, and
// the count is that generation's.
void expectOneGeneration(const fs::path& path, int a, int b) {
    const auto ds = zds::ZdsDataset::open(path);
    ASSERT_EQ(ds->collections.size(), 1u);
    const zds::ZdsCollection& c = *ds->collections[0];
    ASSERT_TRUE(c.usesIndex());
    const std::uint64_t n = c.documentCount();
    const int version = n == kKillDocs + a * 1000u ? a : b;
    ASSERT_EQ(n, kKillDocs + version * 1000u);
    ASSERT_EQ(c.zdx()->entryCount(), n);
    const std::string want = R"(","v":)" + std::to_string(version) + ",";
    for (std::uint64_t i = 0; i < n; i += 997) {
        const std::string doc = bytesOf(c.documentBytes(i));
        ASSERT_NE(doc.find(want), std::string::npos) << doc;
        ASSERT_EQ(doc.rfind(R"({"_id":")" + c.document(i).id + "\"", 0), 0u) << doc;
    }
}

TEST(ZdsWriterCrash, KilledSaveLeavesOldOrNew) {
    ScratchDir dir("kill");
    std::mt19937 rng(::testing::UnitTest::GetInstance()->random_seed());
    for (const char* name : {"folder", "archive.zds"}) {
        const fs::path target = dir.path() / name;
        zds::writeZdsDataset(nullptr, {generation(1)}, target);
        for (int round = 0; round < 6; ++round) {
            const int next = 2 + round % 2;
            const int previous = round == 0 ? 1 : 2 + (round + 1) % 2;
            const pid_t child = ::fork();
            ASSERT_GE(child, 0);
            if (child == 0) {
                try {
                    const auto ds = zds::ZdsDataset::open(target);
                    zds::writeZdsDataset(ds.get(), {generation(next)}, target);
                } catch (...) {
                    ::_exit(3);
                }
                ::_exit(0);
            }
            std::uniform_int_distribution<int> delay(0, 1500);
            ::usleep(static_cast<useconds_t>(delay(rng) * 1000));
            ::kill(child, SIGKILL);
            int status = 0;
            ::waitpid(child, &status, 0);
            ASSERT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 3);
            expectOneGeneration(target, previous, next);
            // Bring the dataset to the known next generation for the next round.
            const auto ds = zds::ZdsDataset::open(target);
            zds::writeZdsDataset(ds.get(), {generation(next)}, target);
            expectOneGeneration(target, next, next);
        }
    }
}

}  // namespace
}  // namespace strata
