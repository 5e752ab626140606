// Repairing zTensor files: an intact file comes back whole; a tensor whose bytes fail their
// digest or do not decode is lost (reported with its bytes) and every other tensor is copied
// with the same stored bytes; recomputing digests keeps it and says what that vouches for; a
// misaligned component is moved; an unreadable manifest is refused; the output validates, never
// replaces a file, and a dry run writes nothing. Random damage: what is kept is exactly what was
// intact. Damaged corpus files repair to valid files holding only tensors of the original.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_repair.h"
#include "formats/ztensor/zt_writer.h"
#include "scratch_dir.h"
#include "zt_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class Scratch : public test::ScratchDir {
public:
    Scratch() : ScratchDir("zt_repair") {}
};

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<std::uint8_t> readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Six float32 tensors of 256 values, "t0".."t5", every other one zstd; crc32c digests.
std::vector<std::vector<std::uint8_t>> tensorValues() {
    std::vector<std::vector<std::uint8_t>> out;
    for (int t = 0; t < 6; ++t) {
        std::vector<std::uint8_t> bytes(256 * 4);
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            bytes[i] = static_cast<std::uint8_t>((i / 4) * (t + 1) + t);
        }
        out.push_back(std::move(bytes));
    }
    return out;
}

std::vector<std::uint8_t> sixTensors(bool digests = true) {
    static const auto values = tensorValues();
    std::vector<ztensor::ZtWriterTensor> tensors;
    for (int t = 0; t < 6; ++t) {
        ztensor::ZtWriterComponent data{
            "data", values[std::size_t(t)],
            t % 2 == 0 ? ztensor::ZtEncoding::Raw : ztensor::ZtEncoding::Zstd, std::nullopt};
        if (digests) {
            data.digest = ztensor::ZtDigestAlgorithm::Crc32c;
        }
        tensors.push_back(
            {"t" + std::to_string(t), ztensor::ZtDType::Float32, {256}, "dense", {data}});
    }
    ztensor::ZtWriterOptions options;
    options.attributes = {{"note", "kept"}};
    return ztensor::ztWriteToBuffer(tensors, options);
}

std::shared_ptr<const ztensor::ZtFile> openZt(const fs::path& path) {
    return ztensor::ZtFile::open(openMappedFile(path));
}

// Tensor name -> logical bytes.
std::map<std::string, std::vector<std::uint8_t>> contents(const fs::path& path) {
    const auto file = openZt(path);
    std::map<std::string, std::vector<std::uint8_t>> out;
    for (const ztensor::ZtTensor& t : file->tensors()) {
        const ztensor::ZtBytes bytes = ztensor::ztTensorBytes(*file, t);
        EXPECT_TRUE(bytes.ok()) << bytes.error;
        out[t.name].assign(bytes.bytes().begin(), bytes.bytes().end());
    }
    return out;
}

bool validates(const fs::path& path) {
    const auto v = test::ztValidate(openMappedFile(path));
    EXPECT_EQ(v.errors(), 0u) << path << "\n" << v.describe();
    return v.errors() == 0;
}

const ztensor::ZtComponent& dataOf(const ztensor::ZtFile& file, const std::string& tensor) {
    return *file.component(*file.findTensor(tensor), "data");
}

struct Span {
    std::uint64_t offset = 0, length = 0;
};

// Writes `bytes` as good.zt, and as in.zt with byte `at` of tensor `name`'s data flipped by
// `mask`; returns where that data lies.
Span damageTensor(const Scratch& dir, std::vector<std::uint8_t> bytes, const std::string& name,
                  std::uint64_t at, std::uint8_t mask) {
    writeBytes(dir / "good.zt", bytes);
    const auto good = openZt(dir / "good.zt");
    const ztensor::ZtComponent& data = dataOf(*good, name);
    bytes[*data.offset + at] ^= mask;
    writeBytes(dir / "in.zt", bytes);
    return {*data.offset, *data.length};
}

TEST(ZtRepair, AnIntactFileComesBackWhole) {
    Scratch dir;
    writeBytes(dir / "in.zt", sixTensors());
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    EXPECT_TRUE(report.complete());
    EXPECT_TRUE(report.written);
    EXPECT_EQ(report.recovered, 6u);
    EXPECT_EQ(contents(dir / "out.zt"), contents(dir / "in.zt"));
    EXPECT_TRUE(validates(dir / "out.zt"));
    const auto out = openZt(dir / "out.zt");
    ASSERT_EQ(out->attributes().size(), 1u);
    EXPECT_EQ(out->attributes()[0].second, "kept");
    // The same stored bytes and digests: the copy vouches for nothing the original did not.
    const auto in = openZt(dir / "in.zt");
    EXPECT_EQ(dataOf(*out, "t1").digest, dataOf(*in, "t1").digest);
    EXPECT_EQ(dataOf(*out, "t1").encoding, ztensor::ZtEncoding::Zstd);
}

TEST(ZtRepair, ATensorFailingItsDigestIsLostAndTheOthersKept) {
    Scratch dir;
    const Span t2 = damageTensor(dir, sixTensors(), "t2", 17, 0x40);
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_NE(report.losses[0].description.find("tensor 't2' is lost: ZT-DIGEST"),
              std::string::npos)
        << report.losses[0].description;
    EXPECT_EQ(report.losses[0].bytes.offset, t2.offset);
    EXPECT_EQ(report.losses[0].bytes.length, t2.length);
    EXPECT_EQ(report.recovered, 5u);
    EXPECT_TRUE(report.recomputingDigestsKeepsMore);  // the app offers to plan again
    auto expected = contents(dir / "good.zt");
    expected.erase("t2");
    EXPECT_EQ(contents(dir / "out.zt"), expected);
    EXPECT_TRUE(validates(dir / "out.zt"));
}

TEST(ZtRepair, RecomputingDigestsKeepsTheTensorAndSaysWhatThatVouchesFor) {
    Scratch dir;
    damageTensor(dir, sixTensors(), "t4", 3, 0x01);
    RepairOptions options;
    options.recomputeDigests = true;
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt", options);
    EXPECT_TRUE(report.complete());
    EXPECT_EQ(report.recovered, 6u);
    ASSERT_EQ(report.actions.size(), 1u);
    EXPECT_NE(report.actions[0].description.find("vouch for bytes that no digest protected"),
              std::string::npos);
    EXPECT_TRUE(validates(dir / "out.zt"));
}

TEST(ZtRepair, AZstdComponentThatDoesNotDecodeIsLost) {
    Scratch dir;
    auto bytes = sixTensors(false);
    writeBytes(dir / "good.zt", bytes);
    const auto good = openZt(dir / "good.zt");
    const ztensor::ZtComponent& t3 = dataOf(*good, "t3");
    for (std::uint64_t i = 4; i < 12; ++i) {
        bytes[*t3.offset + i] = 0xFF;  // past the zstd frame header
    }
    writeBytes(dir / "in.zt", bytes);
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_NE(report.losses[0].description.find("tensor 't3' is lost"), std::string::npos);
    EXPECT_EQ(report.recovered, 5u);
    EXPECT_TRUE(validates(dir / "out.zt"));
}

TEST(ZtRepair, AMisalignedComponentIsMovedToAnAlignedOffset) {
    Scratch dir;
    test::ZtBuilder builder;
    const std::vector<std::uint8_t> values = {0, 0, 128, 63, 0, 0, 0, 64};        // 1.0f, 2.0f
    builder.bytes().insert(builder.bytes().end(), values.begin(), values.end());  // at 8
    const nlohmann::json manifest = {
        {"version", "1.0"},
        {"generator", "test"},
        {"tensors",
         {{"w",
           {{"dtype", "float32"},
            {"shape", {2}},
            {"format", "dense"},
            {"components", {{"data", {{"offset", 8}, {"length", 8}, {"encoding", "raw"}}}}}}}}}};
    writeBytes(dir / "in.zt", builder.finish(manifest));
    ASSERT_TRUE(test::ztValidate(openMappedFile(dir / "in.zt")).has("ZT-ALIGN"));
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    EXPECT_TRUE(report.complete());
    ASSERT_FALSE(report.actions.empty());
    EXPECT_NE(report.actions[0].description.find("ZT-ALIGN"), std::string::npos);
    EXPECT_TRUE(validates(dir / "out.zt"));
    EXPECT_EQ(contents(dir / "out.zt").at("w"), values);
}

// The output is validated as read back: a tensor damaged in the stage just before the check
// fails its digest and nothing is published; a cancel during the check publishes nothing either.
TEST(ZtRepair, TheFinalCheckRefusesADamagedStageAndHonoursCancel) {
    Scratch dir;
    writeBytes(dir / "in.zt", sixTensors());
    RepairOptions damaged;
    damaged.beforeOutputCheck = [](const fs::path& stage) {
        std::vector<std::uint8_t> bytes = readBytes(stage);
        const auto file = ztensor::ZtFile::open(openMappedFile(stage));
        const std::uint64_t at = *dataOf(*file, "t2").offset + 7;
        bytes[at] ^= 0x10;
        writeBytes(stage, bytes);
    };
    try {
        ztensor::repairZtFile(dir / "in.zt", dir / "out.zt", damaged);
        ADD_FAILURE() << "a damaged output was published";
    } catch (const RepairError& e) {
        EXPECT_NE(std::string(e.what()).find("ZT-DIGEST"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(dir / "out.zt"));

    CancelToken cancel;
    RepairOptions cancelled;
    cancelled.cancel = &cancel;
    cancelled.beforeOutputCheck = [&cancel](const fs::path&) { cancel.cancel(); };
    EXPECT_THROW(ztensor::repairZtFile(dir / "in.zt", dir / "out.zt", cancelled), JobCancelled);
    EXPECT_FALSE(fs::exists(dir / "out.zt"));
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        EXPECT_EQ(entry.path().filename().string().find(".strata-repair"), std::string::npos);
    }
}

TEST(ZtRepair, AnUnreadableManifestIsRefused) {
    Scratch dir;
    auto bytes = sixTensors();
    bytes.resize(bytes.size() - 20);
    writeBytes(dir / "in.zt", bytes);
    EXPECT_THROW(ztensor::repairZtFile(dir / "in.zt", dir / "out.zt"), RepairError);
    EXPECT_FALSE(fs::exists(dir / "out.zt"));
}

TEST(ZtRepair, NeverReplacesAFileAndADryRunWritesNothing) {
    Scratch dir;
    writeBytes(dir / "in.zt", sixTensors());
    writeBytes(dir / "taken.zt", {1, 2, 3});
    EXPECT_THROW(ztensor::repairZtFile(dir / "in.zt", dir / "taken.zt"), RepairError);
    EXPECT_EQ(readBytes(dir / "taken.zt"), (std::vector<std::uint8_t>{1, 2, 3}));
    RepairOptions dry;
    dry.dryRun = true;
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt", dry);
    EXPECT_EQ(report.recovered, 6u);
    EXPECT_FALSE(report.written);
    EXPECT_FALSE(fs::exists(dir / "out.zt"));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / ""), fs::directory_iterator()), 2);
}

// Random bytes of random components flipped: the kept tensors are exactly those whose bytes
// were not touched, each with its original values.
TEST(ZtRepair, RandomDamageKeepsExactlyTheIntactTensors) {
    Scratch dir;
    const auto pristine = sixTensors();
    writeBytes(dir / "good.zt", pristine);
    const auto good = openZt(dir / "good.zt");
    const auto goodContents = contents(dir / "good.zt");
    std::mt19937_64 random(20261125);
    for (int round = 0; round < 40; ++round) {
        auto bytes = pristine;
        std::set<std::string> damaged;
        const int flips = 1 + int(random() % 3);
        for (int f = 0; f < flips; ++f) {
            const ztensor::ZtTensor& t = good->tensors()[random() % good->tensors().size()];
            const ztensor::ZtComponent& c = *good->component(t, "data");
            bytes[*c.offset + random() % *c.length] ^= std::uint8_t(1 + random() % 255);
            damaged.insert(t.name);
        }
        const fs::path in = dir / ("in" + std::to_string(round) + ".zt");
        const fs::path out = dir / ("out" + std::to_string(round) + ".zt");
        writeBytes(in, bytes);
        const RepairReport report = ztensor::repairZtFile(in, out);
        auto expected = goodContents;
        for (const auto& name : damaged) {
            expected.erase(name);
        }
        EXPECT_EQ(report.losses.size(), damaged.size()) << "round " << round;
        EXPECT_EQ(contents(out), expected) << "round " << round;
        EXPECT_TRUE(validates(out)) << "round " << round;
    }
}

TEST(ZtRepair, AFileWithNoTensorsComesBackWhole) {
    Scratch dir;
    writeBytes(dir / "in.zt", ztensor::ztWriteToBuffer({}));
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    EXPECT_TRUE(report.complete()) << report.losses.front().description;
    EXPECT_FALSE(report.recomputingDigestsKeepsMore);
    EXPECT_TRUE(report.written);
    EXPECT_EQ(report.recovered, 0u);
    EXPECT_TRUE(validates(dir / "out.zt"));
    EXPECT_TRUE(openZt(dir / "out.zt")->tensors().empty());
}

// A manifest with members no reader uses, at the top, in a tensor's entry and in a component's
// map, and an attribute that holds a number (which readers refuse) unless `numberAttribute` is
// false.
std::vector<std::uint8_t> withUnusedMembers(bool numberAttribute) {
    test::ZtBuilder builder;
    const std::uint64_t at = builder.add(test::f32Bytes({1.0f, 2.0f}));
    nlohmann::json manifest = test::ztManifest(
        {{"x",
          {{"dtype", "float32"},
           {"shape", {2}},
           {"format", "dense"},
           {"extra_tensor_key", "hello"},
           {"components",
            {{"data", {{"offset", at}, {"length", 8}, {"extra_component_key", 42}}}}}}}});
    manifest["extra_top_level"] = {{"nested", {1, 2.5, "three"}}};
    manifest["attributes"] = {{"author", "corpus"}};
    if (numberAttribute) {
        manifest["attributes"]["epochs"] = 12;
    }
    return builder.finish(manifest);
}

TEST(ZtRepair, ManifestMembersNoReaderUsesAreKept) {
    Scratch dir;
    writeBytes(dir / "in.zt", withUnusedMembers(false));
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    EXPECT_TRUE(report.complete()) << report.losses.front().description;
    EXPECT_TRUE(validates(dir / "out.zt"));
    EXPECT_EQ(ztensor::ztUnusedManifestKeys(*openZt(dir / "out.zt")),
              ztensor::ztUnusedManifestKeys(*openZt(dir / "in.zt")));
    EXPECT_EQ(openZt(dir / "out.zt")->generator(), "Strata tests");  // who made it stays said
}

TEST(ZtRepair, AnAttributeThatIsNotTextIsALoss) {
    Scratch dir;
    writeBytes(dir / "in.zt", withUnusedMembers(true));
    const RepairReport report = ztensor::repairZtFile(dir / "in.zt", dir / "out.zt");
    ASSERT_FALSE(report.complete());
    EXPECT_NE(report.losses.front().description.find("attribute 'epochs'"), std::string::npos)
        << report.losses.front().description;
    EXPECT_TRUE(validates(dir / "out.zt"));
    const auto out = openZt(dir / "out.zt");
    EXPECT_EQ(out->manifestJson()["attributes"]["epochs"], "12");
}

// Every damaged corpus file either repairs to a valid file whose tensors all hold the values
// some tensor of that name held in the input, or is refused with a RepairError.
TEST(ZtRepair, DamagedCorpusFilesRepairToValidFilesOrAreRefused) {
    const fs::path invalid = test::ztCorpusDir() / "corrupt";
    if (!fs::is_directory(invalid)) {
        GTEST_SKIP() << "no corpus: set STRATA_CORPUS_DIR";
    }
    Scratch dir;
    int repaired = 0, refused = 0;
    for (const auto& entry : fs::recursive_directory_iterator(invalid)) {
        if (entry.path().extension() != ".zt") {
            continue;
        }
        const fs::path out = dir / (entry.path().stem().string() + ".repaired.zt");
        try {
            const RepairReport report = ztensor::repairZtFile(entry.path(), out);
            EXPECT_TRUE(validates(out)) << entry.path();
            const auto in = openZt(entry.path());
            const auto repairedFile = openZt(out);
            for (const ztensor::ZtTensor& t : repairedFile->tensors()) {
                const ztensor::ZtTensor* original = in->findTensor(t.name);
                ASSERT_NE(original, nullptr) << entry.path() << " " << t.name;
                const ztensor::ZtBytes before = ztensor::ztTensorBytes(*in, *original);
                const ztensor::ZtBytes after = ztensor::ztTensorBytes(*repairedFile, t);
                ASSERT_TRUE(after.ok()) << entry.path() << " " << t.name;
                if (before.ok()) {
                    EXPECT_TRUE(std::ranges::equal(before.bytes(), after.bytes()))
                        << entry.path() << " " << t.name;
                }
            }
            EXPECT_EQ(report.recovered, repairedFile->tensors().size());
            ++repaired;
        } catch (const RepairError&) {
            EXPECT_FALSE(fs::exists(out)) << entry.path();
            ++refused;
        }
    }
    EXPECT_GT(repaired + refused, 0);
}

}  // namespace
}  // namespace strata
