// The zTensor reader, node tree and validator on small files made here.
#include <gtest/gtest.h>

#include <fstream>

#include "formats/common/checksums.h"
#include "formats/common/codec_zstd.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_digest.h"
#include "formats/ztensor/zt_nodes.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using test::f32Bytes;
using test::u64Bytes;
using test::ZtBuilder;
using test::ztManifest;
using test::ztValidate;

nlohmann::json dense(const std::string& dtype, const nlohmann::json& shape, std::uint64_t offset,
                     std::uint64_t length) {
    return {{"dtype", dtype},
            {"shape", shape},
            {"format", "dense"},
            {"components", {{"data", {{"offset", offset}, {"length", length}}}}}};
}

TEST(ZtReader, OpensOnlyTheHeaderAndManifestAndBuildsTheTree) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file =
        ztensor::ZtFile::open(openMappedFile(test::ztCorpusDir() / "valid" / "dense_raw.zt"));
    ASSERT_TRUE(file->manifestDecoded());
    EXPECT_EQ(file->version(), "1.0");
    EXPECT_EQ(file->generator(), "zTensor-Rust v0.1.0");
    EXPECT_EQ(file->tensors().size(), 16u);
    auto root = ztensor::makeZtNodeTree(file, "dense_raw.zt");
    EXPECT_EQ(root->kind(), "ztensor.file");
    ASSERT_GE(root->childCount(), 4u);
    EXPECT_EQ(root->child(0)->kind(), "ztensor.magic");
    EXPECT_EQ(root->child(0)->value(), "ZTEN1000");
    EXPECT_EQ(root->child(root->childCount() - 1)->kind(), "ztensor.manifest_size");
    EXPECT_EQ(root->child(root->childCount() - 2)->kind(), "ztensor.manifest");
    // Offsets ascend, so a click in the hex view finds the component.
    std::uint64_t last = 0;
    for (std::uint64_t i = 0; i < root->childCount(); ++i) {
        EXPECT_GE(root->child(i)->region().offset, last);
        last = root->child(i)->region().offset;
    }
    const ztensor::ZtTensor* f64 = file->findTensor("t_float64");
    ASSERT_NE(f64, nullptr);
    const auto& data = file->components()[f64->components[0]];
    const Node* hit = root->deepestAt(*data.offset + 3);
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->kind(), "ztensor.component");
    EXPECT_EQ(hit->label(), "t_float64/data");
    // Manifest -> tensor -> component, each field with its own bytes in the manifest.
    const Node* manifest = root->child(root->childCount() - 2);
    EXPECT_EQ(manifest->childCount(), 16u);
    const Node* tensor = manifest->child(0);
    EXPECT_EQ(tensor->kind(), "ztensor.tensor");
    EXPECT_TRUE(file->manifest().contains(tensor->region()));
    for (const auto& field : tensor->fields()) {
        EXPECT_TRUE(file->manifest().contains(field.region)) << field.name;
    }
    ASSERT_EQ(tensor->childCount(), 1u);
    EXPECT_EQ(tensor->child(0)->kind(), "ztensor.component");
    const Node* inManifest = root->deepestAt(tensor->region().offset + 1);
    ASSERT_NE(inManifest, nullptr);
    EXPECT_EQ(inManifest->kind(), "ztensor.tensor");
    EXPECT_FALSE(ztensor::ztFacts(*file).empty());
}

TEST(ZtReader, ZeroLengthComponentsShareOffsetsWithoutOverlap) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto v = ztValidate(openMappedFile(test::ztCorpusDir() / "valid" / "sparse_raw.zt"));
    EXPECT_FALSE(v.has("ZT-OVERLAP")) << v.describe();
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes({1}));
    const auto empty = builder.add({});
    const auto b = builder.add(f32Bytes({2}));
    EXPECT_EQ(empty, b);
    const auto bytes = builder.finish(ztManifest({{"a", dense("float32", {1}, a, 4)},
                                                  {"e", dense("float32", {0}, empty, 0)},
                                                  {"b", dense("float32", {1}, b, 4)}}));
    const auto w = ztValidate(bytes);
    EXPECT_LT(w.worst(), Severity::Warning) << w.describe();
}

TEST(ZtReader, TensorsComeInFileOrder) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file =
        ztensor::ZtFile::open(openMappedFile(test::ztCorpusDir() / "valid" / "dense_raw.zt"));
    ASSERT_FALSE(file->tensors().empty());
    // The reference writer sorts tensor names bytewise.
    EXPECT_EQ(file->tensors().front().name, "t_bfloat16");
    for (std::size_t i = 1; i < file->tensors().size(); ++i) {
        EXPECT_LT(file->tensors()[i - 1].entry.offset, file->tensors()[i].entry.offset);
    }
    // A hand-made manifest listing "z" before "a" keeps that order.
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes({1}));
    std::vector<std::uint8_t> manifest = {0xA4};
    for (const nlohmann::json& item :
         {nlohmann::json("version"), nlohmann::json("1.0"), nlohmann::json("generator"),
          nlohmann::json("t"), nlohmann::json("attributes"), nlohmann::json::object(),
          nlohmann::json("tensors")}) {
        const auto bytes = nlohmann::json::to_cbor(item);
        manifest.insert(manifest.end(), bytes.begin(), bytes.end());
    }
    manifest.push_back(0xA2);
    for (const char* name : {"z", "a"}) {
        const auto key = nlohmann::json::to_cbor(name);
        const auto value = nlohmann::json::to_cbor(dense("float32", {1}, a, 4));
        manifest.insert(manifest.end(), key.begin(), key.end());
        manifest.insert(manifest.end(), value.begin(), value.end());
    }
    const auto v = ztValidate(builder.finishRaw(manifest));
    ASSERT_EQ(v.file->tensors().size(), 2u) << v.describe();
    EXPECT_EQ(v.file->tensors()[0].name, "z");
    EXPECT_EQ(v.file->tensors()[1].name, "a");
}

TEST(ZtReader, AnEmptyComponentInsideTheManifestDoesNotHideIt) {
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes({1}));
    const auto empty = builder.add({});
    const auto bytes = builder.finish(
        ztManifest({{"a", dense("float32", {1}, a, 4)}, {"e", dense("float32", {0}, empty, 0)}}));
    const auto v = ztValidate(bytes);
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    ASSERT_LT(v.file->manifest().offset, empty);
    ASSERT_GT(v.file->manifest().end(), empty + 2);
    auto root = ztensor::makeZtNodeTree(v.file, "t.zt");
    const Node* hit = root->deepestAt(empty + 1);
    ASSERT_NE(hit, nullptr);
    EXPECT_NE(hit, root.get());
}

TEST(ZtReader, PartialOverlapIsAnErrorAndSharedBytesAWarning) {
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes(std::vector<float>(32, 1.0f)));
    const auto bytes = builder.finish(ztManifest({{"a", dense("float32", {32}, a, 128)},
                                                  {"b", dense("float32", {16}, a + 64, 64)},
                                                  {"c", dense("float32", {32}, a, 128)}}));
    const auto v = ztValidate(bytes);
    std::size_t errors = 0;
    std::size_t warnings = 0;
    for (const auto& d : v.sink->diagnostics()) {
        if (d.code == "ZT-OVERLAP") {
            (d.severity == Severity::Error ? errors : warnings) += 1;
        }
    }
    EXPECT_EQ(errors, 1u) << v.describe();
    EXPECT_EQ(warnings, 1u) << v.describe();
}

TEST(ZtReader, VersionNegotiation) {
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes({1}));
    auto manifest = ztManifest({{"a", dense("float32", {1}, a, 4)}});
    manifest["version"] = "1.1";
    auto v = ztValidate(builder.finish(manifest));
    ASSERT_NE(v.find("ZT-VERSION"), nullptr);
    EXPECT_EQ(v.worst(), Severity::Warning) << v.describe();
    for (const char* version : {"2.0", "0.1", "one", ""}) {
        manifest["version"] = version;
        v = ztValidate(builder.finish(manifest));
        EXPECT_EQ(v.find("ZT-VERSION") ? v.find("ZT-VERSION")->severity : Severity::Info,
                  Severity::Error)
            << version;
    }
}

TEST(ZtReader, OtherFileVersionsAreRecognised) {
    const auto manifest = nlohmann::json::to_cbor(
        nlohmann::json{{"version", "1.1"}, {"objects", nlohmann::json::object()}});
    auto withSize = [&](std::vector<std::uint8_t> bytes) {
        bytes.insert(bytes.end(), manifest.begin(), manifest.end());
        for (int i = 0; i < 8; ++i) {
            bytes.push_back(static_cast<std::uint8_t>(manifest.size() >> (8 * i)));
        }
        return bytes;
    };
    // v1.1: magic at both ends, size before the footer magic.
    auto v11 = withSize({'Z', 'T', 'E', 'N', '1', '0', '0', '0'});
    v11.insert(v11.end(), {'Z', 'T', 'E', 'N', '1', '0', '0', '0'});
    auto v = ztValidate(v11);
    EXPECT_EQ(v.file->layout(), ztensor::ZtLayout::V1_1);
    EXPECT_TRUE(v.has("ZT-VERSION"));
    EXPECT_TRUE(v.file->manifestDecoded());
    EXPECT_FALSE(ztensor::makeZtNodeTree(v.file, "v11")->fields().empty());

    v = ztValidate(withSize({'Z', 'T', 'E', 'N', '0', '0', '0', '1'}));
    EXPECT_EQ(v.file->layout(), ztensor::ZtLayout::V0_1);
    EXPECT_TRUE(v.has("ZT-VERSION"));

    v = ztValidate(withSize({0x89, 'Z', 'T', '2', '\r', '\n', 0x1A, '\n'}));
    EXPECT_EQ(v.file->layout(), ztensor::ZtLayout::V2);
    EXPECT_TRUE(v.has("ZT-VERSION"));
    EXPECT_FALSE(v.has("ZT-MAGIC"));
}

TEST(ZtReader, IndefiniteLengthManifest) {
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes({1, 2}));
    auto item = [](const nlohmann::json& j) { return nlohmann::json::to_cbor(j); };
    std::vector<std::uint8_t> manifest = {0xBF};
    auto append = [&](const std::vector<std::uint8_t>& bytes) {
        manifest.insert(manifest.end(), bytes.begin(), bytes.end());
    };
    append(item("version"));
    append(item("1.0"));
    append(item("generator"));
    append(item("hand-made"));
    append(item("attributes"));
    manifest.push_back(0xBF);
    manifest.push_back(0xFF);
    append(item("tensors"));
    manifest.push_back(0xBF);
    append(item("x"));
    append(item(dense("float32", {2}, a, 8)));
    manifest.push_back(0xFF);
    manifest.push_back(0xFF);
    const auto v = ztValidate(builder.finishRaw(manifest));
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    ASSERT_EQ(v.file->tensors().size(), 1u);
    EXPECT_EQ(v.file->tensors()[0].dtypeField.length, 8u);  // "float32" with its head byte
}

TEST(ZtReader, Sha256AndCrc32cDigests) {
    ZtBuilder builder;
    const auto data = f32Bytes({1, 2, 3});
    const auto a = builder.add(data);
    auto tensor = dense("float32", {3}, a, 12);
    tensor["components"]["data"]["digest"] = "sha256:" + toHex(sha256(data));
    auto v = ztValidate(builder.finish(ztManifest({{"x", tensor}})));
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    tensor["components"]["data"]["digest"] = "sha256:" + std::string(64, '0');
    v = ztValidate(builder.finish(ztManifest({{"x", tensor}})));
    EXPECT_TRUE(v.has("ZT-DIGEST")) << v.describe();
    tensor["components"]["data"]["digest"] = ztensor::formatZtCrc32c(crc32c(data));
    v = ztValidate(builder.finish(ztManifest({{"x", tensor}})));
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    tensor["components"]["data"]["digest"] = "md5:00";
    v = ztValidate(builder.finish(ztManifest({{"x", tensor}})));
    EXPECT_TRUE(v.has("ZT-DIGEST-FORMAT"));
    tensor["components"]["data"]["digest"] = 5;
    v = ztValidate(builder.finish(ztManifest({{"x", tensor}})));
    EXPECT_TRUE(v.has("ZT-MANIFEST-SCHEMA"));
}

TEST(ZtReader, DigestParsing) {
    EXPECT_TRUE(ztensor::parseZtDigest("crc32c:0x1A2B3C4D").usable());
    EXPECT_TRUE(ztensor::parseZtDigest("crc32c:0x1a2b3c4d").warning.empty());
    EXPECT_FALSE(ztensor::parseZtDigest("crc32c:0x1A2B").warning.empty());
    EXPECT_FALSE(ztensor::parseZtDigest("crc32c:0xZZZZ").usable());
    EXPECT_FALSE(ztensor::parseZtDigest("crc32c:0x1805104B9").usable());
    EXPECT_FALSE(ztensor::parseZtDigest("sha256:00").usable());
    EXPECT_FALSE(ztensor::parseZtDigest("805104B9").usable());
    EXPECT_EQ(ztensor::formatZtCrc32c(0x805104B9u), "crc32c:0x805104B9");
}

TEST(ZtReader, UnknownFormatsShowTheirComponents) {
    ZtBuilder builder;
    const auto d = builder.add(std::vector<std::uint8_t>(32, 0x11));
    const auto s = builder.add(f32Bytes({0.5f}));
    const auto z = builder.add(std::vector<std::uint8_t>{1});
    const auto bytes =
        builder.finish(ztManifest({{"q",
                                    {{"dtype", "uint8"},
                                     {"shape", {8, 8}},
                                     {"format", "quantized_4bit"},
                                     {"components",
                                      {{"data", {{"offset", d}, {"length", 32}}},
                                       {"scale", {{"offset", s}, {"length", 4}}},
                                       {"zero_point", {{"offset", z}, {"length", 1}}}}}}}}));
    const auto v = ztValidate(bytes);
    EXPECT_TRUE(v.has("ZT-FORMAT"));
    auto root = ztensor::makeZtNodeTree(v.file, "q.zt");
    const Node* manifest = nullptr;
    for (std::uint64_t i = 0; i < root->childCount(); ++i) {
        if (root->child(i)->kind() == "ztensor.manifest") {
            manifest = root->child(i);
        }
    }
    ASSERT_NE(manifest, nullptr);
    EXPECT_EQ(manifest->child(0)->childCount(), 3u);
    const ztensor::ZtBytes scale =
        ztensor::ztComponentBytes(*v.file, *v.file->component(v.file->tensors()[0], "scale"));
    ASSERT_TRUE(scale.ok());
    EXPECT_EQ(scale.view.size(), 4u);
}

TEST(ZtReader, ZstdComponentsDecodeOnDemand) {
    ZtBuilder builder;
    std::vector<float> values(1000);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>(i % 7);
    }
    const auto raw = f32Bytes(values);
    const auto frame = zstdCompress(raw);
    const auto a = builder.add(frame);
    auto tensor = dense("float32", {10, 100}, a, frame.size());
    tensor["components"]["data"]["encoding"] = "zstd";
    const auto v = ztValidate(builder.finish(ztManifest({{"x", tensor}})));
    EXPECT_LT(v.worst(), Severity::Warning) << v.describe();
    const ztensor::ZtBytes logical = ztensor::ztTensorBytes(*v.file, v.file->tensors()[0]);
    ASSERT_TRUE(logical.ok()) << logical.error;
    EXPECT_TRUE(std::equal(raw.begin(), raw.end(), logical.bytes().begin(), logical.bytes().end()));
    // A limit below the size refuses rather than truncating.
    EXPECT_FALSE(ztensor::ztTensorBytes(*v.file, v.file->tensors()[0], 100).ok());
}

TEST(ZtReader, NonFiniteValuesAreCountedAsInfo) {
    ZtBuilder builder;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const auto a = builder.add(f32Bytes({1, nan, inf, -inf, nan}));
    const auto v = ztValidate(builder.finish(ztManifest({{"x", dense("float32", {5}, a, 20)}})));
    const Diagnostic* d = v.find("ZT-NONFINITE");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->severity, Severity::Info);
    EXPECT_NE(d->message.find("2 NaN and 2 infinite"), std::string::npos) << d->message;
}

// Raw tensors larger than a scan slice (16 MiB) and without a digest are counted in slices on
// every thread: the counts stay exact at the slice edges, whatever the thread count, whether
// the bytes come from memory or from a large mapped file (read with pread), and each tensor's
// total counts its own slices only.
TEST(ZtReader, SlicedValueScansCountExactlyOnEveryThreadCount) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    constexpr std::size_t kSliceElements = (16u << 20) / 4;
    const std::size_t n = 2 * kSliceElements + kSliceElements / 2 + 3;
    std::vector<float> values(n, 0.5f);
    for (std::size_t i :
         {std::size_t{0}, kSliceElements - 1, kSliceElements, 2 * kSliceElements + 1, n - 1}) {
        values[i] = nan;
    }
    for (std::size_t i : {std::size_t{1}, kSliceElements + 1, n - 2}) {
        values[i] = -inf;
    }
    ZtBuilder builder;
    const auto a = builder.add(f32Bytes(values));
    std::vector<float> tail(n / 2, 1.0f);
    tail[12345] = inf;
    const auto b = builder.add(f32Bytes(tail));
    const auto bytes = builder.finish(ztManifest(
        {{"x", dense("float32", {n}, a, n * 4)}, {"y", dense("float32", {n / 2}, b, n / 2 * 4)}}));
    const auto path = std::filesystem::temp_directory_path() / "strata_zt_sliced_scan.zt";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    for (const bool mapped : {false, true}) {
        for (unsigned threads : {1u, 2u, 3u}) {
            SCOPED_TRACE(std::to_string(threads) + (mapped ? " mapped" : " in memory"));
            const auto v =
                mapped ? ztValidate(openMappedFile(path), threads) : ztValidate(bytes, threads);
            std::vector<std::string> messages;
            for (const auto& d : v.sink->diagnostics()) {
                if (d.code == "ZT-NONFINITE") {
                    messages.push_back(d.message);
                }
            }
            EXPECT_EQ(messages,
                      (std::vector<std::string>{"tensor 'x' holds 5 NaN and 3 infinite values",
                                                "tensor 'y' holds 0 NaN and 1 infinite value"}))
                << v.describe();
            EXPECT_EQ(v.errors(), 0u) << v.describe();
        }
    }
    std::filesystem::remove(path);
}

TEST(ZtReader, ManyProblemsAreCappedPerCode) {
    ZtBuilder builder;
    const auto a = builder.add(std::vector<std::uint8_t>(64, 0));
    nlohmann::json tensors = nlohmann::json::object();
    for (int i = 0; i < 40; ++i) {
        tensors["t" + std::to_string(i)] = dense("uint8", {1}, a + 1, 1);
    }
    auto v = test::ZtValidation{};
    v.file = ztensor::ZtFile::open(makeBufferSource(builder.finish(ztManifest(tensors))));
    ValidationOptions options;
    options.maxPerCode = 5;
    double lastProgress = -1;
    options.progress = [&](double fraction, const std::string&) { lastProgress = fraction; };
    ztensor::ZtValidator(v.file).run(*v.sink, options);
    std::size_t aligned = 0;
    for (const auto& d : v.sink->diagnostics()) {
        aligned += d.code == "ZT-ALIGN" ? 1 : 0;
    }
    EXPECT_EQ(aligned, 5u);
    EXPECT_TRUE(v.has("ZT-SUPPRESSED"));
    EXPECT_EQ(lastProgress, 1.0);
}

TEST(ZtReader, CancelledValidationStops) {
    STRATA_SKIP_WITHOUT_CORPUS();
    CancelToken cancel;
    cancel.cancel();
    const auto file = ztensor::ZtFile::open(
        openMappedFile(test::ztCorpusDir() / "valid" / "dense_raw_crc32c.zt"));
    CollectingSink sink;
    ValidationOptions options;
    options.cancel = &cancel;
    EXPECT_EQ(ztensor::ZtValidator(file).run(sink, options), JobOutcome::Cancelled);
}

TEST(ZtReader, ParallelAndSerialValidationAgree) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto path = test::ztCorpusDir() / "corrupt" / "csr_indptr_not_monotone.zt";
    const auto one = ztValidate(openMappedFile(path), 1);
    const auto four = ztValidate(openMappedFile(path), 4);
    ASSERT_EQ(one.sink->diagnostics().size(), four.sink->diagnostics().size());
    for (std::size_t i = 0; i < one.sink->diagnostics().size(); ++i) {
        EXPECT_EQ(one.sink->diagnostics()[i].code, four.sink->diagnostics()[i].code);
        EXPECT_EQ(one.sink->diagnostics()[i].message, four.sink->diagnostics()[i].message);
    }
}

}  // namespace
}  // namespace strata
