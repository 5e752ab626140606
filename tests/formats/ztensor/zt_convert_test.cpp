// zTensor conversion: unchanged rewrites of reference-written files are byte-identical, every
// dtype and format survives raw ↔ zstd and digest changes with the same logical contents,
// renames/drops/attributes land in the manifest, and damaged inputs are refused.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <tuple>

#include "formats/common/atomic_file.h"
#include "formats/ztensor/zt_convert.h"
#include "formats/ztensor/zt_logical.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using test::ztCorpusDir;
using test::ztValidate;

std::vector<std::uint8_t> readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::shared_ptr<const ztensor::ZtFile> openCorpus(const std::string& name) {
    return ztensor::ZtFile::open(openMappedFile(ztCorpusDir() / "valid" / name));
}

std::vector<std::uint8_t> convert(const ztensor::ZtFile& file, const ztensor::ZtConvertPlan& plan,
                                  unsigned threads = 2) {
    std::vector<std::uint8_t> out;
    ztensor::ZtConvertOptions options;
    options.threads = threads;
    const ztensor::ZtConvertResult result = ztensor::ztConvert(
        file, plan,
        [&](std::span<const std::uint8_t> bytes) {
            out.insert(out.end(), bytes.begin(), bytes.end());
        },
        options);
    EXPECT_FALSE(result.cancelled);
    EXPECT_EQ(result.bytesOut, out.size());
    return out;
}

// name → (dense: sha256 of data; sparse: sha256 of each component), as hex.
std::map<std::string, std::vector<std::string>> logical(const ztensor::ZtFile& file) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& tensor : file.tensors()) {
        const ztensor::ZtTensorSummary summary = ztensor::ztSummarizeTensor(file, tensor);
        EXPECT_TRUE(summary.ok) << tensor.name << ": " << summary.error;
        auto& entry = out[tensor.name];
        entry.push_back(tensor.dtypeName + " " + tensor.formatName);
        for (const auto& c : summary.components) {
            entry.push_back(c.role + " " + std::to_string(c.nbytes) + " " + toHex(c.sha256));
        }
    }
    return out;
}

std::shared_ptr<const ztensor::ZtFile> reopen(std::vector<std::uint8_t> bytes) {
    return ztensor::ZtFile::open(makeBufferSource(std::move(bytes), "converted.zt"));
}

// Stable test names (gtest would print the parameters' addresses and bytes).
std::string testName(const char* file) {
    std::string name = file;
    for (char& c : name) {
        c = std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
    }
    return name;
}

std::string corpusCaseName(const ::testing::TestParamInfo<const char*>& param) {
    return testName(param.param);
}

class ZtConvertCorpus : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override { STRATA_SKIP_WITHOUT_CORPUS(); }
};

TEST_P(ZtConvertCorpus, UnchangedPlanRewritesReferenceFilesByteForByte) {
    const auto file = openCorpus(GetParam());
    const auto original = readAll(ztCorpusDir() / "valid" / GetParam());
    EXPECT_EQ(convert(*file, ztensor::ztPlanFor(*file)), original);
}

INSTANTIATE_TEST_SUITE_P(ReferenceWritten, ZtConvertCorpus,
                         ::testing::Values("dense_raw.zt", "dense_raw_crc32c.zt", "dense_zstd.zt",
                                           "dense_zstd_crc32c.zt", "empty.zt", "single_f32_raw.zt",
                                           "single_f32_raw_crc32c.zt", "single_f32_zstd.zt",
                                           "sparse_raw.zt", "sparse_zstd_crc32c.zt"),
                         corpusCaseName);

struct Recoding {
    std::optional<ztensor::ZtEncoding> encoding;
    ztensor::ZtDigestChoice digest;
    bool recompress;
};

std::string testName(const Recoding& r) {
    const char* encoding = !r.encoding                                ? "keep"
                           : *r.encoding == ztensor::ZtEncoding::Zstd ? "zstd"
                                                                      : "raw";
    std::string digest = "keepdigest";
    switch (r.digest) {
        case ztensor::ZtDigestChoice::Keep:
            break;
        case ztensor::ZtDigestChoice::None:
            digest = "nodigest";
            break;
        case ztensor::ZtDigestChoice::Crc32c:
            digest = "crc32c";
            break;
        case ztensor::ZtDigestChoice::Sha256:
            digest = "sha256";
            break;
    }
    return std::string(encoding) + "_" + digest + (r.recompress ? "_recompress" : "");
}

// gtest prints parameters in the test list, which becomes the ctest name: print a name, not
// the struct's bytes.
void PrintTo(const Recoding& recoding, std::ostream* out) {
    *out << testName(recoding);
}

class ZtConvertRoundTrip : public ::testing::TestWithParam<std::tuple<std::string, Recoding>> {
protected:
    void SetUp() override { STRATA_SKIP_WITHOUT_CORPUS(); }
};

std::string roundTripCaseName(
    const ::testing::TestParamInfo<ZtConvertRoundTrip::ParamType>& param) {
    return testName(std::get<0>(param.param).c_str()) + "_" + testName(std::get<1>(param.param));
}

// Every dtype (dense files) and every format (sparse files), to each encoding and digest.
TEST_P(ZtConvertRoundTrip, KeepsLogicalContentsAndValidates) {
    const auto& [name, recoding] = GetParam();
    const auto file = openCorpus(name.c_str());
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    ztensor::ztSetEncoding(plan, recoding.encoding);
    ztensor::ztSetDigest(plan, recoding.digest);
    plan.recompress = recoding.recompress;
    plan.zstdLevel = 7;
    const auto bytes = convert(*file, plan);
    const auto converted = reopen(bytes);
    EXPECT_EQ(logical(*converted), logical(*file));
    for (const auto& c : converted->components()) {
        if (recoding.encoding) {
            EXPECT_EQ(c.encoding, *recoding.encoding) << c.role;
        }
        if (recoding.digest == ztensor::ZtDigestChoice::None) {
            EXPECT_FALSE(c.digest.has_value());
        } else if (recoding.digest == ztensor::ZtDigestChoice::Sha256) {
            ASSERT_TRUE(c.digest.has_value());
            EXPECT_EQ(c.digest->rfind("sha256:", 0), 0u);
        } else if (recoding.digest == ztensor::ZtDigestChoice::Crc32c) {
            ASSERT_TRUE(c.digest.has_value());
            EXPECT_EQ(c.digest->rfind("crc32c:0x", 0), 0u);
        }
    }
    const auto validation = ztValidate(bytes);
    EXPECT_EQ(validation.errors(), 0u) << validation.describe();
}

INSTANTIATE_TEST_SUITE_P(
    AllFormats, ZtConvertRoundTrip,
    ::testing::Combine(
        ::testing::Values("dense_raw.zt", "dense_zstd_crc32c.zt", "sparse_raw.zt",
                          "sparse_zstd_crc32c.zt", "attrs_extra_keys.zt"),
        ::testing::Values(
            Recoding{ztensor::ZtEncoding::Zstd, ztensor::ZtDigestChoice::Sha256, false},
            Recoding{ztensor::ZtEncoding::Raw, ztensor::ZtDigestChoice::None, false},
            Recoding{ztensor::ZtEncoding::Raw, ztensor::ZtDigestChoice::Crc32c, false},
            Recoding{std::nullopt, ztensor::ZtDigestChoice::Keep, true},
            Recoding{ztensor::ZtEncoding::Zstd, ztensor::ZtDigestChoice::Crc32c, true})),
    roundTripCaseName);

TEST(ZtConvert, RenamesDropsAndEditsAttributes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openCorpus("dense_raw.zt");
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    ASSERT_TRUE(ztensor::ztRenameTensor(plan, "t_int8", "bytes"));
    ASSERT_TRUE(ztensor::ztRemoveTensor(plan, "t_bool"));
    EXPECT_FALSE(ztensor::ztRemoveTensor(plan, "t_bool"));
    EXPECT_FALSE(ztensor::ztRenameTensor(plan, "missing", "x"));
    plan.attributes = {{"b", "2"}, {"a", "1"}};
    plan.generator = "Strata tests";
    const auto converted = reopen(convert(*file, plan));
    EXPECT_EQ(converted->tensors().size(), file->tensors().size() - 1);
    EXPECT_EQ(converted->findTensor("t_bool"), nullptr);
    EXPECT_EQ(converted->findTensor("t_int8"), nullptr);
    ASSERT_NE(converted->findTensor("bytes"), nullptr);
    EXPECT_EQ(ztensor::ztSummarizeTensor(*converted, *converted->findTensor("bytes")).sha256,
              ztensor::ztSummarizeTensor(*file, *file->findTensor("t_int8")).sha256);
    const std::vector<std::pair<std::string, std::string>> sorted = {{"a", "1"}, {"b", "2"}};
    EXPECT_EQ(converted->attributes(), sorted);
    EXPECT_EQ(converted->generator(), "Strata tests");
}

TEST(ZtConvert, SingleThreadGivesTheSameBytes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openCorpus("dense_raw.zt");
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    ztensor::ztSetEncoding(plan, ztensor::ZtEncoding::Zstd);
    ztensor::ztSetDigest(plan, ztensor::ZtDigestChoice::Crc32c);
    EXPECT_EQ(convert(*file, plan, 1), convert(*file, plan, 3));
}

TEST(ZtConvert, RejectsBadPlans) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openCorpus("dense_raw.zt");
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    plan.tensors[1].name = plan.tensors[0].name;
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
    plan = ztensor::ztPlanFor(*file);
    plan.tensors[0].source = "missing";
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
    plan = ztensor::ztPlanFor(*file);
    plan.tensors[0].name.clear();
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
    plan = ztensor::ztPlanFor(*file);
    plan.zstdLevel = 99;
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
    plan = ztensor::ztPlanFor(*file);
    plan.attributes = {{"k", "1"}, {"k", "2"}};
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
}

std::shared_ptr<const ztensor::ZtFile> openCorrupt(const std::string& name) {
    return ztensor::ZtFile::open(openMappedFile(ztCorpusDir() / "corrupt" / name));
}

TEST(ZtConvert, RefusesDamagedData) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const char* name : {"digest_mismatch.zt", "zstd_wrong_shape.zt", "zstd_length_short.zt",
                             "truncated_data.zt", "length_past_eof.zt"}) {
        const auto file = openCorrupt(name);
        if (!file->manifestDecoded()) {
            continue;
        }
        ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
        ztensor::ztSetEncoding(plan, ztensor::ZtEncoding::Raw);
        std::vector<std::uint8_t> sink;
        EXPECT_THROW(ztensor::ztConvert(*file, plan,
                                        [&](std::span<const std::uint8_t> b) {
                                            sink.insert(sink.end(), b.begin(), b.end());
                                        }),
                     ztensor::ZtConvertError)
            << name;
    }
}

TEST(ZtConvert, WrongDigestCanBeRefreshedWhenNotVerified) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openCorrupt("digest_mismatch.zt");
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    plan.verifyDigests = false;
    const auto bytes = convert(*file, plan);
    const auto validation = ztValidate(bytes);
    EXPECT_EQ(validation.errors(), 0u) << validation.describe();
}

TEST(ZtConvert, FileIsReplacedOnlyWhenComplete) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = std::filesystem::temp_directory_path() / "strata-zt-convert-test";
    std::filesystem::create_directories(dir);
    const auto target = dir / "out.zt";
    writeFileAtomically(target, std::vector<std::uint8_t>{'o', 'l', 'd'});

    const auto damaged = openCorrupt("digest_mismatch.zt");
    EXPECT_THROW(ztensor::ztConvertFile(*damaged, ztensor::ztPlanFor(*damaged), target),
                 ztensor::ZtConvertError);
    EXPECT_EQ(readAll(target), (std::vector<std::uint8_t>{'o', 'l', 'd'}));

    CancelToken cancel;
    cancel.cancel();
    const auto file = openCorpus("dense_raw.zt");
    ztensor::ZtConvertOptions options;
    options.cancel = &cancel;
    EXPECT_TRUE(
        ztensor::ztConvertFile(*file, ztensor::ztPlanFor(*file), target, options).cancelled);
    EXPECT_EQ(readAll(target), (std::vector<std::uint8_t>{'o', 'l', 'd'}));

    double last = 0;
    options = {};
    options.progress = [&](double fraction, const std::string&) { last = fraction; };
    const auto result = ztensor::ztConvertFile(*file, ztensor::ztPlanFor(*file), target, options);
    EXPECT_EQ(result.tensors, file->tensors().size());
    EXPECT_DOUBLE_EQ(last, 1.0);
    EXPECT_EQ(readAll(target), readAll(ztCorpusDir() / "valid" / "dense_raw.zt"));
    std::filesystem::remove_all(dir);
}

// Every tensor was looked up by a search through all of them, and the writer searched all it had
// written for each name: 20,000 tensors convert in seconds, each with its contents, one renamed
// and one dropped.
TEST(ZtConvert, TwentyThousandTensorsConvertWithTheirContents) {
    constexpr int kTensors = 20000;
    std::vector<std::uint8_t> bytes;
    ztensor::ZtWriter writer(
        [&](std::span<const std::uint8_t> b) { bytes.insert(bytes.end(), b.begin(), b.end()); });
    for (int i = 0; i < kTensors; ++i) {
        const std::vector<std::uint8_t> data{static_cast<std::uint8_t>(i),
                                             static_cast<std::uint8_t>(i >> 8)};
        writer.add({"t" + std::to_string(i),
                    ztensor::ZtDType::UInt8,
                    {2},
                    "dense",
                    {{"data", data, ztensor::ZtEncoding::Raw, std::nullopt}}});
    }
    EXPECT_THROW(writer.add({"t7",
                             ztensor::ZtDType::UInt8,
                             {0},
                             "dense",
                             {{"data", {}, ztensor::ZtEncoding::Raw, std::nullopt}}}),
                 std::invalid_argument);
    writer.finish();
    const auto file = reopen(std::move(bytes));
    ASSERT_EQ(file->tensors().size(), static_cast<std::size_t>(kTensors));
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    ASSERT_TRUE(ztensor::ztRenameTensor(plan, "t19999", "last"));
    ASSERT_TRUE(ztensor::ztRemoveTensor(plan, "t5"));
    ztensor::ztSetEncoding(plan, ztensor::ZtEncoding::Zstd);
    ztensor::ztSetDigest(plan, ztensor::ZtDigestChoice::Crc32c);
    const auto converted = reopen(convert(*file, plan));
    EXPECT_EQ(converted->status(), Status::Ok);
    EXPECT_EQ(converted->tensors().size(), static_cast<std::size_t>(kTensors) - 1);
    EXPECT_EQ(converted->findTensor("t5"), nullptr);
    EXPECT_EQ(converted->findTensor("t19999"), nullptr);
    auto before = logical(*file);
    before.erase("t5");
    before["last"] = before["t19999"];
    before.erase("t19999");
    EXPECT_EQ(logical(*converted), before);
}

}  // namespace
}  // namespace strata
