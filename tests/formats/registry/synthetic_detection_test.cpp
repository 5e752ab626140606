// Detection of files made on the spot: every magic and its damaged variants, unknown bytes,
// empty files and folders, and paths that do not exist.
#include <gtest/gtest.h>

#include <random>

#include "formats/builtin/builtin_formats.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/zds/zds_format.h"
#include "formats/zs/zs_format.h"
#include "formats/ztensor/ztensor_format.h"
#include "registry_test_support.h"

namespace strata {
namespace {

using test::ScratchDir;

Detection detect(const std::filesystem::path& path) {
    return builtinFormats().detect(path);
}

std::string withPadding(std::string_view magic, std::size_t total = 64) {
    std::string bytes(magic);
    bytes.resize(total, '\0');
    return bytes;
}

TEST(RegistrySyntheticDetection, RandomBytesAreRawBinary) {
    ScratchDir dir;
    std::mt19937 random(12345);
    std::vector<std::uint8_t> bytes(10000);
    for (auto& b : bytes) {
        b = static_cast<std::uint8_t>(random());
    }
    bytes[0] = 0x00;  // so the bytes cannot start with any magic
    const Detection detection = detect(dir.write("noise.bin", bytes));
    EXPECT_EQ(detection.format, kRawBinaryFormat);
    EXPECT_EQ(displayName(detection), "raw binary");
}

TEST(RegistrySyntheticDetection, EmptyFileIsRawBinary) {
    ScratchDir dir;
    EXPECT_EQ(detect(dir.write("empty", std::string_view())).format, kRawBinaryFormat);
    EXPECT_EQ(detect(dir.write("empty.bin", std::string_view())).format, kRawBinaryFormat);
}

TEST(RegistrySyntheticDetection, EmptyFolderIsARawFolder) {
    ScratchDir dir;
    const Detection detection = detect(dir.makeFolder("nothing"));
    EXPECT_EQ(detection.format, kRawBinaryFormat);
    EXPECT_EQ(detection.description, "folder");
}

TEST(RegistrySyntheticDetection, MissingPathThrowsNamingThePath) {
    ScratchDir dir;
    const auto missing = dir.path() / "does-not-exist.zs";
    try {
        detect(missing);
        FAIL() << "no exception";
    } catch (const SourceError& error) {
        EXPECT_NE(std::string(error.what()).find(missing.string()), std::string::npos);
    }
    EXPECT_THROW(ProbeInput::fromPath(missing), SourceError);
    EXPECT_THROW(builtinFormats().open(missing), SourceError);
}

TEST(RegistrySyntheticDetection, ZsMagicsWhateverTheName) {
    ScratchDir dir;
    EXPECT_EQ(detect(dir.write("a.bin", withPadding("\xab"
                                                    "ZSfiLe\x01")))
                  .description,
              "ZS file");
    EXPECT_EQ(detect(dir.write("b", withPadding("\xab"
                                                "ZStoBe\x01")))
                  .description,
              "incomplete ZS file");
    const Detection future = detect(dir.write("c", withPadding("\xab"
                                                               "ZSfiLe\x02")));
    EXPECT_EQ(future.format, kZsFormat);
    EXPECT_LT(future.confidence, 100);
    EXPECT_EQ(detect(dir.write("d", std::string_view("\xab"
                                                     "ZSf",
                                                     4)))
                  .format,
              kZsFormat);
    // The extension alone is a weak hint, in any case.
    const Detection named = detect(dir.write("e.ZS", std::string_view("hello")));
    EXPECT_EQ(named.format, kZsFormat);
    EXPECT_LE(named.confidence, 20);
}

TEST(RegistrySyntheticDetection, ZTensorVersions) {
    ScratchDir dir;
    EXPECT_EQ(detect(dir.write("v10", withPadding("ZTEN1000"))).description, "zTensor file");
    EXPECT_EQ(detect(dir.write("v01", withPadding("ZTEN0001"))).description, "zTensor v0.1 file");
    EXPECT_EQ(detect(dir.write("v2", withPadding("\x89ZT2\r\n\x1a\n"))).description,
              "zTensor v2 file");
    std::string v11 = withPadding("ZTEN1000", 128);
    v11.replace(v11.size() - 8, 8, "ZTEN1000");
    EXPECT_EQ(detect(dir.write("v11", v11)).description, "zTensor v1.1/1.2 file");
    EXPECT_EQ(detect(dir.write("only-magic", std::string_view("ZTEN1000"))).description,
              "zTensor file");
    EXPECT_EQ(detect(dir.write("other", withPadding("ZTEN9999"))).format, kZTensorFormat);
    EXPECT_EQ(detect(dir.write("x.zt", std::string_view("nope"))).format, kZTensorFormat);
}

TEST(RegistrySyntheticDetection, ShardlakeMagics) {
    ScratchDir dir;
    using namespace std::string_view_literals;
    EXPECT_EQ(detect(dir.write("s", withPadding("SLKIDX\0\0"sv))).description, "Shardlake shard");
    EXPECT_EQ(detect(dir.write("q", withPadding("SLKIVF\0\0"sv))).description,
              "Shardlake coarse quantizer");
    EXPECT_EQ(detect(dir.write("p", withPadding("SLKPQCB\0"sv))).description,
              "Shardlake PQ codebook");
    EXPECT_EQ(detect(dir.write("m.json", std::string_view(
                                             R"({"manifest_version": 4, "index_version": "i"})")))
                  .description,
              "Shardlake index manifest");
    EXPECT_EQ(detect(dir.write("aliases/a.json",
                               std::string_view(R"({"alias":"a","index_version":"i"})")))
                  .description,
              "Shardlake alias");
}

TEST(RegistrySyntheticDetection, ShardlakeRootByLayoutAlone) {
    ScratchDir dir;
    dir.makeFolder("root/indexes/idx/shards");
    dir.makeFolder("root/aliases");
    const Detection detection = detect(dir.path() / "root");
    EXPECT_EQ(detection.description, "Shardlake storage root");
    EXPECT_LT(detection.confidence, 90);
}

// A ZIP local file header for an empty STORE'd member.
std::string zipMember(std::string_view name) {
    std::string header("PK\x03\x04", 4);
    header.append(22, '\0');
    header += static_cast<char>(name.size());
    header += '\0';
    header.append(2, '\0');
    header += name;
    return header;
}

TEST(RegistrySyntheticDetection, ZdsArchivesFoldersAndIndexes) {
    ScratchDir dir;
    const std::string zip = zipMember("zds.json") + zipMember("collections/");
    EXPECT_EQ(detect(dir.write("d.zds", zip)).description, "ZDS archive");
    EXPECT_EQ(detect(dir.write("d.zip", zip)).description, "ZIP archive holding a ZDS dataset");
    EXPECT_EQ(detect(dir.write("other.zip", zipMember("readme.txt"))).format, kRawBinaryFormat);
    EXPECT_EQ(detect(dir.write("x.zds", std::string_view("text"))).confidence, 20);
    EXPECT_EQ(detect(dir.write("idx", withPadding("ISDZ\x01"))).description, "ZDX index");
    dir.write("ds/collections/c/meta/data.jsonl", std::string_view("{\"_id\":\"a\"}\n"));
    EXPECT_EQ(detect(dir.path() / "ds").description, "ZDS dataset");
    EXPECT_EQ(detect(dir.path() / "ds/collections/c").description, "ZDS collection");
    dir.write("meta-only/zds.json", std::string_view("{}"));
    EXPECT_EQ(detect(dir.path() / "meta-only").format, kZdsFormat);
}

TEST(RegistrySyntheticDetection, OzdfByExtensionLayoutAndContent) {
    ScratchDir dir;
    EXPECT_EQ(detect(dir.write("a.Ozdf", std::string_view())).description, "OZDF document");
    EXPECT_EQ(detect(dir.write("notes.txt", std::string_view("\n#### TITLE\nx\n"))).format,
              kOzdfFormat);
    EXPECT_EQ(detect(dir.write("hash.txt", std::string_view("##### TITLE\n"))).format,
              kRawBinaryFormat);
    dir.write("doc/_metadata.ozdf", std::string_view("#### A\nb\n"));
    EXPECT_EQ(detect(dir.path() / "doc").description, "OZDF directory document");
    dir.write("corpus/inner/_metadata.ozdf", std::string_view("#### A\nb\n"));
    EXPECT_EQ(detect(dir.path() / "corpus").description, "OZDF corpus");
}

TEST(RegistrySyntheticDetection, LayoutFoundInAFolderTooBigToList) {
    ScratchDir dir;
    const auto folder = dir.makeFolder("big");
    for (std::size_t i = 0; i < ProbeInput::kMaxEntries + 10; ++i) {
        dir.write("big/part-" + std::to_string(i) + ".txt", std::string_view("x"));
    }
    dir.write("big/_metadata.ozdf", std::string_view("#### A\nb\n"));
    const ProbeInput input = ProbeInput::fromPath(folder);
    EXPECT_TRUE(input.entriesTruncated);
    EXPECT_EQ(input.entries.size(), ProbeInput::kMaxEntries);
    EXPECT_TRUE(input.hasFile("_metadata.ozdf"));
    EXPECT_EQ(detect(folder).description, "OZDF directory document");
}

}  // namespace
}  // namespace strata
