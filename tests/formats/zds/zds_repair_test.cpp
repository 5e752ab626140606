// ZDS repair: generated datasets with one kind of damage each, the damaged corpus cases and
// random damage. Each time the report matches the damage, the output validates and holds only
// documents that were live in the input.
#include <gtest/gtest.h>
#include <zip.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "formats/builtin/format_repair.h"
#include "formats/common/repair.h"
#include "formats/common/zip_member_source.h"
#include "formats/zds/zds_diff.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_repair.h"
#include "formats/zds/zds_validator.h"
#include "killed_repair.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using zds_test::readAll;
using zds_test::ScratchDir;
using zds_test::writeAll;

std::span<const std::uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

using Docs = std::map<std::string, std::string>;  // id → bytes without the line end

struct Line {
    std::string text;
    bool indexed = true;  // listed by index.bin (its id from the text)
};

// A dataset folder with one collection "c": data.jsonl from `lines`, index.bin listing the
// lines marked `indexed` (unless `index` is false) and a manifest.
fs::path makeDataset(const fs::path& root, const std::vector<Line>& lines, bool index = true,
                     int manifestCount = -1) {
    const fs::path meta = root / "collections" / "c" / "meta";
    std::string data;
    std::vector<zds::ZdsLineEntry> entries;
    for (const Line& l : lines) {
        if (l.indexed) {
            zds::ZdsLineEntry e;
            e.id = *zds::extractJsonId(bytesOf(l.text));
            e.hasId = true;
            e.offset = data.size();
            e.length = l.text.size() + 1;
            entries.push_back(e);
        }
        data += l.text + "\n";
    }
    writeAll(meta / "data.jsonl", data);
    if (index) {
        writeAll(meta / "index.bin", zds::encodeZdx(entries));
    }
    const int count = manifestCount >= 0 ? manifestCount : static_cast<int>(entries.size());
    writeAll(meta / "manifest.json",
             "{\"collection\":\"c\",\"doc_count\":" + std::to_string(count) + "}");
    return root;
}

std::string doc(const std::string& id, int v) {
    return "{\"_id\":\"" + id + "\",\"v\":" + std::to_string(v) + "}";
}

Docs liveDocs(const fs::path& path) {
    const auto ds = zds::ZdsDataset::open(path);
    Docs out;
    for (const auto& c : ds->collections) {
        for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
            const ByteView v = c->documentBytes(i);
            out[c->document(i).id] = std::string(v.bytes.begin(), v.bytes.end());
        }
    }
    return out;
}

void expectValid(const fs::path& path) {
    CollectingSink sink;
    zds_test::validate(path, sink);
    EXPECT_EQ(zds_test::errorCount(sink), 0u) << zds_test::describe(sink);
}

// The losses but the scan of an archive readers cannot open, which is always one.
std::vector<RepairStep> besidesTheScan(std::vector<RepairStep> losses) {
    std::erase_if(losses, [](const RepairStep& l) {
        return l.description.find("recovered by scanning its local file headers") !=
               std::string::npos;
    });
    return losses;
}

std::vector<nlohmann::json> quarantined(const fs::path& output) {
    std::vector<nlohmann::json> out;
    const std::string text = readAll(zds::zdsQuarantinePath(output));
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t nl = text.find('\n', at);
        out.push_back(nlohmann::json::parse(text.substr(at, nl - at)));
        at = nl + 1;
    }
    return out;
}

bool mentions(const std::vector<RepairStep>& steps, const std::string& text) {
    for (const RepairStep& s : steps) {
        if (s.description.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

std::string allSteps(const RepairReport& r) {
    std::string out;
    for (const auto& s : r.actions) {
        out += "action " + s.description + "\n";
    }
    for (const auto& s : r.losses) {
        out += "lost   " + s.description + "\n";
    }
    return out;
}

void expectRefused(const fs::path& input, const fs::path& output, const RepairOptions& options,
                   const std::string& code) {
    try {
        zds::repairZdsDataset(input, output, options);
        ADD_FAILURE() << "a damaged output was published";
    } catch (const RepairError& e) {
        EXPECT_NE(std::string(e.what()).find(code), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(output));
    EXPECT_FALSE(fs::exists(zds::zdsQuarantinePath(output)));
    for (const auto& entry : fs::directory_iterator(output.parent_path())) {
        EXPECT_EQ(entry.path().filename().string().find(".strata-repair"), std::string::npos);
    }
}

struct NoSink final : DiffSink {
    bool add(Difference) override { return true; }
};

// Whether readers find the same content in both datasets (`strata-cli diff A B` exits 0).
bool sameContent(const fs::path& a, const fs::path& b) {
    auto differ = zds::makeZdsDiffer(zds::ZdsDataset::open(a), zds::ZdsDataset::open(b));
    NoSink sink;
    EXPECT_EQ(differ->run(sink, {}), JobOutcome::Completed);
    return differ->summary().contentEqual();
}

// A ZDS index listing `entries` (key, 1-based line of data.jsonl) over the collection's lines.
void writeIndex(const fs::path& root, const std::vector<std::pair<std::string, int>>& entries) {
    const fs::path meta = root / "collections" / "c" / "meta";
    const std::string data = readAll(meta / "data.jsonl");
    std::vector<std::uint64_t> starts{0};
    for (std::size_t at = data.find('\n'); at != std::string::npos; at = data.find('\n', at + 1)) {
        starts.push_back(at + 1);
    }
    std::vector<zds::ZdsLineEntry> zdx;
    for (const auto& [key, line] : entries) {
        zds::ZdsLineEntry e;
        e.id = key;
        e.hasId = true;
        e.offset = starts.at(static_cast<std::size_t>(line - 1));
        e.length = starts.at(static_cast<std::size_t>(line)) - e.offset;
        zdx.push_back(e);
    }
    writeAll(meta / "index.bin", zds::encodeZdx(zdx));
}

// Where a member of an archive keeps its CRC-32: in its local header and in the central
// directory; and where its data starts.
struct MemberPlace {
    std::size_t localCrc = 0, centralCrc = 0, data = 0, size = 0;
};

MemberPlace findMember(const fs::path& archive, const std::string& name) {
    const auto zip = ZipArchive::open(archive);
    const ZipMember* m = zip->find(name);
    EXPECT_NE(m, nullptr) << name;
    MemberPlace p;
    p.localCrc = m->localHeaderOffset + 14;
    p.data = *m->dataOffset;
    p.size = m->compressedSize;
    const std::string bytes = readAll(archive);
    for (std::size_t at = bytes.find("PK\x01\x02"); at != std::string::npos;
         at = bytes.find("PK\x01\x02", at + 4)) {
        const std::size_t nameLength = std::uint8_t(bytes[at + 28]) | std::uint8_t(bytes[at + 29])
                                                                          << 8;
        if (bytes.compare(at + 46, nameLength, name) == 0 && nameLength == name.size()) {
            p.centralCrc = at + 16;
        }
    }
    EXPECT_NE(p.centralCrc, 0u) << name;
    return p;
}

// Changes the CRC-32 the archive records for a member (both copies), not its data.
void breakRecordedCrc(const fs::path& archive, const std::string& name) {
    const MemberPlace p = findMember(archive, name);
    std::string bytes = readAll(archive);
    bytes[p.localCrc] = static_cast<char>(bytes[p.localCrc] ^ 0x5a);
    bytes[p.centralCrc] = static_cast<char>(bytes[p.centralCrc] ^ 0x5a);
    writeAll(archive, bytes);
}

// Overwrites the end of central directory's signature: libzip can no longer open the archive.
void breakCentralDirectory(const fs::path& archive) {
    std::string bytes = readAll(archive);
    const std::size_t eocd = bytes.rfind(std::string("PK\x05\x06", 4));
    ASSERT_NE(eocd, std::string::npos);
    bytes.replace(eocd, 4, "XXXX");
    writeAll(archive, bytes);
}

// Changes `from` to `to` (same length) at its first place in a file of the staged output.
void replaceInStage(const fs::path& file, const std::string& from, const std::string& to) {
    std::string text = readAll(file);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    ASSERT_EQ(from.size(), to.size());
    text.replace(at, from.size(), to);
    writeAll(file, text);
}

TEST(ZdsRepair, IntactDatasetComesBackWhole) {
    ScratchDir dir("repair_intact");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}, {doc("c", 3)}});
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    EXPECT_TRUE(r.complete()) << allSteps(r);
    EXPECT_TRUE(r.written);
    EXPECT_EQ(r.recovered, 3u);
    expectValid(out);
    EXPECT_EQ(liveDocs(out), liveDocs(in));
    EXPECT_FALSE(fs::exists(zds::zdsQuarantinePath(out)));
    for (const auto& e : fs::directory_iterator(dir.path())) {
        EXPECT_EQ(e.path().filename().string().find(".strata-"), std::string::npos);
    }
}

TEST(ZdsRepair, GarbageLineIsQuarantinedWithItsLineAndBytes) {
    ScratchDir dir("repair_garbage");
    const std::string garbage = "this is \x01 not json";
    const auto in = makeDataset(
        dir.path() / "in", {{doc("a", 1)}, {garbage, false}, {"{\"x\":1}", false}, {doc("b", 2)}});
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    ASSERT_EQ(r.losses.size(), 2u) << allSteps(r);
    EXPECT_EQ(r.recovered, 2u);
    EXPECT_EQ(r.lostKnown, 0u);  // neither line was a live document
    const std::uint64_t garbageAt = doc("a", 1).size() + 1;
    EXPECT_NE(r.losses[0].description.find("line 2 (bytes " + std::to_string(garbageAt)),
              std::string::npos)
        << r.losses[0].description;
    EXPECT_EQ(r.losses[0].bytes.offset, garbageAt);
    EXPECT_EQ(r.losses[0].bytes.length, garbage.size() + 1);
    EXPECT_NE(r.losses[1].description.find("line 3"), std::string::npos);
    EXPECT_NE(r.losses[1].description.find("without _id"), std::string::npos);
    expectValid(out);
    EXPECT_EQ(liveDocs(out), (Docs{{"a", doc("a", 1)}, {"b", doc("b", 2)}}));
    const auto q = quarantined(out);
    ASSERT_EQ(q.size(), 2u);
    EXPECT_EQ(q[0]["collection"], "c");
    EXPECT_EQ(q[0]["file"], "collections/c/meta/data.jsonl");
    EXPECT_EQ(q[0]["line"], 2);
    EXPECT_EQ(q[0]["offset"], garbageAt);
    EXPECT_EQ(q[0]["text"], garbage);
    EXPECT_EQ(q[1]["text"], "{\"x\":1}");
}

TEST(ZdsRepair, MissingIndexKeepsTheLastLineOfEachId) {
    ScratchDir dir("repair_noindex");
    const auto in =
        makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}, {doc("a", 3)}}, false);
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    EXPECT_TRUE(r.complete()) << allSteps(r);
    EXPECT_TRUE(mentions(r.actions,
                         "dropped line 1 (bytes 0 to 18): an older version of 'a' "
                         "(line 3 is the live one)"))
        << allSteps(r);
    EXPECT_TRUE(mentions(r.actions, "meta/index.bin is missing: the live documents are the lines"));
    expectValid(out);
    EXPECT_EQ(liveDocs(out), (Docs{{"a", doc("a", 3)}, {"b", doc("b", 2)}}));
    EXPECT_TRUE(fs::exists(out / "collections/c/meta/index.bin"));
}

TEST(ZdsRepair, TruncatedIndexSaysTheLinesDecide) {
    ScratchDir dir("repair_truncidx");
    const auto in =
        makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("gone", 2), false}, {doc("b", 3)}});
    const fs::path index = in / "collections/c/meta/index.bin";
    const std::string bytes = readAll(index);
    writeAll(index, bytes.substr(0, bytes.size() - 5));
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    EXPECT_TRUE(r.complete()) << allSteps(r);
    EXPECT_TRUE(mentions(r.actions,
                         "meta/index.bin is not readable (it ends in the middle of "
                         "entry 1): the live documents were taken from the lines"))
        << allSteps(r);
    expectValid(out);
    // The lines decide, as for every reader: the document deleted from the index is back.
    EXPECT_EQ(liveDocs(out).size(), 3u);
}

TEST(ZdsRepair, DeletedDocumentsStayDeletedAndStaleEntriesAreFollowed) {
    ScratchDir dir("repair_stale");
    // The index was written for a shorter first line: every entry after it points 3 bytes early.
    const auto in =
        makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("deleted", 2), false}, {doc("b", 3)}});
    const fs::path data = in / "collections/c/meta/data.jsonl";
    std::string text = readAll(data);
    text.replace(text.find("\"v\":1"), 5, "\"v\":1000");
    writeAll(data, text);
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    EXPECT_TRUE(r.complete()) << allSteps(r);
    EXPECT_TRUE(mentions(r.actions, "'deleted' is not listed by the index (a deleted document)"))
        << allSteps(r);
    EXPECT_TRUE(mentions(r.actions,
                         "document 'b': its index entry missed its line; kept from "
                         "line 3"))
        << allSteps(r);
    expectValid(out);
    EXPECT_EQ(liveDocs(out), (Docs{{"a", "{\"_id\":\"a\",\"v\":1000}"}, {"b", doc("b", 3)}}));
}

// --keep-superseded: the valid lines no live document uses stay in data.jsonl without index
// entries, before the live documents (so that without an index the lines still give the same
// live set); they are not documents (not counted), and damaged lines are still quarantined.
TEST(ZdsRepair, KeepSupersededKeepsHistoryWithoutIndexEntries) {
    ScratchDir dir("repair_keep");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1), false},
                                                    {doc("b", 1)},
                                                    {doc("a", 2)},
                                                    {doc("gone", 9), false},
                                                    {"garbage", false},
                                                    {doc("c", 3)}});
    RepairOptions keep;
    keep.keepSuperseded = true;
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out, keep);
    ASSERT_EQ(r.losses.size(), 1u) << allSteps(r);  // the garbage line
    EXPECT_EQ(r.recovered, 3u);
    EXPECT_TRUE(mentions(r.actions, "kept 2 superseded or deleted lines")) << allSteps(r);
    EXPECT_FALSE(mentions(r.actions, "dropped line")) << allSteps(r);
    expectValid(out);
    const Docs live{{"a", doc("a", 2)}, {"b", doc("b", 1)}, {"c", doc("c", 3)}};
    EXPECT_EQ(liveDocs(out), live);
    const fs::path meta = out / "collections/c/meta";
    EXPECT_TRUE(readAll(meta / "data.jsonl").starts_with(doc("a", 1) + "\n" + doc("gone", 9)))
        << readAll(meta / "data.jsonl");
    EXPECT_EQ(nlohmann::json::parse(readAll(meta / "manifest.json"))["doc_count"], 3);
    EXPECT_EQ(quarantined(out).size(), 1u);
    // The lines alone (no index) give the same documents, and 'gone' comes back as a line-basis
    // reader sees it.
    fs::remove(meta / "index.bin");
    Docs fromLines = live;
    fromLines["gone"] = doc("gone", 9);
    EXPECT_EQ(liveDocs(out), fromLines);

    // Without an index in the input: the last line of each _id is live, the older ones kept.
    const auto noIndex =
        makeDataset(dir.path() / "in2", {{doc("a", 1)}, {doc("b", 1)}, {doc("a", 2)}}, false);
    const auto out2 = dir.path() / "out2";
    const RepairReport r2 = zds::repairZdsDataset(noIndex, out2, keep);
    EXPECT_TRUE(r2.complete()) << allSteps(r2);
    expectValid(out2);
    EXPECT_EQ(liveDocs(out2), (Docs{{"a", doc("a", 2)}, {"b", doc("b", 1)}}));
    EXPECT_TRUE(readAll(out2 / "collections/c/meta/data.jsonl").starts_with(doc("a", 1) + "\n"));

    // The final check compares the kept lines too.
    RepairOptions damaged = keep;
    damaged.beforeOutputCheck = [](const fs::path& stage) {
        replaceInStage(stage / "collections/c/meta/data.jsonl", "\"v\":9", "\"v\":8");
    };
    expectRefused(in, dir.path() / "out3", damaged, "ZDS-COPY-MISMATCH");
}

TEST(ZdsRepair, LineNamedOnlyAfterTheDeclaredEntriesIsReported) {
    ScratchDir dir("repair_countlow");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}, {doc("c", 3)}});
    const fs::path index = in / "collections/c/meta/index.bin";
    std::string bytes = readAll(index);
    bytes[8] = 2;  // the count says two entries; the third follows anyway
    writeAll(index, bytes);
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    ASSERT_EQ(r.losses.size(), 1u) << allSteps(r);
    EXPECT_EQ(r.lostKnown, 0u);  // not a live document: readers do not see it
    EXPECT_NE(r.losses[0].description.find("line 3 (bytes 36 to 54): 'c' is named only in the "
                                           "bytes after the index's declared entries"),
              std::string::npos)
        << r.losses[0].description;
    expectValid(out);
    EXPECT_EQ(liveDocs(out), (Docs{{"a", doc("a", 1)}, {"b", doc("b", 2)}}));
}

TEST(ZdsRepair, LiveDocumentWithADamagedLineIsLost) {
    ScratchDir dir("repair_damagedlive");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}, {doc("c", 3)}});
    const fs::path data = in / "collections/c/meta/data.jsonl";
    std::string text = readAll(data);
    text[text.find("\"v\":2") + 3] = '@';  // same length: the index still points at it
    writeAll(data, text);
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    ASSERT_EQ(r.losses.size(), 1u) << allSteps(r);
    EXPECT_EQ(r.lostKnown, 1u);
    EXPECT_NE(r.losses[0].description.find("document 'b' is lost: its line 2 (bytes 18 to 36) is "
                                           "not JSON"),
              std::string::npos)
        << r.losses[0].description;
    expectValid(out);
    EXPECT_EQ(liveDocs(out), (Docs{{"a", doc("a", 1)}, {"c", doc("c", 3)}}));
    EXPECT_EQ(quarantined(out).size(), 1u);
}

TEST(ZdsRepair, EntryPastTheEndOfTheDataIsLost) {
    ScratchDir dir("repair_cut");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}, {doc("c", 3)}});
    const fs::path data = in / "collections/c/meta/data.jsonl";
    writeAll(data, readAll(data).substr(0, 36));  // just after b's line
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    ASSERT_EQ(r.losses.size(), 1u) << allSteps(r);
    EXPECT_EQ(r.lostKnown, 1u);
    EXPECT_NE(r.losses[0].description.find("document 'c' is lost: the index lists it but no line"),
              std::string::npos);
    EXPECT_TRUE(r.losses[0].bytes.valid());  // its index entry
    expectValid(out);
    EXPECT_EQ(liveDocs(out).size(), 2u);
}

// A collection folder that holds nothing (no data.jsonl, no docs/) is still a collection for
// readers: the repair writes it as an empty one instead of leaving it out.
TEST(ZdsRepair, EmptyCollectionFolderIsKept) {
    ScratchDir dir("repair_empty_collection");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}});
    fs::create_directories(in / "collections" / "empty");
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    EXPECT_TRUE(r.complete()) << allSteps(r);
    EXPECT_TRUE(mentions(r.actions, "collection 'empty': the collection holds neither"))
        << allSteps(r);
    expectValid(out);
    EXPECT_TRUE(sameContent(in, out));
    EXPECT_TRUE(fs::is_directory(out / "collections" / "empty"));
}

TEST(ZdsRepair, ManifestAndZdsJsonCountsAreFixed) {
    ScratchDir dir("repair_counts");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}}, true, 99);
    writeAll(in / "zds.json",
             R"({"version":"1.0","collections":{"c":{"count":7},"gone":{"count":3}}})");
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    EXPECT_TRUE(r.complete());
    EXPECT_TRUE(mentions(r.actions, "doc_count 99 set to 2")) << allSteps(r);
    EXPECT_TRUE(mentions(r.actions, "zds.json: the count of collection 'c' 7 set to 2"));
    EXPECT_TRUE(mentions(r.actions,
                         "zds.json lists collection 'gone', which does not exist: its "
                         "entry {\"count\":3} is dropped"))
        << allSteps(r);
    const auto manifest = nlohmann::json::parse(readAll(out / "collections/c/meta/manifest.json"));
    EXPECT_EQ(manifest["doc_count"], 2);
    CollectingSink sink;
    zds_test::validate(out, sink);
    EXPECT_FALSE(sink.hasCode("ZDS-MANIFEST-COUNT"));
    EXPECT_FALSE(sink.hasCode("ZDS-META-COUNT"));
}

TEST(ZdsRepair, NeverReplacesAndDryRunWritesNothing) {
    ScratchDir dir("repair_refuse");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {"garbage", false}});
    const auto out = dir.path() / "out";
    RepairOptions dry;
    dry.dryRun = true;
    const RepairReport plan = zds::repairZdsDataset(in, out, dry);
    EXPECT_EQ(plan.losses.size(), 1u);
    EXPECT_FALSE(plan.written);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
    writeAll(zds::zdsQuarantinePath(out), "mine");
    EXPECT_THROW(zds::repairZdsDataset(in, out), RepairError);
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(readAll(zds::zdsQuarantinePath(out)), "mine");
    fs::remove(zds::zdsQuarantinePath(out));
    EXPECT_THROW(zds::repairZdsDataset(in, in / "collections" / "fixed"), RepairError);
    EXPECT_FALSE(fs::exists(in / "collections" / "fixed"));
    fs::create_directory(out);
    EXPECT_THROW(zds::repairZdsDataset(in, out), RepairError);
    EXPECT_TRUE(fs::is_empty(out));
}

TEST(ZdsRepair, NothingRecoverableIsAnError) {
    ScratchDir dir("repair_nothing");
    const auto in = makeDataset(dir.path() / "in", {{"{\"_id\":\"a\" broken"}}, false);
    EXPECT_THROW(zds::repairZdsDataset(in, dir.path() / "out"), RepairError);
    EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

// The output's final check compares each line and index entry with what was copied: changes a
// full validation would accept (a value, an entry's key that still names a line) are refused,
// and nothing is published (not the quarantine file either).
TEST(ZdsRepair, TheFinalCheckRefusesWhatIsNotTheCopy) {
    ScratchDir dir("repair_final_check");
    const auto in = makeDataset(dir.path() / "in",
                                {{doc("a", 1)}, {"garbage", false}, {doc("b", 2)}, {doc("c", 3)}});
    struct Damage {
        std::string file;
        std::string from, to;
    };
    const std::vector<Damage> damages = {
        {"data.jsonl", "\"v\":2", "\"v\":7"},                // another value, still one JSON object
        {"data.jsonl", "{\"_id\":\"c\"", "{\"_id\":\"a\""},  // a line carries another _id
        {"index.bin", "b", "x"},  // an entry under another key, still naming its line
    };
    for (std::size_t k = 0; k < damages.size(); ++k) {
        SCOPED_TRACE(damages[k].file + ": " + damages[k].from);
        RepairOptions options;
        bool called = false;
        options.beforeOutputCheck = [&](const fs::path& stage) {
            called = true;
            replaceInStage(stage / "collections/c/meta" / damages[k].file, damages[k].from,
                           damages[k].to);
        };
        expectRefused(in, dir.path() / ("out" + std::to_string(k)), options, "ZDS-COPY-MISMATCH");
        EXPECT_TRUE(called);
    }
    RepairOptions appended;
    appended.beforeOutputCheck = [&](const fs::path& stage) {
        const fs::path data = stage / "collections/c/meta/data.jsonl";
        writeAll(data, readAll(data) + doc("d", 4) + "\n");
    };
    expectRefused(in, dir.path() / "appended", appended, "ZDS-COPY-MISMATCH");
    RepairOptions untouched;
    untouched.beforeOutputCheck = [](const fs::path&) {};
    EXPECT_NO_THROW(zds::repairZdsDataset(in, dir.path() / "out", untouched));
    expectValid(dir.path() / "out");
}

// The copy check on its own: a collection checked against its own lines gives what a full
// validation gives; one line or entry too many or too few is an error.
class OwnLines final : public zds::ZdsCopiedLines {
public:
    OwnLines(const zds::ZdsCollection& c, std::uint64_t count) : c_(c), count_(count) {}
    std::uint64_t count() const override { return count_; }
    std::uint64_t listedCount() const override { return count_; }
    zds::ZdsCopiedLine line(std::uint64_t n) const override {
        zds::ZdsCopiedLine out;
        if (n < c_.documentCount()) {
            const zds::ZdsDocument d = c_.document(n);
            out.bytes = c_.documentBytes(d);
            out.key = d.id;
        } else {
            out.bytes = {bytesOf(c_.name()), nullptr};
            out.key = "extra";
        }
        if (!out.bytes.empty() && out.bytes.bytes.back() == '\n') {
            out.bytes.bytes = out.bytes.bytes.first(out.bytes.size() - 1);
        }
        return out;
    }

private:
    const zds::ZdsCollection& c_;
    std::uint64_t count_;
};

TEST(ZdsRepair, CopyCheckOnItsOwn) {
    ScratchDir dir("repair_copy_check");
    const auto path = makeDataset(dir.path() / "ds", {{doc("a", 1)}, {doc("b", 2)}, {doc("c", 3)}});
    const auto ds = zds::ZdsDataset::open(path);
    const zds::ZdsCollection& c = *ds->collections.at(0);
    for (const std::uint64_t count : {3, 2, 4}) {
        SCOPED_TRACE(count);
        const OwnLines lines(c, count);
        zds::ZdsCopiedData copied;
        copied.collections.emplace("c", &lines);
        CollectingSink sink;
        EXPECT_EQ(zds::makeZdsCopyCheck(path, &copied)->run(sink, ValidationOptions{}),
                  JobOutcome::Completed);
        std::size_t mismatches = 0;
        for (const Diagnostic& d : sink.diagnostics()) {
            mismatches += d.code == "ZDS-COPY-MISMATCH" ? 1 : 0;
        }
        EXPECT_EQ(zds_test::errorCount(sink), mismatches) << zds_test::describe(sink);
        if (count == 3) {
            EXPECT_EQ(mismatches, 0u) << zds_test::describe(sink);
        } else {
            EXPECT_GE(mismatches, 1u) << zds_test::describe(sink);
        }
    }
}

TEST(ZdsRepair, ArchiveInputToFolderAndArchive) {
    ScratchDir dir("repair_archive");
    const auto folder = makeDataset(dir.path() / "in", {{doc("a", 1)}, {"not json", false}});
    const auto archive = dir.path() / "in.zds";
    zds::packZds(folder, archive);
    const RepairReport toFolder = zds::repairZdsDataset(archive, dir.path() / "out");
    EXPECT_EQ(toFolder.losses.size(), 1u) << allSteps(toFolder);
    expectValid(dir.path() / "out");
    const RepairReport toArchive = repairPath(archive, dir.path() / "out.zds");
    EXPECT_EQ(toArchive.losses.size(), 1u);
    EXPECT_TRUE(fs::is_regular_file(dir.path() / "out.zds"));
    expectValid(dir.path() / "out.zds");
    EXPECT_EQ(liveDocs(dir.path() / "out.zds"), (Docs{{"a", doc("a", 1)}}));
}

// An archive whose end of central directory is overwritten: libzip cannot open it, the members
// are found by their local headers.
TEST(ZdsRepair, ArchiveWithoutCentralDirectoryIsScanned) {
    ScratchDir dir("repair_nocd");
    std::vector<Line> lines;
    for (int i = 0; i < 50; ++i) {
        lines.push_back({doc("d" + std::to_string(i), i)});
    }
    const auto folder = makeDataset(dir.path() / "in", lines);
    for (const bool deflate : {false, true}) {
        SCOPED_TRACE(deflate ? "DEFLATE" : "STORE");
        const auto archive = dir.path() / (deflate ? "deflated.zds" : "stored.zds");
        zds::ZdsJobOptions pack;
        pack.deflate = deflate;
        zds::packZds(folder, archive, pack);
        std::string bytes = readAll(archive);
        const std::size_t eocd = bytes.rfind(std::string("PK\x05\x06", 4));
        ASSERT_NE(eocd, std::string::npos);
        bytes.replace(eocd, 4, "XXXX");
        writeAll(archive, bytes);
        EXPECT_THROW(zds::ZdsDataset::open(archive), std::exception);

        const auto out = dir.path() / (deflate ? "out-deflated" : "out-stored");
        const RepairReport r = repairPath(archive, out);
        // Every document comes back, but readers could not open the input: no comparison
        // vouches for it, so the repair is not complete.
        EXPECT_FALSE(r.complete()) << allSteps(r);
        EXPECT_TRUE(mentions(r.losses, "recovered by scanning its local file headers"));
        expectValid(out);
        EXPECT_EQ(liveDocs(out), liveDocs(folder));

        // Cut inside data.jsonl: no CRC-32 vouches for the lines before the cut, so they go to
        // the quarantine, not into the output.
        const std::size_t data = bytes.find("{\"_id\":\"d20\"");
        if (!deflate) {
            ASSERT_NE(data, std::string::npos);
            writeAll(archive, bytes.substr(0, data + 5));
            const auto cut = dir.path() / "out-cut";
            EXPECT_THROW(repairPath(archive, cut), RepairError);
            EXPECT_FALSE(fs::exists(cut));
            RepairOptions dry;
            dry.dryRun = true;
            EXPECT_THROW(repairPath(archive, cut, dry), RepairError);
        }
    }
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
        EXPECT_EQ(e.path().filename().string().find("strata-zds-salvage"), std::string::npos);
    }
}

TEST(ZdsRepair, FilePerDocumentCollection) {
    ScratchDir dir("repair_docs");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}, {doc("c", 3)}});
    zds::convertZds(in, zds::ZdsLayout::Docs);
    const fs::path docs = in / "collections/c/docs";
    writeAll(docs / "b.json", "{\"v\": 2,");
    writeAll(docs / "extra.json", "{\"v\": 9}");
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    ASSERT_EQ(r.losses.size(), 1u) << allSteps(r);
    EXPECT_NE(r.losses[0].description.find("document 'b' is lost: docs/b.json is not JSON"),
              std::string::npos);
    EXPECT_TRUE(mentions(r.actions, "dropped docs/extra.json: meta/order.ids does not list it"))
        << allSteps(r);
    expectValid(out);
    const Docs got = liveDocs(out);
    EXPECT_EQ(got.size(), 2u);
    EXPECT_TRUE(got.contains("a") && got.contains("c"));
    const auto q = quarantined(out);
    ASSERT_EQ(q.size(), 1u);
    EXPECT_EQ(q[0]["file"], "collections/c/docs/b.json");
    EXPECT_FALSE(q[0].contains("line"));
}

// A journal.log line that is not an entry: the history cannot be kept as it is (the output would
// not validate, and readers stop replaying there), so a new journal is written and the old one
// quarantined, a loss; the documents are untouched.
TEST(ZdsRepair, DamagedJournalIsNotKept) {
    ScratchDir dir("repair_journal");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}});
    zds::convertZds(in, zds::ZdsLayout::Docs);
    const fs::path journal = in / "collections/c/meta/journal.log";
    const std::string old = readAll(journal) + "{\"op\":\"PUT\", broken\n";
    writeAll(journal, old);
    const auto out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(in, out);
    ASSERT_EQ(r.losses.size(), 1u) << allSteps(r);
    EXPECT_NE(r.losses[0].description.find("meta/journal.log: line "), std::string::npos)
        << allSteps(r);
    EXPECT_NE(r.losses[0].description.find("the collection's history is not kept"),
              std::string::npos);
    expectValid(out);
    EXPECT_TRUE(sameContent(in, out));
    EXPECT_EQ(readAll(out / "collections/c/meta/journal.log").find("broken"), std::string::npos);
    const auto q = quarantined(out);
    ASSERT_EQ(q.size(), 1u);
    EXPECT_EQ(q[0]["file"], "collections/c/meta/journal.log");
    EXPECT_EQ(q[0]["text"], old);
}

// Names that are not UTF-8 text, or hold control characters, are damage (and an archive cannot
// hold them as UTF-8 names): nothing is copied under such a name, a collection so named is lost
// with its files quarantined, and the repair still writes the rest (to a folder or an archive).
TEST(ZdsRepair, DamagedNamesAreNotCopied) {
    ScratchDir dir("repair_names");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}});
    writeAll(in / "collections" /
                 "ba\x01"
                 "d" /
                 "meta" / "data.jsonl",
             doc("z", 9) + "\n");
    writeAll(in / "notes" /
                 "re\xff"
                 "adme.txt",
             "notes");
    writeAll(in / "notes" / "fine.txt", "fine");
    fs::create_directories(in / "m\x19tadata");
    for (const std::string name : {"out", "out.zds"}) {
        SCOPED_TRACE(name);
        const fs::path out = dir.path() / name;
        const RepairReport r = zds::repairZdsDataset(in, out);
        EXPECT_FALSE(r.complete());
        EXPECT_TRUE(mentions(r.losses, "collection 'ba\\x01d' has a damaged name")) << allSteps(r);
        EXPECT_TRUE(mentions(r.losses, "notes/re\\xFFadme.txt has a damaged name")) << allSteps(r);
        EXPECT_TRUE(mentions(r.actions, "folder m\\x19tadata/ has a damaged name")) << allSteps(r);
        EXPECT_EQ(r.recovered, 2u);
        EXPECT_EQ(r.lostKnown, 1u);
        expectValid(out);
        EXPECT_EQ(liveDocs(out), (Docs{{"a", doc("a", 1)}, {"b", doc("b", 2)}}));
        const auto q = quarantined(out);
        EXPECT_EQ(q.size(), 2u);
        const auto ds = zds::ZdsDataset::open(out);
        EXPECT_EQ(ds->collections.size(), 1u);
        EXPECT_TRUE(ds->storage().hasFile("notes/fine.txt"));
        EXPECT_FALSE(ds->storage().hasDirectory("m\x19tadata"));
    }
}

TEST(ZdsRepair, SingleCollectionFolder) {
    ScratchDir dir("repair_single");
    const auto in = makeDataset(dir.path() / "in", {{doc("a", 1)}, {"[1,2]", false}});
    const auto out = dir.path() / "out";
    const RepairReport r = repairPath(in / "collections" / "c", out);
    EXPECT_EQ(r.losses.size(), 1u) << allSteps(r);
    EXPECT_TRUE(fs::exists(out / "meta" / "data.jsonl"));
    expectValid(out);
}

// A repair killed at any point leaves nothing under the output's name or the quarantine's, or
// (killed after publishing) a whole, valid output.
TEST(ZdsRepair, KilledRepairLeavesNoHalfWrittenOutput) {
    ScratchDir dir("repair_kill");
    std::vector<Line> lines;
    for (int i = 0; i < 20000; ++i) {
        lines.push_back({doc("d" + std::to_string(i), i), i % 3 != 0});
    }
    lines.push_back({"garbage", false});
    const auto in = makeDataset(dir.path() / "in", lines);
    for (const int killAt : {1, 2, 3, 5, 8, 13, 1000000}) {
        SCOPED_TRACE("killed at progress call " + std::to_string(killAt));
        const auto out = dir.path() / ("out" + std::to_string(killAt));
        const test::KilledRepair run = test::repairKilledAt(
            killAt, [&](const RepairOptions& options) { zds::repairZdsDataset(in, out, options); });
        if (killAt == 1) {
            EXPECT_FALSE(run.finished);
        }
        if (killAt == 1000000) {
            EXPECT_TRUE(run.finished);
        }
        if (run.finished) {
            EXPECT_EQ(run.exitCode, 0);
            expectValid(out);
            EXPECT_EQ(quarantined(out).size(), 1u);
        } else {
            EXPECT_FALSE(fs::exists(out));
            EXPECT_FALSE(fs::exists(zds::zdsQuarantinePath(out)));
        }
    }
}

// Every non-blank line of every data.jsonl and every docs/ file of a dataset, as bytes.
std::set<std::string> everyDocumentText(const fs::path& path) {
    std::set<std::string> out;
    const auto ds = zds::ZdsDataset::open(path);
    for (const auto& c : ds->collections) {
        if (c->data) {
            const auto starts = zds::scanLineStarts(*c->data);
            for (std::size_t i = 0; i < starts.size(); ++i) {
                const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : c->data->size();
                const ByteView v = c->data->view(starts[i], end - starts[i]);
                std::string line(v.bytes.begin(), v.bytes.end());
                while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
                    line.pop_back();
                }
                out.insert(line);
            }
        }
        for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
            const ByteView v = c->documentBytes(i);
            out.insert(std::string(v.bytes.begin(), v.bytes.end()));
        }
    }
    return out;
}

// The input, or, for an archive only a scan can read, the valid dataset it was made from.
std::shared_ptr<zds::ZdsDataset> openOrBase(const fs::path& path, const std::string& name) {
    try {
        return zds::ZdsDataset::open(path);
    } catch (const std::exception&) {
    }
    const auto cases = nlohmann::json::parse(readAll(path.parent_path() / "cases.json"));
    for (const auto& c : cases) {
        if (c["name"] == name) {
            return zds::ZdsDataset::open(zds_test::corpusDir() / "valid" /
                                         c["base"].get<std::string>());
        }
    }
    throw std::runtime_error(name + ": no base in cases.json");
}

// The damaged corpus cases with something to recover: the output validates and holds only
// documents the input held, under ids the input's live set lists.
TEST(ZdsRepair, CorpusCases) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("repair_corpus");
    const fs::path corrupt = zds_test::corpusDir() / "corrupt";
    std::size_t repaired = 0;
    for (const auto& entry : fs::directory_iterator(corrupt)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("_") || name.ends_with(".md") || name.ends_with(".json")) {
            continue;
        }
        SCOPED_TRACE(name);
        const fs::path out = dir.path() / (name + "-repaired" + entry.path().extension().string());
        RepairReport r;
        try {
            r = repairPath(entry.path(), out);
        } catch (const RepairError& e) {
            // Nothing to recover: no collections, an index without its data, an order.ids
            // without docs/, a file that is no ZIP.
            static const std::set<std::string> nothing = {
                "no_collections_dir", "data_missing_index_present", "docs_missing_docs_dir",
                "zip_not_a_zip.zds", "zip_truncated.zds"};
            EXPECT_TRUE(nothing.contains(name)) << e.what();
            continue;
        }
        ++repaired;
        expectValid(out);
        // Complete means that readers find the same content in both.
        if (r.complete()) {
            EXPECT_TRUE(sameContent(entry.path(), out)) << allSteps(r);
        }
        // Every document of the output is a live document of the input, bytes unchanged.
        std::set<std::string> liveTexts;
        std::uint64_t live = 0;
        const auto input = openOrBase(entry.path(), name);
        for (const auto& c : input->collections) {
            for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
                const ByteView v = c->documentBytes(i);
                liveTexts.insert(std::string(v.bytes.begin(), v.bytes.end()));
            }
            live += c->documentCount();
        }
        const auto ds = zds::ZdsDataset::open(out);
        for (const auto& c : ds->collections) {
            for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
                const ByteView v = c->documentBytes(i);
                EXPECT_TRUE(liveTexts.contains(std::string(v.bytes.begin(), v.bytes.end())))
                    << c->document(i).id;
            }
        }
        // Each live document is recovered or reported lost (an index without its data.jsonl
        // lists documents no reader finds: reported lost too).
        // (A scanned archive's lost members are not counted: which documents they held is
        // unknown.)
        const std::uint64_t orphaned = name == "data_missing_index_present" ? 10 : 0;
        if (!mentions(r.losses, "recovered by scanning")) {
            EXPECT_EQ(r.recovered + r.lostKnown, live + orphaned) << allSteps(r);
        }
    }
    EXPECT_GE(repaired, 20u);
}

// Random damage to data.jsonl (flipped bytes, a cut): every document whose line survived
// unchanged where the index points comes back with its bytes, nothing comes back that was not a
// line of the damaged input, every live document is recovered or reported lost, and the output
// validates.
TEST(ZdsRepair, RandomDamageRecoversExactlyTheIntactDocuments) {
    ScratchDir dir("repair_random");
    std::mt19937 rng(20261125);
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const fs::path in = dir.path() / ("in" + std::to_string(round));
        std::vector<Line> lines;
        for (int i = 0; i < 60; ++i) {
            lines.push_back({"{\"_id\":\"d" + std::to_string(i) + "\",\"text\":\"value " +
                             std::to_string(i * 7919) + "\",\"n\":[1,2,3]}"});
        }
        makeDataset(in, lines);
        const fs::path data = in / "collections/c/meta/data.jsonl";
        const std::string intact = readAll(data);
        std::string damaged = intact;
        const int flips = 1 + static_cast<int>(rng() % 6);
        for (int f = 0; f < flips; ++f) {
            damaged[rng() % damaged.size()] = static_cast<char>(rng() % 256);
        }
        if (round % 3 == 0) {
            damaged.resize(damaged.size() - rng() % (damaged.size() / 2));
        }
        writeAll(data, damaged);

        const fs::path out = dir.path() / ("out" + std::to_string(round));
        RepairReport r;
        try {
            r = zds::repairZdsDataset(in, out);
        } catch (const RepairError& e) {
            ADD_FAILURE() << e.what();
            continue;
        }
        expectValid(out);
        const Docs got = liveDocs(out);
        EXPECT_EQ(r.recovered, got.size());
        EXPECT_EQ(r.recovered + r.lostKnown, lines.size()) << allSteps(r);
        if (r.complete()) {
            EXPECT_TRUE(sameContent(in, out)) << allSteps(r);
        }
        const auto texts = everyDocumentText(in);
        std::uint64_t offset = 0;
        for (const Line& l : lines) {
            const std::string id = *zds::extractJsonId(bytesOf(l.text));
            const std::string line = l.text + "\n";
            const bool survived = offset + line.size() <= damaged.size() &&
                                  damaged.compare(offset, line.size(), line) == 0 &&
                                  (offset == 0 || damaged[offset - 1] == '\n');
            if (survived) {
                EXPECT_EQ(got.count(id), 1u) << id;
                if (got.count(id) == 1) {
                    EXPECT_EQ(got.at(id), l.text);
                }
            }
            offset += line.size();
        }
        for (const auto& [id, bytes] : got) {
            EXPECT_TRUE(texts.contains(bytes)) << id;
        }
    }
}

// A dataset of two collections, "c" (alpha, bravo, charlie) and "other" (x, y), in a folder
// (`folder` beside the archive) packed into a STORE'd (or DEFLATE'd) archive.
fs::path makeTwoCollectionArchive(const fs::path& parent, bool deflate = false) {
    const fs::path dir = parent / (deflate ? "deflated" : "stored");
    const fs::path folder = dir / "folder";
    makeDataset(folder, {{doc("x", 1)}, {doc("y", 2)}});
    fs::rename(folder / "collections/c", dir / "other-collection");
    makeDataset(folder, {{doc("alpha", 1)}, {doc("bravo", 2)}, {doc("charlie", 3)}});
    fs::rename(dir / "other-collection", folder / "collections/other");
    writeAll(folder / "collections/c/meta/manifest.json",
             R"({"collection":"c","doc_count":3,"owner":"the lab"})");
    writeAll(folder / "zds.json",
             R"({"name":"two","collections":{"c":{"count":3},"other":{"count":2}}})");
    const fs::path archive = dir / "in.zds";
    zds::ZdsJobOptions pack;
    pack.deflate = deflate;
    zds::packZds(folder, archive, pack);
    return archive;
}

// A data.jsonl member whose CRC-32 fails (one digit of a value changed: every line still
// parses): none of its lines is recovered, each is quarantined, its documents are lost; the
// other collection comes back whole. The same through the scan of an archive without its
// central directory, and for a DEFLATE'd member.
TEST(ZdsRepair, DataMemberFailingItsCrcIsQuarantinedNotRecovered) {
    ScratchDir dir("repair_crc_data");
    const fs::path archive = makeTwoCollectionArchive(dir.path());
    std::string bytes = readAll(archive);
    const std::size_t at = bytes.find(doc("bravo", 2));
    ASSERT_NE(at, std::string::npos);
    bytes[at + doc("bravo", 2).size() - 2] = '7';  // "v":2 -> "v":7
    writeAll(archive, bytes);
    const fs::path damaged = dir.path() / "damaged.zds";
    writeAll(damaged, bytes);
    breakCentralDirectory(damaged);

    const fs::path deflated = makeTwoCollectionArchive(dir.path(), true);
    std::string packed = readAll(deflated);
    const MemberPlace place = findMember(deflated, "collections/c/meta/data.jsonl");
    packed[place.data + place.size / 2] =
        static_cast<char>(packed[place.data + place.size / 2] ^ 1);
    writeAll(deflated, packed);

    int run = 0;
    for (const fs::path& input : {archive, damaged, deflated}) {
        SCOPED_TRACE(input.string());
        const fs::path out = dir.path() / ("out" + std::to_string(++run));
        const RepairReport r = zds::repairZdsDataset(input, out);
        EXPECT_FALSE(r.complete());
        EXPECT_EQ(r.recovered, 2u) << allSteps(r);
        EXPECT_EQ(r.lostKnown, 3u) << allSteps(r);
        EXPECT_TRUE(mentions(r.losses, "meta/data.jsonl ")) << allSteps(r);
        expectValid(out);
        EXPECT_EQ(liveDocs(out), (Docs{{"x", doc("x", 1)}, {"y", doc("y", 2)}}));
        const auto q = quarantined(out);
        if (input == deflated) {
            continue;  // how much of the corrupt stream inflates is zlib's business
        }
        EXPECT_TRUE(mentions(r.losses, "none of its 3 lines is recovered")) << allSteps(r);
        ASSERT_EQ(q.size(), 3u);
        for (std::size_t i = 0; i < q.size(); ++i) {
            EXPECT_EQ(q[i]["file"], "collections/c/meta/data.jsonl");
            EXPECT_EQ(q[i]["line"], i + 1);
            EXPECT_NE(q[i]["reason"].get<std::string>().find("data.jsonl "), std::string::npos);
        }
        if (input == archive) {
            EXPECT_TRUE(mentions(r.losses, "fails its CRC-32")) << allSteps(r);
            EXPECT_EQ(q[1]["text"], R"({"_id":"bravo","v":7})");
            EXPECT_FALSE(sameContent(input, out));
        }
    }
}

// An archive without its central directory whose manifest.json member has a damaged local
// header: the scan cannot read that member, and the bytes it held are reported, not skipped
// (the repair would otherwise write a fresh manifest and call itself complete).
TEST(ZdsRepair, ScanReportsBytesNoLocalHeaderAccountsFor) {
    ScratchDir dir("repair_scan_gap");
    const fs::path archive = makeTwoCollectionArchive(dir.path());
    const auto zip = ZipArchive::open(archive);
    const std::uint64_t header = zip->find("collections/c/meta/manifest.json")->localHeaderOffset;
    std::string bytes = readAll(archive);
    bytes[header + 1] = 'X';  // PK\3\4 -> PX\3\4
    writeAll(archive, bytes);
    breakCentralDirectory(archive);
    const fs::path out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(archive, out);
    const auto losses = besidesTheScan(r.losses);
    ASSERT_EQ(losses.size(), 1u) << allSteps(r);
    EXPECT_NE(losses[0].description.find("bytes " + std::to_string(header) + " to "),
              std::string::npos)
        << allSteps(r);
    EXPECT_NE(losses[0].description.find("hold no readable local file header"), std::string::npos);
    EXPECT_EQ(losses[0].bytes.offset, header);
    expectValid(out);
    EXPECT_EQ(r.recovered, 5u);
}

// An index.bin member whose CRC-32 fails: each entry is checked against its line. When every
// entry agrees with its line the index is rebuilt and nothing is lost; a key with a changed byte
// gives way to its line's own _id, which readers of the output find the document by (reported:
// readers of the input found it under the damaged key).
TEST(ZdsRepair, IndexMemberFailingItsCrcIsCheckedAgainstTheLines) {
    ScratchDir dir("repair_crc_index");
    const fs::path archive = makeTwoCollectionArchive(dir.path());
    const fs::path intactIndex = dir.path() / "intact-index.zds";
    fs::copy_file(archive, intactIndex);
    breakRecordedCrc(intactIndex, "collections/c/meta/index.bin");
    const RepairReport r = zds::repairZdsDataset(intactIndex, dir.path() / "out1");
    EXPECT_TRUE(r.complete()) << allSteps(r);
    EXPECT_TRUE(mentions(r.actions, "meta/index.bin fails its CRC-32")) << allSteps(r);
    expectValid(dir.path() / "out1");
    EXPECT_TRUE(sameContent(intactIndex, dir.path() / "out1"));

    const fs::path flippedKey = dir.path() / "flipped-key.zds";
    std::string bytes = readAll(archive);
    const MemberPlace index = findMember(archive, "collections/c/meta/index.bin");
    const std::size_t key = bytes.find("bravo", index.data);
    ASSERT_LT(key, index.data + index.size);
    bytes[key + 2] = 'A';  // brAvo
    writeAll(flippedKey, bytes);
    ASSERT_TRUE(liveDocs(flippedKey).contains("brAvo"));
    const fs::path out = dir.path() / "out2";
    const RepairReport r2 = zds::repairZdsDataset(flippedKey, out);
    ASSERT_EQ(r2.losses.size(), 1u) << allSteps(r2);
    EXPECT_NE(r2.losses[0].description.find("the index lists 'brAvo' at line 2"), std::string::npos)
        << allSteps(r2);
    EXPECT_NE(r2.losses[0].description.find("written under 'bravo'"), std::string::npos);
    EXPECT_EQ(r2.recovered, 5u);
    expectValid(out);
    EXPECT_EQ(liveDocs(out), (Docs{{"alpha", doc("alpha", 1)},
                                   {"bravo", doc("bravo", 2)},
                                   {"charlie", doc("charlie", 3)},
                                   {"x", doc("x", 1)},
                                   {"y", doc("y", 2)}}));
    EXPECT_FALSE(fs::exists(zds::zdsQuarantinePath(out)));
}

// A manifest.json member whose CRC-32 fails: written afresh (collection and doc_count only),
// its bytes quarantined, a loss; the documents are untouched.
TEST(ZdsRepair, ManifestMemberFailingItsCrcIsWrittenAfresh) {
    ScratchDir dir("repair_crc_manifest");
    const fs::path archive = makeTwoCollectionArchive(dir.path());
    breakRecordedCrc(archive, "collections/c/meta/manifest.json");
    breakRecordedCrc(archive, "zds.json");
    const fs::path out = dir.path() / "out.zds";
    const RepairReport r = zds::repairZdsDataset(archive, out);
    ASSERT_EQ(r.losses.size(), 2u) << allSteps(r);
    EXPECT_TRUE(mentions(r.losses, "meta/manifest.json fails its CRC-32")) << allSteps(r);
    EXPECT_TRUE(mentions(r.losses, "zds.json fails its CRC-32")) << allSteps(r);
    EXPECT_EQ(r.recovered, 5u);
    expectValid(out);
    EXPECT_TRUE(sameContent(archive, out));
    const auto ds = zds::ZdsDataset::open(out);
    const ByteSourcePtr manifest = ds->collections.at(0)->manifest;
    const ByteView v = manifest->view(0, manifest->size());
    const auto json = nlohmann::json::parse(v.bytes.begin(), v.bytes.end());
    EXPECT_FALSE(json.contains("owner")) << json.dump();
    EXPECT_EQ(json["doc_count"], 3);
    const auto q = quarantined(out);
    ASSERT_EQ(q.size(), 2u);
    EXPECT_EQ(q[0]["file"], "collections/c/meta/manifest.json");
    EXPECT_EQ(q[0]["text"], R"({"collection":"c","doc_count":3,"owner":"the lab"})");
    EXPECT_EQ(q[1]["file"], "zds.json");
    EXPECT_EQ(q[1]["collection"], "");
}

// Cancelling while the members' CRC-32s are checked stops the repair; nothing is written.
TEST(ZdsRepair, CancelDuringTheChecksumCheckWritesNothing) {
    ScratchDir dir("repair_crc_cancel");
    const fs::path archive = makeTwoCollectionArchive(dir.path());
    CancelToken token;
    RepairOptions options;
    options.cancel = &token;
    options.progress = [&](double, const std::string& text) {
        if (text.starts_with("checking the CRC-32")) {
            token.cancel();
        }
    };
    const fs::path out = dir.path() / "out";
    try {
        zds::repairZdsDataset(archive, out, options);
        ADD_FAILURE() << "the repair was not cancelled";
    } catch (const JobCancelled&) {
    }
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(zds::zdsQuarantinePath(out)));
    // The check of one member stops too.
    const auto zip = ZipArchive::open(archive);
    EXPECT_TRUE(zip->checkCrc(*zip->find("collections/c/meta/data.jsonl"), &token).cancelled);
}

// A file-per-document archive whose order.ids fails its CRC-32: which documents are live is
// unknown, so every docs/ file that is intact is kept (a loss says so), the list quarantined.
TEST(ZdsRepair, DocumentListFailingItsCrcKeepsEveryIntactFile) {
    ScratchDir dir("repair_crc_order");
    const auto folder = makeDataset(dir.path() / "in", {{doc("a", 1)}, {doc("b", 2)}});
    zds::convertZds(folder, zds::ZdsLayout::Docs);
    const fs::path archive = dir.path() / "in.zds";
    zds::packZds(folder, archive);
    breakRecordedCrc(archive, "collections/c/meta/order.ids");
    breakRecordedCrc(archive, "collections/c/docs/b.json");
    const fs::path out = dir.path() / "out";
    const RepairReport r = zds::repairZdsDataset(archive, out);
    EXPECT_TRUE(mentions(r.losses, "meta/order.ids fails its CRC-32")) << allSteps(r);
    EXPECT_TRUE(mentions(r.losses, "document 'b' is lost: docs/b.json fails its CRC-32"))
        << allSteps(r);
    EXPECT_EQ(r.losses.size(), 2u) << allSteps(r);
    expectValid(out);
    EXPECT_EQ(liveDocs(out).size(), 1u);
    EXPECT_TRUE(liveDocs(out).contains("a"));
    const auto q = quarantined(out);
    ASSERT_EQ(q.size(), 2u);
    EXPECT_EQ(q[0]["file"], "collections/c/meta/order.ids");
    EXPECT_EQ(q[1]["file"], "collections/c/docs/b.json");
}

// Index keys that disagree with their lines' _id in a folder dataset (no checksum): any key of
// an index that fails its own checks gives way to the line's own _id, reported; in a sound index
// a key a byte or two from its _id stays where readers find it, with the disagreement reported
// as a loss (either may be the damaged one); a key unlike the _id in a sound index is the
// writer's choice (the reference's `key_collides`) and is kept, the repair complete.
TEST(ZdsRepair, DamagedIndexKeysGiveWayToTheLinesOwnIds) {
    ScratchDir dir("repair_keys");
    const std::vector<Line> lines = {
        {doc("alpha", 1)}, {doc("bravo", 2)}, {doc("charlie", 3)}, {doc("other_doc", 4)}};
    struct Case {
        std::string name;
        std::vector<std::pair<std::string, int>> entries;
        bool complete;
        Docs expected;
        std::string loss;
    };
    const Docs lineIds{{"alpha", doc("alpha", 1)},
                       {"bravo", doc("bravo", 2)},
                       {"charlie", doc("charlie", 3)},
                       {"other_doc", doc("other_doc", 4)}};
    Docs chosenKey = lineIds;
    chosenKey.erase("other_doc");
    chosenKey["keyed"] = doc("other_doc", 4);
    Docs flippedKey = lineIds;
    flippedKey.erase("bravo");
    flippedKey["brAvo"] = doc("bravo", 2);
    const std::size_t line2 = doc("alpha", 1).size() + 1;
    const std::vector<Case> cases = {
        // A sound index: a key or the _id was damaged, nothing tells which. Kept where
        // readers find it, and not complete.
        {"flipped",
         {{"alpha", 1}, {"brAvo", 2}, {"charlie", 3}, {"other_doc", 4}},
         false,
         flippedKey,
         "document 'brAvo' kept under the key the index lists although its line 2 (bytes " +
             std::to_string(line2) + " to " + std::to_string(line2 + doc("bravo", 2).size() + 1) +
             ") carries _id 'bravo': the two differ in 1 byte, so one of them was damaged"},
        {"chosen", {{"alpha", 1}, {"bravo", 2}, {"charlie", 3}, {"keyed", 4}}, true, chosenKey, ""},
        {"chosen-in-a-damaged-index",
         {{"alpha", 1}, {"bravo", 2}, {"charlie", 3}, {"keyed", 4}, {"alpha", 1}},
         false,
         lineIds,
         "the index lists 'keyed' at line 4"},
        {"ghost",
         {{"alpha", 1}, {"bravo", 2}, {"charlie", 3}, {"other_doc", 4}, {"ghost", 1}},
         false,
         lineIds,
         "and another entry lists 'alpha': 'ghost' is not in the output"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path in = makeDataset(dir.path() / ("in-" + c.name), lines);
        writeIndex(in, c.entries);
        const fs::path out = dir.path() / ("out-" + c.name);
        const RepairReport r = zds::repairZdsDataset(in, out);
        EXPECT_EQ(r.complete(), c.complete) << allSteps(r);
        if (!c.loss.empty()) {
            EXPECT_TRUE(mentions(r.losses, c.loss)) << allSteps(r);
        }
        expectValid(out);
        EXPECT_EQ(liveDocs(out), c.expected);
        EXPECT_EQ(sameContent(in, out), c.complete || c.name == "flipped");
        EXPECT_EQ(r.recovered + r.lostKnown,
                  c.entries.size() - (c.name == "chosen-in-a-damaged-index"));
    }
}

// Every valid dataset of the corpus, folder or archive, repairs complete, and the output reads
// the same as the input (strata-cli diff exits 0).
TEST(ZdsRepair, EveryValidCorpusDatasetComesBackTheSame) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("repair_valid");
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(zds_test::corpusDir() / "valid")) {
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        const fs::path out = dir.path() / name;
        RepairReport r;
        try {
            r = repairPath(entry.path(), out);
        } catch (const RepairError& e) {
            ADD_FAILURE() << e.what();
            continue;
        }
        EXPECT_TRUE(r.complete()) << allSteps(r);
        expectValid(out);
        EXPECT_TRUE(sameContent(entry.path(), out));
        EXPECT_FALSE(fs::exists(zds::zdsQuarantinePath(out)));
        ++checked;
    }
    EXPECT_GE(checked, 17u);
}

// Random damage anywhere in a STORE'd archive of two collections: a collection whose data.jsonl
// bytes changed recovers nothing of them; every document recovered is one of the originals,
// byte for byte; a repair that says it is complete reads the same as its input.
TEST(ZdsRepair, RandomArchiveDamageNeverRecoversAChangedMember) {
    ScratchDir dir("repair_random_zip");
    const fs::path archive = makeTwoCollectionArchive(dir.path());
    const std::string intact = readAll(archive);
    const Docs originals = liveDocs(archive.parent_path() / "folder");
    const MemberPlace c = findMember(archive, "collections/c/meta/data.jsonl");
    const MemberPlace other = findMember(archive, "collections/other/meta/data.jsonl");
    std::mt19937 rng(20261127);
    std::size_t repaired = 0;
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        std::string damaged = intact;
        const int flips = 1 + static_cast<int>(rng() % 3);
        for (int f = 0; f < flips; ++f) {
            // Inside one collection's data.jsonl, or anywhere.
            const std::size_t at = round % 3 == 0   ? c.data + rng() % c.size
                                   : round % 3 == 1 ? other.data + rng() % other.size
                                                    : rng() % damaged.size();
            damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng() % 255));
        }
        const fs::path in = dir.path() / ("in" + std::to_string(round) + ".zds");
        writeAll(in, damaged);
        const fs::path out = dir.path() / ("out" + std::to_string(round));
        RepairReport r;
        try {
            r = zds::repairZdsDataset(in, out);
        } catch (const RepairError&) {
            continue;  // nothing recoverable (both data members changed)
        }
        expectValid(out);
        const Docs got = liveDocs(out);
        for (const auto& [id, bytes] : got) {
            EXPECT_TRUE(originals.contains(id) && originals.at(id) == bytes) << id;
        }
        repaired += got.empty() ? 0 : 1;
        const auto changed = [&](const MemberPlace& m) {
            return damaged.compare(m.data, m.size, intact, m.data, m.size) != 0;
        };
        if (changed(c)) {
            EXPECT_FALSE(got.contains("alpha") || got.contains("bravo") || got.contains("charlie"));
        }
        if (changed(other)) {
            EXPECT_FALSE(got.contains("x") || got.contains("y"));
        }
        if (r.complete()) {
            bool opens = true;
            try {
                zds::ZdsDataset::open(in);
            } catch (const std::exception&) {
                opens = false;
            }
            if (opens) {
                EXPECT_TRUE(sameContent(in, out)) << allSteps(r);
            }
        }
    }
    EXPECT_GE(repaired, 30u);
}

// An archive member whose name would leave the dataset is never copied, and is a loss (as the
// scan of a broken archive reports it), not dropped without a word; other files come along.
TEST(ZdsRepair, MemberNamedOutsideTheDatasetIsALoss) {
    ScratchDir dir("repair_unsafe_name");
    const fs::path archive = dir.path() / "in.zds";
    const std::string data = doc("a", 1) + "\n";
    int err = 0;
    zip_t* z = zip_open(archive.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr);
    // libzip reads the buffers when the archive is closed.
    const std::vector<std::pair<std::string, std::string>> members = {
        {"collections/c/meta/data.jsonl", data},
        {"../evil.txt", "outside"},
        {"notes/readme.txt", "inside"}};
    for (const auto& [name, bytes] : members) {
        zip_source_t* source = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
        ASSERT_GE(zip_file_add(z, name.c_str(), source, ZIP_FL_ENC_UTF_8), 0) << zip_strerror(z);
    }
    ASSERT_EQ(zip_close(z), 0);
    const fs::path broken = dir.path() / "broken.zds";
    fs::copy_file(archive, broken);
    breakCentralDirectory(broken);
    int run = 0;
    for (const fs::path& input : {archive, broken}) {
        SCOPED_TRACE(input.string());
        const fs::path out = dir.path() / ("out" + std::to_string(++run));
        const RepairReport r = zds::repairZdsDataset(input, out);
        const auto losses = besidesTheScan(r.losses);
        ASSERT_EQ(losses.size(), 1u) << allSteps(r);
        EXPECT_NE(losses[0].description.find("archive member '../evil.txt'"), std::string::npos)
            << allSteps(r);
        EXPECT_NE(losses[0].description.find("would leave the dataset"), std::string::npos);
        expectValid(out);
        EXPECT_EQ(readAll(out / "notes/readme.txt"), "inside");
        EXPECT_FALSE(fs::exists(dir.path() / "evil.txt"));
        EXPECT_EQ(liveDocs(out), (Docs{{"a", doc("a", 1)}}));
    }
}

}  // namespace
}  // namespace strata
