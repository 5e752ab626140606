#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "formats/common/byte_source.h"
#include "formats/common/checksums.h"
#include "formats/common/codec_deflate.h"
#include "formats/common/codec_lzma2.h"
#include "formats/common/codec_zstd.h"
#include "formats/common/le_reader.h"
#include "formats/common/uleb128.h"
#include "test_bytes.h"
#include "test_corpus.h"

namespace strata {
namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr std::uint64_t kMiB = 1024 * 1024;

// 64 MiB of zeros, compressed once per codec: tiny inputs that expand enormously.
const Bytes& zeros64MiB() {
    static const Bytes zeros(64 * kMiB, 0);
    return zeros;
}

Bytes concat(Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// ---- deflate ----

TEST(Deflate, RoundTripsAtEveryLevel) {
    const auto text = test::textLikeBytes(200000);
    for (int level = 0; level <= 9; ++level) {
        const auto packed = deflateCompress(text, level);
        const auto result = deflateDecompress(packed, text.size());
        ASSERT_EQ(result.status, DecodeStatus::Ok) << level << ": " << result.message;
        EXPECT_EQ(result.data, text);
        EXPECT_EQ(result.consumed, packed.size());
        EXPECT_EQ(result.frames, 1u);
    }
}

TEST(Deflate, EmptyAndIncompressibleInput) {
    const auto empty = deflateCompress({});
    auto result = deflateDecompress(empty, 0);
    EXPECT_EQ(result.status, DecodeStatus::Ok);
    EXPECT_TRUE(result.data.empty());
    const auto noise = test::randomBytes(100000);
    result = deflateDecompress(deflateCompress(noise, 9), noise.size());
    EXPECT_EQ(result.status, DecodeStatus::Ok);
    EXPECT_EQ(result.data, noise);
}

TEST(Deflate, KnownVector) {
    // Fixed-Huffman block for "abc" as every zlib writes it at the default level.
    const Bytes stream = {0x4b, 0x4c, 0x4a, 0x06, 0x00};
    EXPECT_EQ(deflateCompress(test::bytesOf("abc")), stream);
    const auto result = deflateDecompress(stream, 100);
    EXPECT_EQ(result.status, DecodeStatus::Ok);
    EXPECT_EQ(result.data, test::vectorOf("abc"));
}

TEST(Deflate, ExactBoundIsEnoughOneLessIsNot) {
    const auto text = test::textLikeBytes(100000);
    const auto packed = deflateCompress(text);
    EXPECT_EQ(deflateDecompress(packed, text.size()).status, DecodeStatus::Ok);
    const auto result = deflateDecompress(packed, text.size() - 1);
    EXPECT_EQ(result.status, DecodeStatus::OutputLimit);
    EXPECT_EQ(result.data.size(), text.size() - 1);
}

TEST(Deflate, ReportsTrailingBytes) {
    const auto packed = deflateCompress(test::bytesOf("hello hello hello"));
    const auto result = deflateDecompress(concat(packed, {'j', 'u', 'n', 'k'}), 100);
    EXPECT_EQ(result.status, DecodeStatus::TrailingData);
    EXPECT_TRUE(result.complete());
    EXPECT_EQ(result.consumed, packed.size());
    EXPECT_EQ(result.data, test::vectorOf("hello hello hello"));
    EXPECT_NE(result.message.find("4 bytes"), std::string::npos) << result.message;
}

TEST(Deflate, ReportsTruncation) {
    const auto text = test::textLikeBytes(50000);
    const auto packed = deflateCompress(text);
    for (const std::size_t cut :
         {std::size_t{0}, std::size_t{1}, packed.size() / 2, packed.size() - 1}) {
        const auto result = deflateDecompress(std::span(packed).first(cut), text.size());
        EXPECT_EQ(result.status, DecodeStatus::Truncated) << cut;
        EXPECT_LE(result.data.size(), text.size());
    }
}

TEST(Deflate, ReportsCorruption) {
    // Block type 3 is reserved.
    const Bytes bad = {0x07, 0x00, 0x00};
    const auto result = deflateDecompress(bad, 100);
    EXPECT_EQ(result.status, DecodeStatus::Corrupt);
    EXPECT_FALSE(result.message.empty());
}

TEST(Deflate, RefusesABombAtTheBound) {
    const auto bomb = deflateCompress(zeros64MiB(), 9);
    ASSERT_LT(bomb.size(), 100 * 1024u);
    const auto result = deflateDecompress(bomb, kMiB);
    EXPECT_EQ(result.status, DecodeStatus::OutputLimit);
    EXPECT_LE(result.data.capacity(), kMiB);
}

TEST(Deflate, RejectsBadLevel) {
    EXPECT_THROW(deflateCompress(test::bytesOf("x"), 10), CodecError);
}

// ---- LZMA2 ----

TEST(Lzma2, RoundTripsEveryZsPreset) {
    const auto text = test::textLikeBytes(300000);
    for (const Lzma2Preset preset : {Lzma2Preset{0, false}, Lzma2Preset{0, true},
                                     Lzma2Preset{1, false}, Lzma2Preset{1, true}}) {
        const auto packed = lzma2Compress(text, preset);
        EXPECT_LT(packed.size(), text.size() / 4);
        const auto result = lzma2Decompress(packed, text.size());
        ASSERT_EQ(result.status, DecodeStatus::Ok) << result.message;
        EXPECT_EQ(result.data, text);
        EXPECT_EQ(result.consumed, packed.size());
    }
}

TEST(Lzma2, TinyInputIsAnUncompressedChunk) {
    // LZMA2 stores input that does not shrink as an uncompressed chunk: 01, size-1 (BE), data,
    // then the end marker 00.
    const auto packed = lzma2Compress(test::bytesOf("abc"));
    const Bytes expected = {0x01, 0x00, 0x02, 'a', 'b', 'c', 0x00};
    EXPECT_EQ(packed, expected);
    const auto result = lzma2Decompress(expected, 3);
    EXPECT_EQ(result.status, DecodeStatus::Ok);
    EXPECT_EQ(result.data, test::vectorOf("abc"));
}

TEST(Lzma2, EmptyStream) {
    const auto packed = lzma2Compress({});
    EXPECT_EQ(packed, Bytes{0x00});
    const auto result = lzma2Decompress(packed, 0);
    EXPECT_EQ(result.status, DecodeStatus::Ok);
    EXPECT_TRUE(result.data.empty());
}

TEST(Lzma2, ReportsTrailingTruncatedAndCorrupt) {
    const auto text = test::textLikeBytes(40000);
    const auto packed = lzma2Compress(text);
    auto result = lzma2Decompress(concat(packed, packed), text.size() * 2);
    EXPECT_EQ(result.status, DecodeStatus::TrailingData);
    EXPECT_EQ(result.consumed, packed.size());
    EXPECT_EQ(result.data, text);

    for (const std::size_t cut :
         {std::size_t{0}, std::size_t{3}, packed.size() / 2, packed.size() - 1}) {
        result = lzma2Decompress(std::span(packed).first(cut), text.size());
        EXPECT_EQ(result.status, DecodeStatus::Truncated) << cut;
    }

    const Bytes badControl = {0x03, 0x00, 0x00};  // control bytes 0x03..0x7f are invalid
    result = lzma2Decompress(badControl, 100);
    EXPECT_EQ(result.status, DecodeStatus::Corrupt);
}

TEST(Lzma2, RefusesABombAtTheBound) {
    const auto bomb = lzma2Compress(zeros64MiB(), {0, false});
    ASSERT_LT(bomb.size(), 100 * 1024u);
    const auto result = lzma2Decompress(bomb, kMiB);
    EXPECT_EQ(result.status, DecodeStatus::OutputLimit);
    EXPECT_EQ(result.data.size(), kMiB);
    EXPECT_LE(result.data.capacity(), kMiB);
}

TEST(Lzma2, RejectsBadPreset) {
    EXPECT_THROW(lzma2Compress(test::bytesOf("x"), {10, false}), CodecError);
}

// ---- zstd ----

TEST(Zstd, RoundTripsWithAndWithoutContentSize) {
    const auto text = test::textLikeBytes(300000);
    for (const bool contentSize : {false, true}) {
        const auto packed = zstdCompress(text, {.level = 3, .contentSize = contentSize});
        const auto result = zstdDecompress(packed, text.size());
        ASSERT_EQ(result.status, DecodeStatus::Ok) << result.message;
        EXPECT_EQ(result.data, text);
        EXPECT_EQ(result.frames, 1u);
        EXPECT_EQ(result.consumed, packed.size());
    }
}

TEST(Zstd, CountsFramesAndStopsAfterOneWhenAsked) {
    const auto a = zstdCompress(test::bytesOf("first "));
    const auto b = zstdCompress(test::bytesOf("second"));
    const auto both = concat(a, b);
    auto result = zstdDecompress(both, 100);
    EXPECT_EQ(result.status, DecodeStatus::Ok);
    EXPECT_EQ(result.frames, 2u);
    EXPECT_EQ(result.data, test::vectorOf("first second"));

    result = zstdDecompress(both, 100, {.multipleFrames = false});
    EXPECT_EQ(result.status, DecodeStatus::TrailingData);
    EXPECT_EQ(result.frames, 1u);
    EXPECT_EQ(result.consumed, a.size());
    EXPECT_EQ(result.data, test::vectorOf("first "));
}

TEST(Zstd, ReportsTruncatedAndCorrupt) {
    const auto text = test::textLikeBytes(50000);
    const auto packed = zstdCompress(text);
    for (const std::size_t cut :
         {std::size_t{0}, std::size_t{4}, packed.size() / 2, packed.size() - 1}) {
        const auto result = zstdDecompress(std::span(packed).first(cut), text.size());
        EXPECT_EQ(result.status, DecodeStatus::Truncated) << cut;
    }
    auto result = zstdDecompress(test::bytesOf("definitely not zstd"), 100);
    EXPECT_EQ(result.status, DecodeStatus::Corrupt);
    result = zstdDecompress(concat(packed, {'x', 'y', 'z', 'w', '!'}), text.size());
    EXPECT_EQ(result.status, DecodeStatus::Corrupt);
}

TEST(Zstd, RefusesDeclaredSizeBeyondTheBoundBeforeDecoding) {
    const auto packed = zstdCompress(zeros64MiB(), {.level = 1, .contentSize = true});
    const auto result = zstdDecompress(packed, kMiB);
    EXPECT_EQ(result.status, DecodeStatus::OutputLimit);
    EXPECT_TRUE(result.data.empty());
}

// A hand-made frame of RLE blocks: 4 input bytes per 128 KiB of output, 1 GiB in total, no
// content size, so only the streaming bound can stop it.
Bytes zstdRleBomb(std::uint32_t blocks) {
    Bytes frame = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38};  // magic, descriptor, window 2^17
    for (std::uint32_t i = 0; i < blocks; ++i) {
        const std::uint32_t header =
            (131072u << 3) | (1u << 1) | (i + 1 == blocks ? 1u : 0u);  // RLE, 128 KiB
        frame.push_back(static_cast<std::uint8_t>(header));
        frame.push_back(static_cast<std::uint8_t>(header >> 8));
        frame.push_back(static_cast<std::uint8_t>(header >> 16));
        frame.push_back(0x5a);
    }
    return frame;
}

TEST(Zstd, HandMadeRleFrameDecodes) {
    const auto result = zstdDecompress(zstdRleBomb(3), 3 * 131072);
    ASSERT_EQ(result.status, DecodeStatus::Ok) << result.message;
    EXPECT_EQ(result.data, Bytes(3 * 131072, 0x5a));
}

TEST(Zstd, RefusesAGigabyteBombAtTheBound) {
    const auto bomb = zstdRleBomb(8192);  // 32 KiB in, 1 GiB out
    const auto result = zstdDecompress(bomb, kMiB);
    EXPECT_EQ(result.status, DecodeStatus::OutputLimit);
    EXPECT_EQ(result.data.size(), kMiB);
    EXPECT_LE(result.data.capacity(), kMiB);
}

TEST(Zstd, RefusesHugeWindowWithSmallBound) {
    // Frame header asking for a 2 GiB window (window descriptor exponent 21).
    const Bytes frame = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3, 0x01, 0x00, 0x00};
    const auto result = zstdDecompress(frame, kMiB);
    EXPECT_EQ(result.status, DecodeStatus::ResourceLimit) << result.message;
}

// ---- byte identity with ZS files in the conformance corpus ----

std::filesystem::path corpusDir() {
    return strata::test::corpusRoot();
}

struct ZsBlock {
    std::uint8_t level = 0;
    Bytes payload;
};

// Walks a ZS file's blocks with the common helpers, checking each block's CRC-64 on the way.
std::vector<ZsBlock> readZsBlocks(const ByteSource& file) {
    const auto headerLength = readLe<std::uint64_t>(file, 8).value();
    std::uint64_t offset = 16 + headerLength + 8;
    std::vector<ZsBlock> blocks;
    while (offset < file.size()) {
        const auto length = decodeUleb128At(file, offset);
        EXPECT_TRUE(length.ok());
        if (!length.ok()) {
            break;
        }
        const auto body = file.view(offset + length.length, length.value);
        const auto crc = readLe<std::uint64_t>(file, offset + length.length + length.value);
        EXPECT_EQ(crc64xz(body.bytes), crc.value_or(0)) << "block at " << offset;
        blocks.push_back({body.bytes[0], Bytes(body.bytes.begin() + 1, body.bytes.end())});
        offset += length.length + length.value + 8;
    }
    return blocks;
}

TEST(ZsCorpus, RecompressingGivesTheReferenceBytes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto dir = corpusDir() / "zs" / "valid";
    struct Case {
        const char* file;
        bool lzma;
        int level;
        bool extreme;
    };
    const Case cases[] = {
        {"codec-deflate.zs", false, 6, false},
        {"codec-deflate-z1.zs", false, 1, false},
        {"codec-deflate-z9.zs", false, 9, false},
        {"codec-lzma-z0.zs", true, 0, false},
        {"codec-lzma-z0e.zs", true, 0, true},
        {"codec-lzma-z1.zs", true, 1, false},
        {"codec-lzma-z1e.zs", true, 1, true},
        {"multilevel-bf3-lzma.zs", true, 0, true},
        {"tiny.zs", true, 0, true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        const auto file = openMappedFile(dir / c.file);
        const auto blocks = readZsBlocks(*file);
        ASSERT_FALSE(blocks.empty());
        Sha256 dataHash;
        for (const ZsBlock& block : blocks) {
            const auto decoded = c.lzma ? lzma2Decompress(block.payload, 64 * kMiB)
                                        : deflateDecompress(block.payload, 64 * kMiB);
            ASSERT_EQ(decoded.status, DecodeStatus::Ok) << decoded.message;
            const auto again =
                c.lzma ? lzma2Compress(decoded.data, {static_cast<unsigned>(c.level), c.extreme})
                       : deflateCompress(decoded.data, c.level);
            EXPECT_EQ(again, block.payload);
            if (block.level == 0) {
                dataHash.update(decoded.data);
            }
        }
        // Header data_sha256 (offset 40) covers the decoded data-block payloads.
        const auto stored = file->view(40, 32);
        const auto digest = dataHash.finish();
        EXPECT_TRUE(std::equal(digest.begin(), digest.end(), stored.bytes.begin()));
    }
}

}  // namespace
}  // namespace strata
