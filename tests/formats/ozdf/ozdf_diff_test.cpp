// Comparing OZDF documents: diff(A, A) is empty, rewrapped text and other header case are
// encoding differences only, a known set of edits (a changed paragraph with its words, a removed
// block, an added list item, a moved block, a changed comment) is reported exactly and mirrors
// when the sides swap, and the word diff finds the changed words; random edits of random
// documents are reported exactly and mirror; one block, item or part moved among 20,000 is one
// move, and shuffled long lists report as moved exactly what a longest run in order leaves out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_diff.h"
#include "formats/ozdf/ozdf_parser.h"

namespace strata {
namespace {

struct Collected final : DiffSink {
    std::vector<Difference> all;
    bool add(Difference d) override {
        all.push_back(std::move(d));
        return true;
    }
    std::multimap<std::string, Difference> byPath() const {
        std::multimap<std::string, Difference> out;
        for (const Difference& d : all) {
            out.emplace(d.path, d);
        }
        return out;
    }
};

std::shared_ptr<const ozdf::Document> parse(const std::string& text,
                                            const std::string& name = "doc.ozdf") {
    return std::make_shared<const ozdf::Document>(
        ozdf::readDocumentSource(makeBufferSource(text, name), name));
}

Collected diff(const std::string& a, const std::string& b) {
    auto differ = makeOzdfDiffer({parse(a), nullptr, nullptr}, {parse(b), nullptr, nullptr});
    Collected sink;
    EXPECT_EQ(differ->run(sink, {}), JobOutcome::Completed);
    return sink;
}

const std::string kBase =
    "#### TITLE\n"
    "Little Women\n"
    "\n"
    "#### BODY\n"
    "Christmas won't be Christmas without any presents, grumbled Jo.\n"
    "\n"
    "It's so dreadful to be poor!\n"
    "\n"
    "#### [CHAPTERS]\n"
    "==== ONE\n"
    "Playing pilgrims.\n"
    "\n"
    "==== TWO\n"
    "A merry Christmas.\n"
    "\n"
    "#### COMMENT\n"
    "draft one\n"
    "\n"
    "#### NOTES\n"
    "Keep.\n";

TEST(OzdfDiff, ADocumentEqualsItself) {
    EXPECT_TRUE(diff(kBase, kBase).all.empty());
}

TEST(OzdfDiff, RewrappedTextIsOnlyEncoding) {
    std::string rewrapped = kBase;
    const std::string line = "Christmas won't be Christmas without any presents, grumbled Jo.\n";
    rewrapped.replace(rewrapped.find(line), line.size(),
                      "Christmas won't be Christmas\nwithout any presents, grumbled Jo.\n");
    const Collected c = diff(kBase, rewrapped);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Encoding);
    EXPECT_EQ(c.all[0].path, "doc.ozdf/block BODY");
}

TEST(OzdfDiff, AKnownSetOfEditsIsReportedExactlyAndMirrors) {
    const std::string edited =
        "#### NOTES\n"  // moved to the front
        "Keep.\n"
        "\n"
        "#### BODY\n"
        "Christmas won't be Christmas without any gifts, grumbled Jo.\n"
        "\n"
        "It's so dreadful to be poor!\n"
        "\n"
        "#### [CHAPTERS]\n"
        "==== ONE\n"
        "Playing pilgrims.\n"
        "\n"
        "==== TWO\n"
        "A merry Christmas.\n"
        "\n"
        "==== THREE\n"
        "Good Samaritans.\n"
        "\n"
        "#### COMMENT\n"
        "draft two\n";
    const auto ab = diff(kBase, edited).byPath();
    // TITLE removed; BODY changed; CHAPTERS changed (item THREE added); comment changed; NOTES
    // moved (TITLE's removal alone moves nothing).
    ASSERT_EQ(ab.size(), 5u);
    EXPECT_EQ(ab.find("doc.ozdf/block TITLE")->second.kind, DiffKind::Removed);
    const Difference& body = ab.find("doc.ozdf/block BODY")->second;
    EXPECT_EQ(body.kind, DiffKind::Changed);
    ASSERT_EQ(body.fields.size(), 2u);
    EXPECT_EQ(body.fields[0].path, "paragraph 1");
    EXPECT_EQ(body.fields[1].path, "paragraph 1 words");
    EXPECT_EQ(body.fields[1].a, "presents,");
    EXPECT_EQ(body.fields[1].b, "gifts,");
    // The words are in the description itself, not only in the fields (a tooltip in the app).
    EXPECT_EQ(body.description, "1 changed: \"presents,\" → \"gifts,\"");
    const Difference& chapters = ab.find("doc.ozdf/list CHAPTERS")->second;
    ASSERT_EQ(chapters.fields.size(), 1u);
    EXPECT_EQ(chapters.fields[0].path, "item THREE");
    EXPECT_EQ(chapters.fields[0].kind, DiffKind::Added);
    EXPECT_EQ(ab.find("doc.ozdf/comment 1")->second.kind, DiffKind::Changed);
    EXPECT_EQ(ab.find("doc.ozdf/block NOTES")->second.kind, DiffKind::Moved);

    const auto ba = diff(edited, kBase).byPath();
    ASSERT_EQ(ba.size(), ab.size());
    EXPECT_EQ(ba.find("doc.ozdf/block TITLE")->second.kind, DiffKind::Added);
    EXPECT_EQ(ba.find("doc.ozdf/list CHAPTERS")->second.fields[0].kind, DiffKind::Removed);
    EXPECT_EQ(ba.find("doc.ozdf/block NOTES")->second.kind, DiffKind::Moved);
}

// List items that share a name are matched by name and by which of that name they are; items
// named "1" and "2" are not the first and second unnamed ones.
TEST(OzdfDiff, ItemsOfOneNameAreMatchedByNameAndPosition) {
    const std::string twice =
        "#### [TALK]\n==== Joe\nHi Beth.\n\n==== Beth\nHi Joe.\n\n==== Joe\nBye.\n";
    EXPECT_TRUE(diff(twice, twice).all.empty());
    std::string edited = twice;
    edited.replace(edited.find("Bye."), 4, "Bye now.");
    const Collected c = diff(twice, edited);
    ASSERT_EQ(c.all.size(), 1u);
    ASSERT_EQ(c.all[0].fields.size(), 2u);
    EXPECT_EQ(c.all[0].fields[0].path, "item Joe #2/paragraph 1");
    EXPECT_EQ(c.all[0].fields[0].a, "Bye.");

    const std::string unnamed = "#### [L]\n====\nfirst\n\n====\nsecond\n";
    const std::string named = "#### [L]\n==== 1\nfirst\n\n==== 2\nsecond\n";
    EXPECT_TRUE(diff(named, named).all.empty());
    const Collected n = diff(unnamed, named);
    ASSERT_EQ(n.all.size(), 1u);
    EXPECT_EQ(n.all[0].fields.size(), 4u);  // both unnamed removed, both named added
}

TEST(OzdfDiff, HeaderCaseIsOnlyEncoding) {
    std::string lower = kBase;
    lower.replace(lower.find("#### NOTES"), 10, "#### notes");
    const Collected c = diff(kBase, lower);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Encoding);
}

TEST(OzdfDiff, WordDiffKeepsTheCommonWords) {
    const OzdfWordDiff w =
        ozdfWordDiff("the quick brown fox jumps", "the slow brown fox leaps high");
    EXPECT_EQ(w.removed, (std::vector<std::string>{"quick", "jumps"}));
    EXPECT_EQ(w.added, (std::vector<std::string>{"slow", "leaps", "high"}));
}

TEST(OzdfDiff, HugeParagraphsFallBackToPositionalPairing) {
    std::string a, b;
    for (int i = 0; i < 5000; ++i) {
        a += "w" + std::to_string(i) + " ";
        b += "w" + std::to_string(i == 2500 ? -1 : i) + " ";
    }
    const OzdfWordDiff w = ozdfWordDiff(a, b);
    EXPECT_EQ(w.removed, (std::vector<std::string>{"w2500"}));
    EXPECT_EQ(w.added, (std::vector<std::string>{"w-1"}));
}

// A block of random paragraphs, each on one line or (`wrapped`) broken over lines.
struct RandomBlock {
    std::string name;
    std::vector<std::vector<std::string>> paragraphs;  // words

    std::string text(bool wrapped) const {
        std::string out = "#### " + name + "\n";
        for (const auto& words : paragraphs) {
            for (std::size_t i = 0; i < words.size(); ++i) {
                out += (i == 0 ? "" : (wrapped && i % 3 == 0 ? "\n" : " ")) + words[i];
            }
            out += "\n\n";
        }
        return out;
    }
};

// Property: for random documents with random edits (a block removed, added at the end, a word
// changed, a paragraph rewrapped), diff(A, B) reports exactly those edits, diff(B, A) mirrors
// it, and diff(A, A) is empty.
TEST(OzdfDiff, RandomEditsAreReportedExactlyAndMirror) {
    static const char* const kWords[] = {"march", "meg",  "jo",    "beth", "amy",   "laurie",
                                         "snow",  "lamp", "piano", "book", "green", "attic"};
    std::mt19937 rng(20261125);
    for (int round = 0; round < 40; ++round) {
        std::vector<RandomBlock> blocks;
        for (unsigned b = 0, n = 1 + rng() % 6; b < n; ++b) {
            RandomBlock block{"BLOCK" + std::string(1, char('A' + b)), {}};
            for (unsigned p = 0, ps = 1 + rng() % 3; p < ps; ++p) {
                std::vector<std::string> words;
                for (unsigned w = 0, ws = 2 + rng() % 9; w < ws; ++w) {
                    words.push_back(kWords[rng() % std::size(kWords)]);
                }
                block.paragraphs.push_back(words);
            }
            blocks.push_back(block);
        }
        std::string a, b;
        std::map<std::string, DiffKind> expected;
        for (const RandomBlock& block : blocks) {
            a += block.text(false);
            const std::string path = "doc.ozdf/block " + block.name;
            switch (rng() % 4) {
                case 0:
                    expected[path] = DiffKind::Removed;
                    break;
                case 1: {
                    RandomBlock changed = block;
                    auto& words = changed.paragraphs[rng() % changed.paragraphs.size()];
                    words[rng() % words.size()] = "changed";
                    b += changed.text(false);
                    expected[path] = DiffKind::Changed;
                    break;
                }
                case 2:
                    b += block.text(true);
                    if (block.text(true) != block.text(false)) {
                        expected[path] = DiffKind::Encoding;
                    }
                    break;
                default:
                    b += block.text(false);
                    break;
            }
        }
        if (rng() % 2 == 0) {
            b += RandomBlock{"ADDED", {{"new", "words"}}}.text(false);
            expected["doc.ozdf/block ADDED"] = DiffKind::Added;
        }
        if (a.empty() || b.empty()) {
            continue;  // an empty document is not what this property is about
        }
        EXPECT_TRUE(diff(a, a).all.empty()) << a;
        const auto ab = diff(a, b).byPath();
        std::map<std::string, DiffKind> got;
        for (const auto& [path, d] : ab) {
            got[path] = d.kind;
        }
        EXPECT_EQ(got, expected) << "round " << round << "\nA:\n" << a << "\nB:\n" << b;
        const auto ba = diff(b, a).byPath();
        ASSERT_EQ(ba.size(), ab.size()) << "round " << round;
        for (const auto& [path, d] : ab) {
            const DiffKind mirrored = d.kind == DiffKind::Added     ? DiffKind::Removed
                                      : d.kind == DiffKind::Removed ? DiffKind::Added
                                                                    : d.kind;
            ASSERT_NE(ba.find(path), ba.end()) << path;
            EXPECT_EQ(ba.find(path)->second.kind, mirrored) << "round " << round << " " << path;
        }
    }
}

// Item names N00000..: `order` gives the item at each position.
std::string longList(const std::vector<std::size_t>& order) {
    std::string text = "#### [LONG]\n";
    for (const std::size_t i : order) {
        char name[16];
        std::snprintf(name, sizeof name, "N%05zu", i);
        text += "==== " + std::string(name) + "\ntext " + std::to_string(i) + "\n\n";
    }
    return text;
}

std::vector<std::size_t> identity(std::size_t n) {
    std::vector<std::size_t> out(n);
    std::iota(out.begin(), out.end(), std::size_t{0});
    return out;
}

std::vector<DiffField> movedFields(const Collected& c) {
    std::vector<DiffField> out;
    for (const Difference& d : c.all) {
        for (const DiffField& f : d.fields) {
            if (f.kind == DiffKind::Moved) {
                out.push_back(f);
            }
        }
    }
    return out;
}

// Beyond a few thousand items the order was compared by position: one item moved was reported
// as every item between its two places moved.
TEST(OzdfDiff, OneItemMovedInALongListIsOneMove) {
    constexpr std::size_t kItems = 20000;
    std::vector<std::size_t> order = identity(kItems);
    order.erase(order.begin() + 10);
    order.insert(order.begin() + 15000, 10);
    const Collected c = diff(longList(identity(kItems)), longList(order));
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].path, "doc.ozdf/list LONG");
    EXPECT_EQ(c.all[0].description, "1 moved");
    const std::vector<DiffField> moved = movedFields(c);
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(moved[0].path, "item N00010");
    EXPECT_EQ(moved[0].b, "position 15001");
}

TEST(OzdfDiff, OneBlockMovedAmongManyIsOneMove) {
    constexpr int kBlocks = 20000;
    std::string a, b;
    for (int i = 0; i < kBlocks; ++i) {
        const std::string block = "#### B" + std::to_string(i) + "\nx\n\n";
        a += block;
        b += i == 7 ? "" : block;
        b += i == 12345 ? "#### B7\nx\n\n" : "";
    }
    const Collected c = diff(a, b);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Moved);
    EXPECT_EQ(c.all[0].path, "doc.ozdf/block B7");
    EXPECT_EQ(c.all[0].description, "block moved from position 8 to 12346");
}

// The moves reported leave a longest run of items in their order, at every size: as many as
// the items less the longest increasing run of their new places.
TEST(OzdfDiff, ShuffledListsReportWhatALongestRunInOrderLeavesOut) {
    std::mt19937 rng(20261128);
    for (const std::size_t n : {5u, 40u, 3000u, 12000u}) {
        std::vector<std::size_t> order = identity(n);
        for (std::size_t k = 0; k < 1 + n / 100; ++k) {  // items taken out and put elsewhere
            const std::size_t item = order[rng() % n];
            order.erase(std::find(order.begin(), order.end(), item));
            order.insert(order.begin() + static_cast<std::ptrdiff_t>(rng() % n), item);
        }
        // The longest increasing run of the new places, in A's order, by patience sorting.
        std::vector<std::size_t> place(n), tails;
        for (std::size_t j = 0; j < n; ++j) {
            place[order[j]] = j;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const auto it = std::lower_bound(tails.begin(), tails.end(), place[i]);
            if (it == tails.end()) {
                tails.push_back(place[i]);
            } else {
                *it = place[i];
            }
        }
        const Collected c = diff(longList(identity(n)), longList(order));
        EXPECT_EQ(movedFields(c).size(), n - tails.size()) << n << " items";
        const Collected back = diff(longList(order), longList(identity(n)));
        EXPECT_EQ(movedFields(back).size(), n - tails.size()) << n << " items, sides swapped";
    }
}

// Which entries of `order` the longest-common-subsequence table with the sorted order left out,
// walked as the diff walked it before moves were found in O(n log n): of several longest runs
// in order, the diff still picks this one.
std::vector<bool> movedByTheTableWalk(const std::vector<std::size_t>& order) {
    std::vector<std::size_t> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = order.size();
    std::vector<std::vector<std::size_t>> t(n + 1, std::vector<std::size_t>(n + 1, 0));
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = n; j-- > 0;) {
            t[i][j] =
                order[i] == sorted[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
        }
    }
    std::vector<bool> moved(n, true);
    for (std::size_t i = 0, j = 0; i < n && j < n;) {
        if (order[i] == sorted[j]) {
            moved[i++] = false;
            ++j;
        } else if (t[i + 1][j] >= t[i][j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
    return moved;
}

TEST(OzdfDiff, SmallListsReportTheMovesTheTableWalkDid) {
    std::mt19937 rng(7);
    for (int round = 0; round < 300; ++round) {
        const std::size_t n = 1 + rng() % 12;
        std::vector<std::size_t> order = identity(n);
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<std::size_t> place(n);  // B positions in A's order
        for (std::size_t j = 0; j < n; ++j) {
            place[order[j]] = j;
        }
        const std::vector<bool> expected = movedByTheTableWalk(place);
        std::set<std::string> want;
        for (std::size_t i = 0; i < n; ++i) {
            if (expected[i]) {
                char name[16];
                std::snprintf(name, sizeof name, "item N%05zu", i);
                want.insert(name);
            }
        }
        std::set<std::string> got;
        for (const DiffField& f : movedFields(diff(longList(identity(n)), longList(order)))) {
            got.insert(f.path);
        }
        EXPECT_EQ(got, want) << "round " << round;
    }
}

// A directory document of 20,000 parts, NAME blocks N00000.. in `order`.
std::filesystem::path writeParts(const std::filesystem::path& folder,
                                 const std::vector<std::size_t>& order) {
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "_metadata.ozdf") << "#### [[P]]\n\n";
    for (std::size_t j = 0; j < order.size(); ++j) {
        char name[32], item[16];
        std::snprintf(name, sizeof name, "P-%05zu.ozdp", j + 1);
        std::snprintf(item, sizeof item, "N%05zu", order[j]);
        std::ofstream(folder / name) << "#### NAME\n"
                                     << item << "\n\n#### DATA\np" << order[j] << "\n\n";
    }
    return folder;
}

TEST(OzdfDiff, OnePartMovedInATwentyThousandPartListIsOneMove) {
    namespace fs = std::filesystem;
    const fs::path root =
        fs::temp_directory_path() / ("strata_ozdf_diff_parts_" + std::to_string(::getpid()));
    fs::remove_all(root);
    constexpr std::size_t kParts = 20000;
    std::vector<std::size_t> order = identity(kParts);
    order.erase(order.begin() + 19000);
    order.insert(order.begin() + 3, 19000);
    auto a = std::make_shared<const ozdf::Document>(
        ozdf::readDocument(writeParts(root / "a" / "doc", identity(kParts))));
    auto b = std::make_shared<const ozdf::Document>(
        ozdf::readDocument(writeParts(root / "b" / "doc", order)));
    ASSERT_TRUE(a->accepted());
    ASSERT_EQ(b->elements.at(0).items.size(), kParts);
    Collected c;
    EXPECT_EQ(makeOzdfDiffer({a, nullptr, nullptr}, {b, nullptr, nullptr})->run(c, {}),
              JobOutcome::Completed);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].path, "doc/list P");
    const std::vector<DiffField> moved = movedFields(c);
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(moved[0].path, "item N19000");
    EXPECT_EQ(moved[0].b, "position 4");
    fs::remove_all(root);
}

}  // namespace
}  // namespace strata
