// The one-pass line scanner behind the fast reader agrees with the slower per-rule functions on
// every mix of text, Unicode whitespace, line breaks and bad UTF-8; paragraphs read through the
// copy-once path and the normalising path give what the reference gives; a corpus read on
// several threads keeps its order; the helper that runs documents on several threads runs each
// once, reports progress from the caller's thread and rethrows failures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_parallel.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_text.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

bool validUtf8(std::string_view text) {
    return sanitizeUtf8(text) == text;
}

// What scanLine should find, from the per-rule functions.
void expectAgrees(std::string_view bytes) {
    SCOPED_TRACE(::testing::PrintToString(std::string(bytes)));
    std::size_t at = 0;
    while (at < bytes.size()) {
        const ScannedLine scan = scanLine(bytes, at);
        std::size_t end = bytes.find_first_of("\r\n", at);
        end = end == std::string_view::npos ? bytes.size() : end;
        ASSERT_EQ(scan.end, end);
        std::size_t next = end == bytes.size() ? end : end + 1;
        if (end < bytes.size() && bytes[end] == '\r' && next < bytes.size() &&
            bytes[next] == '\n') {
            ++next;
        }
        ASSERT_EQ(scan.next, next);
        const std::string_view line = bytes.substr(at, end - at);
        const Trimmed trim = trimSpaces(line);
        EXPECT_EQ(scan.textBegin, at + trim.begin);
        EXPECT_EQ(scan.textEnd, at + trim.end);
        const std::string_view text = line.substr(trim.begin, trim.end - trim.begin);
        EXPECT_EQ(scan.collapsible, hasCollapsibleSpace(text));
        EXPECT_EQ(scan.invalidUtf8, !validUtf8(line));
        at = scan.next;
    }
}

TEST(OzdfScan, AgreesWithTheRuleFunctionsOnRandomLines) {
    const std::vector<std::string> pieces = {"a",
                                             "word",
                                             " ",
                                             "  ",
                                             "\t",
                                             "\x0b",
                                             "\x1c",
                                             "\xC2\xA0",
                                             "\xC2\x85",
                                             "\xE3\x80\x80",
                                             "\xE2\x80\xA8",
                                             "\xE2\x80\x8B",
                                             "é",
                                             "Ω",
                                             "\xF0\x9F\x98\x80",
                                             "\xFF",
                                             "\xC3",
                                             "\xE2\x80",
                                             "\xED\xA0\x80",
                                             "\xC0\xAF",
                                             "\r",
                                             "\n",
                                             "\r\n",
                                             "#### X",
                                             "==== y",
                                             std::string(1, '\0')};
    std::mt19937 random(11);
    for (int round = 0; round < 3000; ++round) {
        std::string bytes;
        const int count = static_cast<int>(random() % 12);
        for (int i = 0; i < count; ++i) {
            bytes += pieces[random() % pieces.size()];
        }
        expectAgrees(bytes);
    }
}

TEST(OzdfScan, BlankAndEdgeLines) {
    expectAgrees("");
    expectAgrees("\n");
    expectAgrees("\r\r\n\n");
    expectAgrees("   \t  ");
    expectAgrees(
        "a \xC2\xA0"
        "b\n c  d \r");
    const ScannedLine blank = scanLine("  \t\n", 0);
    EXPECT_EQ(blank.textBegin, 3U);
    EXPECT_EQ(blank.textEnd, 3U);
    EXPECT_FALSE(blank.collapsible);
    EXPECT_FALSE(scanLine("a b  ", 0).collapsible);  // trailing spaces are stripped, not collapsed
    EXPECT_TRUE(scanLine("a  b", 0).collapsible);
    EXPECT_TRUE(scanLine("a\xC2\xA0"
                         "b",
                         0)
                    .collapsible);
}

Document read(std::string_view text) {
    return readDocumentSource(makeBufferSource(text, "t.ozdf"), "t.ozdf");
}

TEST(OzdfScan, CleanAndDirtyParagraphsNormaliseTheSame) {
    const Document d = read(
        "#### A\n"
        "plain line\n"
        "and another\n"
        "\n"
        "  spaced\t\tout \xC2\xA0 text  \n"
        "next\xFF line\n"
        "\n"
        "caf\xC3\xA9 ok\n");
    ASSERT_EQ(d.elements.size(), 1U);
    const auto& p = d.elements[0].paragraphs;
    ASSERT_EQ(p.size(), 3U);
    EXPECT_EQ(p[0].text, "plain line and another");
    EXPECT_EQ(p[1].text, "spaced out text next\xEF\xBF\xBD line");
    EXPECT_EQ(p[2].text, "caf\xC3\xA9 ok");
    // Regions still cover the paragraph's bytes in the file.
    EXPECT_EQ(p[0].region.offset, 7U);
    EXPECT_EQ(p[0].region.length, std::string_view("plain line\nand another").size());
}

TEST(OzdfScan, CommentsKeepTheirLinesVerbatimButSanitised) {
    const Document d = read("#### COMMENT\n  keep  this \n\xFF\n\n#### B\nx\n");
    ASSERT_EQ(d.elements.size(), 2U);
    EXPECT_EQ(d.elements[0].text, "keep  this\n\xEF\xBF\xBD\n");
}

TEST(OzdfScan, CorpusReadOnSeveralThreadsKeepsItsOrder) {
    const fs::path folder =
        fs::temp_directory_path() / ("strata_ozdf_scan_order_" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    std::vector<std::string> names;
    std::mt19937 random(3);
    for (int i = 0; i < 200; ++i) {
        const std::string name = "d" + std::to_string(random() % 100000) + "_" + std::to_string(i) +
                                 (i % 5 == 0 ? "" : ".ozdf");
        names.push_back(name);
        const std::string text = "#### N\n" + name + " " + std::string(random() % 5000, 'x') + "\n";
        if (i % 5 == 0) {
            fs::create_directories(folder / name);
            std::ofstream(folder / name / "_metadata.ozdf") << text;
        } else {
            std::ofstream(folder / name) << text;
        }
    }
    std::vector<std::string> paths;
    for (const std::string& name : names) {
        paths.push_back((folder / name).string());
    }
    std::sort(paths.begin(), paths.end());
    for (int round = 0; round < 3; ++round) {
        const Corpus corpus = readCorpus(folder);
        ASSERT_EQ(corpus.documents.size(), paths.size());
        for (std::size_t i = 0; i < paths.size(); ++i) {
            const Document& d = corpus.documents[i];
            EXPECT_EQ((folder / d.filename).string(), paths[i]);
            ASSERT_EQ(d.elements.size(), 1U);
            EXPECT_TRUE(d.elements[0].paragraphs.at(0).text.starts_with(d.filename + " "));
        }
        EXPECT_TRUE(corpus.accepted());
    }
    fs::remove_all(folder);
}

TEST(OzdfParallel, EveryIndexRunsOnceAndProgressComesFromTheCaller) {
    constexpr std::size_t kCount = 1000;
    std::vector<std::atomic<int>> runs(kCount);
    const std::thread::id caller = std::this_thread::get_id();
    std::size_t lastDone = 0;
    bool fromOtherThread = false;
    forEachIndex(
        kCount, 2, [&](std::size_t i) { ++runs[i]; },
        [&](std::size_t done) {
            fromOtherThread = fromOtherThread || std::this_thread::get_id() != caller;
            EXPECT_GT(done, lastDone);
            lastDone = done;
        });
    for (const auto& r : runs) {
        EXPECT_EQ(r.load(), 1);
    }
    EXPECT_FALSE(fromOtherThread);
    EXPECT_LE(lastDone, kCount);
    forEachIndex(0, 2, [](std::size_t) { FAIL() << "nothing to run"; });
}

TEST(OzdfParallel, TheLowestFailingIndexIsRethrownAndNoNewWorkStarts) {
    std::atomic<std::size_t> started{0};
    try {
        forEachIndex(10000, 2, [&](std::size_t i) {
            ++started;
            if (i == 5 || i == 7) {
                throw std::runtime_error("item " + std::to_string(i));
            }
        });
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& e) {
        EXPECT_TRUE(std::string(e.what()) == "item 5" || std::string(e.what()) == "item 7")
            << e.what();
    }
    EXPECT_LT(started.load(), 10000U);
}

}  // namespace
}  // namespace strata::ozdf
