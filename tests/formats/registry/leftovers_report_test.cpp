// Every format's validator reports what killed saves left beside or inside what it validates,
// with its own code, as `strata-cli validate` and the app run it (through the registry).
#include <gtest/gtest.h>

#include <algorithm>

#include "formats/builtin/builtin_formats.h"
#include "formats/common/save_leftovers.h"
#include "registry_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> leftoverCodes(const fs::path& path) {
    static std::vector<std::unique_ptr<OpenedDocument>> keep;  // regions stay valid
    keep.push_back(builtinFormats().open(path));
    CollectingSink sink;
    keep.back()->makeValidator()->run(sink, {});
    std::vector<std::string> out;
    for (const Diagnostic& d : sink.diagnostics()) {
        if (isLeftoverCode(d.code)) {
            out.push_back(d.code);
            EXPECT_EQ(d.severity, Severity::Warning) << d.message;
            EXPECT_TRUE(fs::exists(d.file)) << d.file;
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

class LeftoversReport : public ::testing::Test {
protected:
    void SetUp() override {
        if (test::corpusDir().empty() || !fs::exists(test::corpusDir() / "zs" / "valid")) {
            GTEST_SKIP() << "corpus not present (STRATA_CORPUS_DIR)";
        }
    }
    fs::path copy(const fs::path& relative, const std::string& name) const {
        const fs::path to = scratch_.path() / name;
        fs::copy(test::corpusDir() / relative, to, fs::copy_options::recursive);
        return to;
    }

    test::ScratchDir scratch_;
};

TEST_F(LeftoversReport, Zs) {
    const fs::path file = copy("zs/valid/tiny.zs", "tiny.zs");
    EXPECT_TRUE(leftoverCodes(file).empty());
    scratch_.write(".tiny.zs.strata-abc123def456", "half");
    scratch_.write(".tiny.zs.0123abcd.part",
                   "\xab"
                   "ZStoBe\x01");
    scratch_.write(".other.zs.strata-abc123def456", "not this file's");
    EXPECT_EQ(leftoverCodes(file),
              (std::vector<std::string>{"ZS-LEFTOVER-PART", "ZS-LEFTOVER-TEMP"}));
}

TEST_F(LeftoversReport, ZTensor) {
    const fs::path file = copy("ztensor/valid/dense_raw.zt", "dense.zt");
    EXPECT_TRUE(leftoverCodes(file).empty());
    scratch_.write(".dense.zt.strata-abc123def456", "ZTEN1000");
    EXPECT_EQ(leftoverCodes(file), (std::vector<std::string>{"ZT-LEFTOVER-TEMP"}));
}

TEST_F(LeftoversReport, ShardlakeRootIndexAndShard) {
    const fs::path root = copy("shardlake/root", "root");
    EXPECT_TRUE(leftoverCodes(root).empty());
    const fs::path shards = root / "indexes" / "idx-l2" / "shards";
    scratch_.write("root/indexes/idx-l2/shards/.shard-0000.sidx.strata-abc123def456", "SLK");
    scratch_.write("root/aliases/.latest.json.strata-abc123def456", "{");
    EXPECT_EQ(leftoverCodes(root),
              (std::vector<std::string>{"SL-LEFTOVER-TEMP", "SL-LEFTOVER-TEMP"}));
    EXPECT_EQ(leftoverCodes(root / "indexes" / "idx-l2"),
              (std::vector<std::string>{"SL-LEFTOVER-TEMP"}));
    EXPECT_EQ(leftoverCodes(shards / "shard-0000.sidx"),
              (std::vector<std::string>{"SL-LEFTOVER-TEMP"}));
    EXPECT_TRUE(leftoverCodes(shards / "shard-0001.sidx").empty());
}

TEST_F(LeftoversReport, OzdfDocument) {
    const fs::path file = copy("ozdf/valid/handwritten/docs/two_blocks.ozdf", "two.ozdf");
    EXPECT_TRUE(leftoverCodes(file).empty());
    scratch_.write(".two.ozdf.strata-abc123def456", "#### TI");
    EXPECT_EQ(leftoverCodes(file), (std::vector<std::string>{"OZDF-LEFTOVER-TEMP"}));
}

TEST_F(LeftoversReport, ZdsArchive) {
    const fs::path file = copy("zds/valid/docs_mode.zds", "docs.zds");
    EXPECT_TRUE(leftoverCodes(file).empty());
    scratch_.makeFolder(".docs.zds.strata-stage-999999999");
    EXPECT_EQ(leftoverCodes(file), (std::vector<std::string>{"ZDS-LEFTOVER-STAGE"}));
}

}  // namespace
}  // namespace strata
