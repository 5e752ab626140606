// Comparing ZS files: diff(A, A) is empty, the same records in other blocks or another codec
// are only encoding differences, a known set of record edits is reported exactly and mirrors
// when the sides swap, and a damaged block on either side is reported as such while the rest
// is compared.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/zs/zs_diff.h"
#include "formats/zs/zs_writer.h"
#include "scratch_dir.h"
#include "zs_test_writer.h"

namespace strata::zs {
namespace {

namespace fs = std::filesystem;

class Scratch : public test::ScratchDir {
public:
    Scratch() : ScratchDir("zs_diff") {}
};

struct Collected final : DiffSink {
    std::vector<Difference> all;
    bool add(Difference d) override {
        all.push_back(std::move(d));
        return true;
    }
    std::map<std::string, DiffKind> byPath() const {
        std::map<std::string, DiffKind> out;
        for (const Difference& d : all) {
            out[d.path] = d.kind;
        }
        return out;
    }
};

std::vector<std::string> keys(int n, const std::string& prefix = "key") {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%s%06d", prefix.c_str(), i);
        out.emplace_back(buffer);
    }
    return out;
}

// Writes `records` (sorted) in blocks of `perBlock`.
std::shared_ptr<const ZsFile> write(const fs::path& path, const std::vector<std::string>& records,
                                    std::size_t perBlock, Codec codec = Codec::Deflate,
                                    nlohmann::ordered_json metadata = {{"name", "t"}}) {
    WriterOptions options;
    options.codec = codec;
    options.threads = 1;
    ZsWriter writer(path, metadata, options);
    for (std::size_t i = 0; i < records.size(); i += perBlock) {
        writer.addBlock({records.begin() + long(i),
                         records.begin() + long(std::min(records.size(), i + perBlock))});
    }
    writer.finish();
    return ZsFile::open(openMappedFile(path));
}

Collected diff(std::shared_ptr<const ZsFile> a, std::shared_ptr<const ZsFile> b,
               DiffSummary* summary = nullptr) {
    auto differ = makeZsDiffer(std::move(a), std::move(b));
    Collected sink;
    EXPECT_EQ(differ->run(sink, {}), JobOutcome::Completed);
    if (summary != nullptr) {
        *summary = differ->summary();
    }
    return sink;
}

TEST(ZsDiff, AFileEqualsItself) {
    Scratch dir;
    const auto f = write(dir / "a.zs", keys(5000), 700);
    DiffSummary summary;
    EXPECT_TRUE(diff(f, f, &summary).all.empty());
    EXPECT_EQ(summary.compared, 5000u);
}

TEST(ZsDiff, SameRecordsInOtherBlocksAndCodecAreOnlyEncoding) {
    Scratch dir;
    const auto a = write(dir / "a.zs", keys(5000), 700, Codec::Deflate);
    const auto b = write(dir / "b.zs", keys(5000), 2000, Codec::Lzma2);
    DiffSummary summary;
    const auto c = diff(a, b, &summary).byPath();
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c.at("header/codec"), DiffKind::Encoding);
    EXPECT_EQ(c.at("blocks"), DiffKind::Encoding);
    EXPECT_TRUE(summary.contentEqual());
}

TEST(ZsDiff, AKnownSetOfEditsIsReportedExactlyAndMirrors) {
    Scratch dir;
    std::vector<std::string> base = keys(3000);
    std::vector<std::string> edited = base;
    edited.erase(edited.begin() + 1500);              // key001500 removed
    edited.erase(edited.begin());                     // key000000 removed
    edited.push_back("zzz-last");                     // added at the end
    edited.insert(edited.begin() + 9, "key000009x");  // added in the middle
    std::string binary("key\x01\xff", 5);
    edited.insert(edited.begin(), binary);  // sorts before "key000001"
    const auto a = write(dir / "a.zs", base, 500, Codec::Deflate, {{"name", "t"}, {"v", 1}});
    const auto b = write(dir / "b.zs", edited, 333, Codec::Deflate, {{"name", "t"}, {"v", 2}});
    const auto ab = diff(a, b).byPath();
    const std::map<std::string, DiffKind> expected{
        {"header/metadata", DiffKind::Changed},  {"record/key000000", DiffKind::Removed},
        {"record/key001500", DiffKind::Removed}, {"record/key000009x", DiffKind::Added},
        {"record/zzz-last", DiffKind::Added},    {"record/key\\x01\\xff", DiffKind::Added}};
    EXPECT_EQ(ab, expected);
    const auto ba = diff(b, a).byPath();
    ASSERT_EQ(ba.size(), ab.size());
    for (const auto& [path, kind] : ab) {
        const DiffKind mirrored = kind == DiffKind::Added     ? DiffKind::Removed
                                  : kind == DiffKind::Removed ? DiffKind::Added
                                                              : kind;
        EXPECT_EQ(ba.at(path), mirrored) << path;
    }
}

TEST(ZsDiff, DuplicateRecordsCountAsAMultiset) {
    Scratch dir;
    const auto a = write(dir / "a.zs", {"a", "b", "b", "c"}, 2);
    const auto b = write(dir / "b.zs", {"a", "b", "c"}, 2);
    const Collected c = diff(a, b);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].path, "record/b");
    EXPECT_EQ(c.all[0].kind, DiffKind::Removed);
}

// A damaged block is a difference of its own and the comparison goes on: compared with a good
// copy, exactly that block's records show as only in the good copy; compared with its own
// repair (the block left out), only the damage is reported.
TEST(ZsDiff, ADamagedBlockIsReportedAndTheRestCompared) {
    Scratch dir;
    const auto all = keys(3000);
    const auto good = write(dir / "b.zs", all, 500);
    write(dir / "a.zs", all, 500);
    write(dir / "repaired.zs", std::vector<std::string>(all.begin() + 500, all.end()), 500);
    {
        std::fstream f(dir / "a.zs", std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(long(good->blocksBegin()) + 40);  // inside the first data block
        f.put('\x5a');
    }
    const auto bad = ZsFile::open(openMappedFile(dir / "a.zs"));
    DiffSummary summary;
    const Collected ab = diff(bad, good, &summary);
    const std::string damage = "damage/A/" + std::to_string(good->blocksBegin());
    ASSERT_EQ(ab.byPath().count(damage), 1u);
    EXPECT_EQ(summary.added, 500u);
    EXPECT_EQ(summary.removed, 0u);
    EXPECT_EQ(summary.changed, 1u);
    for (const Difference& d : ab.all) {
        if (d.path == damage) {
            EXPECT_EQ(d.a.region.offset, good->blocksBegin());
            EXPECT_GT(d.a.region.length, 40u);
            EXPECT_NE(d.description.find("cannot be read"), std::string::npos) << d.description;
            // The block's offset is named once, not "in the block at N (byte N)".
            const std::string at = std::to_string(good->blocksBegin());
            EXPECT_EQ(d.description.find("(byte " + at + ")"), std::string::npos) << d.description;
        }
    }
    const Collected ba = diff(good, bad, &summary);
    EXPECT_EQ(ba.byPath().count("damage/B/" + std::to_string(good->blocksBegin())), 1u);
    EXPECT_EQ(summary.removed, 500u);
    EXPECT_EQ(summary.added, 0u);

    const Collected repaired =
        diff(bad, ZsFile::open(openMappedFile(dir / "repaired.zs")), &summary);
    EXPECT_EQ(repaired.all.size(), 1u);
    EXPECT_EQ(summary.total(), 1u);
}

// A file cut short: the rest of it is one damaged region, and the other side's records after
// the cut are only there.
TEST(ZsDiff, ATruncatedFileIsComparedUpToTheCut) {
    Scratch dir;
    const auto good = write(dir / "b.zs", keys(3000), 500);
    write(dir / "a.zs", keys(3000), 500);
    fs::resize_file(dir / "a.zs", good->blocksBegin() + 10);
    DiffSummary summary;
    const Collected ab = diff(ZsFile::open(openMappedFile(dir / "a.zs")), good, &summary);
    EXPECT_EQ(summary.changed, 1u);
    EXPECT_EQ(summary.added, 3000u);
    EXPECT_EQ(ab.byPath().count("damage/A/" + std::to_string(good->blocksBegin())), 1u);
}

// A length field that cannot be read (zeroed) loses only its block: the walk goes on at the
// next intact block, found through the index or, with the index gone, by scanning, so the
// records after it are compared and not reported as only in B.
TEST(ZsDiff, AnUnreadableLengthLosesOnlyItsBlock) {
    for (const bool indexGone : {false, true}) {
        SCOPED_TRACE(indexGone ? "index gone" : "index intact");
        Scratch dir;
        const auto good = write(dir / "b.zs", keys(1000), 100);
        write(dir / "a.zs", keys(1000), 100);
        std::vector<std::uint64_t> starts;
        for (std::uint64_t at = good->blocksBegin(); at < good->blocksEnd();) {
            starts.push_back(at);
            at = readFrame(good->source(), at, good->blocksEnd()).frame.end();
        }
        {
            std::fstream f(dir / "a.zs", std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(long(starts[3]));
            f.put('\0');
            if (indexGone) {
                f.seekp(long(starts.back()));
                f.write("\0\0\0\0", 4);
            }
        }
        DiffSummary summary;
        const Collected ab = diff(ZsFile::open(openMappedFile(dir / "a.zs")), good, &summary);
        EXPECT_EQ(summary.added, 100u);
        EXPECT_EQ(summary.removed, 0u);
        EXPECT_EQ(ab.byPath().count("damage/A/" + std::to_string(starts[3])), 1u);
        for (const Difference& d : ab.all) {
            if (d.path == "damage/A/" + std::to_string(starts[3])) {
                EXPECT_EQ(d.a.region.length, starts[4] - starts[3]) << d.description;
            }
        }
    }
}

// Records that are not there although no block is damaged (a file cut exactly at a block
// boundary) are caught by the header's data SHA-256: the comparison with a file holding just
// the records that survived is not "no differences".
TEST(ZsDiff, RecordsMissingWithoutDamageAreFoundByTheDataHash) {
    Scratch dir;
    const auto full = write(dir / "a.zs", keys(1000), 100);
    std::uint64_t cut = full->blocksBegin();
    for (int b = 0; b < 6; ++b) {
        cut = readFrame(full->source(), cut, full->blocksEnd()).frame.end();
    }
    fs::resize_file(dir / "a.zs", cut);
    const auto survivors = write(dir / "b.zs", keys(600), 100);
    DiffSummary summary;
    const Collected ab = diff(ZsFile::open(openMappedFile(dir / "a.zs")), survivors, &summary);
    ASSERT_EQ(ab.all.size(), 1u);
    EXPECT_EQ(ab.all[0].path, "damage/A/sha256");
    EXPECT_NE(ab.all[0].description.find("shorter than its header says"), std::string::npos)
        << ab.all[0].description;
    const Collected ba = diff(survivors, ZsFile::open(openMappedFile(dir / "a.zs")), &summary);
    EXPECT_EQ(ba.byPath().count("damage/B/sha256"), 1u);
    EXPECT_TRUE(diff(survivors, survivors).all.empty());
}

// Hand-made files: records a writer put out of order, and metadata that is not JSON.
std::shared_ptr<const ZsFile> handMade(const std::vector<std::vector<std::string>>& blocks,
                                       const std::string& metadata = "{}") {
    testing::TestZsWriter w(Codec::None, metadata);
    std::vector<testing::TestEntry> entries;
    for (const auto& records : blocks) {
        const testing::Placed placed = w.dataBlock(records);
        entries.push_back({records.front(), placed.offset, placed.length});
    }
    w.setRoot(w.indexBlock(1, entries));
    const testing::Bytes bytes = w.finish();
    return ZsFile::open(makeBufferSource(std::string(bytes.begin(), bytes.end()), "hand.zs"));
}

// Records out of order cannot be merged: the comparison ends with an error naming the side and
// the block, instead of reporting records as only on one side that both hold.
TEST(ZsDiff, RecordsOutOfOrderEndTheComparison) {
    const auto unsorted = handMade({{"a", "z"}, {"b"}});
    const auto sorted = handMade({{"a", "b", "z"}});
    auto differ = makeZsDiffer(unsorted, sorted);
    Collected sink;
    try {
        differ->run(sink, {});
        ADD_FAILURE() << "compared records out of order";
    } catch (const DiffError& e) {
        EXPECT_NE(std::string(e.what()).find("A ("), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("out of order"), std::string::npos) << e.what();
    }
    EXPECT_THROW(makeZsDiffer(sorted, handMade({{"b", "a"}}))->run(sink, {}), DiffError);
}

// Metadata that is not JSON is compared by its bytes.
TEST(ZsDiff, MetadataThatIsNotJsonIsComparedByItsBytes) {
    const auto a = handMade({{"a"}}, "{oops");
    const auto b = handMade({{"a"}}, "{oopz");
    ASSERT_FALSE(a->header().metadata.has_value());
    const Collected ab = diff(a, b);
    ASSERT_EQ(ab.all.size(), 1u);
    EXPECT_EQ(ab.all[0].path, "header/metadata");
    EXPECT_TRUE(diff(a, handMade({{"a"}}, "{oops")).all.empty());
}

// Integers beyond 64 bits are read as doubles: two that differ in their last digits read the
// same, and are still a difference; other spellings of the same values are not.
TEST(ZsDiff, WideMetadataIntegersAreComparedAsWritten) {
    const auto a = handMade({{"a"}}, "{\"n\": 123456789012345678901234567890}");
    const auto b = handMade({{"a"}}, "{\"n\": 123456789012345678901234567891}");
    const Collected ab = diff(a, b);
    ASSERT_EQ(ab.all.size(), 1u);
    EXPECT_EQ(ab.all[0].path, "header/metadata");
    EXPECT_TRUE(diff(a, handMade({{"a"}}, "{\"n\":123456789012345678901234567890}")).all.empty());
    EXPECT_TRUE(diff(handMade({{"a"}}, "{\"x\": 1.0E5}"), handMade({{"a"}}, "{\"x\": 100000.0}"))
                    .all.empty());
}

// Property: for random record multisets, diff(A, B) reports exactly the multiset differences
// (A − B removed, B − A added), diff(B, A) mirrors it, and diff(A, A) is empty.
TEST(ZsDiff, RandomRecordSetsReportExactlyTheMultisetDifference) {
    Scratch dir;
    std::mt19937 rng(20261125);
    for (int round = 0; round < 12; ++round) {
        std::vector<std::string> a, b;
        const int n = 1 + int(rng() % 3000);
        for (int i = 0; i < n; ++i) {
            const std::string key = "k" + std::to_string(rng() % 2000);
            if (rng() % 3 != 0) {
                a.push_back(key);
            }
            if (rng() % 3 != 0) {
                b.push_back(key);
            }
        }
        if (a.empty() || b.empty()) {
            continue;
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        std::multiset<std::string> onlyA, onlyB;
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                            std::inserter(onlyA, onlyA.end()));
        std::set_difference(b.begin(), b.end(), a.begin(), a.end(),
                            std::inserter(onlyB, onlyB.end()));
        const auto fa = write(dir / ("a" + std::to_string(round)), a, 1 + rng() % 700);
        const auto fb = write(dir / ("b" + std::to_string(round)), b, 1 + rng() % 700);
        std::multiset<std::string> removed, added;
        for (const Difference& d : diff(fa, fb).all) {
            if (d.kind == DiffKind::Removed) {
                removed.insert(d.path.substr(7));
            } else if (d.kind == DiffKind::Added) {
                added.insert(d.path.substr(7));
            }
        }
        EXPECT_EQ(removed, onlyA) << "round " << round;
        EXPECT_EQ(added, onlyB) << "round " << round;
        std::multiset<std::string> mirroredRemoved;
        for (const Difference& d : diff(fb, fa).all) {
            if (d.kind == DiffKind::Removed) {
                mirroredRemoved.insert(d.path.substr(7));
            }
        }
        EXPECT_EQ(mirroredRemoved, onlyB) << "round " << round;
        EXPECT_TRUE(diff(fa, fa).all.empty());
    }
}

}  // namespace
}  // namespace strata::zs
