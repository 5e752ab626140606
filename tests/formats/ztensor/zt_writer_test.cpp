// The zTensor writer: files it writes read back and validate clean, and re-writing what the
// reference wrote gives the same bytes.
#include <gtest/gtest.h>

#include <fstream>
#include <tuple>

#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_writer.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using test::f32Bytes;
using test::u64Bytes;
using test::ztValidate;

std::vector<std::uint8_t> readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int roleRank(const std::string& role) {
    for (const auto& [name, rank] : std::vector<std::pair<std::string, int>>{
             {"data", 0}, {"values", 0}, {"indices", 1}, {"coords", 1}, {"indptr", 2}}) {
        if (name == role) {
            return rank;
        }
    }
    return 9;
}

// Rebuilds the writer input from a file: tensors in the order their data was written.
struct Rewrite {
    std::vector<ztensor::ZtBytes> keep;
    std::vector<ztensor::ZtWriterTensor> tensors;
    ztensor::ZtWriterOptions options;
};

Rewrite rewriteOf(const ztensor::ZtFile& file) {
    Rewrite r;
    r.options.version = file.version();
    r.options.generator = file.generator();
    r.options.attributes = file.attributes();
    // Sorted by where the data went; an empty tensor written just before a non-empty one
    // shares its offset and comes first.
    std::vector<std::pair<std::tuple<std::uint64_t, bool, std::string>, const ztensor::ZtTensor*>>
        order;
    for (const auto& tensor : file.tensors()) {
        std::uint64_t first = UINT64_MAX;
        bool hasBytes = false;
        for (std::size_t i : tensor.components) {
            const auto& c = file.components()[i];
            if (*c.length > 0) {
                first = std::min(first, *c.offset);
                hasBytes = true;
            }
        }
        if (first == UINT64_MAX) {
            first = *file.components()[tensor.components.front()].offset;
        }
        order.push_back({{first, hasBytes, tensor.name}, &tensor});
    }
    std::sort(order.begin(), order.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    r.keep.reserve(file.components().size());
    for (const auto& [key, tensor] : order) {
        ztensor::ZtWriterTensor t;
        t.name = tensor->name;
        t.dtype = *tensor->dtype;
        t.shape = tensor->shape;
        t.format = tensor->formatName;
        std::vector<const ztensor::ZtComponent*> components;
        for (std::size_t i : tensor->components) {
            components.push_back(&file.components()[i]);
        }
        std::sort(components.begin(), components.end(), [](auto* a, auto* b) {
            return std::pair(*a->offset, roleRank(a->role)) <
                   std::pair(*b->offset, roleRank(b->role));
        });
        for (const ztensor::ZtComponent* c : components) {
            r.keep.push_back(ztensor::ztComponentBytes(file, *c));
            EXPECT_TRUE(r.keep.back().ok()) << r.keep.back().error;
            ztensor::ZtWriterComponent w;
            w.role = c->role;
            w.data = r.keep.back().bytes();
            w.encoding = c->encoding;
            if (c->digest) {
                w.digest = ztensor::parseZtDigest(*c->digest).algorithm;
            }
            t.components.push_back(w);
        }
        r.tensors.push_back(std::move(t));
    }
    return r;
}

TEST(ZtWriter, RewritingReferenceFilesGivesTheSameBytes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = test::ztCorpusDir() / "valid";
    for (const char* name :
         {"empty.zt", "single_f32_raw.zt", "single_f32_raw_crc32c.zt", "single_f32_zstd.zt",
          "dense_raw.zt", "dense_raw_crc32c.zt", "dense_zstd.zt", "dense_zstd_crc32c.zt",
          "sparse_raw.zt", "sparse_zstd_crc32c.zt"}) {
        SCOPED_TRACE(name);
        const auto original = readAll(dir / name);
        const auto file = ztensor::ZtFile::open(makeBufferSource(original));
        const Rewrite r = rewriteOf(*file);
        const auto written = ztensor::ztWriteToBuffer(r.tensors, r.options);
        EXPECT_EQ(written.size(), original.size());
        std::size_t firstDifference = 0;
        while (firstDifference < std::min(written.size(), original.size()) &&
               written[firstDifference] == original[firstDifference]) {
            ++firstDifference;
        }
        EXPECT_EQ(firstDifference, original.size());
    }
}

TEST(ZtWriter, WrittenFilesValidateAndReadBack) {
    const auto values = f32Bytes({1.5f, -2, 3, 4});
    const auto indices = u64Bytes({1, 0});
    const auto indptr = u64Bytes({0, 1, 2});
    const auto coords = u64Bytes({0, 1, 2, 0});
    std::vector<ztensor::ZtWriterTensor> tensors(3);
    tensors[0] = {
        "dense",
        ztensor::ZtDType::Float32,
        {2, 2},
        "dense",
        {{"data", values, ztensor::ZtEncoding::Zstd, ztensor::ZtDigestAlgorithm::Sha256}}};
    tensors[1] = {"csr",
                  ztensor::ZtDType::Float32,
                  {2, 3},
                  "sparse_csr",
                  {{"values", std::span(values).first(8), ztensor::ZtEncoding::Raw,
                    ztensor::ZtDigestAlgorithm::Crc32c},
                   {"indices", indices, ztensor::ZtEncoding::Zstd, std::nullopt},
                   {"indptr", indptr, ztensor::ZtEncoding::Raw, std::nullopt}}};
    tensors[2] = {
        "coo",
        ztensor::ZtDType::Float32,
        {3, 3},
        "sparse_coo",
        {{"values", std::span(values).first(8), ztensor::ZtEncoding::Raw, std::nullopt},
         {"coords", coords, ztensor::ZtEncoding::Raw, ztensor::ZtDigestAlgorithm::Crc32c}}};
    ztensor::ZtWriterOptions options;
    options.attributes = {{"license", "MIT"}, {"description", "round trip"}};
    const auto bytes = ztensor::ztWriteToBuffer(tensors, options);
    const auto v = ztValidate(bytes);
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    ASSERT_EQ(v.file->tensors().size(), 3u);
    EXPECT_EQ(v.file->attributes().size(), 2u);
    const ztensor::ZtBytes dense = ztensor::ztTensorBytes(*v.file, *v.file->findTensor("dense"));
    ASSERT_TRUE(dense.ok()) << dense.error;
    EXPECT_TRUE(
        std::equal(values.begin(), values.end(), dense.bytes().begin(), dense.bytes().end()));
    const ztensor::ZtBytes csr = ztensor::ztTensorBytes(*v.file, *v.file->findTensor("csr"));
    ASSERT_TRUE(csr.ok()) << csr.error;
    EXPECT_EQ(csr.view.size(), 24u);
    EXPECT_EQ(std::memcmp(csr.bytes().data() + 4, values.data(), 4), 0);       // (0, 1)
    EXPECT_EQ(std::memcmp(csr.bytes().data() + 12, values.data() + 4, 4), 0);  // (1, 0)
    const ztensor::ZtBytes coo = ztensor::ztTensorBytes(*v.file, *v.file->findTensor("coo"));
    ASSERT_TRUE(coo.ok()) << coo.error;
    EXPECT_EQ(std::memcmp(coo.bytes().data() + 2 * 4, values.data(), 4), 0);      // (0, 2)
    EXPECT_EQ(std::memcmp(coo.bytes().data() + 3 * 4, values.data() + 4, 4), 0);  // (1, 0)
    const auto* digest = v.file->component(*v.file->findTensor("csr"), "values");
    ASSERT_TRUE(digest->digest.has_value());
    EXPECT_EQ(digest->digest->substr(0, 9), "crc32c:0x");
    EXPECT_EQ(digest->digest->size(), 17u);
}

TEST(ZtWriter, WritesFilesAtomically) {
    const auto dir = std::filesystem::temp_directory_path() / "strata-zt-writer-test";
    std::filesystem::create_directories(dir);
    const auto path = dir / "out.zt";
    const auto values = f32Bytes({1, 2, 3});
    ztensor::ztWriteFile(path, {{"x",
                                 ztensor::ZtDType::Float32,
                                 {3},
                                 "dense",
                                 {{"data", values, ztensor::ZtEncoding::Raw, std::nullopt}}}});
    const auto v = ztValidate(openMappedFile(path));
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    EXPECT_EQ(v.file->tensors().size(), 1u);
    std::filesystem::remove_all(dir);
}

TEST(ZtWriter, RejectsInconsistentInput) {
    const auto values = f32Bytes({1, 2, 3});
    EXPECT_THROW(
        ztensor::ztWriteToBuffer({{"x",
                                   ztensor::ZtDType::Float32,
                                   {4},
                                   "dense",
                                   {{"data", values, ztensor::ZtEncoding::Raw, std::nullopt}}}}),
        std::invalid_argument);
    EXPECT_THROW(
        ztensor::ztWriteToBuffer({{"x",
                                   ztensor::ZtDType::Float32,
                                   {3},
                                   "dense",
                                   {{"data", values, ztensor::ZtEncoding::Raw, std::nullopt}}},
                                  {"x",
                                   ztensor::ZtDType::Float32,
                                   {3},
                                   "dense",
                                   {{"data", values, ztensor::ZtEncoding::Raw, std::nullopt}}}}),
        std::invalid_argument);
    EXPECT_THROW(
        ztensor::ztWriteToBuffer({{"x",
                                   ztensor::ZtDType::Float32,
                                   {3},
                                   "dense",
                                   {{"payload", values, ztensor::ZtEncoding::Raw, std::nullopt}}}}),
        std::invalid_argument);
}

}  // namespace
}  // namespace strata
