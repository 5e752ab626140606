// Repairing ZS files: an intact file comes back whole; a damaged data block loses exactly its
// records (reported with its bytes and key range, its records quarantined when they still read)
// and every other record is kept in order; a damaged index loses nothing; a truncated file keeps
// every complete block before the cut; the output validates, never replaces a file or a
// quarantine, and a dry run writes nothing. zs_salvage_test.cpp covers damage that breaks the
// chain of blocks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/common/checksums.h"
#include "formats/common/diagnostic.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_repair.h"
#include "formats/zs/zs_repair_quarantine.h"
#include "formats/zs/zs_validator.h"
#include "formats/zs/zs_writer.h"
#include "scratch_dir.h"
#include "test_corpus.h"
#include "zs_test_writer.h"

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

// Metadata comes back as it was written, numbers Strata's writer would write otherwise (an
// integer past 64 bits, which the reference keeps exact; a decimal of 20 digits) included.
TEST(ZsRepair, TheMetadataIsCopiedAsItWasWritten) {
    Scratch dir;
    {
        WriterOptions options;
        options.threads = 1;
        ZsWriter writer(dir / "made.zs",
                        {{"big", "1234567890123456789012345"}, {"x", "0.12345678901234567890"}},
                        options);
        writer.addBlock(keys(0, 10));
        writer.finish();
    }
    std::ifstream made(dir / "made.zs", std::ios::binary);
    testing::Bytes bytes{std::istreambuf_iterator<char>(made), std::istreambuf_iterator<char>()};
    std::string text(bytes.begin(), bytes.end());
    for (const std::string value : {"1234567890123456789012345", "0.12345678901234567890"}) {
        const std::size_t at = text.find("\"" + value + "\"");
        ASSERT_NE(at, std::string::npos);
        bytes[at] = ' ';  // the same length: the text becomes a number
        bytes[at + value.size() + 1] = ' ';
    }
    testing::fixHeaderCrc(bytes);
    std::ofstream(dir / "in.zs", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    const Header in = ZsFile::open(openMappedFile(dir / "in.zs"))->header();
    ASSERT_TRUE(in.metadata && (*in.metadata)["big"].is_number());

    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_TRUE(report.complete());
    const auto metadataText = [](const fs::path& path) {
        const auto file = ZsFile::open(openMappedFile(path));
        const Region& r = file->header().metadataRegion;
        const ByteView v = file->source().view(r.offset, r.length);
        return std::string(reinterpret_cast<const char*>(v.data()), v.size());
    };
    EXPECT_EQ(metadataText(dir / "out.zs"), metadataText(dir / "in.zs"));
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

// A damaged index block loses no record, and the report says so; its bytes are still a loss
// (Strata's diff of input and output sees them), so the repair is not complete.
TEST(ZsRepair, ADamagedIndexLosesNoRecord) {
    Scratch dir;
    writeTen(dir / "in.zs");
    auto file = ZsFile::open(openMappedFile(dir / "in.zs"));
    const std::uint64_t root = file->header().rootIndexOffset;
    file.reset();
    flipByte(dir / "in.zs", root + 12);
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_EQ(records(dir / "out.zs"), keys(0, 1000));
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_EQ(report.losses[0].bytes.offset, root);
    EXPECT_NE(report.losses[0].description.find("no record of the original is missing"),
              std::string::npos)
        << report.losses[0].description;
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

// ---- the output's final check: data blocks compared with the input, not decoded again ----

std::vector<std::uint8_t> readBytes(const fs::path& path, std::uint64_t at, std::size_t n) {
    std::ifstream f(path, std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    std::vector<std::uint8_t> out(n);
    f.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(n));
    return out;
}

void writeBytes(const fs::path& path, std::uint64_t at, std::span<const std::uint8_t> bytes) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::uint8_t> le64(std::uint64_t value) {
    std::vector<std::uint8_t> out;
    for (int i = 0; i < 8; ++i) {
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    }
    return out;
}

std::vector<BlockFrame> frames(const fs::path& path, BlockKind kind) {
    auto file = ZsFile::open(openMappedFile(path));
    std::vector<BlockFrame> out;
    for (std::uint64_t at = file->blocksBegin(); at < file->blocksEnd();) {
        const FrameRead frame = readFrame(file->source(), at, file->blocksEnd());
        if (frame.frame.kind() == kind) {
            out.push_back(frame.frame);
        }
        at = frame.frame.end();
    }
    return out;
}

// Gives a block the CRC its bytes have now, so only a comparison of the bytes can tell.
void fixCrc(const fs::path& path, const BlockFrame& frame) {
    const auto body = readBytes(path, frame.payloadOffset() - 1, frame.bodyLength);
    writeBytes(path, frame.end() - 8, le64(crc64xz(body)));
}

// Ten blocks of 100 records, stored as they are (codec none), so a changed byte in a record
// still reads as records.
void writeTenPlain(const fs::path& path) {
    WriterOptions options;
    options.codec = Codec::None;
    options.threads = 1;
    ZsWriter writer(path, {{"name", "ten"}}, options);
    for (int b = 0; b < 10; ++b) {
        writer.addBlock(keys(b * 100, 100));
    }
    writer.finish();
}

void expectRefused(const fs::path& input, const fs::path& output, const RepairOptions& options,
                   const std::string& code) {
    try {
        repairZsFile(input, output, options);
        ADD_FAILURE() << "a damaged output was published";
    } catch (const RepairError& e) {
        EXPECT_NE(std::string(e.what()).find(code), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(output));
    for (const auto& entry : fs::directory_iterator(output.parent_path())) {
        EXPECT_EQ(entry.path().filename().string().find(".strata-repair"), std::string::npos);
    }
}

// A copied block whose bytes change after writing, its CRC made to match: the records still
// read (a key's last digit changed, order kept), so nothing but the comparison with the input's
// bytes (or a second decode and the data hash) can catch it. The repair refuses to publish.
TEST(ZsRepair, TheFinalCheckRefusesACopiedBlockThatIsNotTheInputsBytes) {
    Scratch dir;
    writeTenPlain(dir / "in.zs");
    RepairOptions options;
    bool called = false;
    options.beforeOutputCheck = [&](const fs::path& stage) {
        called = true;
        const BlockFrame block = frames(stage, BlockKind::Data).at(3);
        const auto payload = readBytes(stage, block.payloadOffset(), block.payloadLength());
        // The first record: its length byte, then "key000300"; make it "key000301" (still
        // below the second record, "key000301", so the order holds).
        ASSERT_EQ(payload.at(0), 9u);
        ASSERT_EQ(payload.at(9), '0');
        writeBytes(stage, block.payloadOffset() + 9, std::vector<std::uint8_t>{'1'});
        fixCrc(stage, block);
    };
    expectRefused(dir / "in.zs", dir / "out.zs", options, "ZS-COPY-MISMATCH");
    EXPECT_TRUE(called);
}

TEST(ZsRepair, TheFinalCheckRefusesACopiedBlockWithAWrongCrc) {
    Scratch dir;
    const auto blocks = writeTen(dir / "in.zs");
    flipByte(dir / "in.zs", blocks[4] + 20);  // a loss in the input as well
    RepairOptions options;
    options.beforeOutputCheck = [&](const fs::path& stage) {
        const BlockFrame block = frames(stage, BlockKind::Data).at(6);
        flipByte(stage, block.payloadOffset() + 5);
    };
    expectRefused(dir / "in.zs", dir / "out.zs", options, "ZS-BLOCK-CRC");
}

// The header's data hash changed (and the header's CRC made to match): the data blocks are the
// copies they should be, so only the hash the repair took of the payloads it checked catches it.
TEST(ZsRepair, TheFinalCheckRefusesAWrongDataHash) {
    Scratch dir;
    writeTen(dir / "in.zs");
    RepairOptions options;
    options.beforeOutputCheck = [&](const fs::path& stage) {
        // The header: magic, u64 length, then root offset, root length, total length, SHA-256.
        const auto length = readBytes(stage, 8, 8);
        std::uint64_t n = 0;
        for (int i = 7; i >= 0; --i) {
            n = (n << 8) | length[static_cast<std::size_t>(i)];
        }
        flipByte(stage, 16 + 24 + 3);
        writeBytes(stage, 16 + n, le64(crc64xz(readBytes(stage, 16, n))));
    };
    expectRefused(dir / "in.zs", dir / "out.zs", options, "ZS-SHA256");
}

// The index is checked in full: a changed index block is refused (here by its CRC).
TEST(ZsRepair, TheFinalCheckRefusesADamagedIndex) {
    Scratch dir;
    writeTen(dir / "in.zs");
    RepairOptions options;
    options.beforeOutputCheck = [&](const fs::path& stage) {
        const BlockFrame root = frames(stage, BlockKind::Index).back();
        flipByte(stage, root.payloadOffset() + 2);
    };
    expectRefused(dir / "in.zs", dir / "out.zs", options, "ZS-BLOCK-CRC");
}

// The validator's copied mode on its own: a file checked against its own blocks is valid, with
// the diagnostics of a full validation; a list with a block too many, a wrong copy or a wrong
// hash is an error.
ZsCopiedData copiesOf(const ZsFile& file) {
    ZsCopiedData copied;
    Sha256 sha;
    for (std::uint64_t at = file.blocksBegin(); at < file.blocksEnd();) {
        const FrameRead frame = readFrame(file.source(), at, file.blocksEnd());
        at = frame.frame.end();
        if (frame.frame.kind() != BlockKind::Data) {
            continue;
        }
        const Payload payload =
            decodePayload(file.source(), frame.frame, *file.header().codec, file.limits());
        sha.update(payload.bytes.bytes);
        ZsCopiedBlock block{
            &file.source(), frame.frame.payloadOffset(), frame.frame.payloadLength(), 0, {}, {}};
        RecordCursor cursor(payload.bytes.bytes);
        while (auto r = cursor.next()) {
            const std::string text(r->begin(), r->end());
            block.first = block.records++ == 0 ? text : block.first;
            block.last = text;
        }
        copied.blocks.push_back(std::move(block));
    }
    copied.dataSha256 = sha.finish();
    return copied;
}

std::vector<std::string> errorCodes(const ZsFile& file, const ZsCopiedData* copied) {
    CollectingSink sink;
    ZsValidator(std::shared_ptr<const ZsFile>(&file, [](const ZsFile*) {}), copied)
        .run(sink, ValidationOptions{});
    std::vector<std::string> out;
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.severity == Severity::Error) {
            out.push_back(d.code);
        }
    }
    return out;
}

TEST(ZsValidatorCopied, AcceptsExactCopiesAndRefusesAnythingElse) {
    Scratch dir;
    writeTen(dir / "a.zs");
    auto file = ZsFile::open(openMappedFile(dir / "a.zs"));
    ZsCopiedData copied = copiesOf(*file);
    ASSERT_EQ(copied.blocks.size(), 10u);
    EXPECT_TRUE(errorCodes(*file, &copied).empty());

    ZsCopiedData extra = copied;
    extra.blocks.push_back(extra.blocks.back());
    EXPECT_EQ(errorCodes(*file, &extra), std::vector<std::string>{"ZS-COPY-MISMATCH"});

    ZsCopiedData fewer = copied;
    fewer.blocks.pop_back();  // the last block is then not a copy
    EXPECT_EQ(errorCodes(*file, &fewer), std::vector<std::string>{"ZS-COPY-MISMATCH"});

    ZsCopiedData swapped = copied;
    std::swap(swapped.blocks[2], swapped.blocks[3]);
    const auto codes = errorCodes(*file, &swapped);
    EXPECT_EQ(std::count(codes.begin(), codes.end(), "ZS-COPY-MISMATCH"), 2) << codes.size();

    ZsCopiedData hash = copied;
    hash.dataSha256[0] ^= 1;
    EXPECT_EQ(errorCodes(*file, &hash), std::vector<std::string>{"ZS-SHA256"});

    // The records given for a copy are what the order and key checks see: a first record that
    // sorts before the block ahead of it is an error like any other.
    ZsCopiedData keysOff = copied;
    keysOff.blocks[5].first = "key000000";
    EXPECT_FALSE(errorCodes(*file, &keysOff).empty());
}

// Random damage to generated files (bytes flipped inside the payloads of one to three data
// blocks, every fourth round also a cut), stored as they are (codec none: a flipped byte mostly
// leaves records that still read, in order) or deflated: every record of every block whose bytes
// survived comes back, in order; a block whose bytes changed never does, whatever it still reads
// as, and is a loss naming its bytes; nothing else is in the output.
TEST(ZsRepair, RandomDamageNeverKeepsABlockFailingItsCrc) {
    Scratch dir;
    std::mt19937 rng(20261127);
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const fs::path in = dir / ("in" + std::to_string(round) + ".zs");
        const fs::path out = dir / ("out" + std::to_string(round) + ".zs");
        if (round % 2 == 0) {
            writeTenPlain(in);
        } else {
            writeTen(in);
        }
        const std::vector<BlockFrame> blocks = frames(in, BlockKind::Data);
        ASSERT_EQ(blocks.size(), 10u);
        std::set<std::size_t> damaged;
        const int count = 1 + static_cast<int>(rng() % 3);
        while (damaged.size() < static_cast<std::size_t>(count)) {
            damaged.insert(rng() % blocks.size());
        }
        for (const std::size_t b : damaged) {
            for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips) {
                flipByte(in, blocks[b].payloadOffset() + rng() % blocks[b].payloadLength());
            }
        }
        std::uint64_t cut = fs::file_size(in);
        if (round % 4 == 0) {
            cut = blocks[5].offset + rng() % (cut - blocks[5].offset);
            fs::resize_file(in, cut);
        }
        RepairReport report;
        try {
            report = repairZsFile(in, out);
        } catch (const RepairError& e) {
            ADD_FAILURE() << e.what();
            continue;
        }
        std::vector<std::string> expected;
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            if (!damaged.contains(b) && blocks[b].end() <= cut) {
                const auto want = keys(static_cast<int>(b) * 100, 100);
                expected.insert(expected.end(), want.begin(), want.end());
            } else if (blocks[b].offset < cut) {
                const bool reported = std::any_of(
                    report.losses.begin(), report.losses.end(), [&](const RepairStep& l) {
                        return l.bytes.offset <= blocks[b].offset &&
                               blocks[b].offset < l.bytes.offset + l.bytes.length;
                    });
                EXPECT_TRUE(reported) << "block " << b << " at " << blocks[b].offset;
            }
        }
        EXPECT_EQ(records(out), expected);
        EXPECT_EQ(report.recovered, expected.size());
        EXPECT_FALSE(report.complete());
        EXPECT_TRUE(validates(out));
    }
}

// The case the old rule let through: a byte changed inside a stored block turns one record into
// another that still sorts in place, so the block reads as records in order and only its CRC
// tells. It is a loss; its records, as they read now, go to the quarantine beside the output,
// under a note naming the input, the block's bytes and the CRC, and the report names the file.
TEST(ZsRepair, ABlockFailingItsCrcIsALossAndItsRecordsAreQuarantined) {
    Scratch dir;
    writeTenPlain(dir / "in.zs");
    const BlockFrame block = frames(dir / "in.zs", BlockKind::Data).at(3);
    ASSERT_EQ(readBytes(dir / "in.zs", block.payloadOffset() + 9, 1).at(0), '0');
    writeBytes(dir / "in.zs", block.payloadOffset() + 9, std::vector<std::uint8_t>{'1'});

    RepairOptions dry;
    dry.dryRun = true;
    const RepairReport planned = repairZsFile(dir / "in.zs", dir / "out.zs", dry);
    EXPECT_FALSE(fs::exists(zsQuarantinePath(dir / "out.zs")));

    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_EQ(planned.losses.size(), report.losses.size());
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_FALSE(report.complete());
    EXPECT_EQ(report.recovered, 900u);
    EXPECT_EQ(report.losses[0].bytes.offset, block.offset);
    EXPECT_EQ(report.losses[0].bytes.length, block.totalLength());
    EXPECT_NE(report.losses[0].description.find("CRC does not match"), std::string::npos);
    const fs::path quarantine = zsQuarantinePath(dir / "out.zs");
    EXPECT_EQ(quarantine.filename(), "out.zs.quarantine.txt");
    EXPECT_NE(report.losses[0].description.find(quarantine.string()), std::string::npos)
        << report.losses[0].description;
    std::vector<std::string> expected = keys(0, 300);
    const auto rest = keys(400, 600);
    expected.insert(expected.end(), rest.begin(), rest.end());
    EXPECT_EQ(records(dir / "out.zs"), expected);

    std::ifstream in(quarantine);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    std::vector<std::string> quarantined;
    std::string note;
    for (const std::string& line : lines) {
        if (!line.starts_with("#")) {
            quarantined.push_back(line);
        } else if (line.find("byte " + std::to_string(block.offset)) != std::string::npos) {
            note = line;
        }
    }
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines[0].find((dir / "in.zs").string()), std::string::npos) << lines[0];
    EXPECT_NE(note.find((dir / "in.zs").string()), std::string::npos) << note;
    EXPECT_NE(note.find("CRC does not match"), std::string::npos) << note;
    std::vector<std::string> asRead = keys(300, 100);
    asRead[0] = "key000301";
    EXPECT_EQ(quarantined, asRead);
}

// Whatever the damaged block's records read as now (here out of order: "key00x300"), they go to
// the quarantine: a payload of records is never taken for index entries.
TEST(ZsRepair, ADamagedBlockIsQuarantinedWhateverItsRecordsReadAs) {
    Scratch dir;
    writeTenPlain(dir / "in.zs");
    const BlockFrame block = frames(dir / "in.zs", BlockKind::Data).at(3);
    writeBytes(dir / "in.zs", block.payloadOffset() + 6, std::vector<std::uint8_t>{'x'});
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_EQ(report.recovered, 900u);
    std::ifstream in(zsQuarantinePath(dir / "out.zs"));
    std::vector<std::string> quarantined;
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("#")) {
            quarantined.push_back(line);
        }
    }
    std::vector<std::string> asRead = keys(300, 100);
    asRead[0] = "key00x300";
    EXPECT_EQ(quarantined, asRead);
}

// Every byte value survives the quarantine's escaping, and no record line reads as a note.
TEST(ZsRepair, QuarantineLinesKeepEveryByte) {
    std::string all;
    for (int b = 0; b < 256; ++b) {
        all += static_cast<char>(b);
    }
    const std::string line = zsQuarantineLine(asBytes(all));
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_EQ(line.find('\r'), std::string::npos);
    std::string back;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '\\') {
            back += line[i];
            continue;
        }
        const char c = line.at(++i);
        if (c == 'x') {
            back += static_cast<char>(std::stoi(line.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            back += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
        }
    }
    EXPECT_EQ(back, all);
    EXPECT_EQ(zsQuarantineLine(asBytes("#not a note")), "\\x23not a note");
    EXPECT_EQ(zsQuarantineLine(asBytes("a#b")), "a#b");
    EXPECT_EQ(zsQuarantineLine({}), "");
}

// The metadata is copied byte for byte: parsed and encoded again, a wide integer would be
// rounded, a float or raw UTF-8 spelled otherwise, and the copy reported complete while its
// metadata is not the original's.
TEST(ZsRepair, TheMetadataIsCopiedByteForByte) {
    Scratch dir;
    const std::string metadata =
        "{\"big\":123456789012345678901234567890, \"x\": 1.0E5, \"t\": \"caf\xc3\xa9\"}";
    testing::TestZsWriter w(Codec::None, metadata);
    const testing::Placed data = w.dataBlock(keys(0, 10));
    w.setRoot(w.indexBlock(1, {{keys(0, 1)[0], data.offset, data.length}}));
    const testing::Bytes bytes = w.finish();
    std::ofstream(dir / "in.zs", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    const RepairReport report = repairZsFile(dir / "in.zs", dir / "out.zs");
    EXPECT_TRUE(report.complete());
    const Header out = ZsFile::open(openMappedFile(dir / "out.zs"))->header();
    const auto stored = readBytes(dir / "out.zs", out.metadataRegion.offset,
                                  std::size_t(out.metadataRegion.length));
    EXPECT_EQ(std::string(stored.begin(), stored.end()), metadata);
    EXPECT_TRUE(validates(dir / "out.zs"));
}

// A repair never writes over a quarantine file either.
TEST(ZsRepair, NeverReplacesAQuarantineFile) {
    Scratch dir;
    writeTen(dir / "in.zs");
    std::ofstream(zsQuarantinePath(dir / "out.zs")) << "mine";
    EXPECT_THROW(repairZsFile(dir / "in.zs", dir / "out.zs"), RepairError);
    EXPECT_FALSE(fs::exists(dir / "out.zs"));
}

}  // namespace
}  // namespace strata::zs
