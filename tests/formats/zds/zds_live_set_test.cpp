// The live set of a collection is one definition: listing, lookup, counts, validation and every
// job that rewrites a collection (compact, convert, pack, unpack, reindex) agree on it, and a
// rewrite never brings back a document the index no longer lists. Each case runs the steps and
// compares the result document by document.
#include <gtest/gtest.h>
#include <zip.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>
#include <unordered_set>

#include "formats/zds/zds_docs_checks.h"
#include "formats/zds/zds_docs_meta.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_live_set.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_writer.h"
#include "process_resources.h"
#include "zds_test_support.h"

namespace strata {
namespace {

using test::mappingsUnder;

namespace fs = std::filesystem;
using zds_test::readAll;
using zds_test::ScratchDir;
using zds_test::writeAll;

// id -> document text (line ending stripped) for every live document of a collection.
using Documents = std::map<std::string, std::string>;

Documents liveDocuments(const fs::path& dataset, const std::string& collection) {
    const auto ds = zds::ZdsDataset::open(dataset);
    const zds::ZdsCollection& c = zds::chooseZdsCollection(*ds, collection);
    Documents out;
    for (std::uint64_t i = 0; i < c.documentCount(); ++i) {
        const ByteView v = c.documentBytes(i);
        EXPECT_TRUE(
            out.emplace(c.document(i).id, std::string(v.bytes.begin(), v.bytes.end())).second)
            << "id listed twice: " << c.document(i).id;
    }
    return out;
}

// The same documents compared as JSON values (a layout change re-serialises them), without
// `_id` (docs/ files carry it in their name).
std::map<std::string, nlohmann::json> asValues(const Documents& docs) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& [id, text] : docs) {
        auto v = nlohmann::json::parse(text);
        v.erase("_id");
        out[id] = v;
    }
    return out;
}

std::string line(const std::string& id, int v) {
    return "{\"_id\":\"" + id + "\",\"v\":" + std::to_string(v) + "}";
}

struct Entry {
    std::string id;
    std::uint64_t offset, length;
};

// data.jsonl from lines; the offsets of each line returned through `at`.
std::string dataOf(const std::vector<std::string>& lines, std::vector<Entry>* at) {
    std::string data;
    for (const std::string& l : lines) {
        const auto id =
            zds::jsonLineId(std::span(reinterpret_cast<const std::uint8_t*>(l.data()), l.size()));
        at->push_back({id.value_or(""), data.size(), l.size() + 1});
        data += l + "\n";
    }
    return data;
}

std::string binaryIndex(const std::vector<Entry>& entries) {
    std::string out = zds::encodeZdxHeader(entries.size());
    for (const Entry& e : entries) {
        zds::appendZdxEntry(out, e.id, e.offset, e.length);
    }
    return out;
}

std::string textIndex(const std::vector<Entry>& entries) {
    std::string out;
    for (const Entry& e : entries) {
        out += e.id + "\t" + std::to_string(e.offset) + "\t" + std::to_string(e.length) + "\n";
    }
    return out;
}

fs::path metaOf(const fs::path& ds, const std::string& c = "default") {
    return ds / "collections" / c / "meta";
}

// Five documents; d2 was updated (its old line stays) and d4 deleted (its line stays, the index
// no longer lists it), as the reference leaves a store before compaction.
struct Store {
    std::vector<std::string> lines = {line("d0", 0), line("d1", 1), line("d2", 2),
                                      line("d3", 3), line("d4", 4), line("d2", 22)};
    std::vector<Entry> at;
    std::string data = dataOf(lines, &at);
    // The live entries: d0, d1, d2 (its newer line), d3.
    std::vector<Entry> live() const { return {at[0], at[1], at[5], at[3]}; }
    Documents expected() const {
        return {{"d0", lines[0]}, {"d1", lines[1]}, {"d2", lines[5]}, {"d3", lines[3]}};
    }
};

void writeStore(const fs::path& ds, const Store& s, const std::string& index) {
    writeAll(metaOf(ds) / "data.jsonl", s.data);
    writeAll(metaOf(ds) / "index.bin", index);
}

bool anyNoteContains(const std::vector<std::string>& notes, const std::string& text) {
    for (const std::string& n : notes) {
        if (n.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST(ZdsLiveSet, BinaryIndexIsTheLiveSet) {
    ScratchDir dir("live_bin");
    const Store s;
    writeStore(dir.path(), s, binaryIndex(s.live()));
    EXPECT_EQ(liveDocuments(dir.path(), ""), s.expected());
    const auto ds = zds::ZdsDataset::open(dir.path());
    const auto live = ds->collections.at(0)->liveSet();
    EXPECT_EQ(live->basis(), zds::ZdsLiveBasis::Index);
    EXPECT_TRUE(live->notes().empty());
    // Stored order is file order.
    EXPECT_EQ(std::string(live->id(2)), "d3");
    EXPECT_EQ(std::string(live->id(3)), "d2");
}

// The regression: compact of a legacy text index kept every line, so d4 came back.
TEST(ZdsLiveSet, CompactOfATextIndexKeepsDeletedDocumentsDeleted) {
    ScratchDir dir("live_text");
    const Store s;
    writeStore(dir.path(), s, textIndex(s.live()));
    EXPECT_EQ(liveDocuments(dir.path(), ""), s.expected());
    const zds::ZdsJobResult r = zds::compactZds(dir.path());
    EXPECT_EQ(r.documents, 4u);
    EXPECT_EQ(liveDocuments(dir.path(), ""), s.expected());
    EXPECT_EQ(readAll(metaOf(dir.path()) / "data.jsonl").find("\"d4\""), std::string::npos);
    EXPECT_TRUE(anyNoteContains(r.notes, "not listed by the index")) << r.notes.size();
}

// The regression: one entry naming a line with another _id made compact ignore the index.
TEST(ZdsLiveSet, CompactWithAnEntryOnTheWrongLineKeepsTheIndexSet) {
    ScratchDir dir("live_wrong");
    const Store s;
    auto entries = s.live();
    entries[1].offset = s.at[0].offset;  // d1's entry points at d0's line
    entries[1].length = s.at[0].length;
    writeStore(dir.path(), s, binaryIndex(entries));
    // d1 is found by its _id among the lines; d4 stays deleted.
    const Documents before = liveDocuments(dir.path(), "");
    EXPECT_EQ(before, s.expected());
    const zds::ZdsJobResult r = zds::compactZds(dir.path());
    EXPECT_EQ(liveDocuments(dir.path(), ""), s.expected());
    EXPECT_TRUE(anyNoteContains(r.notes, "does not point at a line with its _id"));
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_EQ(zds_test::errorCount(sink), 0u) << zds_test::describe(sink);
}

// An entry whose key no line carries (the reference serves it with the other line's content):
// every write keeps the key, so the ids a reader finds never change.
TEST(ZdsLiveSet, KeysWithoutTheirOwnLineSurviveRewrites) {
    ScratchDir dir("live_alias");
    const Store s;
    auto entries = s.live();
    entries.push_back({"alias", s.at[0].offset, s.at[0].length});  // a second key on d0's line
    writeStore(dir.path(), s, binaryIndex(entries));
    Documents expected = s.expected();
    expected["alias"] = s.lines[0];
    EXPECT_EQ(liveDocuments(dir.path(), ""), expected);
    const auto ds = zds::ZdsDataset::open(dir.path());
    const auto live = ds->collections.at(0)->liveSet();
    EXPECT_EQ(live->countFlag(zds::kZdsLiveKeyMismatch), 1u);
    EXPECT_FALSE(live->notes().empty());

    zds::compactZds(dir.path());
    EXPECT_EQ(liveDocuments(dir.path(), ""), expected);
    zds::reindexZds(dir.path());
    EXPECT_EQ(liveDocuments(dir.path(), ""), expected);
}

TEST(ZdsLiveSet, EntriesPointingNowhereAreListedButUnreadable) {
    ScratchDir dir("live_nowhere");
    const Store s;
    auto entries = s.live();
    entries.push_back({"ghost", 1u << 30, 10});
    writeStore(dir.path(), s, binaryIndex(entries));
    const auto ds = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    const auto live = c.liveSet();
    ASSERT_EQ(live->size(), 5u);  // the reference lists it too
    const auto ghost = live->find("ghost");
    ASSERT_TRUE(ghost);
    EXPECT_EQ(live->flags(*ghost), zds::kZdsLiveUnreadable);
    EXPECT_TRUE(c.documentBytes(*ghost).empty());
    // A rewrite cannot keep what has no bytes: it says so.
    const zds::ZdsJobResult r = zds::compactZds(dir.path());
    EXPECT_TRUE(anyNoteContains(r.notes, "'ghost' cannot be read"));
    EXPECT_EQ(liveDocuments(dir.path(), ""), s.expected());
}

// Without a readable index the reference rebuilds from the lines, and so does the live set;
// it says that deleted documents are live again.
TEST(ZdsLiveSet, UnreadableIndexFallsBackToTheLinesAndSaysSo) {
    ScratchDir dir("live_unreadable");
    const Store s;
    std::string index = binaryIndex(s.live());
    index[0] = 'X';
    writeStore(dir.path(), s, index);
    const auto ds = zds::ZdsDataset::open(dir.path());
    const auto live = ds->collections.at(0)->liveSet();
    EXPECT_EQ(live->basis(), zds::ZdsLiveBasis::Lines);
    EXPECT_TRUE(anyNoteContains(live->notes(), "deleted only from the index are live again"));
    Documents withD4 = s.expected();
    withD4["d4"] = s.lines[4];
    EXPECT_EQ(liveDocuments(dir.path(), ""), withD4);
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-LIVE-LINES")) << zds_test::describe(sink);
}

// A count-0 index lists nothing: the reference rebuilds from the lines.
TEST(ZdsLiveSet, EmptyIndexIsRebuiltFromTheLines) {
    ScratchDir dir("live_empty_index");
    const Store s;
    writeStore(dir.path(), s, zds::encodeZdxHeader(0));
    const auto ds = zds::ZdsDataset::open(dir.path());
    EXPECT_EQ(ds->collections.at(0)->liveSet()->basis(), zds::ZdsLiveBasis::Lines);
    EXPECT_EQ(ds->collections.at(0)->documentCount(), 5u);
}

// Reindex keeps the set; --from-lines rebuilds from the lines and says what came back.
TEST(ZdsLiveSet, ReindexKeepsTheSetUnlessAskedToUseTheLines) {
    ScratchDir dir("live_reindex");
    const Store s;
    auto entries = s.live();
    entries[1].offset += 1;  // d1's entry is off by one byte
    writeStore(dir.path(), s, textIndex(entries));
    zds::reindexZds(dir.path());
    EXPECT_EQ(liveDocuments(dir.path(), ""), s.expected());
    const auto ds = zds::ZdsDataset::open(dir.path());
    const auto live = ds->collections.at(0)->liveSet();
    EXPECT_EQ(live->basis(), zds::ZdsLiveBasis::Index);  // rewritten as binary ZDX
    EXPECT_TRUE(live->notes().empty());

    zds::ZdsJobOptions fromLines;
    fromLines.fromLines = true;
    const zds::ZdsJobResult r = zds::reindexZds(dir.path(), fromLines);
    EXPECT_TRUE(anyNoteContains(r.notes, "live again")) << r.notes.size();
    EXPECT_EQ(liveDocuments(dir.path(), "").size(), 5u);
}

// The live set survives every job: compact, convert both ways, pack and unpack.
TEST(ZdsLiveSet, EveryJobKeepsTheSameDocuments) {
    ScratchDir dir("live_jobs");
    const Store s;
    const fs::path ds = dir.path() / "ds";
    writeStore(ds, s, textIndex(s.live()));
    const auto values = asValues(s.expected());

    zds::packZds(ds, dir.path() / "packed.zds");
    EXPECT_EQ(liveDocuments(dir.path() / "packed.zds", ""), s.expected());
    zds::unpackZds(dir.path() / "packed.zds", dir.path() / "unpacked");
    EXPECT_EQ(liveDocuments(dir.path() / "unpacked", ""), s.expected());

    zds::convertZds(ds, zds::ZdsLayout::Docs);
    EXPECT_EQ(asValues(liveDocuments(ds, "")), values);
    zds::convertZds(ds, zds::ZdsLayout::Jsonl);
    EXPECT_EQ(asValues(liveDocuments(ds, "")), values);
    zds::compactZds(ds);
    EXPECT_EQ(asValues(liveDocuments(ds, "")), values);
}

// convert --to docs writes every metadata file the reference's engine reads, consistent with
// the documents it wrote; Strata's own validator finds nothing to say about them.
TEST(ZdsLiveSet, ConvertToDocsWritesTheEngineMetadata) {
    ScratchDir dir("live_docsmeta");
    const Store s;
    writeStore(dir.path(), s, binaryIndex(s.live()));
    zds::convertZds(dir.path(), zds::ZdsLayout::Docs);
    const fs::path coll = dir.path() / "collections/default";
    const fs::path meta = coll / "meta";
    EXPECT_FALSE(fs::exists(meta / "data.jsonl"));
    EXPECT_FALSE(fs::exists(meta / "index.bin"));

    // order.ids: every id once, in stored order.
    EXPECT_EQ(readAll(meta / "order.ids"), "d0\nd1\nd3\nd2\n");
    // doc_index.jsonl: one entry per document, each naming its file and its size.
    std::map<std::string, zds::ZdsDocIndexEntry> index;
    std::string error;
    const std::string docIndexText = readAll(meta / "doc_index.jsonl");
    for (const zds::ZdsTextLine& l : zds::zdsTextLines(docIndexText)) {
        const auto e = zds::parseZdsDocIndexLine(l.text, &error);
        ASSERT_TRUE(e) << error;
        EXPECT_EQ(e->size, fs::file_size(coll / "docs" / (e->docId + ".json")));
        index[e->docId] = *e;
    }
    EXPECT_EQ(index.size(), 4u);
    // schemas.jsonl: the schema every document uses, with the right count.
    std::map<std::string, std::uint64_t> counts;
    const std::string schemasText = readAll(meta / "schemas.jsonl");
    for (const zds::ZdsTextLine& l : zds::zdsTextLines(schemasText)) {
        const auto e = zds::parseZdsSchemaLine(l.text, &error);
        ASSERT_TRUE(e) << error;
        EXPECT_EQ(e->schema, nlohmann::json::parse(R"({"v":"integer"})"));
        counts[e->schemaId] = e->count;
    }
    ASSERT_EQ(counts.size(), 1u);
    EXPECT_EQ(counts.begin()->second, 4u);
    for (const auto& [id, e] : index) {
        EXPECT_EQ(e.schemaId, counts.begin()->first);
    }
    // journal.log: a PUT for each document, then a COMMIT.
    std::set<std::string> put;
    int commits = 0;
    const std::string journalText = readAll(meta / "journal.log");
    for (const zds::ZdsTextLine& l : zds::zdsTextLines(journalText)) {
        const auto e = zds::parseZdsJournalLine(l.text, &error);
        ASSERT_TRUE(e) << error;
        if (e->op == zds::ZdsJournalEntry::Op::Put) {
            put.insert(e->docId);
        }
        commits += e->op == zds::ZdsJournalEntry::Op::Commit ? 1 : 0;
    }
    EXPECT_EQ(put, (std::set<std::string>{"d0", "d1", "d2", "d3"}));
    EXPECT_EQ(commits, 1);
    const auto manifest = nlohmann::json::parse(readAll(meta / "manifest.json"));
    EXPECT_EQ(manifest["doc_count"], 4);
    EXPECT_EQ(manifest["schema_count"], 1);
    EXPECT_EQ(manifest["collection"], "default");

    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_EQ(sink.diagnostics().size(), 0u) << zds_test::describe(sink);
    EXPECT_EQ(asValues(liveDocuments(dir.path(), "")), asValues(s.expected()));
}

// A rewrite of a docs/ collection keeps the journal and records only what changed.
TEST(ZdsLiveSet, DocsRewriteAppendsToTheJournal) {
    ScratchDir dir("live_journal");
    const Store s;
    writeStore(dir.path(), s, binaryIndex(s.live()));
    zds::convertZds(dir.path(), zds::ZdsLayout::Docs);
    const fs::path meta = dir.path() / "collections/default/meta";
    const std::string before = readAll(meta / "journal.log");
    const auto ds = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    zds::ZdsCollectionWrite w = zds::unchangedCollection(c);
    w.documents.erase(w.documents.begin());                                    // delete d0
    w.documents.push_back(zds::ZdsWriteDoc::text(R"({"_id":"d9","w":"x"})"));  // add d9
    zds::writeZdsDataset(ds.get(), {w}, dir.path());
    const std::string after = readAll(meta / "journal.log");
    ASSERT_EQ(after.compare(0, before.size(), before), 0);
    const auto added = zds::zdsTextLines(std::string_view(after).substr(before.size()));
    ASSERT_EQ(added.size(), 3u);  // PUT d9, DELETE d0, COMMIT 2
    std::string error;
    EXPECT_EQ(zds::parseZdsJournalLine(added[0].text, &error)->docId, "d9");
    EXPECT_EQ(zds::parseZdsJournalLine(added[1].text, &error)->op,
              zds::ZdsJournalEntry::Op::Delete);
    EXPECT_EQ(zds::parseZdsJournalLine(added[2].text, &error)->batchId, 2u);
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_EQ(sink.diagnostics().size(), 0u) << zds_test::describe(sink);
}

// Names of the members of a ZIP.
std::set<std::string> memberNames(const fs::path& zip) {
    int err = 0;
    zip_t* z = zip_open(zip.c_str(), ZIP_RDONLY, &err);
    EXPECT_NE(z, nullptr);
    std::set<std::string> out;
    for (zip_int64_t i = 0; z != nullptr && i < zip_get_num_entries(z, 0); ++i) {
        out.insert(zip_get_name(z, static_cast<zip_uint64_t>(i), 0));
    }
    if (z != nullptr) {
        zip_discard(z);
    }
    return out;
}

// pack writes folder entries, so empty collections and empty datasets survive; the packed
// file validates; unpack gives back the same folders and documents.
TEST(ZdsLiveSet, PackKeepsEmptyCollectionsAndEmptyDatasets) {
    ScratchDir dir("live_pack");
    const Store s;
    const fs::path ds = dir.path() / "ds";
    writeStore(ds, s, binaryIndex(s.live()));
    fs::create_directories(ds / "collections/empty/meta");
    writeAll(ds / "collections/empty/meta/data.jsonl", "");
    fs::create_directories(ds / "collections/bare");
    zds::packZds(ds, dir.path() / "ds.zds");
    const auto names = memberNames(dir.path() / "ds.zds");
    for (const char* folder :
         {"collections/", "collections/default/", "collections/default/meta/", "collections/empty/",
          "collections/empty/meta/", "collections/bare/"}) {
        EXPECT_EQ(names.count(folder), 1u) << folder;
    }
    CollectingSink sink;
    zds_test::validate(dir.path() / "ds.zds", sink);
    EXPECT_EQ(zds_test::errorCount(sink), 0u) << zds_test::describe(sink);
    zds::unpackZds(dir.path() / "ds.zds", dir.path() / "back");
    EXPECT_TRUE(fs::is_directory(dir.path() / "back/collections/bare"));
    EXPECT_TRUE(fs::is_regular_file(dir.path() / "back/collections/empty/meta/data.jsonl"));
    EXPECT_EQ(liveDocuments(dir.path() / "back", "default"), s.expected());
    const auto back = zds::ZdsDataset::open(dir.path() / "back");
    EXPECT_EQ(back->collections.size(), 3u);

    // A dataset with no collection at all.
    fs::create_directories(dir.path() / "none/collections");
    zds::packZds(dir.path() / "none", dir.path() / "none.zds");
    EXPECT_EQ(memberNames(dir.path() / "none.zds").count("collections/"), 1u);
    CollectingSink emptySink;
    zds_test::validate(dir.path() / "none.zds", emptySink);
    EXPECT_EQ(zds_test::errorCount(emptySink), 0u) << zds_test::describe(emptySink);
    zds::unpackZds(dir.path() / "none.zds", dir.path() / "none_back");
    EXPECT_TRUE(fs::is_directory(dir.path() / "none_back/collections"));
}

// ---- file-per-document collections ----

void writeDocsStore(const fs::path& ds) {
    const fs::path c = ds / "collections/default";
    writeAll(c / "docs/a.json", "{\n  \"v\": 1\n}");
    writeAll(c / "docs/b.json", "{\n  \"v\": 2\n}");
}

TEST(ZdsLiveSet, DocsWithoutMetadataAreListedWithANote) {
    ScratchDir dir("live_docs_bare");
    writeDocsStore(dir.path());
    const auto ds = zds::ZdsDataset::open(dir.path());
    const auto live = ds->collections.at(0)->liveSet();
    EXPECT_EQ(live->basis(), zds::ZdsLiveBasis::DocFiles);
    EXPECT_EQ(live->size(), 2u);
    EXPECT_TRUE(anyNoteContains(live->notes(), "zippy CLI lists no documents"));
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-DOCINDEX-ABSENT")) << zds_test::describe(sink);
    EXPECT_EQ(zds_test::errorCount(sink), 0u);
    // reindex writes the metadata the engine needs.
    zds::reindexZds(dir.path());
    CollectingSink after;
    zds_test::validate(dir.path(), after);
    EXPECT_EQ(after.diagnostics().size(), 0u) << zds_test::describe(after);
    EXPECT_EQ(zds::ZdsDataset::open(dir.path())->collections.at(0)->liveSet()->basis(),
              zds::ZdsLiveBasis::OrderIds);
}

// Each kind of damage to the docs-mode metadata has its own code.
TEST(ZdsLiveSet, DocsMetadataDamageIsReported) {
    struct Case {
        std::string file, text, code;
    };
    const std::string goodIndex = R"({"doc_id":"a","schema_id":"s1","size":12,"mtime":1})"
                                  "\n"
                                  R"({"doc_id":"b","schema_id":"s1","size":12,"mtime":1})"
                                  "\n";
    const std::string goodSchemas = R"({"schema_id":"s1","schema":{"v":"integer"},"count":2})"
                                    "\n";
    const std::vector<Case> cases = {
        {"doc_index.jsonl", goodIndex + "{not json\n", "ZDS-DOCINDEX-LINE"},
        {"doc_index.jsonl", goodIndex + R"({"doc_id":"a","schema_id":"s1","size":-1,"mtime":1})",
         "ZDS-DOCINDEX-LINE"},
        {"doc_index.jsonl", goodIndex + R"({"doc_id":"a","schema_id":"s1","size":12,"mtime":1})",
         "ZDS-DOCINDEX-DUPLICATE"},
        {"doc_index.jsonl", goodIndex + R"({"doc_id":"zz","schema_id":"s1","size":1,"mtime":1})",
         "ZDS-DOCINDEX-MISSING"},
        {"doc_index.jsonl", R"({"doc_id":"a","schema_id":"s1","size":12,"mtime":1})",
         "ZDS-DOCINDEX-UNLISTED"},
        {"doc_index.jsonl",
         R"({"doc_id":"a","schema_id":"s1","size":99,"mtime":1})"
         "\n"
         R"({"doc_id":"b","schema_id":"s1","size":12,"mtime":1})",
         "ZDS-DOCINDEX-SIZE"},
        {"doc_index.jsonl",
         R"({"doc_id":"a","schema_id":"s1","size":12,"mtime":1})"
         "\n"
         R"({"doc_id":"b","schema_id":"s9","size":12,"mtime":1})",
         "ZDS-DOCINDEX-SCHEMA"},
        {"schemas.jsonl", "[]\n", "ZDS-SCHEMAS-LINE"},
        {"schemas.jsonl", R"({"schema_id":"s1","schema":{"v":"integer"},"count":5})",
         "ZDS-SCHEMAS-COUNT"},
        {"schemas.jsonl", R"({"schema_id":"s1","schema":{"w":"string"},"count":2})",
         "ZDS-SCHEMAS-SHAPE"},
        {"journal.log", "{\"op\":\"PUT\"}\n", "ZDS-JOURNAL-LINE"},
        {"journal.log",
         R"({"op":"PUT","timestamp":"2026-11-22T19:22:14Z","doc_id":"a","schema_id":"s1","size":12})"
         "\n",
         "ZDS-JOURNAL-UNCOMMITTED"},
        {"journal.log",
         R"({"op":"PUT","timestamp":"2026-11-22T19:22:14Z","doc_id":"a","schema_id":"s1","size":12})"
         "\n"
         R"({"op":"COMMIT","timestamp":"2026-11-22T19:22:14Z","batch_id":1})"
         "\n",
         "ZDS-JOURNAL-STATE"},
        {"order.ids", "a\n", "ZDS-ORDER-INCOMPLETE"},
    };
    for (const Case& k : cases) {
        ScratchDir dir("live_docs_damage");
        writeDocsStore(dir.path());
        const fs::path meta = dir.path() / "collections/default/meta";
        writeAll(meta / "doc_index.jsonl", goodIndex);
        writeAll(meta / "schemas.jsonl", goodSchemas);
        writeAll(meta / "order.ids", "a\nb\n");
        writeAll(meta / k.file, k.text);
        CollectingSink sink;
        zds_test::validate(dir.path(), sink);
        EXPECT_TRUE(sink.hasCode(k.code)) << k.code << "\n" << zds_test::describe(sink);
    }
}

// The validator reads the metadata beside the documents (ZdsDocsMetadataCheck::read on another
// thread) and reports it afterwards: the same findings, in the same order, as the checks run in
// one go, with several kinds of damage at once.
TEST(ZdsLiveSet, MetadataReadBesideTheDocumentsReportsAsInOneGo) {
    ScratchDir dir("live_docs_two_steps");
    writeDocsStore(dir.path());
    const fs::path meta = dir.path() / "collections/default/meta";
    writeAll(meta / "doc_index.jsonl", R"({"doc_id":"a","schema_id":"s1","size":99,"mtime":1})"
                                       "\n"
                                       R"({"doc_id":"zz","schema_id":"s9","size":1,"mtime":1})"
                                       "\n"
                                       R"({"doc_id":"a","schema_id":"s1","size":12,"mtime":1})"
                                       "\n");
    writeAll(meta / "schemas.jsonl",
             "[]\n"
             R"({"schema_id":"s1","schema":{"w":"string"},"count":5})"
             "\n");
    writeAll(meta / "order.ids", "a\nq\n");
    writeAll(meta / "journal.log", "{\"op\":\"PUT\"}\n");
    const auto dataset = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *dataset->collections.at(0);
    const std::unordered_set<std::string> files{"a", "b"};
    std::vector<std::string> once;
    std::vector<std::string> twoSteps;
    const auto into = [](std::vector<std::string>& out) {
        return [&out](Severity, const std::string& code, std::string message, std::vector<Region>,
                      std::string) { out.push_back(code + " " + message); };
    };
    zds::checkZdsDocsMetadata(c, files, false, into(once));
    zds::ZdsDocsMetadataCheck check(c, false);
    std::thread reader([&check] { check.read(); });
    reader.join();
    check.check(files, into(twoSteps));
    EXPECT_EQ(twoSteps, once);
    EXPECT_GE(once.size(), 6U) << ::testing::PrintToString(once);
}

TEST(ZdsLiveSet, StrictCollectionsHoldOneSchema) {
    ScratchDir dir("live_strict");
    writeDocsStore(dir.path());
    const fs::path c = dir.path() / "collections/default";
    writeAll(c / "docs/b.json", "{\n  \"w\": \"x\"\n}");
    zds::reindexZds(dir.path());
    writeAll(c / "meta/manifest.json", R"({"collection":"default","strict":true,"doc_count":2})");
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-SCHEMAS-STRICT")) << zds_test::describe(sink);
}

// Lines read by the fast parse give what nlohmann's parse gives, errors included: a repeated
// key counts its last value, -0 and 1.0 are not sizes, big numbers are not either.
TEST(ZdsDocsMeta, FastLineParseAgreesWithTheFullParse) {
    std::string error;
    const auto plain = zds::parseZdsDocIndexLine(
        R"({"doc_id":"a\u00e9","schema_id":"s","size":12,"mtime":3})", &error);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->docId, "a\xc3\xa9");
    EXPECT_EQ(plain->size, 12u);
    EXPECT_EQ(plain->mtime, 3u);
    const auto repeated = zds::parseZdsDocIndexLine(
        R"({"doc_id":"a","size":1,"schema_id":"s","size":7,"mtime":3,"extra":[1,{"x":2}]})",
        &error);
    ASSERT_TRUE(repeated);
    EXPECT_EQ(repeated->size, 7u);
    for (const char* bad :
         {R"({"doc_id":"a","schema_id":"s","size":-0,"mtime":3})",
          R"({"doc_id":"a","schema_id":"s","size": -1,"mtime":3})",
          R"({"doc_id":"a","schema_id":"s","size":1.0,"mtime":3})",
          R"({"doc_id":"a","schema_id":"s","size":1e2,"mtime":3})",
          R"({"doc_id":"a","schema_id":"s","size":18446744073709551616,"mtime":3})",
          R"({"doc_id":1,"schema_id":"s","size":1,"mtime":3})",
          R"({"doc_id":"a","schema_id":"s","size":1})", R"(["doc_id"])",
          R"({"doc_id":"a","schema_id":"s","size":1,"mtime":3} x)"}) {
        error.clear();
        EXPECT_FALSE(zds::parseZdsDocIndexLine(bad, &error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
    const auto put = zds::parseZdsJournalLine(
        R"({"op":"PUT","timestamp":"2026-11-22T19:22:14.2Z","doc_id":"a","schema_id":"s","size":5})",
        &error);
    ASSERT_TRUE(put);
    EXPECT_EQ(put->op, zds::ZdsJournalEntry::Op::Put);
    EXPECT_EQ(put->size, 5u);
    const auto commit = zds::parseZdsJournalLine(
        R"({"op":"COMMIT","timestamp":"2026-11-22T19:22:14Z","batch_id":9})", &error);
    ASSERT_TRUE(commit);
    EXPECT_EQ(commit->batchId, 9u);
    for (const char* bad :
         {R"({"op":"PUT","timestamp":"2026-11-22T19:22:14Z","doc_id":"a","schema_id":"s"})",
          R"({"op":"COMMIT","timestamp":"yesterday","batch_id":9})",
          R"({"op":"COMMIT","timestamp":"2026-11-22T19:22:14Z","batch_id":-0})",
          R"({"op":"MOVE","timestamp":"2026-11-22T19:22:14Z"})"}) {
        error.clear();
        EXPECT_FALSE(zds::parseZdsJournalLine(bad, &error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}

// The shape validation compares with schemas.jsonl is built from the parser's events; it must be
// the shape of the parsed tree exactly (keys sorted, a repeated key's last value, an array's
// first element, integers beyond int64 as numbers), and nothing for what does not parse.
std::optional<std::string> shapeOfTree(const std::string& text) {
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    return parsed.is_discarded() ? std::nullopt : std::optional(zds::zdsSchemaOf(parsed).dump());
}

std::optional<std::string> shapeOfText(const std::string& text) {
    return zds::zdsDocShape(
        std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

// A random JSON value of at most `depth` levels.
std::string randomJson(std::mt19937& rng, int depth) {
    const int kind = static_cast<int>(rng() % (depth > 0 ? 9 : 6));
    switch (kind) {
        case 0:
            return "null";
        case 1:
            return rng() % 2 ? "true" : "false";
        case 2:
            return std::to_string(static_cast<std::int64_t>(rng()) - 2000000000);
        case 3:
            return rng() % 2 ? "18446744073709551615" : "9223372036854775808";
        case 4:
            return rng() % 2 ? "1.5e3" : "-0.25";
        case 5:
            return "\"s" + std::to_string(rng() % 5) + "\"";
        case 6:
        case 7: {
            std::string out = "{";
            const int n = static_cast<int>(rng() % 4);
            for (int i = 0; i < n; ++i) {
                // Few key names, so keys repeat.
                out += (i ? "," : "") + std::string("\"k") + std::to_string(rng() % 3) +
                       "\":" + randomJson(rng, depth - 1);
            }
            return out + "}";
        }
        default: {
            std::string out = "[";
            const int n = static_cast<int>(rng() % 4);
            for (int i = 0; i < n; ++i) {
                out += (i ? "," : "") + randomJson(rng, depth - 1);
            }
            return out + "]";
        }
    }
}

TEST(ZdsDocsMeta, DocumentShapeIsTheShapeOfItsParsedTree) {
    for (const std::string text :
         {R"({"b":1,"a":[{"x":1},{"y":"s"}],"a":"now a string"})", R"([])", R"({})",
          R"([[1,2],[true]])", R"({"n":-0,"u":18446744073709551615,"f":1.0,"big":1e400})",
          R"("just a string")", R"({"k":{"k":{"k":[null]}}})", R"({"a":1} x)", R"({"a":)",
          "{\"a\":\"\xff\"}", R"({"a":[1,{"deep":[2,[3]]},3],"z":[[],[1]]})"}) {
        EXPECT_EQ(shapeOfText(text), shapeOfTree(text)) << text;
    }
    std::mt19937 rng(20261128);
    for (int i = 0; i < 5000; ++i) {
        const std::string text = randomJson(rng, 4);
        ASSERT_EQ(shapeOfText(text), shapeOfTree(text)) << text;
    }
}

// A docs/ folder of thousands of files: validating and reading every document keeps no
// mapping per file (the kernel's limit of about 65,000 once made every later file
// "unreadable"), and the verdict is clean.
TEST(ZdsLiveSet, ManyDocFilesHoldNoMappingEach) {
    ScratchDir dir("live_docs_many");
    constexpr int kDocs = 3000;
    for (int i = 0; i < kDocs; ++i) {
        const std::string id = "d" + std::to_string(100000 + i);
        writeAll(dir.path() / "collections/default/docs" / (id + ".json"),
                 R"({"_id":")" + id + R"(","v":)" + std::to_string(i) + "}");
    }
    zds::reindexZds(dir.path());
    const auto ds = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    ASSERT_EQ(c.documentCount(), static_cast<std::uint64_t>(kDocs));
    std::uint64_t bytes = 0;
    for (std::uint64_t i = 0; i < c.documentCount(); ++i) {
        bytes += c.documentBytes(i).size();
    }
    EXPECT_GT(bytes, 0u);
    // One id through order.ids and its one file, as the live set answers.
    const zds::ZdsIndexedLookup hit = zds::lookUpThroughIndex(c, "d100005");
    ASSERT_EQ(hit.outcome, zds::ZdsIndexedLookup::Outcome::Found);
    EXPECT_EQ(hit.document.region.length, c.document(*c.liveSet()->find("d100005")).region.length);
    EXPECT_EQ(zds::lookUpThroughIndex(c, "d1").outcome, zds::ZdsIndexedLookup::Outcome::Absent);
    CollectingSink sink;
    auto validator = zds::makeZdsValidator(dir.path(), ds);
    validator->run(sink, ValidationOptions{});
    EXPECT_EQ(sink.diagnostics().size(), 0u) << zds_test::describe(sink);
    EXPECT_EQ(mappingsUnder(dir.path() / "collections/default/docs"), 0u);
}

// The docs/ files a storage holds open, counted by name.
std::size_t openedDocFiles(const zds::ZdsStorage& storage) {
    std::size_t n = 0;
    for (const ByteSourcePtr& src : storage.openedSources()) {
        n += src->name().find("/docs/") != std::string::npos ? 1 : 0;
    }
    return n;
}

// Listing a file-per-document collection opens none of its files and does not list docs/ (a
// million documents list at once); each is opened when first read, and a listed one that is
// not there, or gone by then, reads as unreadable.
TEST(ZdsLiveSet, DocsAreOpenedWhenReadNotWhenListed) {
    ScratchDir dir("live_docs_on_demand");
    const fs::path docs = dir.path() / "collections/default/docs";
    for (const char* id : {"a", "b", "c"}) {
        writeAll(docs / (std::string(id) + ".json"), R"({"v":")" + std::string(id) + "\"}");
    }
    zds::reindexZds(dir.path());
    writeAll(metaOf(dir.path()) / "order.ids", "a\nmissing\nb\nc\n");
    const auto ds = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    const auto live = c.liveSet();
    ASSERT_EQ(live->size(), 4u);
    EXPECT_EQ(openedDocFiles(c.storage()), 0u);

    // Listed without a file: unreadable once asked, and the validator's ZDS-ORDER-MISSING.
    const std::uint64_t missing = *live->find("missing");
    EXPECT_TRUE(live->flags(missing) & zds::kZdsLiveUnreadable);
    EXPECT_FALSE(live->region(missing).valid());
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ORDER-MISSING")) << zds_test::describe(sink);

    const std::uint64_t b = *live->find("b");
    const Region rb = live->region(b);
    ASSERT_TRUE(rb.valid());
    EXPECT_EQ(rb.length, fs::file_size(docs / "b.json"));
    EXPECT_EQ(live->region(b), rb);  // the same source each time
    EXPECT_EQ(live->flags(b), 0u);
    EXPECT_EQ(openedDocFiles(c.storage()), 1u);
    EXPECT_EQ(live->atOffset(rb.source, rb.length - 1), b);
    EXPECT_EQ(live->atOffset(rb.source, rb.length), std::nullopt);
    EXPECT_EQ(live->atOffset(c.orderIds.get(), 0), std::nullopt);

    fs::remove(docs / "c.json");
    const std::uint64_t gone = *live->find("c");
    EXPECT_TRUE(live->flags(gone) & zds::kZdsLiveUnreadable);
    EXPECT_FALSE(c.document(gone).region.valid());
    EXPECT_TRUE(c.document(gone).flags & zds::kZdsLiveUnreadable);
}

// The validator reads each docs/ file once and lets it go; a file it reports on stays open,
// so the diagnostic's region still reads its bytes afterwards.
TEST(ZdsLiveSet, ValidatorKeepsOnlyTheDocFilesItReports) {
    ScratchDir dir("live_docs_validate_keep");
    const fs::path docs = dir.path() / "collections/default/docs";
    for (int i = 0; i < 50; ++i) {
        writeAll(docs / ("d" + std::to_string(i) + ".json"), R"({"v":)" + std::to_string(i) + "}");
    }
    zds::reindexZds(dir.path());
    writeAll(docs / "d7.json", "{\"v\": 7,");
    const auto ds = zds::ZdsDataset::open(dir.path());
    CollectingSink sink;
    zds::makeZdsValidator(dir.path(), ds)->run(sink, ValidationOptions{});
    const Diagnostic* bad = nullptr;
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.code == "ZDS-JSON") {
            bad = &d;
        }
    }
    ASSERT_NE(bad, nullptr) << zds_test::describe(sink);
    ASSERT_FALSE(bad->regions.empty());
    const Region& r = bad->regions.front();
    ASSERT_TRUE(r.valid());
    EXPECT_NE(r.source->name().find("d7.json"), std::string::npos);
    const ByteView v = r.source->view(0, r.source->size());
    EXPECT_EQ(std::string(v.bytes.begin(), v.bytes.end()), "{\"v\": 7,");
    EXPECT_EQ(openedDocFiles(ds->collections.at(0)->storage()), 1u);
}

TEST(ZdsDocsMeta, SchemasAndTimestamps) {
    using nlohmann::json;
    EXPECT_EQ(
        zds::zdsSchemaOf(json::parse(R"({"a":1,"b":[1.5,"x"],"c":{"d":null},"e":[],"f":true})")),
        json::parse(R"({"a":"integer","b":["number"],"c":{"d":"null"},"e":[],"f":"boolean"})"));
    EXPECT_EQ(zds::zdsSchemaOf(json::parse("18446744073709551615")), "number");
    EXPECT_EQ(zds::zdsSchemaId(json::parse(R"({"b":1,"a":2})")),
              zds::zdsSchemaId(json::parse(R"({"a":2,"b":1})")));
    EXPECT_EQ(zds::zdsSchemaId(json::parse(R"({"a":"integer"})")).size(), 64u);
    EXPECT_TRUE(zds::isZdsTimestamp("2026-11-22T19:22:14.219194078Z"));
    EXPECT_TRUE(zds::isZdsTimestamp("2026-11-22T19:22:14+02:00"));
    EXPECT_FALSE(zds::isZdsTimestamp("2026-11-22 19:22:14"));
    EXPECT_FALSE(zds::isZdsTimestamp("yesterday"));
}

// The index-only lookup `zds get` uses says what the live set says, or defers to it: for every
// live id, for ids the live set does not hold, in every collection of `dataset`.
void expectLookupAgreesWithTheLiveSet(const fs::path& dataset, int* found) {
    SCOPED_TRACE(dataset.string());
    const auto ds = zds::ZdsDataset::open(dataset);
    for (const auto& collection : ds->collections) {
        const zds::ZdsCollection& c = *collection;
        const auto live = c.liveSet();
        std::vector<std::string> ids = {"", "no-such-id", "d4", "ghost"};
        // Each lookup reads the whole index: a sample of a large collection (its ends, and
        // every 997th document between them).
        const std::uint64_t n = live->size();
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i < 100 || i + 100 >= n || i % 997 == 0) {
                ids.emplace_back(live->id(i));
            }
        }
        for (const std::string& id : ids) {
            const zds::ZdsIndexedLookup quick = zds::lookUpThroughIndex(c, id);
            const auto index = live->find(id);
            switch (quick.outcome) {
                case zds::ZdsIndexedLookup::Outcome::Absent:
                    EXPECT_FALSE(index) << id;
                    break;
                case zds::ZdsIndexedLookup::Outcome::Found: {
                    ASSERT_TRUE(index) << id;
                    const zds::ZdsDocument doc = c.document(*index);
                    EXPECT_EQ(quick.document.id, doc.id);
                    EXPECT_EQ(quick.document.region.offset, doc.region.offset) << id;
                    EXPECT_EQ(quick.document.region.length, doc.region.length) << id;
                    EXPECT_EQ(quick.document.entryIndex, doc.entryIndex) << id;
                    EXPECT_EQ(doc.flags, 0) << id;
                    EXPECT_EQ(c.documentBytes(quick.document).bytes.size(),
                              c.documentBytes(*index).bytes.size());
                    ++*found;
                    break;
                }
                case zds::ZdsIndexedLookup::Outcome::NeedsLiveSet:
                    EXPECT_FALSE(live->fromIndex() && index && live->flags(*index) == 0 &&
                                 zds::zdsIndexProblem(c).empty())
                        << id << " could have been answered from the index";
                    break;
            }
        }
    }
}

TEST(ZdsLiveSet, IndexLookupAgreesWithTheLiveSetOnEveryCorpusDataset) {
    int datasets = 0;
    int found = 0;
    for (const char* part : {"valid", "corrupt"}) {
        if (!fs::is_directory(zds_test::corpusDir() / part)) {
            GTEST_SKIP() << "no corpus";
        }
        for (const auto& entry : fs::directory_iterator(zds_test::corpusDir() / part)) {
            const bool folder = entry.is_directory();
            if (!folder && entry.path().extension() != ".zds") {
                continue;
            }
            try {
                (void)zds::ZdsDataset::open(entry.path());
            } catch (const std::exception&) {
                continue;  // damaged beyond opening: nothing to look up
            }
            expectLookupAgreesWithTheLiveSet(entry.path(), &found);
            ++datasets;
        }
    }
    EXPECT_GE(datasets, 20);
    EXPECT_GT(found, 300);  // jsonl_100k answers from its index
}

// Stores whose index entries miss, repeat, or point at the wrong line: the lookup answers only
// when the live set would hold the entry's own line, unflagged.
TEST(ZdsLiveSet, IndexLookupDefersWhenTheEntryMissesItsLine) {
    const Store s;
    int found = 0;
    std::vector<std::vector<Entry>> indexes;
    indexes.push_back(s.live());
    auto repeated = s.live();
    repeated.push_back(s.at[2]);  // d2's last entry points at its old line: still that line
    indexes.push_back(repeated);
    auto wrong = s.live();
    wrong[1].offset = s.at[3].offset;  // d1 points at d3's line
    indexes.push_back(wrong);
    auto nowhere = s.live();
    nowhere.push_back({"ghost", 1u << 30, 10});
    nowhere[0].offset += 1;  // d0 points into the middle of its line
    indexes.push_back(nowhere);
    for (std::size_t i = 0; i < indexes.size(); ++i) {
        for (const bool text : {false, true}) {
            ScratchDir dir("live_lookup_" + std::to_string(i) + (text ? "_text" : "_binary"));
            writeStore(dir.path(), s, text ? textIndex(indexes[i]) : binaryIndex(indexes[i]));
            expectLookupAgreesWithTheLiveSet(dir.path(), &found);
        }
    }
    EXPECT_GE(found, 20);
}

}  // namespace
}  // namespace strata
