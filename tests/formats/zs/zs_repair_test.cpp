// Repairing ZS files: an intact file comes back whole; a damaged data block loses exactly its
// records (reported with its bytes and key range) and every other record is kept in order; a
// damaged index loses nothing; a truncated file keeps every complete block before the cut; the
// output validates, never replaces a file, and a dry run writes nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_repair.h"
#include "formats/zs/zs_validator.h"
#include "formats/zs/zs_writer.h"
#include "scratch_dir.h"
#include "test_corpus.h"

namespace strata::zs {
namespace {

namespace fs = std::filesystem;

class Scratch : public test::ScratchDir {
public:
    Scratch() : ScratchDir("zs_repair") {}
};

std::vector<std::string> keys(int first, int count) {
    std::vector<std::string> out;
    for (int i = first; i < first + count; ++i) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "key%06d", i);
        out.emplace_back(buffer);
    }
    return out;
}

// Ten blocks of 100 records; returns the data blocks' offsets.
std::vector<std::uint64_t> writeTen(const fs::path& path) {
    WriterOptions options;
    options.codec = Codec::Deflate;
    options.threads = 1;
    ZsWriter writer(path, {{"name", "ten"}}, options);
    for (int b = 0; b < 10; ++b) {
        writer.addBlock(keys(b * 100, 100));
    }
    writer.finish();
    auto file = ZsFile::open(openMappedFile(path));
    std::vector<std::uint64_t> offsets;
    for (std::uint64_t at = file->blocksBegin(); at < file->blocksEnd();) {
        const FrameRead frame = readFrame(file->source(), at, file->blocksEnd());
        if (frame.frame.kind() == BlockKind::Data) {
            offsets.push_back(at);
        }
        at = frame.frame.end();
    }
    return offsets;
}

void flipByte(const fs::path& path, std::uint64_t at) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    const char c = static_cast<char>(f.get());
    f.seekp(static_cast<std::streamoff>(at));
    f.put(static_cast<char>(c ^ 0x5A));
}

std::vector<std::string> records(const fs::path& path) {
    std::vector<std::string> out;
    ZsRecordIterator it(ZsFile::open(openMappedFile(path)));
    while (auto r = it.next()) {
        out.emplace_back(reinterpret_cast<const char*>(r->data()), r->size());
    }
    return out;
}

bool validates(const fs::path& path) {
    CollectingSink sink;
    ZsValidator(ZsFile::open(openMappedFile(path))).run(sink, ValidationOptions{});
    return sink.countOf(Severity::Error) == 0;
}

TEST(ZsRepair, AnIntactFileComesBackWhole) {
    Scratch dir;
    writeTen(dir / "in.zs");
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_TRUE(report.complete());
    EXPECT_TRUE(report.written);
    EXPECT_EQ(report.recovered, 1000u);
    EXPECT_EQ(records(dir / "out.zs"), keys(0, 1000));
    EXPECT_TRUE(validates(dir / "out.zs"));
    EXPECT_EQ(ZsFile::open(openMappedFile(dir / "out.zs"))->header().codec, Codec::Deflate);
}

TEST(ZsRepair, ADamagedBlockLosesExactlyItsRecords) {
    Scratch dir;
    const auto blocks = writeTen(dir / "in.zs");
    flipByte(dir / "in.zs", blocks[4] + 20);  // inside block 5's payload
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_EQ(report.losses[0].bytes.offset, blocks[4]);
    // The report names the file itself: the sources the repair read are closed by now.
    EXPECT_NE(report.losses[0].bytes.file.find("in.zs"), std::string::npos);
    EXPECT_NE(report.losses[0].description.find("between 'key000399' and 'key000500'"),
              std::string::npos)
        << report.losses[0].description;
    EXPECT_EQ(report.recovered, 900u);
    std::vector<std::string> expected = keys(0, 400);
    const auto rest = keys(500, 500);
    expected.insert(expected.end(), rest.begin(), rest.end());
    EXPECT_EQ(records(dir / "out.zs"), expected);
    EXPECT_TRUE(validates(dir / "out.zs"));
}

TEST(ZsRepair, ADamagedIndexLosesNothing) {
    Scratch dir;
    writeTen(dir / "in.zs");
    auto file = ZsFile::open(openMappedFile(dir / "in.zs"));
    const std::uint64_t root = file->header().rootIndexOffset;
    file.reset();
    flipByte(dir / "in.zs", root + 12);
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_TRUE(report.complete());
    EXPECT_EQ(records(dir / "out.zs"), keys(0, 1000));
}

TEST(ZsRepair, ATruncatedFileKeepsEveryCompleteBlockBeforeTheCut) {
    Scratch dir;
    const auto blocks = writeTen(dir / "in.zs");
    fs::resize_file(dir / "in.zs", blocks[7] + 10);  // inside block 8
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_EQ(report.losses[0].bytes.offset, blocks[7]);
    EXPECT_EQ(records(dir / "out.zs"), keys(0, 700));
    EXPECT_TRUE(validates(dir / "out.zs"));
}

TEST(ZsRepair, ACutAtABlockBoundaryIsStillALoss) {
    Scratch dir;
    const auto blocks = writeTen(dir / "in.zs");
    fs::resize_file(dir / "in.zs", blocks[6]);  // the first six blocks are whole
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_NE(report.losses[0].description.find("shorter than its header says"), std::string::npos);
    EXPECT_EQ(records(dir / "out.zs"), keys(0, 600));
}

TEST(ZsRepair, NeverReplacesAFileAndADryRunWritesNothing) {
    Scratch dir;
    writeTen(dir / "in.zs");
    std::ofstream(dir / "taken.zs") << "mine";
    EXPECT_THROW(repairZsFile(dir / "in.zs", dir / "taken.zs"), RepairError);
    std::ifstream taken(dir / "taken.zs");
    std::string content;
    taken >> content;
    EXPECT_EQ(content, "mine");

    RepairOptions dry;
    dry.dryRun = true;
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs", dry);
    EXPECT_EQ(report.recovered, 1000u);
    EXPECT_FALSE(report.written);
    EXPECT_FALSE(fs::exists(dir / "out.zs"));
    for (const auto& entry : fs::directory_iterator(dir / "")) {
        EXPECT_EQ(entry.path().filename().string().find(".strata-repair"), std::string::npos);
    }
}

TEST(ZsRepair, NothingRecoverableIsAnError) {
    Scratch dir;
    const auto blocks = writeTen(dir / "in.zs");
    fs::resize_file(dir / "in.zs", blocks[0] + 5);
    EXPECT_THROW(repairZsFile(dir / "in.zs", dir / "out.zs"), RepairError);
    EXPECT_FALSE(fs::exists(dir / "out.zs"));
}

// Every damaged corpus file made from the 24-record base: a repair either refuses (nothing to
// rebuild from) or writes a file that validates and holds only records of the base.
TEST(ZsRepair, DamagedCorpusFilesYieldOnlyBaseRecords) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path corrupt = test::corpusRoot() / "zs" / "corrupt";
    const auto base = records(corrupt / "base-deflate.zs");
    const std::set<std::string> allowed(base.begin(), base.end());
    Scratch dir;
    int repaired = 0;
    for (const auto& entry : fs::directory_iterator(corrupt)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".zs" || name.starts_with("writer-made")) {
            continue;  // writer-made files have records of their own
        }
        RepairReport report;
        try {
            report = repairZsFile(entry.path(), dir / name);
        } catch (const RepairError&) {
            continue;
        }
        ++repaired;
        EXPECT_TRUE(validates(dir / name)) << name;
        const auto got = records(dir / name);
        EXPECT_EQ(got.size(), report.recovered) << name;
        for (const auto& r : got) {
            EXPECT_TRUE(allowed.contains(r)) << name << ": " << r;
        }
        if (report.complete()) {
            EXPECT_EQ(got, base) << name << " reported complete";
        }
    }
    EXPECT_GT(repaired, 20);
}

}  // namespace
}  // namespace strata::zs
