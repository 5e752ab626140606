// Opening through the registry: every file gives a root node over the whole file, folders a
// node per file, and only damaged magics come with a validator.
#include <gtest/gtest.h>

#include "formats/registry/format_registry.h"
#include "registry_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::corpusDir;
using test::filesWithExtension;
using test::ScratchDir;
using test::subfolders;

std::string kindPrefix(FormatId id) {
    switch (id) {
        case FormatId::RawBinary:
            return "raw";
        case FormatId::Zs:
            return "zs";
        case FormatId::Zds:
            return "zds";
        case FormatId::Shardlake:
            return "shardlake";
        case FormatId::Ozdf:
            return "ozdf";
        case FormatId::ZTensor:
            return "ztensor";
    }
    return "";
}

std::string fact(const OpenedDocument& document, const std::string& key) {
    for (const auto& [k, v] : document.facts) {
        if (k == key) {
            return v;
        }
    }
    return "<missing>";
}

void expectFileDocument(const fs::path& file) {
    SCOPED_TRACE(file.string());
    const auto document = FormatRegistry::builtin().open(file);
    ASSERT_NE(document, nullptr);
    ASSERT_NE(document->root, nullptr);
    const Region& region = document->root->region();
    ASSERT_TRUE(region.valid());
    EXPECT_EQ(document->root->kind(), kindPrefix(document->format) + ".file");
    EXPECT_EQ(region.offset, 0u);
    EXPECT_EQ(region.length, fs::file_size(file));
    EXPECT_EQ(region.source->size(), fs::file_size(file));
    EXPECT_EQ(fact(*document, "format"), formatName(document->format));
    EXPECT_EQ(fact(*document, "size"), std::to_string(fs::file_size(file)));
    EXPECT_NE(fact(*document, "description"), "<missing>");
    if (region.length > 0) {
        EXPECT_EQ(document->root->deepestAt(region.length - 1) != nullptr, true);
    }
}

void expectMagicChild(const fs::path& file, const std::string& kind) {
    SCOPED_TRACE(file.string());
    const auto document = FormatRegistry::builtin().open(file);
    ASSERT_GE(document->root->childCount(), 1u);
    const Node* magic = document->root->child(0);
    EXPECT_EQ(magic->kind(), kind);
    EXPECT_EQ(magic->region().offset, 0u);
    EXPECT_EQ(magic->region().length, 8u);
    ASSERT_FALSE(magic->fields().empty());
    EXPECT_EQ(magic->fields().front().name, "magic");
    EXPECT_EQ(document->root->deepestAt(3), magic);
}

class RegistryCorpusOpen : public ::testing::Test {
protected:
    void SetUp() override {
        corpus_ = corpusDir();
        if (corpus_.empty()) {
            GTEST_SKIP() << "conformance corpus not found (set STRATA_CORPUS_DIR)";
        }
    }
    fs::path corpus_;
};

TEST_F(RegistryCorpusOpen, EveryCorpusFileOpensAsOneRootNode) {
    for (const char* folder :
         {"zs/valid", "zs/corrupt", "zs/refsuite", "ztensor/valid", "ztensor/corrupt", "zds/valid",
          "zds/corrupt", "ozdf/valid/handwritten/docs"}) {
        for (const auto& entry : fs::directory_iterator(corpus_ / folder)) {
            if (entry.is_regular_file()) {
                expectFileDocument(entry.path());
            }
        }
    }
    for (const auto& entry : fs::recursive_directory_iterator(corpus_ / "shardlake/root")) {
        if (entry.is_regular_file()) {
            expectFileDocument(entry.path());
        }
    }
}

TEST_F(RegistryCorpusOpen, MagicChildren) {
    expectMagicChild(corpus_ / "zs/valid/tiny.zs", "zs.magic");
    expectMagicChild(corpus_ / "ztensor/valid/dense_raw.zt", "ztensor.magic");
    expectMagicChild(corpus_ / "shardlake/root/indexes/idx-l2/shards/shard-0000.sidx",
                     "shardlake.magic");
}

TEST_F(RegistryCorpusOpen, FoldersListTheirFiles) {
    for (const fs::path& folder :
         {corpus_ / "shardlake/root", corpus_ / "zds/valid/docs_mode",
          corpus_ / "ozdf/valid/handwritten/corpora/mixed", corpus_ / "zs/valid"}) {
        SCOPED_TRACE(folder.string());
        const auto document = FormatRegistry::builtin().open(folder);
        EXPECT_EQ(document->root->kind(), kindPrefix(document->format) + ".folder");
        std::uint64_t files = 0;
        for (const auto& entry : fs::recursive_directory_iterator(folder)) {
            files += entry.is_regular_file() ? 1 : 0;
        }
        ASSERT_EQ(document->root->childCount(), files);
        EXPECT_EQ(fact(*document, "files"), std::to_string(files));
        const Node* first = document->root->child(0);
        EXPECT_EQ(first->kind(), kindPrefix(document->format) + ".file");
        ASSERT_TRUE(first->region().valid());
        EXPECT_EQ(first->region().length, fs::file_size(folder / first->label()));
        if (first->region().length > 0) {
            // The folder node has no bytes of its own, so lookups start at a file's node.
            EXPECT_EQ(first->deepestAt(0), first);
        }
    }
}

TEST_F(RegistryCorpusOpen, IncompleteZsReportsItsMagic) {
    const auto document =
        FormatRegistry::builtin().open(corpus_ / "zs/refsuite/incomplete-magic.zs");
    ASSERT_TRUE(document->makeValidator);
    auto validator = document->makeValidator();
    ASSERT_NE(validator, nullptr);
    CollectingSink sink;
    EXPECT_EQ(validator->run(sink, {}), ValidationOutcome::Completed);
    ASSERT_EQ(sink.diagnostics().size(), 1u);
    const Diagnostic& d = sink.diagnostics().front();
    EXPECT_EQ(d.code, "ZS-INCOMPLETE");
    EXPECT_EQ(d.severity, Severity::Error);
    ASSERT_EQ(d.regions.size(), 1u);
    EXPECT_EQ(d.regions[0].offset, 0u);
    EXPECT_EQ(d.regions[0].length, 8u);
}

TEST_F(RegistryCorpusOpen, ValidZsHasNoValidatorYet) {
    const auto document = FormatRegistry::builtin().open(corpus_ / "zs/valid/tiny.zs");
    EXPECT_EQ(document->makeValidator ? document->makeValidator() : nullptr, nullptr);
}

TEST(RegistrySyntheticOpen, RawFilesAndEmptyFiles) {
    ScratchDir dir;
    expectFileDocument(dir.write("data.bin", std::string_view("\x01\x02\x03", 3)));
    expectFileDocument(dir.write("empty", std::string_view()));
    const auto document = FormatRegistry::builtin().open(dir.path() / "empty");
    EXPECT_EQ(document->format, FormatId::RawBinary);
    EXPECT_EQ(document->root->kind(), "raw.file");
}

TEST(RegistrySyntheticOpen, WrongMagicsComeWithAnErrorValidator) {
    ScratchDir dir;
    for (const auto& [name, code] :
         std::vector<std::pair<std::string, std::string>>{{"bad.zs", "ZS-MAGIC"},
                                                          {"bad.zt", "ZT-MAGIC"},
                                                          {"bad.sidx", "SLK-MAGIC"},
                                                          {"bad.zds", "ZDS-NOT-ZIP"}}) {
        SCOPED_TRACE(name);
        const auto document =
            FormatRegistry::builtin().open(dir.write(name, std::string_view("garbage!!")));
        ASSERT_TRUE(document->makeValidator);
        auto validator = document->makeValidator();
        ASSERT_NE(validator, nullptr);
        CollectingSink sink;
        validator->run(sink, {});
        EXPECT_TRUE(sink.hasCode(code));
        EXPECT_EQ(sink.worstSeverity(), Severity::Error);
    }
}

}  // namespace
}  // namespace strata
