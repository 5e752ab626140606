// Hand-made hostile ZS files: lengths past the end, over-long uleb128, index cycles,
// decompression bombs. Each must give a clear error without crashing, hanging or
// allocating without bound.
#include <gtest/gtest.h>
#include <zlib.h>

#include "formats/common/validator.h"
#include "formats/zs/zs_tree.h"
#include "zs_test_support.h"
#include "zs_test_writer.h"

namespace strata::zs {
namespace {

using namespace testing;

Bytes minimalFile(TestZsWriter& w) {
    const Placed d = w.dataBlock({"a", "b"});
    w.setRoot(w.indexBlock(1, {{"a", d.offset, d.length}}));
    return w.finish();
}

// Appends bytes after the last block and fixes the header's total length.
Bytes withTail(const Bytes& tail) {
    TestZsWriter w;
    Bytes bytes = minimalFile(w);
    bytes.insert(bytes.end(), tail.begin(), tail.end());
    patchHeader64(bytes, 32, bytes.size());
    return bytes;
}

// Visits at most `budget` nodes breadth-first; returns how many it saw.
std::size_t walk(Node& root, std::size_t budget) {
    std::vector<Node*> queue{&root};
    std::size_t seen = 0;
    while (!queue.empty() && seen < budget) {
        Node* node = queue.front();
        queue.erase(queue.begin());
        ++seen;
        for (std::uint64_t i = 0; i < std::min<std::uint64_t>(node->childCount(), 64); ++i) {
            queue.push_back(node->child(i));
        }
    }
    return seen;
}

TEST(ZsHostile, MinimalFileIsValid) {
    TestZsWriter w;
    const auto file = openZs(minimalFile(w));
    const auto sink = validate(file);
    EXPECT_EQ(sink->countOf(Severity::Error), 0u) << describe(*sink);
    EXPECT_EQ(allRecords(file), (std::vector<std::string>{"a", "b"}));
}

TEST(ZsHostile, BlockLengthPastEndOfFile) {
    const auto file = openZs(withTail({0xff, 0xff, 0xff, 0xff, 0x7f, 0x00}));
    const auto sink = validate(file);
    EXPECT_TRUE(sink->hasCode("ZS-TRUNCATED")) << describe(*sink);
    EXPECT_THROW(allRecords(file), ZsReadError);
}

TEST(ZsHostile, ElevenByteUlebBlockLength) {
    Bytes tail(11, 0x80);
    tail.back() = 0x01;
    const auto sink = validate(openZs(withTail(tail)));
    EXPECT_TRUE(sink->hasCode("ZS-ULEB128")) << describe(*sink);
}

TEST(ZsHostile, ElevenByteUlebRecordLength) {
    TestZsWriter w;
    Bytes payload(11, 0x80);
    payload.back() = 0x01;
    const Placed d = w.rawBlock(0, payload);
    w.setRoot(w.indexBlock(1, {{"", d.offset, d.length}}));
    const auto file = openZs(w.finish());
    const auto sink = validate(file);
    EXPECT_TRUE(sink->hasCode("ZS-ULEB128")) << describe(*sink);
    EXPECT_THROW(allRecords(file), ZsReadError);
}

// Root A (level 2) -> B (level 1) -> {data, A, B}: a cycle through the root and a self-loop.
Bytes cyclicFile() {
    TestZsWriter w;
    const Placed d = w.dataBlock({"a"});
    const std::uint64_t rootOffset = w.end();
    // A refers forward to B; find the length of A that is consistent with B's offset.
    std::uint64_t guess = rootOffset + 8;
    Bytes rootPayload;
    for (int i = 0; i < 4; ++i) {
        rootPayload = packIndex({{"a", guess, 40}});
        const std::uint64_t rootLength = 1 + 1 + rootPayload.size() + 8;
        guess = rootOffset + rootLength;
    }
    const Placed a = w.indexBlock(2, {{"a", guess, 40}});
    EXPECT_EQ(a.offset + a.length, guess);
    w.setRoot(a);
    w.indexBlock(1, {{"a", d.offset, d.length}, {"a", a.offset, a.length}, {"a", guess, 40}});
    return w.finish();
}

TEST(ZsHostile, IndexCycleIsReportedAndBounded) {
    const auto file = openZs(cyclicFile());
    const auto sink = validate(file);
    EXPECT_TRUE(sink->hasCode("ZS-INDEX-CYCLE")) << describe(*sink);
    auto tree = buildZsTree(file);
    EXPECT_LT(walk(*tree, 10000), 10000u);  // the tree ends: cycles are not expanded
    std::vector<std::string> found;
    try {
        found = file->findPrefix("a");
    } catch (const ZsReadError&) {
    }
    EXPECT_LE(found.size(), 1u);
}

// A deflate stream of `size` zero bytes, made in pieces so the test never holds it all.
Bytes deflatedZeros(std::uint64_t size) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::vector<std::uint8_t> zeros(1 << 20, 0);
    std::vector<std::uint8_t> out;
    std::vector<std::uint8_t> buffer(1 << 16);
    std::uint64_t left = size;
    int flush = Z_NO_FLUSH;
    do {
        if (z.avail_in == 0 && left > 0) {
            const std::uint64_t n = std::min<std::uint64_t>(left, zeros.size());
            z.next_in = zeros.data();
            z.avail_in = static_cast<uInt>(n);
            left -= n;
        }
        flush = left == 0 ? Z_FINISH : Z_NO_FLUSH;
        z.next_out = buffer.data();
        z.avail_out = static_cast<uInt>(buffer.size());
        deflate(&z, flush);
        out.insert(out.end(), buffer.data(), buffer.data() + (buffer.size() - z.avail_out));
    } while (!(flush == Z_FINISH && z.avail_out != 0));
    deflateEnd(&z);
    return out;
}

Bytes bombFile(std::uint64_t size) {
    TestZsWriter w(Codec::Deflate);
    const Placed d = w.rawBlock(0, deflatedZeros(size));
    w.setRoot(w.indexBlock(1, {{"", d.offset, d.length}}));
    return w.finish();
}

TEST(ZsHostile, CodecNoneOverCompressedBlocksBlamesTheCodec) {
    TestZsWriter w(Codec::Deflate);
    Bytes bytes = minimalFile(w);
    std::string none("none");
    none.resize(16, '\0');
    std::copy(none.begin(), none.end(), bytes.begin() + 72);
    fixHeaderCrc(bytes);
    const auto sink = validate(openZs(bytes));
    EXPECT_TRUE(sink->hasCode("ZS-CODEC")) << describe(*sink);
}

TEST(ZsHostile, DecompressionBombStopsAtTheLimit) {
    const auto file = openZs(bombFile(200ull << 20));  // 200 MiB of zeros, default 64 MiB limit
    const auto sink = validate(file);
    EXPECT_TRUE(sink->hasCode("ZS-DECODE-LIMIT")) << describe(*sink);
    EXPECT_THROW(allRecords(file), ZsReadError);
}

TEST(ZsHostile, DecodeLimitIsConfigurable) {
    const Bytes bytes = bombFile(4u << 20);
    EXPECT_TRUE(validate(openZs(bytes, ReadLimits{1u << 20}))->hasCode("ZS-DECODE-LIMIT"));
    // Under a larger limit the same block decodes: 4 Mi empty records, all sorted.
    const auto sink = validate(openZs(bytes, ReadLimits{8u << 20}));
    EXPECT_FALSE(sink->hasCode("ZS-DECODE-LIMIT")) << describe(*sink);
}

TEST(ZsHostile, EveryDamagedBlockIsReportedUpToTheLimit) {
    TestZsWriter w;
    std::vector<TestEntry> entries;
    for (int i = 0; i < 30; ++i) {
        const std::string r = "r" + std::to_string(10 + i);
        const Placed d = w.dataBlock({r});
        entries.push_back({r, d.offset, d.length});
        w.bytes()[d.offset + d.length - 1] ^= 0x55;  // break every block's CRC
    }
    w.setRoot(w.indexBlock(1, entries));
    const auto file = openZs(w.finish());
    const auto all = validate(file);
    std::size_t crc = 0;
    for (const auto& d : all->diagnostics()) {
        crc += d.code == "ZS-BLOCK-CRC" ? 1 : 0;
    }
    EXPECT_EQ(crc, 30u);

    ValidationOptions capped;
    capped.maxPerCode = 5;
    capped.threads = 3;
    const auto few = validate(file, capped);
    crc = 0;
    for (const auto& d : few->diagnostics()) {
        crc += d.code == "ZS-BLOCK-CRC" ? 1 : 0;
    }
    EXPECT_EQ(crc, 6u);  // five, then one summary
}

TEST(ZsHostile, CancelledValidationStops) {
    STRATA_SKIP_WITHOUT_CORPUS();
    CancelToken token;
    token.cancel();
    ValidationOptions options;
    options.cancel = &token;
    CollectingSink sink;
    ZsValidator validator(openZs(zsCorpus() / "valid/big-ngrams-1m.zs"));
    EXPECT_EQ(validator.run(sink, options), JobOutcome::Cancelled);
}

TEST(ZsHostile, ProgressRisesToOne) {
    STRATA_SKIP_WITHOUT_CORPUS();
    std::vector<double> seen;
    ValidationOptions options;
    options.progress = [&](double f, const std::string&) { seen.push_back(f); };
    validate(openZs(zsCorpus() / "valid/multilevel-bf2.zs"), options);
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
}

TEST(ZsHostile, TruncatedPrefixesNeverCrash) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const std::string text = readText(zsCorpus() / "corrupt/base-lzma.zs");
    const Bytes full(text.begin(), text.end());
    for (std::size_t n = 0; n <= full.size(); n += 7) {
        const auto file = openZs(Bytes(full.begin(), full.begin() + static_cast<long>(n)));
        const auto sink = validate(file);
        if (n < full.size()) {
            EXPECT_GT(sink->countOf(Severity::Error), 0u) << n;
        }
        auto tree = buildZsTree(file);
        walk(*tree, 500);
    }
}

}  // namespace
}  // namespace strata::zs

namespace strata::zs {
namespace {

using namespace testing;

// Every byte of a ZS file is covered by a CRC or checked structurally (lengths, offsets), so
// flipping any single bit must give at least one error, and never a crash.
TEST(ZsHostile, EverySingleBitFlipIsDetected) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const char* base :
         {"corrupt/base-none.zs", "corrupt/base-deflate.zs", "corrupt/base-lzma.zs"}) {
        SCOPED_TRACE(base);
        const std::string text = readText(zsCorpus() / base);
        const Bytes original(text.begin(), text.end());
        for (std::size_t at = 0; at < original.size(); ++at) {
            for (const std::uint8_t bit : {0x01, 0x80}) {
                Bytes bytes = original;
                bytes[at] ^= bit;
                ValidationOptions options;
                options.threads = 1;
                const auto sink = validate(openZs(std::move(bytes)), options);
                EXPECT_GT(sink->countOf(Severity::Error), 0u)
                    << "byte " << at << " bit " << int{bit} << "\n"
                    << describe(*sink);
            }
        }
    }
}

}  // namespace
}  // namespace strata::zs
