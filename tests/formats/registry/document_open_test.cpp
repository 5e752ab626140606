// Opening through the registry. The invariants here hold for every format's reader (the root
// node is the format's, and a file's root covers bytes of that file); the generic file and
// folder documents that formats start from are checked in detail through the raw-binary
// fallback and the helpers themselves.
#include <gtest/gtest.h>

#include "formats/builtin/builtin_formats.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/registry/file_document.h"
#include "formats/registry/raw_binary_format.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/zds/zds_format.h"
#include "formats/zs/zs_format.h"
#include "formats/ztensor/ztensor_format.h"
#include "registry_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::corpusDir;
using test::ScratchDir;

// Every node kind starts with the format's key ("zs.", "raw.").
std::string kindPrefix(FormatId id) {
    return std::string(id.key()) + ".";
}

std::string fact(const OpenedDocument& document, const std::string& key) {
    for (const auto& [k, v] : document.facts) {
        if (k == key) {
            return v;
        }
    }
    return "<missing>";
}

// What any reader must give for a file: a root node of its own kind over bytes of the file.
void expectOpensAsItsFormat(const fs::path& file) {
    SCOPED_TRACE(file.string());
    const Detection detection = builtinFormats().detect(file);
    std::unique_ptr<OpenedDocument> document;
    ASSERT_NO_THROW(document = builtinFormats().open(file));
    ASSERT_NE(document, nullptr);
    EXPECT_EQ(document->format, detection.format);
    ASSERT_NE(document->root, nullptr);
    EXPECT_TRUE(document->root->kind().starts_with(kindPrefix(document->format)))
        << document->root->kind();
    const Region& region = document->root->region();
    if (region.valid()) {
        EXPECT_EQ(region.source->size(), fs::file_size(file));
        EXPECT_LE(region.end(), region.source->size());
    }
}

// The generic whole-file document every format starts from.
void expectGenericFileDocument(const OpenedDocument& document, const fs::path& file,
                               const std::string& kind) {
    ASSERT_NE(document.root, nullptr);
    EXPECT_EQ(document.root->kind(), kind);
    const Region& region = document.root->region();
    ASSERT_TRUE(region.valid());
    EXPECT_EQ(region.offset, 0u);
    EXPECT_EQ(region.length, fs::file_size(file));
    EXPECT_EQ(region.source->name(), file.string());
    EXPECT_EQ(fact(document, "format"), formatName(document.format));
    EXPECT_EQ(fact(document, "size"), std::to_string(fs::file_size(file)));
    ASSERT_EQ(document.sources.size(), 1u);
    EXPECT_EQ(document.sources.front().get(), region.source);
}

class RegistryCorpusOpen : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_SKIP_WITHOUT_CORPUS();
        corpus_ = corpusDir();
    }
    fs::path corpus_;
};

TEST_F(RegistryCorpusOpen, EveryCorpusFileOpensAsItsFormat) {
    for (const char* folder :
         {"zs/valid", "zs/corrupt", "zs/refsuite", "ztensor/valid", "ztensor/corrupt", "zds/valid",
          "zds/corrupt", "ozdf/valid/handwritten/docs"}) {
        for (const auto& entry : fs::directory_iterator(corpus_ / folder)) {
            if (entry.is_regular_file()) {
                expectOpensAsItsFormat(entry.path());
            }
        }
    }
    for (const auto& entry : fs::recursive_directory_iterator(corpus_ / "shardlake/root")) {
        if (entry.is_regular_file()) {
            expectOpensAsItsFormat(entry.path());
        }
    }
}

TEST_F(RegistryCorpusOpen, FoldersOpenAsTheirFormat) {
    for (const fs::path& folder :
         {corpus_ / "shardlake/root", corpus_ / "zds/valid/docs_mode",
          corpus_ / "ozdf/valid/handwritten/corpora/mixed", corpus_ / "zs/valid"}) {
        SCOPED_TRACE(folder.string());
        const auto document = builtinFormats().open(folder);
        ASSERT_NE(document->root, nullptr);
        EXPECT_TRUE(document->root->kind().starts_with(kindPrefix(document->format)));
        EXPECT_TRUE(document->root->hasChildren());
    }
}

TEST_F(RegistryCorpusOpen, IncompleteZsReportsItsMagic) {
    const auto document = builtinFormats().open(corpus_ / "zs/refsuite/incomplete-magic.zs");
    ASSERT_TRUE(document->makeValidator);
    auto validator = document->makeValidator();
    ASSERT_NE(validator, nullptr);
    CollectingSink sink;
    EXPECT_EQ(validator->run(sink, {}), JobOutcome::Completed);
    ASSERT_TRUE(sink.hasCode("ZS-INCOMPLETE"));
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.code == "ZS-INCOMPLETE") {
            EXPECT_EQ(d.severity, Severity::Error);
            ASSERT_FALSE(d.regions.empty());
            EXPECT_EQ(d.regions[0].offset, 0u);
            EXPECT_EQ(d.regions[0].length, 8u);
        }
    }
}

TEST_F(RegistryCorpusOpen, GenericFolderDocumentListsEveryFile) {
    for (const fs::path& folder : {corpus_ / "zds/valid/docs_mode", corpus_ / "zs/valid"}) {
        SCOPED_TRACE(folder.string());
        const Detection detection{kRawBinaryFormat, 1, "folder"};
        const auto document = openFolderDocument(folder, detection, "raw");
        EXPECT_EQ(document->root->kind(), "raw.folder");
        std::uint64_t files = 0;
        for (const auto& entry : fs::recursive_directory_iterator(folder)) {
            files += entry.is_regular_file() ? 1 : 0;
        }
        ASSERT_EQ(document->root->childCount(), files);
        EXPECT_EQ(fact(*document, "files"), std::to_string(files));
        for (std::uint64_t i = 0; i < files; ++i) {
            const Node* child = document->root->child(i);
            EXPECT_EQ(child->kind(), "raw.file");
            ASSERT_TRUE(child->region().valid()) << child->label();
            EXPECT_EQ(child->region().length, fs::file_size(folder / child->label()));
            if (child->region().length > 0) {
                EXPECT_EQ(child->deepestAt(0), child);
            }
        }
    }
}

TEST(RegistrySyntheticOpen, RawFilesAndEmptyFiles) {
    ScratchDir dir;
    for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
             {"data.bin", std::string("\x01\x02\x03", 3)}, {"empty", std::string()}}) {
        const fs::path file = dir.write(name, bytes);
        const auto document = builtinFormats().open(file);
        EXPECT_EQ(document->format, kRawBinaryFormat);
        expectGenericFileDocument(*document, file, "raw.file");
        EXPECT_EQ(document->makeValidator ? document->makeValidator() : nullptr, nullptr);
    }
}

TEST(RegistrySyntheticOpen, MagicNodeCoversTheFirstBytes) {
    ScratchDir dir;
    const fs::path file = dir.write("m.bin", std::string_view("ABCDEFGHIJ"));
    auto document = openFileDocument(file, {kRawBinaryFormat, 1, "raw binary file"}, "raw");
    expectGenericFileDocument(*document, file, "raw.file");
    const Node* magic = addMagicNode(*document, 8, "raw");
    EXPECT_EQ(magic->kind(), "raw.magic");
    EXPECT_EQ(magic->region().offset, 0u);
    EXPECT_EQ(magic->region().length, 8u);
    ASSERT_FALSE(magic->fields().empty());
    EXPECT_EQ(magic->fields().front().text(), "41 42 43 44 45 46 47 48");
    EXPECT_EQ(document->root->deepestAt(3), magic);
    EXPECT_EQ(document->root->deepestAt(9), document->root.get());
    // Clipped to a file shorter than the magic.
    const fs::path tiny = dir.write("t.bin", std::string_view("AB"));
    auto short_document = openFileDocument(tiny, {kRawBinaryFormat, 1, "x"}, "raw");
    EXPECT_EQ(addMagicNode(*short_document, 8, "raw")->region().length, 2u);
}

TEST(RegistrySyntheticOpen, UnreadableFolderFileIsAnErrorNode) {
    ScratchDir dir;
    dir.write("a/one.bin", std::string_view("1"));
    const fs::path gone = dir.write("a/two.bin", std::string_view("2"));
    const auto document = RawBinaryFormat().open(dir.path() / "a", {kRawBinaryFormat, 1, "folder"});
    ASSERT_EQ(document->root->childCount(), 2u);
    fs::remove(gone);
    const Node* missing = document->root->child(1);
    EXPECT_EQ(missing->status(), Status::Error);
    EXPECT_FALSE(missing->region().valid());
}

TEST(RegistrySyntheticOpen, WrongMagicsComeWithAnErrorValidator) {
    ScratchDir dir;
    for (const char* name : {"bad.zs", "bad.zt", "bad.sidx", "bad.zds"}) {
        SCOPED_TRACE(name);
        const auto document = builtinFormats().open(dir.write(name, std::string_view("garbage!!")));
        ASSERT_TRUE(document->makeValidator);
        auto validator = document->makeValidator();
        ASSERT_NE(validator, nullptr);
        CollectingSink sink;
        validator->run(sink, {});
        EXPECT_EQ(sink.worstSeverity(), Severity::Error);
    }
}

// Each format keeps what its open parsed as its own typed state, and its accessors answer only
// for what that open kept (views, editors and differs read it instead of parsing again).
TEST_F(RegistryCorpusOpen, EachFormatKeepsItsTypedState) {
    const auto open = [this](const char* relative) {
        return builtinFormats().open(corpus_ / relative);
    };
    const auto zsFile = open("zs/valid/binary-u64le.zs");
    EXPECT_NE(zs::openedFile(*zsFile), nullptr);
    EXPECT_EQ(ztensor::openedFile(*zsFile), nullptr);

    const auto zt = open("ztensor/valid/dense_raw.zt");
    EXPECT_NE(ztensor::openedFile(*zt), nullptr);
    EXPECT_EQ(zs::openedFile(*zt), nullptr);

    EXPECT_NE(zds::openedDataset(*open("zds/valid/docs_mode")), nullptr);

    const auto document = open("ozdf/valid/handwritten/docs/bom_inside_text.ozdf");
    EXPECT_NE(ozdf::openedAs<ozdf::Document>(*document), nullptr);
    EXPECT_EQ(ozdf::openedAs<ozdf::ListedCorpus>(*document), nullptr);
    const auto corpus = open("ozdf/valid/handwritten/corpora/mixed");
    EXPECT_NE(ozdf::openedAs<ozdf::ListedCorpus>(*corpus), nullptr);
    EXPECT_EQ(ozdf::openedAs<ozdf::Document>(*corpus), nullptr);

    const auto root = open("shardlake/root");
    EXPECT_NE(shardlake::openedAs<shardlake::Store>(*root), nullptr);
    EXPECT_EQ(shardlake::openedAs<shardlake::StoreIndex>(*root), nullptr);
    const auto index = open("shardlake/root/indexes/idx-ip");
    EXPECT_NE(shardlake::openedAs<shardlake::StoreIndex>(*index), nullptr);
    const auto shard = open("shardlake/root/indexes/idx-ip/shards/shard-0001.sidx");
    EXPECT_NE(shardlake::openedAs<shardlake::ShardFile>(*shard), nullptr);
    EXPECT_EQ(shardlake::openedAs<shardlake::Store>(*shard), nullptr);

    // Raw binary keeps nothing.
    EXPECT_EQ(open("README.md")->state, nullptr);
}

}  // namespace
}  // namespace strata
