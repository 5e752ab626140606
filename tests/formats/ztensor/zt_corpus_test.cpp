// The zTensor conformance corpus: every valid file reads back as the reference read it, every
// damaged file gets its verdict.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "formats/common/checksums.h"
#include "formats/ztensor/zt_decode.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using test::ztCorpusDir;
using test::ztValidate;

nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::string sha256Hex(std::span<const std::uint8_t> bytes) {
    return toHex(sha256(bytes));
}

TEST(ZtCorpus, ValidFilesHaveNoErrorsOrWarnings) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = ztCorpusDir() / "valid";
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".zt") {
            continue;
        }
        ++files;
        const auto v = ztValidate(openMappedFile(entry.path()));
        EXPECT_EQ(v.outcome, JobOutcome::Completed);
        EXPECT_LT(v.worst(), Severity::Warning) << entry.path().filename() << "\n" << v.describe();
        EXPECT_EQ(v.file->layout(), ztensor::ZtLayout::V1_0);
        EXPECT_TRUE(v.file->manifestDecoded());
    }
    EXPECT_EQ(files, 13u);
}

TEST(ZtCorpus, LogicalTensorsMatchTheReference) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = ztCorpusDir();
    std::ifstream lines(dir / "expected" / "logical.jsonl");
    std::map<std::string, std::shared_ptr<const ztensor::ZtFile>> files;
    std::size_t checked = 0;
    std::string line;
    while (std::getline(lines, line)) {
        const auto expected = nlohmann::json::parse(line);
        const std::string fileName = expected["file"];
        auto& file = files[fileName];
        if (!file) {
            file = ztensor::ZtFile::open(openMappedFile(dir / "valid" / fileName));
        }
        SCOPED_TRACE(fileName + " " + expected["name"].dump());
        if (expected["name"].is_null()) {
            EXPECT_TRUE(file->tensors().empty());
            continue;
        }
        const ztensor::ZtTensor* tensor = file->findTensor(expected["name"].get<std::string>());
        ASSERT_NE(tensor, nullptr);
        EXPECT_EQ(tensor->dtypeName, expected["dtype"]);
        EXPECT_EQ(tensor->shape, expected["shape"].get<std::vector<std::uint64_t>>());
        EXPECT_EQ(tensor->formatName, expected["format"]);
        for (const auto& [role, stored] : expected["stored_components"].items()) {
            const ztensor::ZtComponent* c = file->component(*tensor, role);
            ASSERT_NE(c, nullptr) << role;
            EXPECT_EQ(c->offset, stored["offset"].get<std::uint64_t>());
            EXPECT_EQ(c->length, stored["length"].get<std::uint64_t>());
            EXPECT_EQ(c->data.offset, stored["offset"].get<std::uint64_t>());
        }
        if (expected.contains("sha256")) {
            const ztensor::ZtBytes bytes = ztensor::ztTensorBytes(*file, *tensor);
            ASSERT_TRUE(bytes.ok()) << bytes.error;
            EXPECT_EQ(bytes.view.size(), expected["nbytes"].get<std::uint64_t>());
            EXPECT_EQ(sha256Hex(bytes.bytes()), expected["sha256"]);
        }
        if (expected.contains("components_sha256")) {
            for (const auto& [role, digest] : expected["components_sha256"].items()) {
                const ztensor::ZtBytes bytes =
                    ztensor::ztComponentBytes(*file, *file->component(*tensor, role));
                ASSERT_TRUE(bytes.ok()) << role << ": " << bytes.error;
                EXPECT_EQ(bytes.view.size(),
                          expected["components_nbytes"][role].get<std::uint64_t>());
                EXPECT_EQ(sha256Hex(bytes.bytes()), digest) << role;
            }
            // Sparse tensors also expand to dense bytes of the declared size.
            const ztensor::ZtBytes dense = ztensor::ztTensorBytes(*file, *tensor);
            ASSERT_TRUE(dense.ok()) << dense.error;
            EXPECT_EQ(dense.view.size(), *tensor->byteSize);
        }
        ++checked;
    }
    EXPECT_GT(checked, 60u);
}

TEST(ZtCorpus, SparseTensorsExpandToTheReferenceEntries) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file =
        ztensor::ZtFile::open(openMappedFile(ztCorpusDir() / "valid" / "sparse_raw.zt"));
    const ztensor::ZtTensor* csr = file->findTensor("csr_f32");
    ASSERT_NE(csr, nullptr);
    const ztensor::ZtBytes dense = ztensor::ztTensorBytes(*file, *csr);
    ASSERT_TRUE(dense.ok()) << dense.error;
    // indptr [0, 2, 2, 4], indices [0, 2, 1, 3] in a 3×4 matrix: entries at (0,0), (0,2),
    // (2,1), (2,3) hold values 0..3 in order; everything else is zero.
    const ztensor::ZtBytes values =
        ztensor::ztComponentBytes(*file, *file->component(*csr, "values"));
    ASSERT_TRUE(values.ok());
    const std::size_t positions[] = {0, 2, 9, 11};
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(
            std::memcmp(dense.bytes().data() + positions[k] * 4, values.bytes().data() + k * 4, 4),
            0);
    }
    float sumZeros = 0;
    for (std::size_t i = 0; i < 12; ++i) {
        if (i != 0 && i != 2 && i != 9 && i != 11) {
            float v = 0;
            std::memcpy(&v, dense.bytes().data() + i * 4, 4);
            sumZeros += v * v;
        }
    }
    EXPECT_EQ(sumZeros, 0.0f);
}

// What Strata reports for each corpus case: the code, and whether only a warning is needed
// (the corpus README leaves four cases to Strata's choice).
const std::map<std::string, std::pair<std::string, Severity>>& expectedVerdicts() {
    static const std::map<std::string, std::pair<std::string, Severity>> verdicts = {
        {"bad_magic", {"ZT-MAGIC", Severity::Error}},
        {"only_magic", {"ZT-TOO-SHORT", Severity::Error}},
        {"too_short", {"ZT-TOO-SHORT", Severity::Error}},
        {"manifest_size_past_eof", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"manifest_size_u64max", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"manifest_size_zero", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"manifest_size_eq_filesize_minus16", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"manifest_size_minus1", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"truncated_last_byte", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"truncated_cbor", {"ZT-CBOR", Severity::Error}},
        {"cbor_not_map", {"ZT-MANIFEST-SCHEMA", Severity::Error}},
        {"truncated_data", {"ZT-MANIFEST-SIZE", Severity::Error}},
        {"missing_attributes", {"ZT-MANIFEST-SCHEMA", Severity::Warning}},
        {"missing_generator", {"ZT-MANIFEST-SCHEMA", Severity::Warning}},
        {"missing_version", {"ZT-MANIFEST-SCHEMA", Severity::Error}},
        {"attributes_nonstring_value", {"ZT-MANIFEST-SCHEMA", Severity::Error}},
        {"unknown_dtype", {"ZT-DTYPE", Severity::Error}},
        {"dtype_uppercase", {"ZT-DTYPE", Severity::Error}},
        {"unknown_format", {"ZT-FORMAT", Severity::Error}},
        {"negative_shape", {"ZT-SHAPE", Severity::Error}},
        {"shape_size_mismatch", {"ZT-SIZE", Severity::Error}},
        {"shape_overflow", {"ZT-SHAPE", Severity::Error}},
        {"offset_zero_overlaps_magic", {"ZT-OVERLAP", Severity::Error}},
        {"offset_past_eof", {"ZT-COMPONENT-BOUNDS", Severity::Error}},
        {"length_past_eof", {"ZT-COMPONENT-BOUNDS", Severity::Error}},
        {"missing_data_component", {"ZT-COMPONENT-REF", Severity::Error}},
        {"overlapping_tensors", {"ZT-OVERLAP", Severity::Warning}},
        {"digest_mismatch", {"ZT-DIGEST", Severity::Error}},
        {"digest_bad_hex", {"ZT-DIGEST-FORMAT", Severity::Error}},
        {"digest_too_long_hex", {"ZT-DIGEST-FORMAT", Severity::Error}},
        {"digest_unknown_algo", {"ZT-DIGEST-FORMAT", Severity::Error}},
        {"digest_no_prefix", {"ZT-DIGEST-FORMAT", Severity::Error}},
        {"zstd_wrong_shape", {"ZT-ZSTD", Severity::Error}},
        {"zstd_length_short", {"ZT-ZSTD", Severity::Error}},
        {"encoding_zstd_on_raw", {"ZT-ZSTD", Severity::Error}},
        {"csr_indptr_not_monotone", {"ZT-SPARSE", Severity::Error}},
        {"csr_indices_out_of_range", {"ZT-SPARSE", Severity::Error}},
        {"csr_indptr_wrong_len", {"ZT-SPARSE", Severity::Error}},
        {"csr_indptr_last_ne_nnz", {"ZT-SPARSE", Severity::Error}},
        {"csr_values_len_not_multiple", {"ZT-SPARSE", Severity::Error}},
        {"coo_coord_out_of_range", {"ZT-SPARSE", Severity::Error}},
        {"coo_missing_coords", {"ZT-COMPONENT-REF", Severity::Error}},
        {"sparse_format_on_dense", {"ZT-COMPONENT-REF", Severity::Error}},
        {"nonzero_padding", {"ZT-PADDING", Severity::Error}},
        {"trailing_bytes_before_trailer", {"ZT-TRAILING", Severity::Error}},
        {"extra_key_in_component_wrong_type", {"ZT-MANIFEST-SCHEMA", Severity::Error}},
    };
    return verdicts;
}

TEST(ZtCorpus, EveryCorruptCaseGetsItsVerdictWithARegion) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = ztCorpusDir();
    const auto cases = readJson(dir / "corrupt" / "cases.json");
    ASSERT_TRUE(cases.is_array());
    const std::set<std::string> strataChoice = {"missing_generator", "missing_attributes",
                                                "overlapping_tensors",
                                                "trailing_bytes_before_trailer"};
    for (const auto& c : cases) {
        const std::string id = c["id"];
        SCOPED_TRACE(id);
        const auto v = ztValidate(openMappedFile(dir / c["file"].get<std::string>()));
        EXPECT_EQ(v.outcome, JobOutcome::Completed);
        const Severity needed = strataChoice.count(id) ? Severity::Warning : Severity::Error;
        EXPECT_GE(v.worst(), needed) << v.describe();
        const auto it = expectedVerdicts().find(id);
        if (it == expectedVerdicts().end()) {
            continue;  // a case added to the corpus later: the severity check above covers it
        }
        const auto& [code, severity] = it->second;
        const Diagnostic* d = v.find(code);
        ASSERT_NE(d, nullptr) << "expected " << code << "\n" << v.describe();
        EXPECT_GE(d->severity, severity) << v.describe();
        ASSERT_FALSE(d->regions.empty()) << code;
        EXPECT_NE(d->regions.front().source, nullptr);
        // Every error names the bytes it is about, and nothing is said twice.
        std::set<std::string> seen;
        for (const auto& diagnostic : v.sink->diagnostics()) {
            if (diagnostic.severity == Severity::Error) {
                EXPECT_FALSE(diagnostic.regions.empty()) << diagnostic.code;
            }
            EXPECT_TRUE(seen.insert(diagnostic.code + diagnostic.message).second)
                << "repeated: " << diagnostic.message;
        }
    }
}

TEST(ZtCorpus, DamagedManifestsAreStillShown) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = ztCorpusDir() / "corrupt";
    // The size field is off by one, or bytes were inserted after the manifest: Strata finds
    // the manifest anyway so the tree still shows the tensor.
    for (const char* name : {"manifest_size_minus1.zt", "trailing_bytes_before_trailer.zt",
                             "manifest_size_eq_filesize_minus16.zt", "manifest_size_zero.zt"}) {
        SCOPED_TRACE(name);
        const auto file = ztensor::ZtFile::open(openMappedFile(dir / name));
        EXPECT_TRUE(file->manifestDecoded());
        EXPECT_NE(file->findTensor("x"), nullptr);
    }
}

}  // namespace
}  // namespace strata
