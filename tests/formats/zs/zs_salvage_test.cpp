// Salvaging damaged ZS files: the repair reaches every intact block however the damage breaks the
// chain of blocks (zeroed length fields, zeroed blocks, zeroed pages across two blocks, a damaged
// index, a megabyte of garbage), keeps exactly the blocks whose checksummed bytes are untouched,
// and names every loss by its bytes and key range. The repair is checked against the original
// file byte by byte: which blocks the damage touched decides what must come back.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>

#include "formats/zs/zs_block_finder.h"
#include "formats/zs/zs_repair.h"
#include "formats/zs/zs_repair_quarantine.h"
#include "scratch_dir.h"
#include "zs_damage_support.h"

namespace strata::zs {
namespace {

using namespace testing;

class Scratch : public test::ScratchDir {
public:
    Scratch() : ScratchDir("zs_salvage") {}
};

constexpr std::uint64_t kPage = 4096;

// Whether every byte of [from, to) is covered by the regions of `steps`.
bool covered(const std::vector<RepairStep>& steps, std::uint64_t from, std::uint64_t to) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (const RepairStep& s : steps) {
        if (s.bytes.valid()) {
            ranges.emplace_back(s.bytes.offset, s.bytes.offset + s.bytes.length);
        }
    }
    std::sort(ranges.begin(), ranges.end());
    std::uint64_t reached = from;
    for (const auto& [a, b] : ranges) {
        if (a <= reached && b > reached) {
            reached = b;
        }
    }
    return reached >= to;
}

std::string keyRangeText(const std::string* before, const std::string* after) {
    const auto shown = [](const std::string& r) { return printableBytes(asBytes(r), 60); };
    if (before == nullptr && after == nullptr) {
        return "any key";
    }
    if (before == nullptr) {
        return "keys up to '" + shown(*after) + "'";
    }
    if (after == nullptr) {
        return "keys from '" + shown(*before) + "' on";
    }
    return "keys between '" + shown(*before) + "' and '" + shown(*after) + "'";
}

// The quarantine's record lines read back (escapes undone), in order; notes skipped.
std::vector<std::string> quarantinedRecords(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) {
            continue;
        }
        std::string record;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] != '\\') {
                record += line[i];
                continue;
            }
            const char c = line.at(++i);
            if (c == 'x') {
                record += static_cast<char>(std::stoi(line.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else {
                record += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
            }
        }
        out.push_back(std::move(record));
    }
    return out;
}

// What the repair of `damaged` (a damaged copy of `original`, generated as `g`) must give:
// every data block whose bytes are untouched comes back whole and in order; a block whose
// checksummed bytes (level, payload, CRC) were touched never does; one whose length field alone
// was touched may (the report then says it was read without it); nothing else is in the output;
// every block not kept lies inside the losses, no loss overlaps a block kept, and each loss names
// the key range between the records kept around it. Returns how many data blocks were kept.
std::size_t expectExactSalvage(const fs::path& original, const fs::path& damaged,
                               const Generated& g, const RepairReport& report,
                               const fs::path& out) {
    const auto before = fileBytes(original);
    const auto after = fileBytes(damaged);
    const auto touched = [&](std::uint64_t from, std::uint64_t to) {
        for (std::uint64_t i = from; i < to; ++i) {
            if (i >= after.size() || before[i] != after[i]) {
                return true;
            }
        }
        return false;
    };
    const std::vector<std::string> got = readAllRecords(out);
    std::size_t at = 0;
    std::vector<bool> kept(g.data.size(), false);
    for (std::size_t b = 0; b < g.data.size(); ++b) {
        const BlockFrame& f = g.data[b];
        const auto& want = g.records[b];
        kept[b] = at < got.size() && got[at] == want.front();
        if (kept[b]) {
            EXPECT_TRUE(at + want.size() <= got.size() &&
                        std::equal(want.begin(), want.end(), got.begin() + long(at)))
                << "block " << b << " came back in part";
            at += want.size();
        }
        const bool frameIntact = !touched(f.offset, f.end());
        const bool contentIntact = !touched(f.offset + f.lengthFieldSize, f.end());
        if (frameIntact) {
            EXPECT_TRUE(kept[b]) << "untouched block " << b << " at " << f.offset << " was lost";
        } else if (!contentIntact) {
            EXPECT_FALSE(kept[b]) << "block " << b << " at " << f.offset
                                  << " failing its CRC came back";
        } else if (kept[b]) {
            // Readers of the input cannot read it: listed with the losses, though kept.
            const std::string said = "kept the data block at byte " + std::to_string(f.offset);
            EXPECT_TRUE(
                std::any_of(report.losses.begin(), report.losses.end(),
                            [&](const RepairStep& s) { return s.description.starts_with(said); }))
                << "block " << b << " kept without a word";
        }
        if (!kept[b]) {
            EXPECT_TRUE(
                covered(report.losses, f.offset, std::min<std::uint64_t>(f.end(), after.size())))
                << "block " << b << " at " << f.offset << " lost without a loss naming it";
        }
    }
    EXPECT_EQ(at, got.size()) << "records that were not in the input's intact blocks";
    EXPECT_EQ(report.recovered, got.size());
    const std::size_t keptCount = std::size_t(std::count(kept.begin(), kept.end(), true));
    // Damaged bytes are a loss even when every record came back (the header's hash proves it
    // and the loss says so): the input held them, and nothing vouches for what they hold.
    EXPECT_FALSE(report.complete());
    EXPECT_LE(keptCount, g.data.size());
    for (const RepairStep& loss : report.losses) {
        if (!loss.bytes.valid() || loss.bytes.length == 0) {
            continue;
        }
        if (loss.description.starts_with("kept ")) {
            continue;  // a block read with a damaged length field: kept, said with the losses
        }
        const std::uint64_t from = loss.bytes.offset, to = from + loss.bytes.length;
        const std::string* last = nullptr;
        const std::string* first = nullptr;
        for (std::size_t b = 0; b < g.data.size(); ++b) {
            if (!kept[b]) {
                continue;
            }
            EXPECT_FALSE(g.data[b].offset < to && from < g.data[b].end())
                << "a loss (" << loss.description << ") overlaps block " << b << ", kept";
            if (g.data[b].end() <= from) {
                last = &g.records[b].back();
            } else if (first == nullptr && g.data[b].offset >= to) {
                first = &g.records[b].front();
            }
        }
        if (loss.description.find("records there are lost") != std::string::npos) {
            EXPECT_NE(loss.description.find(keyRangeText(last, first)), std::string::npos)
                << loss.description;
        }
    }
    EXPECT_TRUE(validatesCleanly(out));
    return keptCount;
}

RepairReport repairOrFail(const fs::path& in, const fs::path& out) {
    try {
        return repairZsFile(in, out);
    } catch (const RepairError& e) {
        ADD_FAILURE() << e.what();
        return {};
    }
}

// 40 deflate blocks of about 4 KiB, so a 4 KiB page can lie inside one block or across two.
struct Pattern {
    Scratch dir;
    fs::path original = dir / "original.zs";
    fs::path in = dir / "in.zs";
    fs::path out = dir / "out.zs";
    Generated g = generate(original, 40, 100, Codec::Deflate, 60);

    Pattern() { fs::copy_file(original, in); }
    std::uint64_t pageAcross(std::size_t block) const {  // a page holding the block's end
        return (g.data[block].end() - 1) / kPage * kPage;
    }
    void zeroIndex() const {
        for (const BlockFrame& f : frames(original, BlockKind::Index)) {
            overwrite(in, f.offset, f.totalLength());
        }
    }
    std::size_t repairAndCheck(RepairReport* report = nullptr) const {
        const RepairReport r = repairOrFail(in, out);
        if (report != nullptr) {
            *report = r;
        }
        return expectExactSalvage(original, in, g, r, out);
    }
};

TEST(ZsSalvage, TheBlocksAreLargerThanAPage) {
    Pattern p;
    for (std::size_t b = 0; b + 1 < p.g.data.size(); ++b) {
        EXPECT_GT(p.g.data[b].totalLength(), kPage / 2) << b;
        EXPECT_LT(p.g.data[b].totalLength(), kPage * 2) << b;
    }
    ASSERT_GT(p.pageAcross(20) + kPage, p.g.data[21].offset + 8);  // the page reaches into 21
}

// Only the length field is gone: what the CRC covers is intact, so the block comes back, read
// as the bytes up to the next block, and the report says so. Readers of the input cannot read
// that block, so the output holds more than they find: not complete.
TEST(ZsSalvage, AZeroedLengthFieldLosesNothing) {
    Pattern p;
    const BlockFrame& f = p.g.data[17];
    overwrite(p.in, f.offset, f.lengthFieldSize);
    RepairReport report;
    EXPECT_EQ(p.repairAndCheck(&report), 40u);
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_NE(report.losses[0].description.find("readers of the input cannot read it"),
              std::string::npos)
        << report.losses[0].description;
}

TEST(ZsSalvage, AZeroedLengthFieldWithTheIndexGoneLosesNothing) {
    Pattern p;
    p.zeroIndex();
    const BlockFrame& f = p.g.data[17];
    overwrite(p.in, f.offset, f.lengthFieldSize);
    EXPECT_EQ(p.repairAndCheck(), 40u);
}

TEST(ZsSalvage, AZeroedBlockLosesExactlyItsRecords) {
    Pattern p;
    const BlockFrame& f = p.g.data[17];
    overwrite(p.in, f.offset, f.totalLength());
    RepairReport report;
    EXPECT_EQ(p.repairAndCheck(&report), 39u);
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_EQ(report.losses[0].bytes.offset, f.offset);
    EXPECT_EQ(report.losses[0].bytes.length, f.totalLength());
}

TEST(ZsSalvage, AZeroedPageAcrossTwoBlocksLosesExactlyThoseTwo) {
    Pattern p;
    overwrite(p.in, p.pageAcross(20), kPage);
    RepairReport report;
    EXPECT_EQ(p.repairAndCheck(&report), 38u);
    // Each block is a loss of its own, with its own bytes.
    ASSERT_EQ(report.losses.size(), 2u);
    EXPECT_EQ(report.losses[0].bytes.offset, p.g.data[20].offset);
    EXPECT_EQ(report.losses[1].bytes.offset, p.g.data[21].offset);
    EXPECT_EQ(report.losses[1].bytes.offset + report.losses[1].bytes.length, p.g.data[22].offset);
}

// Without the index, the blocks after the damage are found by scanning for the next frame that
// passes its CRC.
TEST(ZsSalvage, ZeroedPagesWithTheIndexGoneLoseOnlyTheirBlocks) {
    Pattern p;
    p.zeroIndex();
    overwrite(p.in, p.pageAcross(5), kPage);
    overwrite(p.in, p.pageAcross(20), kPage);
    overwrite(p.in, p.g.data[30].offset + 100, 2000);  // inside block 30
    EXPECT_EQ(p.repairAndCheck(), 35u);
}

// A megabyte of garbage (random bytes, then zeros) over the middle of a larger file with its
// index gone: every block outside it comes back, and the scan through it checksums a bounded
// number of bytes per byte scanned (never a block's length per byte).
TEST(ZsSalvage, AMegabyteOfGarbageIsScannedInLinearWork) {
    for (const bool zeros : {false, true}) {
        SCOPED_TRACE(zeros ? "zeros" : "random bytes");
        Scratch dir;
        const fs::path original = dir / "original.zs", in = dir / "in.zs", out = dir / "out.zs";
        const Generated g = generate(original, 600, 100, Codec::Deflate, 60);
        fs::copy_file(original, in);
        for (const BlockFrame& f : frames(original, BlockKind::Index)) {
            overwrite(in, f.offset, f.totalLength());
        }
        const std::uint64_t from = g.data[100].offset + 1000, length = 1 << 20;
        std::mt19937 rng(7);
        overwrite(in, from, length, 0, zeros ? nullptr : &rng);
        const RepairReport report = repairOrFail(in, out);
        expectExactSalvage(original, in, g, report, out);

        ZsBlockFinder finder(ZsFile::open(openMappedFile(in)), fs::file_size(in));
        const auto next = finder.resumeAfter(g.data[100].offset);
        ASSERT_TRUE(next);
        EXPECT_GE(*next, from + length);
        EXPECT_LE(finder.scanCrcs(), length);
        // At most a few hundred bytes per offset scanned, and the prefix CRCs once over the file.
        const std::uint64_t scanned = *next - g.data[100].offset;
        EXPECT_LE(finder.bytesChecksummed(), 128 * scanned + 3 * fs::file_size(in));
    }
}

// A file cut short keeps every whole block before the cut; the one cut through is a loss that
// reaches the end of the file.
TEST(ZsSalvage, ACutInsideABlockKeepsEveryBlockBeforeIt) {
    Pattern p;
    fs::resize_file(p.in, p.g.data[25].offset + 100);
    RepairReport report;
    EXPECT_EQ(p.repairAndCheck(&report), 25u);
    ASSERT_FALSE(report.losses.empty());
    EXPECT_NE(report.losses.back().description.find("shorter than its header says"),
              std::string::npos)
        << report.losses.back().description;
}

// Random damage of every kind to generated files of each codec, some with a many-levelled index
// (index blocks between the data blocks): flipped bytes anywhere after the header (length fields,
// payloads, CRCs, index blocks), zeroed pages, runs of random bytes, cuts. Every record of every
// untouched block comes back, nothing else does, every loss is listed; a dry run plans the same.
TEST(ZsSalvage, RandomDamageKeepsExactlyTheUntouchedBlocks) {
    Scratch dir;
    std::mt19937 rng(20261127);
    const Codec codecs[] = {Codec::None, Codec::Deflate, Codec::Lzma2};
    for (int round = 0; round < 48; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const fs::path original = dir / ("original" + std::to_string(round) + ".zs");
        const fs::path in = dir / ("in" + std::to_string(round) + ".zs");
        const fs::path out = dir / ("out" + std::to_string(round) + ".zs");
        const Generated g = generate(original, 12 + int(rng() % 20), 20 + int(rng() % 40),
                                     codecs[round % 3], rng() % 40, round % 2 == 0 ? 3 : 1024);
        fs::copy_file(original, in);
        const std::uint64_t begin = g.data.front().offset;
        std::uint64_t size = fs::file_size(in);
        for (int d = 1 + int(rng() % 4); d > 0; --d) {
            const std::uint64_t at = begin + rng() % (size - begin);
            switch (rng() % 4) {
                case 0:
                    flipByte(in, at);
                    break;
                case 1:
                    overwrite(in, std::max(begin, at / kPage * kPage), kPage);
                    break;
                case 2:
                    overwrite(in, at, 1 + rng() % 3000, 0, &rng);
                    break;
                default:
                    overwrite(in, at, 1 + rng() % 4);  // a few zeros: often a length field
                    break;
            }
        }
        if (round % 5 == 4) {
            size = begin + rng() % (size - begin);
            fs::resize_file(in, size);
        }
        RepairOptions dry;
        dry.dryRun = true;
        RepairReport planned;
        try {
            planned = repairZsFile(in, out, dry);
        } catch (const RepairError& e) {
            // Only when nothing at all survives.
            EXPECT_NE(std::string(e.what()).find("no record could be recovered"), std::string::npos)
                << e.what();
            continue;
        }
        const RepairReport report = repairOrFail(in, out);
        expectExactSalvage(original, in, g, report, out);
        EXPECT_EQ(planned.recovered, report.recovered);
        EXPECT_EQ(planned.losses.size(), report.losses.size());
        const fs::path quarantine = zsQuarantinePath(out);
        const bool said = std::any_of(
            report.actions.begin(), report.actions.end(),
            [](const RepairStep& s) { return s.description.starts_with("quarantined in"); });
        EXPECT_EQ(fs::exists(quarantine), said);
        for (const std::string& r :
             fs::exists(quarantine) ? quarantinedRecords(quarantine) : std::vector<std::string>{}) {
            EXPECT_EQ(zsQuarantineLine(asBytes(r)).find('\n'), std::string::npos);
        }
    }
}

}  // namespace
}  // namespace strata::zs
