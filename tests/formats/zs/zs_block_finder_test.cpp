// ZsBlockFinder: where reading goes on after damage. Through an intact index without scanning;
// by scanning to the next frame that passes its CRC when the index cannot tell; never at a frame
// inside a block the index places; zeros cost no CRC at all; a block whose length field alone is
// damaged is read as the bytes up to the next block; a cancelled scan stops.
#include <gtest/gtest.h>

#include "formats/zs/zs_block_finder.h"
#include "scratch_dir.h"
#include "zs_damage_support.h"

namespace strata::zs {
namespace {

using namespace testing;

class Scratch : public test::ScratchDir {
public:
    Scratch() : ScratchDir("zs_finder") {}
};

std::shared_ptr<const ZsFile> open(const fs::path& path) {
    return ZsFile::open(openMappedFile(path));
}

void zeroIndex(const fs::path& path) {
    for (const BlockFrame& f : frames(path, BlockKind::Index)) {
        overwrite(path, f.offset, f.totalLength());
    }
}

TEST(ZsBlockFinder, AnIntactIndexGivesTheEndWithoutScanning) {
    Scratch dir;
    const Generated g = generate(dir / "in.zs", 20, 50, Codec::Deflate, 20);
    overwrite(dir / "in.zs", g.data[5].offset, g.data[5].totalLength());
    ZsBlockFinder finder(open(dir / "in.zs"), fs::file_size(dir / "in.zs"));
    EXPECT_EQ(finder.resumeAfter(g.data[5].offset), g.data[6].offset);
    EXPECT_EQ(finder.indexedLength(g.data[5].offset), g.data[5].totalLength());
    EXPECT_EQ(finder.scanCrcs(), 0u);
}

TEST(ZsBlockFinder, WithoutTheIndexTheNextFramePassingItsCrcIsFound) {
    for (const Codec codec : {Codec::None, Codec::Deflate, Codec::Lzma2}) {
        Scratch dir;
        const Generated g = generate(dir / "in.zs", 20, 50, codec, 20);
        zeroIndex(dir / "in.zs");
        std::mt19937 rng(3);
        overwrite(dir / "in.zs", g.data[5].offset, g.data[7].offset - g.data[5].offset, 0, &rng);
        ZsBlockFinder finder(open(dir / "in.zs"), fs::file_size(dir / "in.zs"));
        EXPECT_FALSE(finder.indexedLength(g.data[5].offset));
        EXPECT_EQ(finder.resumeAfter(g.data[5].offset), g.data[7].offset);
        EXPECT_TRUE(finder.intactAt(g.data[7].offset));
        // After the last block: nothing intact follows, so the end of the file.
        const std::uint64_t size = fs::file_size(dir / "in.zs");
        EXPECT_EQ(finder.resumeAfter(g.data.back().end()), size);
    }
}

TEST(ZsBlockFinder, ZerosCostNoChecksum) {
    Scratch dir;
    const Generated g = generate(dir / "in.zs", 400, 100, Codec::Deflate, 40);
    zeroIndex(dir / "in.zs");
    overwrite(dir / "in.zs", g.data[10].offset, g.data[300].offset - g.data[10].offset);
    ZsBlockFinder finder(open(dir / "in.zs"), fs::file_size(dir / "in.zs"));
    EXPECT_EQ(finder.resumeAfter(g.data[10].offset), g.data[300].offset);
    EXPECT_EQ(finder.scanCrcs(), 1u);  // the block found, nothing before it
}

// A record that holds a whole ZS block frame (its CRC matching): where the index places the
// block around it, the scan never stops inside; without the index it cannot tell, and takes it.
TEST(ZsBlockFinder, AFrameInsideABlockTheIndexPlacesIsNotTaken) {
    Scratch dir;
    std::string embedded;
    {
        const std::string record = "zzz";
        std::vector<std::uint8_t> body{0, 3, 'z', 'z', 'z'};  // level 0, one record
        std::vector<std::uint8_t> frame{static_cast<std::uint8_t>(body.size())};
        frame.insert(frame.end(), body.begin(), body.end());
        std::uint64_t crc = crc64xz(body);
        for (int i = 0; i < 8; ++i, crc >>= 8) {
            frame.push_back(static_cast<std::uint8_t>(crc));
        }
        embedded.assign(frame.begin(), frame.end());
    }
    WriterOptions options;
    options.codec = Codec::None;
    options.threads = 1;
    const fs::path path = dir / "in.zs";
    {
        ZsWriter writer(path, {{"name", "t"}}, options);
        writer.addBlock(keys(0, 10));
        writer.addBlock({key(10) + embedded, key(11)});
        writer.addBlock(keys(12, 10));
        writer.finish();
    }
    const std::vector<BlockFrame> data = frames(path, BlockKind::Data);
    const std::uint64_t inside = data[1].payloadOffset() + 1;  // damage "starts" in block 1
    ZsBlockFinder finder(open(path), fs::file_size(path));
    EXPECT_EQ(finder.resumeAfter(inside), data[2].offset);

    zeroIndex(path);
    ZsBlockFinder blind(open(path), fs::file_size(path));
    const auto next = blind.resumeAfter(inside);
    ASSERT_TRUE(next);
    EXPECT_LT(*next, data[2].offset);  // the documented limit: it looks like a block
}

TEST(ZsBlockFinder, ABlockWithADamagedLengthFieldFillsTheBytesToTheNextBlock) {
    Scratch dir;
    const Generated g = generate(dir / "in.zs", 10, 50, Codec::Deflate, 40);
    const BlockFrame& f = g.data[4];
    ASSERT_GT(f.lengthFieldSize, 1u);
    overwrite(dir / "in.zs", f.offset, f.lengthFieldSize);
    ZsBlockFinder finder(open(dir / "in.zs"), fs::file_size(dir / "in.zs"));
    const auto filling = finder.frameFilling(f.offset, f.end());
    ASSERT_TRUE(filling);
    EXPECT_EQ(filling->lengthFieldSize, f.lengthFieldSize);
    EXPECT_EQ(filling->bodyLength, f.bodyLength);
    EXPECT_EQ(filling->level, 0);
    EXPECT_FALSE(finder.frameFilling(f.offset, f.end() + 1));
    EXPECT_FALSE(finder.frameFilling(f.offset, g.data[5].end()));
}

TEST(ZsBlockFinder, ACancelledScanStops) {
    Scratch dir;
    const Generated g = generate(dir / "in.zs", 100, 100, Codec::Deflate, 40);
    zeroIndex(dir / "in.zs");
    std::mt19937 rng(5);
    overwrite(dir / "in.zs", g.data[1].offset, g.data[90].offset - g.data[1].offset, 0, &rng);
    CancelToken cancel;
    cancel.cancel();
    ZsBlockFinder finder(open(dir / "in.zs"), fs::file_size(dir / "in.zs"));
    EXPECT_FALSE(finder.resumeAfter(g.data[1].offset, &cancel));
    double reached = 0;
    EXPECT_EQ(finder.resumeAfter(g.data[1].offset, nullptr,
                                 [&](double fraction, const std::string&) { reached = fraction; }),
              g.data[90].offset);
    EXPECT_GT(reached, 0.5);
}

// Random damage to files of each codec: from any offset, reading goes on past it and inside the
// file, a block read past its length field ends where asked, and a record walk that skips every
// damaged stretch ends.
TEST(ZsBlockFinder, AnyOffsetOfADamagedFileGivesAPlaceAfterIt) {
    Scratch dir;
    std::mt19937 rng(11);
    const Codec codecs[] = {Codec::None, Codec::Deflate, Codec::Lzma2};
    for (int round = 0; round < 30; ++round) {
        const fs::path path = dir / ("in" + std::to_string(round) + ".zs");
        const Generated g = generate(path, 8, 30, codecs[round % 3], rng() % 30, 2);
        const std::uint64_t size = fs::file_size(path);
        const std::uint64_t begin = g.data.front().offset;
        for (int d = 0; d < 3; ++d) {
            overwrite(path, begin + rng() % (size - begin), 1 + rng() % 200, 0,
                      rng() % 2 == 0 ? &rng : nullptr);
        }
        auto file = open(path);
        ZsBlockFinder finder(file, size);
        for (int probe = 0; probe < 20; ++probe) {
            const std::uint64_t at = begin + rng() % (size - begin);
            const auto next = finder.resumeAfter(at);
            ASSERT_TRUE(next);
            EXPECT_GT(*next, at);
            EXPECT_LE(*next, size);
            if (const auto frame = finder.frameFilling(at, *next)) {
                EXPECT_EQ(frame->end(), *next);
            }
        }
        ZsRecordIterator records(file);
        int steps = 0;
        for (; steps < 100000; ++steps) {
            try {
                if (!records.next()) {
                    break;
                }
            } catch (const ZsReadError&) {
                if (!records.skipDamage().canContinue) {
                    break;
                }
            }
        }
        EXPECT_LT(steps, 100000);
    }
}

}  // namespace
}  // namespace strata::zs
