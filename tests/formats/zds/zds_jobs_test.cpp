// ZDS jobs, the line indexer and search: unpack refuses path escapes, zip bombs and damaged
// members before writing anything; reindex and compact repair damaged indexes (a count of 2^60
// included); the parallel indexer agrees with the JSON parser; search finds what it should.
#include <gtest/gtest.h>
#include <zip.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_json_line.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_search.h"
#include "formats/zds/zds_writer.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using zds_test::corpusDir;
using zds_test::ScratchDir;

// A ZIP made with libzip from (name, bytes, deflate) members.
void makeZip(const fs::path& path,
             const std::vector<std::tuple<std::string, std::string, bool>>& members) {
    int err = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr);
    for (const auto& [name, bytes, deflate] : members) {
        zip_source_t* s = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
        const zip_int64_t i = zip_file_add(z, name.c_str(), s, ZIP_FL_ENC_UTF_8);
        ASSERT_GE(i, 0) << name << ": " << zip_strerror(z);
        zip_set_file_compression(z, static_cast<zip_uint64_t>(i),
                                 deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    }
    ASSERT_EQ(zip_close(z), 0);
}

const std::string kData = "{\"_id\":\"a\",\"v\":1}\n{\"_id\":\"b\",\"v\":2}\n";

std::size_t filesUnder(const fs::path& dir) {
    std::size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        n += e.is_regular_file() ? 1 : 0;
    }
    return n;
}

TEST(ZdsUnpack, RefusesPathEscapesBeforeWritingAnything) {
    ScratchDir dir("slip");
    fs::create_directories(dir.path() / "inner");
    for (const std::string& evil :
         {std::string("../evil.txt"), std::string("collections/../../evil.txt"),
          std::string("/tmp/strata-evil.txt"), std::string("collections\\..\\evil.txt"),
          std::string("collections/./x")}) {
        const fs::path zip = dir.path() / "inner" / "slip.zds";
        makeZip(zip, {{"collections/default/meta/data.jsonl", kData, false}, {evil, "x", false}});
        try {
            zds::unpackZds(zip, dir.path() / "inner" / "out");
            ADD_FAILURE() << evil << " was unpacked";
        } catch (const zds::ZdsJobError& e) {
            EXPECT_NE(std::string(e.what()).find("outside"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(fs::exists(dir.path() / "evil.txt"));
        EXPECT_FALSE(fs::exists("/tmp/strata-evil.txt"));
        EXPECT_FALSE(fs::exists(dir.path() / "inner" / "out"));
        EXPECT_EQ(filesUnder(dir.path()), 1u);  // the archive alone
    }
}

TEST(ZdsUnpack, RefusesAMemberClaimingFourGigabytes) {
    ScratchDir dir("bomb");
    const fs::path zip = dir.path() / "bomb.zds";
    makeZip(zip, {{"collections/default/meta/data.jsonl", std::string(100000, 'a'), true}});
    // Claim 4 GiB - 2 uncompressed in the local header and the central directory.
    std::string bytes = zds_test::readAll(zip);
    for (const auto& [sig, at] : {std::pair{std::string("PK\x03\x04", 4), 22},
                                  std::pair{std::string("PK\x01\x02", 4), 24}}) {
        const auto pos = bytes.find(sig);
        ASSERT_NE(pos, std::string::npos);
        std::memset(bytes.data() + pos + at, 0xFF, 4);
        bytes[pos + at] = static_cast<char>(0xFE);
    }
    zds_test::writeAll(zip, bytes);
    try {
        zds::unpackZds(zip, dir.path() / "out");
        ADD_FAILURE() << "the bomb was unpacked";
    } catch (const zds::ZdsJobError& e) {
        EXPECT_NE(std::string(e.what()).find("times"), std::string::npos) << e.what();
    } catch (const ZipError&) {
        // libzip refusing the lie is as good.
    }
    EXPECT_FALSE(fs::exists(dir.path() / "out"));

    // Opening and reading it as a dataset is bounded too.
    try {
        const auto ds = zds::ZdsDataset::open(zip);
        for (const auto& c : ds->collections) {
            const std::uint64_t n = std::min<std::uint64_t>(c->documentCount(), 10);
            for (std::uint64_t i = 0; i < n; ++i) {
                (void)c->documentBytes(i);
            }
        }
    } catch (const SourceError&) {
    }
}

TEST(ZdsUnpack, SizeLimitDuplicatesAndDamagedData) {
    STRATA_SKIP_WITHOUT_CORPUS();
    ScratchDir dir("limits");
    const fs::path zip = dir.path() / "ok.zds";
    makeZip(zip, {{"collections/default/meta/data.jsonl", kData, true}});
    zds::ZdsJobOptions small;
    small.maxUnpackedBytes = 10;
    EXPECT_THROW(zds::unpackZds(zip, dir.path() / "out", small), zds::ZdsJobError);
    EXPECT_FALSE(fs::exists(dir.path() / "out"));

    const fs::path dup = dir.path() / "dup.zds";
    makeZip(dup, {{"collections/default/meta/data.jsonl", kData, false},
                  {"collections/default/meta/data.jsonl.x", kData, false}});
    std::string bytes = zds_test::readAll(dup);
    // Rename the second member to the first name in both headers (same length).
    for (std::size_t pos = 0; (pos = bytes.find("data.jsonl.x", pos)) != std::string::npos;) {
        bytes.replace(pos, 12, "data.jsonl/x");
    }
    zds_test::writeAll(dup, bytes);

    const fs::path crc = corpusDir() / "corrupt" / "zip_corrupt_member_data.zds";
    EXPECT_THROW(zds::unpackZds(crc, dir.path() / "crc"), std::runtime_error);
    EXPECT_FALSE(fs::exists(dir.path() / "crc"));

    const zds::ZdsJobResult r = zds::unpackZds(zip, dir.path() / "out");
    EXPECT_EQ(r.files, 1u);
    EXPECT_EQ(zds_test::readAll(dir.path() / "out/collections/default/meta/data.jsonl"), kData);
}

// A JSONL collection whose index claims 2^60 entries.
fs::path hugeCountDataset(const fs::path& root) {
    const fs::path meta = root / "collections" / "default" / "meta";
    zds_test::writeAll(meta / "data.jsonl", kData);
    std::string zdx = zds::encodeZdxHeader(1ull << 60);
    zds::appendZdxEntry(zdx, "a", 0, 18);
    zds_test::writeAll(meta / "index.bin", zdx);
    return root;
}

TEST(ZdsJobs, ReindexRepairsAHugeCount) {
    ScratchDir dir("huge");
    const fs::path ds = hugeCountDataset(dir.path() / "ds");
    CollectingSink before;
    zds_test::validate(ds, before);
    EXPECT_GT(before.countOf(Severity::Error), 0u);
    const zds::ZdsJobResult r = zds::reindexZds(ds);
    EXPECT_EQ(r.documents, 2u);
    CollectingSink after;
    zds_test::validate(ds, after);
    EXPECT_EQ(after.countOf(Severity::Error), 0u) << zds_test::describe(after);
    EXPECT_EQ(zds_test::readAll(ds / "collections/default/meta/data.jsonl"), kData);
}

TEST(ZdsJobs, CompactIgnoresAHugeCountAndKeepsLiveLines) {
    ScratchDir dir("compact");
    const fs::path ds = hugeCountDataset(dir.path() / "ds");
    zds_test::writeAll(ds / "collections/default/meta/data.jsonl",
                       kData + "{\"_id\":\"a\",\"v\":3}\n\n{\"no_id\":1}\n");
    const zds::ZdsJobResult r = zds::compactZds(ds);
    EXPECT_EQ(r.documents, 2u);
    EXPECT_EQ(zds_test::readAll(ds / "collections/default/meta/data.jsonl"),
              "{\"_id\":\"b\",\"v\":2}\n{\"_id\":\"a\",\"v\":3}\n");
    EXPECT_FALSE(r.notes.empty());
    CollectingSink after;
    zds_test::validate(ds, after);
    EXPECT_EQ(after.countOf(Severity::Error), 0u) << zds_test::describe(after);
}

TEST(ZdsJobs, ChooseCollection) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto two = zds::ZdsDataset::open(corpusDir() / "valid" / "jsonl_two_collections");
    EXPECT_EQ(zds::chooseZdsCollection(*two, "test").name(), "test");
    EXPECT_THROW(zds::chooseZdsCollection(*two, ""), zds::ZdsJobError);
    const auto one = zds::ZdsDataset::open(corpusDir() / "valid" / "docs_mode");
    EXPECT_EQ(zds::chooseZdsCollection(*one, "").name(), "default");
}

// ---- indexer ----

TEST(ZdsLineIndex, AgreesWithTheParserOnAwkwardLines) {
    std::string data;
    const std::vector<std::string> lines = {R"({"_id":"plain","v":1})",
                                            R"({"_id":"esc\u0061ped"})",
                                            R"({"A":{"_id":"inner"},"_id":"outer"})",
                                            R"({"_id": "spaced"})",
                                            R"({"_id":7})",
                                            R"(not json "_id":"fake")",
                                            "",
                                            "{\"_id\":\"crlf\"}\r",
                                            R"({"_id":"last_without_newline"})"};
    for (std::size_t i = 0; i < lines.size(); ++i) {
        data += lines[i] + (i + 1 < lines.size() ? "\n" : "");
    }
    const auto source = makeBufferSource(data);
    const auto entries = zds::indexJsonLines(*source);
    ASSERT_TRUE(entries);
    ASSERT_EQ(entries->size(), lines.size() - 1);  // the blank line is not a document
    const std::vector<std::string> ids = {"plain", "escaped", "outer", "spaced",
                                          "",      "",        "crlf",  "last_without_newline"};
    for (std::size_t i = 0; i < ids.size(); ++i) {
        EXPECT_EQ((*entries)[i].id, ids[i]) << i;
        EXPECT_EQ((*entries)[i].hasId, !ids[i].empty()) << i;
    }
    EXPECT_EQ(entries->back().offset + entries->back().length, data.size());
}

TEST(ZdsLineIndex, ThreadsGiveTheSameEntries) {
    std::string data;
    for (int i = 0; i < 700000; ++i) {
        data += R"({"_id":"k)" + std::to_string(i) + R"(","pad":"......................."})";
        data += i % 1000 == 0 ? "\r\n" : "\n";
    }
    ASSERT_GT(data.size(), 32u << 20);
    const auto source = makeBufferSource(data);
    zds::ZdsIndexOptions one;
    one.threads = 1;
    zds::ZdsIndexOptions four;
    four.threads = 4;
    const auto a = zds::indexJsonLines(*source, one);
    const auto b = zds::indexJsonLines(*source, four);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->size(), 700000u);
    ASSERT_EQ(a->size(), b->size());
    for (std::size_t i = 0; i < a->size(); i += 997) {
        EXPECT_EQ((*a)[i].id, (*b)[i].id);
        EXPECT_EQ((*a)[i].offset, (*b)[i].offset);
    }
    CancelToken cancel;
    cancel.cancel();
    zds::ZdsIndexOptions cancelled;
    cancelled.cancel = &cancel;
    EXPECT_FALSE(zds::indexJsonLines(*source, cancelled));

    const std::string zdx = zds::encodeZdx(*a);
    const zds::ZdxIndex index(makeBufferSource(zdx));
    ASSERT_EQ(index.entryCount(), a->size());
    const zds::ZdsIdMap map(index);
    const auto hit = map.find("k123456");
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->offset, (*a)[123456].offset);
    EXPECT_EQ(zds::findIdInZdx(index, "k123456")->length, (*a)[123456].length);
    EXPECT_FALSE(map.find("nope"));
}

TEST(ZdsLineIndex, EncoderRefusesWhatZdxCannotHold) {
    std::string out;
    EXPECT_THROW(zds::appendZdxEntry(out, std::string(70000, 'x'), 0, 1), std::length_error);
    EXPECT_THROW(zds::appendZdxEntry(out, "x", 0, 1ull << 32), std::length_error);
}

// Lines where the fast path (no parse for `{"_id":"plain"...`) could go wrong: it must give
// what simdjson gives for the top-level `_id`.
const std::vector<std::string> kTrickyLines = {
    R"({"_id":"plain","v":1})",
    R"({"_id":"esc\"aped","v":1})",
    R"({"_id":"back\\slash"})",
    R"({"_id":"uni\u00e9"})",
    "{\"_id\":\"\xc3\xb1"
    "and\xc3\xba.\xe6\x97\xa5\xe6\x9c\xac-id_1\",\"x\":[1,2]}",
    R"({"v":1,"_id":"not_first"})",
    R"({"A":{"_id":"inner"},"_id":"outer"})",
    R"({"_id":"nested_later","a":{"_id":"deeper"}})",
    R"({ "_id" : "spaced" })",
    R"({"_id": "space_after_colon"})",
    R"(  {"_id":"leading_space"})",
    R"({"_id":"trailing_space"}   )",
    R"({"_id":"","v":"empty id"})",
    R"({"_id":"first","_id":"second"})",
    R"({"_id":7})",
    R"({"_id":null})",
    R"({"_id":["x"]})",
    R"({"id":"no underscore"})",
    R"(["_id","array"])",
    R"("just a string")",
    R"({})",
};

std::span<const std::uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST(ZdsLineIndex, FastPathAgreesWithTheParser) {
    for (const std::string& line : kTrickyLines) {
        EXPECT_EQ(zds::jsonLineId(bytesOf(line)), zds::parsedJsonLineId(bytesOf(line))) << line;
        const std::string crlf = line + "\r";
        EXPECT_EQ(zds::jsonLineId(bytesOf(crlf)), zds::parsedJsonLineId(bytesOf(line))) << line;
    }
    EXPECT_EQ(zds::jsonLineId(bytesOf(R"({"_id":"esc\"aped"})")), std::string("esc\"aped"));
    EXPECT_EQ(zds::jsonLineId(bytesOf(R"({"_id":"first","_id":"second"})")), std::string("first"));
    EXPECT_EQ(zds::jsonLineId(bytesOf(R"({"_id":"uni\u00e9"})")), std::string("uni\xc3\xa9"));
    EXPECT_FALSE(zds::jsonLineId(bytesOf(R"({"_id":7})")));
}

// A JSONL body of tricky lines, repeated with distinct ids, with repeated ids (the last line
// wins), blank lines, CRLF and no final newline; big enough to be split between threads.
std::string trickyJsonl(int blocks) {
    std::string data;
    for (int b = 0; b < blocks; ++b) {
        const std::string n = std::to_string(b);
        data += R"({"_id":"k)" + n +
                R"(","pad":"................................................................"})"
                "\n";
        data += R"({"v":1,"_id":"late)" + n +
                R"("})"
                "\n";
        data += R"({"_id":"e\u0073c)" + n +
                R"(","x":1})"
                "\r\n";
        data += R"({ "_id" : "sp)" + n +
                R"(" })"
                "\n";
        data += "\n   \n";
        data += R"({"no_id":)" + n + "}\n";
        data += "not json at all\n";
        if (b % 97 == 0) {
            data += R"({"_id":"dup","at":)" + n + "}\n";        // repeated across slices
            data += R"({"_id":"d\u0075p2","at":)" + n + "}\n";  // escaped: the same id "dup2"
            data += R"({"_id":"dup2","plain":)" + n + "}\n";
        }
        if (b % 1000 == 0) {
            data += R"({"_id":"k)" + n +
                    R"(","again":true})"
                    "\n";  // supersedes line 1
        }
    }
    data += R"({"_id":"last_without_newline"})";
    return data;
}

std::string joined(const zds::ZdxBuild& build) {
    std::string out;
    for (const std::string& part : build.parts) {
        out += part;
    }
    return out;
}

TEST(ZdsLineIndex, FastBuildsEqualTheLineTable) {
    const std::string data = trickyJsonl(200000);
    ASSERT_GT(data.size(), 32u << 20);  // two slices of at least 16 MiB
    const auto source = makeBufferSource(data);
    zds::ZdsIndexOptions one;
    one.threads = 1;
    const auto table = zds::indexJsonLines(*source, one);
    ASSERT_TRUE(table);
    const std::vector<zds::ZdsLineEntry> live = zds::liveLines(*table);
    const std::string expectedLive = zds::encodeZdx(live);
    const std::string expectedAll = zds::encodeZdx(*table);
    const auto withoutId = static_cast<std::uint64_t>(
        std::count_if(table->begin(), table->end(), [](const auto& e) { return !e.hasId; }));
    for (const unsigned threads : {1u, 2u, 3u}) {
        zds::ZdsIndexOptions options;
        options.threads = threads;
        const auto all = zds::buildZdxFromJsonl(*source, options);
        ASSERT_TRUE(all);
        EXPECT_TRUE(joined(*all) == expectedAll) << threads << " threads";
        const auto fast = zds::buildLiveZdx(*source, options);
        ASSERT_TRUE(fast);
        EXPECT_TRUE(fast->complete);
        EXPECT_TRUE(joined(*fast) == expectedLive) << threads << " threads";
        EXPECT_EQ(fast->indexed, live.size());
        EXPECT_EQ(fast->lines, table->size());
        EXPECT_EQ(fast->withoutId, withoutId);
        EXPECT_EQ(fast->superseded, table->size() - withoutId - live.size());
    }
    // Each id once; `dup` at its last line.
    const zds::ZdxIndex index(makeBufferSource(expectedLive));
    const auto hit = zds::findIdInZdx(index, "dup");
    ASSERT_TRUE(hit);
    const std::string lastDup = R"("at":)" + std::to_string(199999 / 97 * 97) + "}";
    EXPECT_NE(data.substr(hit->offset, hit->length).find(lastDup), std::string::npos);
    const auto dup2 = zds::findIdInZdx(index, "dup2");
    ASSERT_TRUE(dup2);
    EXPECT_NE(data.substr(dup2->offset, dup2->length).find("plain"), std::string::npos);

    CancelToken cancel;
    cancel.cancel();
    zds::ZdsIndexOptions cancelled;
    cancelled.cancel = &cancel;
    EXPECT_FALSE(zds::buildLiveZdx(*source, cancelled));
}

TEST(ZdsLineIndex, SmallInputsAndEdges) {
    for (const std::string& data :
         {std::string(), std::string("\n\n"), std::string(R"({"_id":"a"})"),
          std::string("{\"_id\":\"a\"}\r\n{\"_id\":\"a\"}\r\n"),
          std::string("{\"_id\":\"x\"}\n{\"_id\":\"y\"}\n{\"_id\":\"x\"}")}) {
        const auto source = makeBufferSource(data);
        const auto table = zds::indexJsonLines(*source);
        const auto fast = zds::buildLiveZdx(*source);
        ASSERT_TRUE(table && fast);
        EXPECT_TRUE(joined(*fast) == zds::encodeZdx(zds::liveLines(*table))) << data;
    }
}

// Reindex and compact through the fast indexer write what the line table gives.
TEST(ZdsJobs, ReindexAndCompactMatchTheLineTable) {
    ScratchDir dir("fastjobs");
    const std::string data = trickyJsonl(3000);
    const fs::path meta = dir.path() / "ds/collections/default/meta";
    zds_test::writeAll(meta / "data.jsonl", data);
    const zds::ZdsJobResult r = zds::reindexZds(dir.path() / "ds");
    const auto table = zds::indexJsonLines(*makeBufferSource(data));
    const std::vector<zds::ZdsLineEntry> live = zds::liveLines(*table);
    EXPECT_EQ(r.documents, live.size());
    EXPECT_TRUE(zds_test::readAll(meta / "index.bin") == zds::encodeZdx(live));
    ASSERT_EQ(r.notes.size(), 2u);  // lines without ids, superseded lines

    fs::remove(meta / "index.bin");
    const zds::ZdsJobResult c = zds::compactZds(dir.path() / "ds");
    EXPECT_EQ(c.documents, live.size());
    std::string expected;  // the live lines in file order, bytes kept, each ending in '\n'
    for (const zds::ZdsLineEntry& e : live) {
        std::string line = data.substr(e.offset, e.length);
        if (line.back() == '\n') {
            line.pop_back();
        }
        expected += line + "\n";
    }
    EXPECT_TRUE(zds_test::readAll(meta / "data.jsonl") == expected);
}

// An id ZDX cannot hold (over 65535 bytes): the fast build says so, reindex refuses clearly.
TEST(ZdsJobs, ReindexRefusesAnIdZdxCannotHold) {
    ScratchDir dir("longid");
    const fs::path meta = dir.path() / "ds/collections/default/meta";
    const std::string data =
        "{\"_id\":\"a\"}\n{\"_id\":\"" + std::string(70000, 'x') + "\"}\n{\"_id\":\"b\"}\n";
    zds_test::writeAll(meta / "data.jsonl", data);
    const auto fast = zds::buildLiveZdx(*makeBufferSource(data));
    ASSERT_TRUE(fast);
    EXPECT_FALSE(fast->complete);
    try {
        zds::reindexZds(dir.path() / "ds");
        FAIL() << "reindex accepted an id of 70000 bytes";
    } catch (const zds::ZdsJobError& e) {
        EXPECT_NE(std::string(e.what()).find("65535"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(meta / "index.bin"));
}

// ---- search ----

std::vector<std::string> searchIds(const zds::ZdsCollection& c, zds::ZdsQuery q) {
    std::string error;
    const auto m = zds::ZdsMatcher::compile(q, &error);
    EXPECT_TRUE(m) << error;
    std::vector<std::string> ids;
    if (m) {
        zds::searchZdsCollection(c, *m, [&](const zds::ZdsSearchHit& h) {
            ids.push_back(h.id);
            return true;
        });
    }
    return ids;
}

TEST(ZdsSearch, FieldsIdsAndText) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto ds = zds::ZdsDataset::open(corpusDir() / "valid" / "jsonl_two_collections");
    const zds::ZdsCollection& train = zds::chooseZdsCollection(*ds, "train");
    const zds::ZdsCollection& test = zds::chooseZdsCollection(*ds, "test");
    using T = zds::ZdsQuery::Target;
    using Op = zds::ZdsQuery::Op;
    EXPECT_EQ(searchIds(train, {T::Field, Op::Equals, "score", "0.95"}),
              std::vector<std::string>{"doc_001"});
    EXPECT_EQ(searchIds(train, {T::Field, Op::Equals, "/metadata/source", "api"}),
              std::vector<std::string>{"doc_002"});
    EXPECT_EQ(searchIds(train, {T::Field, Op::Contains, "/metadata/tags", "b"}),
              std::vector<std::string>{"doc_002"});
    EXPECT_EQ(searchIds(test, {T::Field, Op::Less, "i", "2"}),
              (std::vector<std::string>{"t00", "t01"}));
    EXPECT_EQ(searchIds(test, {T::Field, Op::Greater, "/nested/l/1", "16"}),
              (std::vector<std::string>{"t09"}));
    EXPECT_EQ(searchIds(train, {T::Field, Op::Regex, "text", "^Good"}),
              std::vector<std::string>{"doc_002"});
    EXPECT_EQ(searchIds(train, {T::Text, Op::Contains, "", "HELLO", true}),
              std::vector<std::string>{"doc_001"});
    EXPECT_EQ(searchIds(test, {T::Id, Op::Equals, "", "t03"}), std::vector<std::string>{"t03"});
    EXPECT_EQ(searchIds(test, {T::Id, Op::Regex, "", "^t0[78]$"}),
              (std::vector<std::string>{"t07", "t08"}));

    std::string error;
    EXPECT_FALSE(zds::ZdsMatcher::compile({T::Id, Op::Regex, "", "("}, &error));
    EXPECT_FALSE(error.empty());
    EXPECT_FALSE(zds::ZdsMatcher::compile({T::Field, Op::Equals, "", "1"}, &error));
    EXPECT_FALSE(zds::ZdsMatcher::compile({T::Field, Op::Less, "i", "true"}, &error));
}

TEST(ZdsSearch, RegexOnASixteenMegabyteLineIsBounded) {
    // Only the first kZdsRegexScanLimit bytes are searched: a match at the start is found, one
    // at the end of 16 MB is not, and neither search can hang or exhaust the stack.
    const std::string line = R"({"_id":"big","s":")" + std::string(16u << 20, 'a') + "b\"}";
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(line.data()), line.size());
    const auto start = zds::ZdsMatcher::compile(
        {zds::ZdsQuery::Target::Text, zds::ZdsQuery::Op::Regex, "", "\"s\":\"a{100}"}, nullptr);
    ASSERT_TRUE(start);
    EXPECT_TRUE(start->matches("big", bytes));
    const auto end = zds::ZdsMatcher::compile(
        {zds::ZdsQuery::Target::Text, zds::ZdsQuery::Op::Regex, "", "a+b"}, nullptr);
    ASSERT_TRUE(end);
    EXPECT_FALSE(end->matches("big", bytes));
    const auto field = zds::ZdsMatcher::compile(
        {zds::ZdsQuery::Target::Field, zds::ZdsQuery::Op::Regex, "s", "^a+$"}, nullptr);
    ASSERT_TRUE(field);
    EXPECT_TRUE(field->matches("big", bytes));
}

TEST(ZdsSearch, CancelAndLimit) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto ds = zds::ZdsDataset::open(corpusDir() / "valid" / "jsonl_100k");
    const zds::ZdsCollection& c = *ds->collections.at(0);
    const auto m = zds::ZdsMatcher::compile(
        {zds::ZdsQuery::Target::Text, zds::ZdsQuery::Op::Contains, "", "row"}, nullptr);
    ASSERT_TRUE(m);
    zds::ZdsSearchOptions limited;
    limited.maxHits = 5;
    std::uint64_t hits = 0;
    zds::searchZdsCollection(
        c, *m, [&](const zds::ZdsSearchHit&) { return ++hits, true; }, limited);
    EXPECT_EQ(hits, 5u);
    CancelToken cancel;
    cancel.cancel();
    zds::ZdsSearchOptions cancelled;
    cancelled.cancel = &cancel;
    EXPECT_TRUE(zds::searchZdsCollection(
                    c, *m, [](const zds::ZdsSearchHit&) { return true; }, cancelled)
                    .cancelled);
}

}  // namespace
}  // namespace strata
