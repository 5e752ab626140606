// Hostile inputs: absurd counts and lengths, and ZIP members that lie about their size, give
// clear diagnostics without crashing or allocating what the file claims.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "formats/common/codec_deflate.h"
#include "formats/zds/zds_live_set.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_tree.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class TempDir {
public:
    TempDir() {
        path_ = fs::temp_directory_path() /
                ("strata_zds_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                 "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

void writeFile(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

void putLe(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
    }
}

std::string zdxHeader(std::uint64_t count) {
    std::string out = "ISDZ";
    putLe(out, 1, 4);
    putLe(out, count, 8);
    return out;
}

std::string zdxEntry(const std::string& id, std::uint64_t offset, std::uint32_t length) {
    std::string out;
    putLe(out, id.size(), 2);
    out += id;
    putLe(out, offset, 8);
    putLe(out, length, 4);
    return out;
}

const std::string kLine = "{\"_id\":\"a\",\"v\":1}\n";

TEST(ZdsHostile, HugeZdxCountIsAnErrorNotAnAllocation) {
    TempDir dir;
    const fs::path meta = dir.path() / "collections" / "c" / "meta";
    writeFile(meta / "data.jsonl", kLine);
    writeFile(meta / "index.bin",
              zdxHeader(1ull << 60) + zdxEntry("a", 0, static_cast<std::uint32_t>(kLine.size())));
    const auto ds = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    EXPECT_EQ(c.zdx()->declaredCount(), 1ull << 60);
    EXPECT_EQ(c.zdx()->entryCount(), 1u);
    EXPECT_EQ(c.documentCount(), 1u);
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZDX-COUNT")) << zds_test::describe(sink);
}

TEST(ZdsHostile, IdLengthPastEndOfIndex) {
    TempDir dir;
    const fs::path meta = dir.path() / "collections" / "c" / "meta";
    writeFile(meta / "data.jsonl", kLine);
    std::string index = zdxHeader(1);
    putLe(index, 0xFFFF, 2);
    index += "abc";
    writeFile(meta / "index.bin", index);
    const auto ds = zds::ZdsDataset::open(dir.path());
    EXPECT_EQ(ds->collections.at(0)->zdx()->entryCount(), 0u);
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZDX-TRUNCATED")) << zds_test::describe(sink);
    const auto root = zds::buildZdsTree(ds);
    EXPECT_GE(root->childCount(), 1u);
}

TEST(ZdsHostile, EntryOffsetsNearTwoToThe64) {
    TempDir dir;
    const fs::path meta = dir.path() / "collections" / "c" / "meta";
    writeFile(meta / "data.jsonl", kLine);
    writeFile(meta / "index.bin", zdxHeader(1) + zdxEntry("a", ~0ull - 3, 0xFFFFFFFF));
    const auto ds = zds::ZdsDataset::open(dir.path());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    // The entry misses every line; the document is found by its _id among the lines.
    ASSERT_EQ(c.documentCount(), 1u);
    EXPECT_EQ(c.document(0).flags, zds::kZdsLiveRelocated);
    const ByteView bytes = c.documentBytes(0);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
              kLine.substr(0, kLine.size() - 1));
    CollectingSink sink;
    zds_test::validate(dir.path(), sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZDX-OFFSET")) << zds_test::describe(sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZDX-UNCOVERED"));
}

struct ZipEntrySpec {
    std::string name;
    std::string data;  // as stored
    std::uint16_t method;
    std::uint32_t crc;
    std::uint32_t usize;
};

std::string makeZip(const std::vector<ZipEntrySpec>& entries) {
    std::string out, central;
    for (const auto& e : entries) {
        const std::uint64_t offset = out.size();
        std::string fixed;
        putLe(fixed, 20, 2);
        putLe(fixed, 0, 2);
        putLe(fixed, e.method, 2);
        putLe(fixed, 0, 2);
        putLe(fixed, 0x21, 2);
        putLe(fixed, e.crc, 4);
        putLe(fixed, e.data.size(), 4);
        putLe(fixed, e.usize, 4);
        putLe(fixed, e.name.size(), 2);
        putLe(fixed, 0, 2);
        putLe(out, 0x04034b50, 4);
        out += fixed + e.name + e.data;
        putLe(central, 0x02014b50, 4);
        putLe(central, 20, 2);
        central += fixed;
        putLe(central, 0, 2);  // comment
        putLe(central, 0, 2);  // disk
        putLe(central, 0, 2);  // internal attributes
        putLe(central, 0, 4);  // external attributes
        putLe(central, offset, 4);
        central += e.name;
    }
    const std::uint64_t cdOffset = out.size();
    out += central;
    putLe(out, 0x06054b50, 4);
    putLe(out, 0, 4);
    putLe(out, entries.size(), 2);
    putLe(out, entries.size(), 2);
    putLe(out, central.size(), 4);
    putLe(out, cdOffset, 4);
    putLe(out, 0, 2);
    return out;
}

std::uint32_t crcOf(const std::string& s) {
    return static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(s.data()), static_cast<uInt>(s.size())));
}

TEST(ZdsHostile, ZipMemberClaimingAHugeSize) {
    TempDir dir;
    const auto packed =
        deflateCompress({reinterpret_cast<const std::uint8_t*>(kLine.data()), kLine.size()});
    const std::string deflated(packed.begin(), packed.end());
    const fs::path zip = dir.path() / "huge.zds";
    writeFile(zip, makeZip({{"collections/c/meta/data.jsonl", deflated, kZipMethodDeflate,
                             crcOf(kLine), 0xFFFFFFF0u}}));
    const auto ds = zds::ZdsDataset::open(zip);
    const zds::ZdsCollection& c = *ds->collections.at(0);
    EXPECT_EQ(c.data->size(), 0xFFFFFFF0u);  // what it claims; reading stops at the real end
    EXPECT_EQ(c.documentCount(), 1u);
    EXPECT_EQ(c.document(0).id, "a");
    CollectingSink sink;
    zds_test::validate(zip, sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZIP-SIZE")) << zds_test::describe(sink);
}

TEST(ZdsHostile, ZipPathEscapeAndDeflatedData) {
    TempDir dir;
    const auto packed =
        deflateCompress({reinterpret_cast<const std::uint8_t*>(kLine.data()), kLine.size()});
    const fs::path zip = dir.path() / "escape.zds";
    writeFile(zip,
              makeZip({{"collections/c/meta/data.jsonl", std::string(packed.begin(), packed.end()),
                        kZipMethodDeflate, crcOf(kLine), static_cast<std::uint32_t>(kLine.size())},
                       {"../evil.txt", "x", kZipMethodStore, crcOf("x"), 1},
                       {"/abs.txt", "x", kZipMethodStore, crcOf("x"), 1}}));
    CollectingSink sink;
    zds_test::validate(zip, sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZIP-PATH")) << zds_test::describe(sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZIP-DEFLATED"));
    EXPECT_FALSE(sink.hasCode("ZDS-ZIP-CRC"));
}

TEST(ZdsHostile, ZipCrcMismatchOnStoredMember) {
    TempDir dir;
    const fs::path zip = dir.path() / "crc.zds";
    writeFile(zip, makeZip({{"collections/c/meta/data.jsonl", kLine, kZipMethodStore,
                             crcOf(kLine) ^ 1u, static_cast<std::uint32_t>(kLine.size())}}));
    CollectingSink sink;
    zds_test::validate(zip, sink);
    EXPECT_TRUE(sink.hasCode("ZDS-ZIP-CRC")) << zds_test::describe(sink);
}

TEST(ZdsValidatorRules, IdCharactersAndUtf8) {
    EXPECT_TRUE(zds::zdsIdCharsOk("doc_001.a-b"));
    EXPECT_FALSE(zds::zdsIdCharsOk("a b"));
    EXPECT_FALSE(zds::zdsIdCharsOk("ñ"));
    const std::string good = "ok \xc3\xb1 \xf0\x9f\x9a\x80";
    EXPECT_EQ(
        zds::firstInvalidUtf8({reinterpret_cast<const std::uint8_t*>(good.data()), good.size()}),
        std::string::npos);
    const std::string bad = "t0\xff";
    EXPECT_EQ(
        zds::firstInvalidUtf8({reinterpret_cast<const std::uint8_t*>(bad.data()), bad.size()}), 2u);
    const std::string surrogate = "\xed\xa0\x80";
    EXPECT_EQ(zds::firstInvalidUtf8(
                  {reinterpret_cast<const std::uint8_t*>(surrogate.data()), surrogate.size()}),
              0u);
}

TEST(ZdsValidatorRules, CancelStopsEarly) {
    STRATA_SKIP_WITHOUT_CORPUS();
    CancelToken token;
    token.cancel();
    ValidationOptions options;
    options.cancel = &token;
    CollectingSink sink;
    const auto outcome =
        zds::makeZdsValidator(zds_test::corpusDir() / "valid" / "jsonl_100k")->run(sink, options);
    EXPECT_EQ(outcome, JobOutcome::Cancelled);
}

TEST(ZdsValidatorRules, MaxPerCodeSummarises) {
    TempDir dir;
    std::string data;
    for (int i = 0; i < 50; ++i) {
        data += "{\"_id\":\"a b\"}\n";  // ZDS-ID-CHARS and ZDS-DUPLICATE-ID each time
    }
    writeFile(dir.path() / "collections" / "c" / "meta" / "data.jsonl", data);
    ValidationOptions options;
    options.maxPerCode = 5;
    CollectingSink sink;
    zds::makeZdsValidator(dir.path())->run(sink, options);
    std::size_t chars = 0;
    for (const Diagnostic& d : sink.diagnostics()) {
        chars += d.code == "ZDS-ID-CHARS" ? 1 : 0;
    }
    EXPECT_EQ(chars, 6u);  // five, then one summary
}

}  // namespace
}  // namespace strata
