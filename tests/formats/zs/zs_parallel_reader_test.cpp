// formatRecords (several decoding threads) against the one-thread readers: the same output for
// every thread count, and on damage the same error after the same records.
#include <gtest/gtest.h>

#include <cstdio>

#include "formats/zs/zs_parallel_reader.h"
#include "zs_test_support.h"
#include "zs_test_writer.h"

namespace strata::zs {
namespace {

using namespace testing;

constexpr int kBlocks = 60;
constexpr int kRecordsPerBlock = 25;

std::string recordName(int block, int record) {
    char text[32];
    std::snprintf(text, sizeof text, "rec%03d-%03d", block, record);
    return text;
}

std::vector<std::string> blockRecords(int block) {
    std::vector<std::string> records;
    for (int r = 0; r < kRecordsPerBlock; ++r) {
        records.push_back(recordName(block, r));
    }
    return records;
}

enum class Damage { None, PayloadBit, BadRecord, ExtensionCrc, Truncated };

// kBlocks deflate data blocks with an extension block after the tenth, one index level and a
// root; `damage` spoils the middle of the file.
Bytes makeFile(Damage damage) {
    TestZsWriter writer(Codec::Deflate);
    std::vector<TestEntry> entries;
    std::uint64_t damagedBlock = 0;
    for (int b = 0; b < kBlocks; ++b) {
        Placed placed{};
        if (b == kBlocks / 2 && damage == Damage::BadRecord) {
            Bytes payload = packRecords({recordName(b, 0), recordName(b, 1)});
            payload.insert(payload.end(), {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                           0xff, 0x01});  // a record length of 11 bytes
            placed = writer.rawBlock(0, writer.encode(payload));
        } else {
            placed = writer.dataBlock(blockRecords(b));
        }
        if (b == kBlocks / 2) {
            damagedBlock = placed.offset;
        }
        entries.push_back({recordName(b, 0), placed.offset, placed.length});
        if (b == 10) {
            const Placed extension = writer.rawBlock(200, Bytes{1, 2, 3, 4});
            if (damage == Damage::ExtensionCrc) {
                damagedBlock = extension.offset;
            }
        }
    }
    writer.setRoot(writer.indexBlock(1, entries));
    Bytes bytes = writer.finish();
    switch (damage) {
        case Damage::PayloadBit:
            bytes[damagedBlock + 6] ^= 0x10;
            break;
        case Damage::ExtensionCrc:
            bytes[damagedBlock + 3] ^= 0x01;
            break;
        case Damage::Truncated:
            bytes.resize(damagedBlock + 5);
            break;
        default:
            break;
    }
    return bytes;
}

struct Outcome {
    std::string text;
    std::string error;
    std::uint64_t errorOffset = 0;
    bool completed = true;
};

std::string framed(std::span<const std::uint8_t> record) {
    return std::string(record.begin(), record.end()) + "\n";
}

Outcome serialDump(const std::shared_ptr<ZsFile>& file, const RecordQuery& query) {
    Outcome out;
    try {
        if (!query.start && !query.stop && !query.prefix) {
            ZsRecordIterator records(file);
            while (const auto record = records.next()) {
                out.text += framed(*record);
            }
        } else {
            file->search(query, [&](std::span<const std::uint8_t> record) {
                out.text += framed(record);
                return true;
            });
        }
    } catch (const ZsReadError& e) {
        out.error = e.what();
        out.errorOffset = e.offset();
    }
    return out;
}

Outcome parallelDump(const std::shared_ptr<ZsFile>& file, const RecordQuery& query,
                     unsigned threads, const CancelToken* cancel = nullptr,
                     const std::function<void()>& afterBlock = {}) {
    Outcome out;
    ParallelReadOptions options;
    options.threads = threads;
    options.cancel = cancel;
    try {
        out.completed = formatRecords(
            *file, query, options,
            [](std::span<const std::uint8_t> record, std::string& text) { text += framed(record); },
            [&](std::string_view text) {
                out.text += text;
                if (afterBlock) {
                    afterBlock();
                }
            });
    } catch (const ZsReadError& e) {
        out.error = e.what();
        out.errorOffset = e.offset();
    }
    return out;
}

void expectSame(const Outcome& serial, const Outcome& parallel) {
    EXPECT_EQ(parallel.text, serial.text);
    EXPECT_EQ(parallel.error, serial.error);
    EXPECT_EQ(parallel.errorOffset, serial.errorOffset);
    EXPECT_TRUE(parallel.completed);
}

TEST(ZsParallelReader, WholeFileMatchesTheRecordIteratorForEveryThreadCount) {
    const auto file = openZs(makeFile(Damage::None));
    const Outcome serial = serialDump(file, {});
    ASSERT_TRUE(serial.error.empty()) << serial.error;
    ASSERT_EQ(serial.text.size(), std::size_t{kBlocks} * kRecordsPerBlock * 11);
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
        SCOPED_TRACE(threads);
        expectSame(serial, parallelDump(file, {}, threads));
    }
}

TEST(ZsParallelReader, DamageIsReportedAfterTheSameRecords) {
    for (Damage damage :
         {Damage::PayloadBit, Damage::BadRecord, Damage::ExtensionCrc, Damage::Truncated}) {
        SCOPED_TRACE(static_cast<int>(damage));
        const auto file = openZs(makeFile(damage));
        const Outcome serial = serialDump(file, {});
        ASSERT_FALSE(serial.error.empty());
        ASSERT_FALSE(serial.text.empty());
        for (unsigned threads : {1u, 2u, 8u}) {
            SCOPED_TRACE(threads);
            expectSame(serial, parallelDump(file, {}, threads));
        }
    }
}

TEST(ZsParallelReader, RangesMatchSearch) {
    const std::vector<RecordQuery> queries{
        {std::string("rec010-"), std::string("rec013-"), std::nullopt},
        {std::string("rec020-005"), std::nullopt, std::nullopt},
        {std::nullopt, std::string("rec002-010"), std::nullopt},
        {std::nullopt, std::nullopt, std::string("rec04")},
        {std::nullopt, std::nullopt, std::string("rec059-024")},
        {std::nullopt, std::nullopt, std::string("zzz")},
        {std::string("rec030-"), std::string("rec020-"), std::nullopt},
        {std::string("rec040-"), std::nullopt, std::string("rec04")},
    };
    for (Damage damage : {Damage::None, Damage::PayloadBit, Damage::BadRecord}) {
        const auto file = openZs(makeFile(damage));
        for (std::size_t i = 0; i < queries.size(); ++i) {
            SCOPED_TRACE(std::to_string(static_cast<int>(damage)) + "/" + std::to_string(i));
            const Outcome serial = serialDump(file, queries[i]);
            for (unsigned threads : {1u, 2u, 8u}) {
                expectSame(serial, parallelDump(file, queries[i], threads));
            }
        }
    }
}

TEST(ZsParallelReader, AShortQueryDecodesOnlyItsBlock) {
    const auto file = openZs(makeFile(Damage::None));
    const std::uint64_t before = file->blocksRead();
    const Outcome out =
        parallelDump(file, {std::nullopt, std::nullopt, std::string("rec033-01")}, 8);
    EXPECT_EQ(out.text,
              dumpRecords({"rec033-010", "rec033-011", "rec033-012", "rec033-013", "rec033-014",
                           "rec033-015", "rec033-016", "rec033-017", "rec033-018", "rec033-019"},
                          "lines"));
    // The root was read at open; the query reads its one data block.
    EXPECT_EQ(file->blocksRead() - before, 1u);
}

TEST(ZsParallelReader, CancellingStopsBetweenBlocksWithAPrefixOfTheOutput) {
    const auto file = openZs(makeFile(Damage::None));
    const Outcome full = serialDump(file, {});
    CancelToken cancel;
    int blocks = 0;
    const Outcome partial = parallelDump(file, {}, 2, &cancel, [&] {
        if (++blocks == 5) {
            cancel.cancel();
        }
    });
    EXPECT_FALSE(partial.completed);
    EXPECT_TRUE(partial.error.empty());
    EXPECT_LT(partial.text.size(), full.text.size());
    EXPECT_EQ(full.text.compare(0, partial.text.size(), partial.text), 0);

    CancelToken already;
    already.cancel();
    const Outcome none = parallelDump(file, {}, 2, &already);
    EXPECT_FALSE(none.completed);
    EXPECT_TRUE(none.text.empty());
}

}  // namespace
}  // namespace strata::zs
