// Hostile and damaged inputs: clear errors, no crash, no unbounded memory or time.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "formats/common/codec_zstd.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_nodes.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using test::f32Bytes;
using test::u64Bytes;
using test::ZtBuilder;
using test::ztManifest;
using test::ztValidate;

void setManifestSize(std::vector<std::uint8_t>& bytes, std::uint64_t size) {
    for (int i = 0; i < 8; ++i) {
        bytes[bytes.size() - 8 + static_cast<std::size_t>(i)] =
            static_cast<std::uint8_t>(size >> (8 * i));
    }
}

std::vector<std::uint8_t> singleTensor(const nlohmann::json& shape, const std::string& dtype,
                                       const std::vector<std::uint8_t>& data,
                                       const std::string& encoding = "raw") {
    ZtBuilder builder;
    const auto offset = builder.add(data);
    nlohmann::json component = {{"offset", offset}, {"length", data.size()}};
    if (encoding != "raw") {
        component["encoding"] = encoding;
    }
    return builder.finish(ztManifest({{"x",
                                       {{"dtype", dtype},
                                        {"shape", shape},
                                        {"format", "dense"},
                                        {"components", {{"data", component}}}}}}));
}

TEST(ZtHostile, HugeManifestSizes) {
    auto bytes = singleTensor({2}, "float32", f32Bytes({1, 2}));
    for (std::uint64_t size : {std::uint64_t{1} << 63, ~std::uint64_t{0}, std::uint64_t{1} << 40,
                               std::uint64_t(bytes.size() - 15)}) {
        setManifestSize(bytes, size);
        const auto v = ztValidate(bytes);
        EXPECT_TRUE(v.has("ZT-MANIFEST-SIZE")) << size << "\n" << v.describe();
        EXPECT_EQ(v.worst(), Severity::Error);
    }
}

TEST(ZtHostile, ZstdComponentClaimingATerabyte) {
    const std::vector<std::uint8_t> zeros(1 << 20, 0);
    const auto frame = zstdCompress(zeros);
    // float32 × 2^38 = 1 TiB, but the frame holds 1 MiB.
    const auto bytes = singleTensor({std::uint64_t{1} << 38}, "float32", frame, "zstd");
    const auto v = ztValidate(bytes);
    EXPECT_TRUE(v.has("ZT-ZSTD")) << v.describe();
    const ztensor::ZtBytes logical = ztensor::ztTensorBytes(*v.file, v.file->tensors()[0]);
    EXPECT_FALSE(logical.ok());
    const ztensor::ZtBytes component =
        ztensor::ztComponentBytes(*v.file, v.file->components()[0], 1 << 16);
    EXPECT_FALSE(component.ok());
}

TEST(ZtHostile, ZstdBombDecodesOnlyToTheDeclaredSize) {
    const std::vector<std::uint8_t> zeros(64 << 20, 0);
    const auto frame = zstdCompress(zeros);
    ASSERT_LT(frame.size(), 64u << 10);
    const auto bytes = singleTensor({4}, "float32", frame, "zstd");
    const auto v = ztValidate(bytes);
    const Diagnostic* d = v.find("ZT-ZSTD");
    ASSERT_NE(d, nullptr) << v.describe();
    EXPECT_NE(d->message.find("more than the 16 bytes"), std::string::npos) << d->message;
    EXPECT_FALSE(ztensor::ztTensorBytes(*v.file, v.file->tensors()[0]).ok());
}

TEST(ZtHostile, CborNestingBombs) {
    std::vector<std::uint8_t> arrays(200'000, 0x81);
    arrays.push_back(0x00);
    std::vector<std::uint8_t> maps;
    for (int i = 0; i < 100'000; ++i) {
        maps.insert(maps.end(), {0xA1, 0x61, 'k'});
    }
    maps.push_back(0x00);
    std::vector<std::uint8_t> tags(200'000, 0xC6);
    tags.insert(tags.end(), {0xA0});
    for (const auto* manifest : {&arrays, &maps, &tags}) {
        const auto bytes = ZtBuilder().finishRaw(*manifest);
        const auto v = ztValidate(bytes);
        EXPECT_TRUE(v.has("ZT-CBOR")) << v.describe();
        EXPECT_FALSE(v.file->manifestDecoded());
    }
}

TEST(ZtHostile, NestingInsideAValidManifestIsRejected) {
    nlohmann::json deep = 0;
    for (int i = 0; i < 100; ++i) {
        deep = nlohmann::json::array({deep});
    }
    auto manifest = ztManifest(nlohmann::json::object());
    manifest["attributes"] = {{"deep", deep}};
    const auto v = ztValidate(ZtBuilder().finish(manifest));
    EXPECT_TRUE(v.has("ZT-CBOR")) << v.describe();
}

TEST(ZtHostile, ShapesThatOverflow) {
    const auto data = f32Bytes({1, 2, 3, 4, 5, 6});
    for (const nlohmann::json& shape :
         {nlohmann::json{std::uint64_t{1} << 32, std::uint64_t{1} << 32, 2},
          nlohmann::json{std::uint64_t{1} << 62}, nlohmann::json{~std::uint64_t{0}, 2}}) {
        const auto v = ztValidate(singleTensor(shape, "float32", data));
        EXPECT_TRUE(v.has("ZT-SHAPE")) << shape.dump() << "\n" << v.describe();
        EXPECT_FALSE(ztensor::ztTensorBytes(*v.file, v.file->tensors()[0]).ok());
    }
    const auto v = ztValidate(singleTensor({2, "3"}, "float32", data));
    EXPECT_TRUE(v.has("ZT-SHAPE"));
    const auto f = ztValidate(singleTensor({2.5}, "float32", data));
    EXPECT_TRUE(f.has("ZT-SHAPE"));
}

TEST(ZtHostile, ComponentRangesThatOverflow) {
    ZtBuilder builder;
    const auto bytes = builder.finish(ztManifest(
        {{"x",
          {{"dtype", "uint8"},
           {"shape", {128}},
           {"format", "dense"},
           {"components", {{"data", {{"offset", ~std::uint64_t{0} - 63}, {"length", 128}}}}}}}}));
    const auto v = ztValidate(bytes);
    EXPECT_TRUE(v.has("ZT-COMPONENT-BOUNDS")) << v.describe();
    // The tree still builds and can be walked.
    auto root = ztensor::makeZtNodeTree(v.file, "test.zt");
    for (std::uint64_t i = 0; i < root->childCount(); ++i) {
        EXPECT_NE(root->child(i), nullptr);
    }
}

TEST(ZtHostile, SparseIndicesPointingFarAway) {
    ZtBuilder builder;
    const auto values = builder.add(f32Bytes({1, 2}));
    const auto indices = builder.add(u64Bytes({0, ~std::uint64_t{0}}));
    const auto indptr = builder.add(u64Bytes({0, 1, ~std::uint64_t{0}}));
    const auto bytes =
        builder.finish(ztManifest({{"m",
                                    {{"dtype", "float32"},
                                     {"shape", {2, 2}},
                                     {"format", "sparse_csr"},
                                     {"components",
                                      {{"values", {{"offset", values}, {"length", 8}}},
                                       {"indices", {{"offset", indices}, {"length", 16}}},
                                       {"indptr", {{"offset", indptr}, {"length", 24}}}}}}}}));
    const auto v = ztValidate(bytes);
    EXPECT_TRUE(v.has("ZT-SPARSE")) << v.describe();
    EXPECT_FALSE(ztensor::ztTensorBytes(*v.file, v.file->tensors()[0]).ok());
}

// Every valid corpus file, damaged at random: opening, validating, building the tree and
// reading every tensor must never crash.
TEST(ZtHostile, RandomDamageToCorpusFiles) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = test::ztCorpusDir() / "valid";
    std::mt19937 rng(20261123);
    for (const char* name : {"single_f32_raw_crc32c.zt", "single_f32_zstd.zt", "sparse_raw.zt",
                             "sparse_zstd_crc32c.zt", "dense_zstd_crc32c.zt"}) {
        std::ifstream in(dir / name, std::ios::binary);
        const std::vector<std::uint8_t> original((std::istreambuf_iterator<char>(in)),
                                                 std::istreambuf_iterator<char>());
        ASSERT_FALSE(original.empty()) << name;
        for (int round = 0; round < 150; ++round) {
            auto bytes = original;
            const int kind = round % 3;
            if (kind == 0) {
                for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
                    bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
                }
            } else if (kind == 1) {
                bytes.resize(rng() % bytes.size());
            } else {
                // Damage the manifest region only, where the structure lives.
                const std::size_t at =
                    bytes.size() - 9 - rng() % std::min<std::size_t>(200, bytes.size() - 9);
                bytes[at] = static_cast<std::uint8_t>(rng());
            }
            const auto v = ztValidate(bytes, 1 + round % 2);
            EXPECT_EQ(v.outcome, JobOutcome::Completed);
            auto root = ztensor::makeZtNodeTree(v.file, name);
            for (std::uint64_t i = 0; i < root->childCount(); ++i) {
                Node* child = root->child(i);
                for (std::uint64_t j = 0; j < child->childCount(); ++j) {
                    Node* grandchild = child->child(j);
                    for (std::uint64_t k = 0; k < grandchild->childCount(); ++k) {
                        (void)grandchild->child(k);
                    }
                }
            }
            for (const auto& tensor : v.file->tensors()) {
                (void)ztensor::ztTensorBytes(*v.file, tensor, 1 << 20);
            }
        }
    }
}

}  // namespace
}  // namespace strata
