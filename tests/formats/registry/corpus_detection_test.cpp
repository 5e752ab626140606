// Every valid file and folder of the conformance corpus is detected as its format, and damaged
// ones whose layout or name still says what they are are detected too (so validate can report
// them).
#include <gtest/gtest.h>

#include <fstream>

#include "formats/builtin/builtin_formats.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/zds/zds_format.h"
#include "formats/zs/zs_format.h"
#include "formats/zs/zs_probe.h"
#include "formats/ztensor/ztensor_format.h"
#include "registry_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::corpusDir;
using test::filesWithExtension;
using test::subfolders;

class RegistryCorpusDetection : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_SKIP_WITHOUT_CORPUS();
        corpus_ = corpusDir();
    }

    static Detection detect(const fs::path& path) { return builtinFormats().detect(path); }

    // Checks the format and, when given, the description of every path; returns how many.
    static std::size_t expectAll(const std::vector<fs::path>& paths, FormatId format,
                                 std::string_view description = {}) {
        for (const fs::path& path : paths) {
            const Detection detection = detect(path);
            EXPECT_EQ(detection.format, format) << path << ": " << displayName(detection);
            if (!description.empty()) {
                EXPECT_EQ(detection.description, description) << path;
            }
        }
        return paths.size();
    }

    fs::path corpus_;
};

std::string firstBytes(const fs::path& file, std::size_t count) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes(count, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(count));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

TEST_F(RegistryCorpusDetection, ValidZsFilesAreZs) {
    const auto files = filesWithExtension(corpus_ / "zs/valid", ".zs");
    EXPECT_GE(expectAll(files, kZsFormat, "ZS file"), 20u);
    for (const fs::path& file : files) {
        EXPECT_EQ(detect(file).confidence, 100) << file;
    }
}

TEST_F(RegistryCorpusDetection, PartialMagicIsAnIncompleteZsFile) {
    std::size_t partial = 0;
    for (const char* folder : {"zs/corrupt", "zs/refsuite"}) {
        for (const fs::path& file : filesWithExtension(corpus_ / folder, ".zs")) {
            const Detection detection = detect(file);
            // Every damaged .zs stays a ZS file, whatever its magic, so validate can report it.
            EXPECT_EQ(detection.format, kZsFormat) << file;
            if (firstBytes(file, 8) == kZsPartialMagic) {
                ++partial;
                EXPECT_EQ(detection.description, "incomplete ZS file") << file;
                EXPECT_EQ(displayName(detection), "ZS (incomplete ZS file)");
            }
        }
    }
    EXPECT_GE(partial, 1u);
}

TEST_F(RegistryCorpusDetection, ValidZTensorFilesAreZTensor) {
    const auto files = filesWithExtension(corpus_ / "ztensor/valid", ".zt");
    EXPECT_GE(expectAll(files, kZTensorFormat, "zTensor file"), 13u);
    expectAll(filesWithExtension(corpus_ / "ztensor/corrupt", ".zt"), kZTensorFormat);
}

TEST_F(RegistryCorpusDetection, ShardlakeRootAndItsFiles) {
    const fs::path root = corpus_ / "shardlake/root";
    EXPECT_EQ(detect(root).format, kShardlakeFormat);
    EXPECT_EQ(detect(root).description, "Shardlake storage root");
    std::size_t shards = 0;
    for (const fs::path& index : subfolders(root / "indexes")) {
        EXPECT_EQ(detect(index).description, "Shardlake index folder") << index;
        EXPECT_EQ(detect(index / "manifest.json").description, "Shardlake index manifest");
        EXPECT_EQ(detect(index / "coarse_quantizer.cq").description, "Shardlake coarse quantizer");
        shards += expectAll(filesWithExtension(index / "shards", ".sidx"), kShardlakeFormat,
                            "Shardlake shard");
    }
    EXPECT_GE(shards, 15u);
    EXPECT_EQ(detect(root / "indexes/idx-pq/pq_codebook.bin").description, "Shardlake PQ codebook");
    expectAll(filesWithExtension(root / "aliases", ".json"), kShardlakeFormat, "Shardlake alias");
    EXPECT_EQ(detect(root / "datasets/ds-v1/info.json").description, "Shardlake dataset info");
    EXPECT_EQ(detect(root / "datasets/ds-v1").description, "Shardlake dataset");
}

TEST_F(RegistryCorpusDetection, DamagedShardlakeRootsAreStillRoots) {
    const auto roots = subfolders(corpus_ / "shardlake/corrupt");
    EXPECT_GE(expectAll(roots, kShardlakeFormat, "Shardlake storage root"), 50u);
    const fs::path noManifest = corpus_ / "shardlake/corrupt/manifest_missing/indexes/idx-raw";
    EXPECT_EQ(detect(noManifest).description, "Shardlake index folder");
    const fs::path badShard =
        corpus_ / "shardlake/corrupt/shard_bad_magic/indexes/idx-raw/shards/shard-0000.sidx";
    EXPECT_EQ(detect(badShard).format, kShardlakeFormat);
    // JSON too damaged to read is still known by where it is.
    const fs::path badJson = corpus_ / "shardlake/corrupt/alias_bad_json/aliases/latest.json";
    EXPECT_EQ(detect(badJson).description, "Shardlake alias");
    const fs::path badManifest =
        corpus_ / "shardlake/corrupt/manifest_bad_json/indexes/idx-raw/manifest.json";
    EXPECT_EQ(detect(badManifest).description, "Shardlake index manifest");
    EXPECT_EQ(detect(corpus_ / "shardlake/root/indexes/idx-l2/shards").description,
              "Shardlake shards folder");
}

TEST_F(RegistryCorpusDetection, ValidZdsFoldersAndArchives) {
    const fs::path valid = corpus_ / "zds/valid";
    EXPECT_GE(expectAll(subfolders(valid), kZdsFormat, "ZDS dataset"), 10u);
    EXPECT_GE(expectAll(filesWithExtension(valid, ".zds"), kZdsFormat, "ZDS archive"), 4u);
    EXPECT_EQ(detect(valid / "docs_mode/collections/default").description, "ZDS collection");
    EXPECT_EQ(detect(valid / "jsonl_100k/collections/big/meta/index.bin").description, "ZDX index");
}

TEST_F(RegistryCorpusDetection, DamagedZdsDatasetsAreStillZds) {
    const fs::path corrupt = corpus_ / "zds/corrupt";
    expectAll(subfolders(corrupt), kZdsFormat);
    expectAll(filesWithExtension(corrupt, ".zds"), kZdsFormat);
    EXPECT_EQ(detect(corrupt / "zip_wrong_extension.zip").format, kZdsFormat);
    const Detection notZip = detect(corrupt / "zip_not_a_zip.zds");
    EXPECT_EQ(notZip.format, kZdsFormat);
    EXPECT_LT(notZip.confidence, 50);
    EXPECT_EQ(detect(corrupt / "no_collections_dir").description,
              "ZDS dataset without a collections/ folder");
}

TEST_F(RegistryCorpusDetection, OzdfDocumentsDirectoryDocumentsAndCorpora) {
    const fs::path valid = corpus_ / "ozdf/valid";
    EXPECT_GE(expectAll(filesWithExtension(valid / "handwritten/docs", ".ozdf"), kOzdfFormat,
                        "OZDF document"),
              30u);
    EXPECT_EQ(detect(valid / "handwritten/docs/not_ozdf_extension.txt").format, kOzdfFormat);
    EXPECT_GE(expectAll(subfolders(valid / "handwritten/dirdocs"), kOzdfFormat,
                        "OZDF directory document"),
              5u);
    expectAll(subfolders(valid / "handwritten/corpora"), kOzdfFormat, "OZDF corpus");
    EXPECT_EQ(detect(valid / "written_by_reference/api_corpus").description, "OZDF corpus");
    const fs::path mixed = valid / "handwritten/corpora/mixed";
    // A folder named like a document is a directory document, and extensions ignore case.
    EXPECT_EQ(detect(mixed / "dir_named.ozdf").description, "OZDF directory document");
    EXPECT_EQ(detect(mixed / "UPPER.OZDF").description, "OZDF document");
    EXPECT_EQ(detect(mixed / "c_dir/PARTS-01.ozdp").description, "OZDF data part");
}

TEST_F(RegistryCorpusDetection, TextAndUnrelatedFoldersAreRaw) {
    EXPECT_EQ(detect(corpus_ / "zs/README.md").format, kRawBinaryFormat);
    EXPECT_EQ(detect(corpus_ / "zs/corrupt/cases.json").format, kRawBinaryFormat);
    EXPECT_EQ(detect(corpus_ / "zs").format, kRawBinaryFormat);
}

}  // namespace
}  // namespace strata
