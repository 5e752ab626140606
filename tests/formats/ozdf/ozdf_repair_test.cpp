// OZDF repair: every damaged corpus case (what is saved, what is lost, what is refused), one
// generated document per kind of repair with its report, random damage to generated corpora
// (exactly the intact documents and items come back, everything else is reported and
// quarantined with its bytes), dry runs and taken output paths.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "formats/builtin/format_repair.h"
#include "formats/common/repair.h"
#include "formats/ozdf/ozdf_diff.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_repair.h"
#include "formats/ozdf/ozdf_writer.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

class Scratch {
public:
    explicit Scratch(const std::string& name)
        : path_(fs::temp_directory_path() /
                ("strata_ozdf_repair_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~Scratch() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void writeAll(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A document's content in one line: `NAME{p1/p2}` blocks, `[NAME]{item:p1/p2;-:p}` lists,
// `[[NAME]]{...}` external lists, `#text` comments.
std::string summary(const std::vector<Element>& elements) {
    const auto paragraphs = [](const std::vector<Paragraph>& list) {
        std::string out;
        for (const Paragraph& p : list) {
            out += (out.empty() ? "" : "/") + p.text;
        }
        return out;
    };
    std::string out;
    for (const Element& e : elements) {
        out += out.empty() ? "" : " ";
        switch (e.kind) {
            case ElementKind::Comment:
                out += "#" + e.text;
                continue;
            case ElementKind::Block:
                out += e.name + "{" + paragraphs(e.paragraphs) + "}";
                continue;
            case ElementKind::List:
            case ElementKind::ExternalList: {
                const bool external = e.kind == ElementKind::ExternalList;
                out += (external ? "[[" : "[") + e.name + (external ? "]]{" : "]{");
                for (std::size_t i = 0; i < e.items.size(); ++i) {
                    out += (i == 0 ? "" : ";") + e.items[i].name.value_or("-") + ":" +
                           paragraphs(e.items[i].paragraphs);
                }
                out += "}";
                continue;
            }
        }
    }
    return out;
}

// Reads the output (a document, or a corpus when `corpus`): it must be accepted (no error), and
// its content in one line, documents as `name: summary` joined by " || ".
std::string readOutput(const fs::path& output, bool corpus) {
    if (!corpus) {
        const Document d = readDocument(output);
        EXPECT_TRUE(d.accepted()) << output;
        for (const Diagnostic& diag : d.diagnostics) {
            EXPECT_NE(diag.severity, Severity::Error) << diag.code << " " << diag.message;
        }
        return summary(d.elements);
    }
    const Corpus c = readCorpus(output);
    EXPECT_TRUE(c.accepted()) << output;
    std::string out;
    for (const Document& d : c.documents) {
        out += (out.empty() ? "" : " || ") + d.filename + ": " + summary(d.elements);
    }
    return out;
}

bool anyContains(const std::vector<RepairStep>& steps, const std::string& text) {
    return std::any_of(steps.begin(), steps.end(), [&](const RepairStep& s) {
        return s.description.find(text) != std::string::npos;
    });
}

std::string listed(const RepairReport& report) {
    std::string out;
    for (const RepairStep& s : report.actions) {
        out += "action " + s.description + "\n";
    }
    for (const RepairStep& s : report.losses) {
        out += "lost   " + s.description + "\n";
    }
    return out;
}

// The damaged corpus cases with something to recover: what the output holds, how many losses,
// what the report must say, and which input files must be quarantined with their bytes.
struct CorpusCase {
    std::string name;
    bool corpus;  // the output is a corpus folder
    std::string content;
    std::size_t losses;
    std::vector<std::string> said;         // in an action or a loss
    std::vector<std::string> quarantined;  // relative to the case; kept under the same path
};

const std::string kLongX(77, 'x');

const std::vector<CorpusCase> kRecoverable = {
    {"corpus_dir_missing_metadata",
     true,
     "doc1: [[MESSAGES]]{-:x} || ok.ozdf: A{a}",
     1,
     {"'doc1': _metadata.ozdf is missing; restored with the external list [[MESSAGES]]"},
     {}},
    {"corpus_one_bad_doc",
     true,
     "good.ozdf: A{a}",
     1,
     {"document 'bad.ozdf' cannot be parsed: line 1 (bytes 0 to 7): OZDF-HEADER"},
     {"bad.ozdf"}},
    {"corpus_writing_marker_only",
     true,
     "ok.ozdf: A{a}",
     1,
     {"'broken' has no _metadata.ozdf and no part file", ".ozdf_writing marker"},
     {}},
    {"escape_attempt_backslash.ozdf", false, "BODY{\\#### escaped? \\n \\t \\\\}", 0, {}, {}},
    {"glob_metachar_name",
     false,
     "[A*]{-:star}",
     0,
     {"external list [[A*]] written as the inline list [A*]", "AB-01.ozdp not copied"},
     {}},
    {"header_tab_separator.ozdf",
     false,
     "TITLE{x}",
     1,
     {"line 1: the header '####?Title' given the single space after '####'",
      "the output differs from the input: added header_tab_separator.ozdf/block TITLE"},
     {}},
    {"item_marker_no_space.ozdf",
     false,
     "[L]{Joe:x}",
     1,
     {"line 2: the item marker '====Joe' given the single space",
      "the output differs from the input: changed item_marker_no_space.ozdf/list L: 1 added"},
     {}},
    {"missing_blank_before_header.ozdf",
     false,
     "A{a} B{b}",
     0,
     {"line 3: a header must follow a blank line: the blank line added"},
     {}},
    {"missing_blank_before_item.ozdf",
     false,
     "[L]{a:x;b:y}",
     0,
     {"line 4: a list item marker must follow a blank line: the blank line added"},
     {}},
    {"part_duplicate_data",
     false,
     "[[M]]{}",
     1,
     {"[[M]] loses the item of 'M-01.ozdp': line 4 (bytes 13 to 22): OZDF-DUPLICATE-BLOCK"},
     {"M-01.ozdp"}},
    {"part_duplicate_index",
     false,
     "[[M]]{-:b;-:a}",
     0,
     {"parts renumbered 1..2 in their order: 'M-1.ozdp' is now part 2"},
     {}},
    {"part_gap", false, "[[M]]{-:a;-:c}", 0, {"'M-03.ozdp' is now part 2"}, {}},
    {"part_invalid_utf8",
     false,
     "[[M]]{}",
     1,
     {"loses the item of 'M-01.ozdp': line 2 (bytes 10 to 11): OZDF-UTF8"},
     {"M-01.ozdp"}},
    {"part_missing_data",
     false,
     "[[M]]{}",
     1,
     {"'M-01.ozdp': the part has no DATA block"},
     {"M-01.ozdp"}},
    {"part_non_numeric",
     false,
     "[[M]]{-:a}",
     1,
     {"'M-x1.ozdp': its name has no part number"},
     {"M-x1.ozdp"}},
    {"part_starts_at_two", false, "[[M]]{-:a}", 0, {"'M-02.ozdp' is now part 1"}, {}},
    {"part_unicode_digits", false, "[[M]]{-:arabic-indic digit one}", 0, {"is now part 1"}, {}},
    {"utf8_bom.ozdf", false, "TITLE{x}", 0, {"byte order mark at the start dropped"}, {}},
    {"writer_bug_wrap_creates_header",
     true,
     "api_paragraph_with_header_text.ozdf: BODY{a} NOT A HEADER{} || wrap_creates_header.ozdf: "
     "BODY{" +
         kLongX + "} Y Z{}",
     0,
     {"wrap_creates_header.ozdf: line 3: a header must follow a blank line"},
     {}},
    {"writing_marker", false, "A{a}", 0, {".ozdf_writing marker of an interrupted save"}, {}},
};

// The cases where no document can be read: refused, nothing written.
const std::set<std::string> kRefused = {
    "content_before_first_header.ozdf",
    "content_in_list_before_item.ozdf",
    "duplicate_block.ozdf",
    "duplicate_list_block.ozdf",
    "equals_line_in_text.ozdf",
    "external_duplicate",
    "external_then_content",
    "hash_line_in_text.ozdf",
    "header_empty_name.ozdf",
    "header_five_hash.ozdf",
    "header_three_hash.ozdf",
    "invalid_utf8.ozdf",
    "item_marker_five_eq.ozdf",
    "item_marker_three_eq.ozdf",
    "item_outside_list.ozdf",
    "latin1_file.ozdf",
    "unbalanced_brackets.ozdf",
    "utf16_file.ozdf",
};

// Whether Strata's comparison finds the same content in two corpus folders.
bool sameContent(const fs::path& a, const fs::path& b) {
    auto differ = makeOzdfDiffer({nullptr, std::make_shared<const Corpus>(readCorpus(a)), nullptr},
                                 {nullptr, std::make_shared<const Corpus>(readCorpus(b)), nullptr});
    struct Sink final : DiffSink {
        bool add(Difference) override { return true; }
    } sink;
    differ->run(sink, {});
    return differ->summary().contentEqual();
}

RepairOptions dryRun() {
    RepairOptions options;
    options.dryRun = true;
    return options;
}

fs::path corruptDir() {
    return test::corpusDir() / "corrupt";
}

std::string outputName(const std::string& name) {
    return name.ends_with(".ozdf") ? name.substr(0, name.size() - 5) + "-repaired.ozdf"
                                   : name + "-repaired";
}

TEST(OzdfRepair, EveryDamagedCorpusCaseIsRepairedOrRefused) {
    if (!fs::is_directory(corruptDir())) {
        GTEST_SKIP() << "no OZDF corpus";
    }
    // Every case of the corpus is in one of the two lists.
    const auto cases = nlohmann::json::parse(readAll(corruptDir() / "cases.json"));
    std::set<std::string> known = kRefused;
    for (const CorpusCase& c : kRecoverable) {
        known.insert(c.name);
    }
    for (const auto& c : cases) {
        EXPECT_TRUE(known.contains(c["case"].get<std::string>())) << c["case"];
    }
    Scratch scratch("corpus");
    for (const CorpusCase& c : kRecoverable) {
        SCOPED_TRACE(c.name);
        const fs::path input = corruptDir() / c.name;
        const fs::path output = scratch.path() / outputName(c.name);
        const RepairReport plan = repairPath(input, output, dryRun());
        EXPECT_FALSE(fs::exists(output));
        const RepairReport report = repairPath(input, output);
        EXPECT_TRUE(report.written);
        EXPECT_EQ(report.itemName, "documents");
        EXPECT_EQ(listed(plan), listed(report));
        EXPECT_EQ(readOutput(output, c.corpus), c.content) << listed(report);
        EXPECT_EQ(report.losses.size(), c.losses) << listed(report);
        EXPECT_EQ(report.complete(), c.losses == 0);
        for (const std::string& text : c.said) {
            EXPECT_TRUE(anyContains(report.actions, text) || anyContains(report.losses, text))
                << "'" << text << "' not in\n"
                << listed(report);
        }
        for (const RepairStep& loss : report.losses) {
            EXPECT_TRUE(loss.bytes.valid()) << loss.description;
        }
        const fs::path quarantine = ozdfQuarantinePath(output);
        EXPECT_EQ(fs::exists(quarantine), !c.quarantined.empty());
        for (const std::string& file : c.quarantined) {
            const fs::path kept = quarantine / file;
            EXPECT_EQ(readAll(kept), readAll(input / file)) << kept;
        }
    }
    // Where the reference itself accepts the case, the repaired copy holds what it read (a
    // corpus: every document it read, unchanged).
    for (const auto& c : cases) {
        const std::string name = c["case"];
        if (!c["accepted"].get<bool>()) {
            continue;
        }
        SCOPED_TRACE(name);
        const fs::path output = scratch.path() / outputName(name);
        const auto& readback = c["readback"];
        if (readback["kind"] == "document") {
            EXPECT_EQ(test::toJson(readDocument(output))["elements"],
                      readback["document"]["elements"]);
            continue;
        }
        const auto repaired = test::toJson(readCorpus(output))["documents"];
        for (const auto& document : readback["documents"]) {
            const auto found = std::find_if(repaired.begin(), repaired.end(), [&](const auto& d) {
                return d["filename"] == document["filename"];
            });
            ASSERT_NE(found, repaired.end()) << document["filename"];
            EXPECT_EQ(*found, document);
        }
    }
    for (const std::string& name : kRefused) {
        SCOPED_TRACE(name);
        const fs::path output = scratch.path() / outputName(name);
        EXPECT_THROW(repairPath(corruptDir() / name, output), RepairError);
        EXPECT_FALSE(fs::exists(output));
        EXPECT_FALSE(fs::exists(ozdfQuarantinePath(output)));
    }
    // Nothing but outputs and quarantines: no stage left behind.
    for (const auto& entry : fs::directory_iterator(scratch.path())) {
        EXPECT_FALSE(entry.path().filename().string().starts_with(".")) << entry.path();
    }
}

TEST(OzdfRepair, RefusedCaseNamesItsError) {
    if (!fs::is_directory(corruptDir())) {
        GTEST_SKIP() << "no OZDF corpus";
    }
    Scratch scratch("refused");
    try {
        repairOzdf(corruptDir() / "invalid_utf8.ozdf", scratch.path() / "out.ozdf");
        FAIL() << "no RepairError";
    } catch (const RepairError& e) {
        EXPECT_NE(std::string(e.what()).find("line 2 (bytes 14 to 15): OZDF-UTF8"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("nothing was written"), std::string::npos);
    }
}

// --- generated documents ------------------------------------------------------------------

const std::vector<std::string> kWords = {"alpha", "beta",  "gamma", "delta", "echo",   "fox",
                                         "golf",  "hotel", "india", "jolly", "kilo",   "lima",
                                         "mike",  "nova",  "oscar", "papa",  "quartz", "romeo"};

std::string words(std::mt19937& rng, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += (i == 0 ? "" : " ") + kWords[rng() % kWords.size()];
    }
    return out;
}

Paragraph para(std::string text) {
    Paragraph p;
    p.text = std::move(text);
    return p;
}

// A standalone document: TITLE (1-2 paragraphs) and a list of 2-4 named items.
Document standaloneDoc(std::mt19937& rng, std::string filename) {
    Document d;
    d.filename = std::move(filename);
    Element title;
    title.kind = ElementKind::Block;
    title.name = "TITLE";
    for (std::size_t i = 0, n = 1 + rng() % 2; i < n; ++i) {
        title.paragraphs.push_back(para(words(rng, 3 + rng() % 20)));
    }
    Element list;
    list.kind = ElementKind::List;
    list.name = "LIST";
    for (std::size_t i = 0, n = 2 + rng() % 3; i < n; ++i) {
        Item item;
        item.name = "item " + std::to_string(i + 1);
        item.paragraphs.push_back(para(words(rng, 1 + rng() % 30)));
        list.items.push_back(std::move(item));
    }
    d.elements = {std::move(title), std::move(list)};
    return d;
}

// A directory document: TITLE and an external list ITEMS of 3-5 parts.
Document directoryDoc(std::mt19937& rng, std::string filename) {
    Document d;
    d.filename = std::move(filename);
    d.isDirectory = true;
    Element title;
    title.kind = ElementKind::Block;
    title.name = "TITLE";
    title.paragraphs.push_back(para(words(rng, 4)));
    Element list;
    list.kind = ElementKind::ExternalList;
    list.name = "ITEMS";
    for (std::size_t i = 0, n = 3 + rng() % 3; i < n; ++i) {
        Item item;
        if (rng() % 2 == 0) {
            item.name = "part " + std::to_string(i + 1);
        }
        item.paragraphs.push_back(para(words(rng, 2 + rng() % 12)));
        item.paragraphs.push_back(para(words(rng, 2 + rng() % 12)));
        list.items.push_back(std::move(item));
    }
    d.elements = {std::move(title), std::move(list)};
    return d;
}

// Replaces the first byte after `after` in the file with 0xFF (invalid UTF-8).
void breakByteAfter(const fs::path& file, const std::string& after) {
    std::string text = readAll(file);
    const std::size_t at = text.find(after);
    ASSERT_NE(at, std::string::npos) << file;
    text[at + after.size()] = '\xFF';
    writeAll(file, text);
}

void replaceFirst(const fs::path& file, const std::string& from, const std::string& to) {
    std::string text = readAll(file);
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << file << ": " << from;
    text.replace(at, from.size(), to);
    writeAll(file, text);
}

TEST(OzdfRepair, MendsBlankLinesHeaderSpacingAndTheByteOrderMark) {
    Scratch scratch("mend");
    const fs::path input = scratch.path() / "in.ozdf";
    writeAll(input,
             "\xEF\xBB\xBF#### Title\nfirst words\n#### [Chapters]\n====One\none text\n"
             "==== Two\ntwo text\n====\xC2\xA0Three\nthree\n\n####\tEnd\nbye\n");
    const RepairReport report = repairOzdf(input, scratch.path() / "out.ozdf");
    EXPECT_EQ(report.recovered, 1U);
    EXPECT_EQ(readOutput(scratch.path() / "out.ozdf", false),
              "TITLE{first words} [CHAPTERS]{One:one text;Two:two text;Three:three} END{bye}");
    const std::string expected =
        "action in.ozdf: the UTF-8 byte order mark at the start dropped\n"
        "action in.ozdf: line 4: the item marker '====One' given the single space after '===='\n"
        "action in.ozdf: line 8: the item marker '====\xC2\xA0Three' given the single space after "
        "'===='\n"
        "action in.ozdf: line 11: the header '####?End' given the single space after '####'\n"
        "action in.ozdf: line 3: a header must follow a blank line: the blank line added (a line "
        "starting with '#### ' is a header: it cannot be text)\n"
        "action in.ozdf: line 6: a list item marker must follow a blank line: the blank line "
        "added\n"
        "action in.ozdf: line 8: a list item marker must follow a blank line: the blank line "
        "added\n"
        "action 1 of the 1 documents written in the canonical layout (names upper-cased, "
        "paragraphs wrapped at 80 columns, whitespace collapsed, one blank line between blocks, "
        "parts numbered from 01): what readers read from them is unchanged\n";
    EXPECT_EQ(listed(report).substr(0, expected.size()), expected);
    // The mended list items and header bring back what the damaged input's readers skip.
    EXPECT_FALSE(report.complete());
    EXPECT_TRUE(
        anyContains(report.losses, "the output differs from the input: added in.ozdf/block END"));
    // Byte ranges point into the input: line 4 "====One" starts after the BOM and two lines, and
    // the mend that inserts a space does not shift what follows.
    EXPECT_EQ(report.actions[1].bytes.offset, 3U + 11 + 12 + 16);
    EXPECT_EQ(report.actions[1].bytes.length, 7U);
    EXPECT_EQ(report.actions[5].bytes.offset, 3U + 11 + 12 + 16 + 8 + 9);
    EXPECT_EQ(report.actions[5].bytes.file, input.string());
}

TEST(OzdfRepair, RenumbersPartsAndLosesOnlyTheBrokenOne) {
    Scratch scratch("renumber");
    std::mt19937 rng(7);
    const Document original = directoryDoc(rng, "doc");
    saveDocument(original, scratch.path());
    const fs::path doc = scratch.path() / "doc";
    const std::size_t n = original.elements[1].items.size();
    // Parts 1..n become 2, 4, 6…; the third is broken.
    for (std::size_t i = n; i >= 1; --i) {
        fs::rename(doc / ("ITEMS-0" + std::to_string(i) + ".ozdp"),
                   doc / ("ITEMS-" + std::to_string(2 * i) + ".ozdp"));
    }
    breakByteAfter(doc / "ITEMS-6.ozdp", "#### DATA\n");
    const RepairReport report = repairOzdf(doc, scratch.path() / "out");
    std::vector<Element> expected = original.elements;
    expected[1].items.erase(expected[1].items.begin() + 2);
    EXPECT_EQ(readOutput(scratch.path() / "out", false), summary(expected));
    ASSERT_EQ(report.losses.size(), 1U) << listed(report);
    EXPECT_EQ(report.losses[0].bytes.file, (doc / "ITEMS-6.ozdp").string());
    EXPECT_EQ(report.losses[0].bytes.length, fs::file_size(doc / "ITEMS-6.ozdp"));
    EXPECT_NE(report.losses[0].description.find("loses the item of 'ITEMS-6.ozdp'"),
              std::string::npos);
    std::string renumbered = "parts renumbered 1.." + std::to_string(n - 1) +
                             " in their order: 'ITEMS-2.ozdp' is now part 1, 'ITEMS-4.ozdp' is "
                             "now part 2";
    for (std::size_t i = 4; i <= n; ++i) {
        renumbered +=
            ", 'ITEMS-" + std::to_string(2 * i) + ".ozdp' is now part " + std::to_string(i - 1);
    }
    EXPECT_TRUE(anyContains(report.actions, renumbered)) << listed(report);
    EXPECT_EQ(readAll(ozdfQuarantinePath(scratch.path() / "out") / "ITEMS-6.ozdp"),
              readAll(doc / "ITEMS-6.ozdp"));
    // The output's parts are numbered 1..n-1 and nothing else is there.
    std::set<std::string> files;
    for (const auto& e : fs::directory_iterator(scratch.path() / "out")) {
        files.insert(e.path().filename().string());
    }
    std::set<std::string> want = {"_metadata.ozdf"};
    for (std::size_t i = 1; i < n; ++i) {
        want.insert("ITEMS-0" + std::to_string(i) + ".ozdp");
    }
    EXPECT_EQ(files, want);
}

TEST(OzdfRepair, RestoresAMissingMetadataFile) {
    Scratch scratch("metadata");
    std::mt19937 rng(11);
    Document original = directoryDoc(rng, "doc");
    Element second = original.elements[1];
    second.name = "OTHER LIST";  // parts OTHER_LIST-NN.ozdp
    original.elements.push_back(second);
    saveDocument(original, scratch.path());
    fs::remove(scratch.path() / "doc" / "_metadata.ozdf");
    writeAll(scratch.path() / "doc" / "notes.ozdp", "#### DATA\nnot a part\n");
    const RepairReport report = repairPath(scratch.path() / "doc", scratch.path() / "out");
    // The lists come back named after their part files, in name order; the title is lost.
    Element other = original.elements[2];
    other.name = "OTHER_LIST";
    const std::vector<Element> expected = {original.elements[1], std::move(other)};
    EXPECT_EQ(readOutput(scratch.path() / "out", false), summary(expected));
    ASSERT_EQ(report.losses.size(), 1U) << listed(report);
    EXPECT_NE(report.losses[0].description.find(
                  "_metadata.ozdf is missing; restored with the external lists [[ITEMS]], "
                  "[[OTHER_LIST]] named after the part files"),
              std::string::npos)
        << listed(report);
    EXPECT_TRUE(anyContains(report.actions, "doc/notes.ozdp not copied"));
    EXPECT_EQ(report.lostKnown, 0U);
    EXPECT_FALSE(fs::exists(ozdfQuarantinePath(scratch.path() / "out")));
}

TEST(OzdfRepair, DryRunWritesNothingAndTakenOutputsAreRefused) {
    if (!fs::is_directory(corruptDir())) {
        GTEST_SKIP() << "no OZDF corpus";
    }
    Scratch scratch("paths");
    const fs::path input = corruptDir() / "corpus_one_bad_doc";
    const fs::path output = scratch.path() / "out";
    const RepairReport plan = repairOzdf(input, output, dryRun());
    EXPECT_TRUE(plan.dryRun);
    EXPECT_FALSE(plan.written);
    EXPECT_EQ(plan.recovered, 1U);
    EXPECT_EQ(plan.losses.size(), 1U);
    EXPECT_TRUE(fs::is_empty(scratch.path()));  // no output, quarantine or stage

    fs::create_directory(output);
    EXPECT_THROW(repairOzdf(input, output), RepairError);
    EXPECT_TRUE(fs::is_empty(output));
    fs::remove(output);
    writeAll(ozdfQuarantinePath(output), "taken");
    EXPECT_THROW(repairOzdf(input, output), RepairError);
    EXPECT_FALSE(fs::exists(output));
    EXPECT_EQ(readAll(ozdfQuarantinePath(output)), "taken");
    fs::remove(ozdfQuarantinePath(output));
    // A dry run over a taken path only plans.
    writeAll(output, "taken");
    EXPECT_NO_THROW(repairOzdf(input, output, dryRun()));
    EXPECT_EQ(readAll(output), "taken");
}

TEST(OzdfRepair, NeverWritesIntoItsInput) {
    Scratch scratch("inside");
    std::mt19937 rng(3);
    fs::create_directories(scratch.path() / "corpus");
    saveDocument(standaloneDoc(rng, "a.ozdf"), scratch.path() / "corpus");
    EXPECT_THROW(repairOzdf(scratch.path() / "corpus", scratch.path() / "corpus" / "out"),
                 RepairError);
    EXPECT_FALSE(fs::exists(scratch.path() / "corpus" / "out"));
}

// A cancel while the output is written or checked stops the repair there: nothing is published
// and no stage is left.
TEST(OzdfRepair, CancelWhileWritingOrCheckingLeavesNothing) {
    Scratch scratch("cancel");
    std::mt19937 rng(11);
    const fs::path corpus = scratch.path() / "corpus";
    fs::create_directories(corpus);
    for (int i = 0; i < 6; ++i) {
        saveDocument(standaloneDoc(rng, "d" + std::to_string(i) + ".ozdf"), corpus);
    }
    for (const std::string stage : {"writing", "validating"}) {
        SCOPED_TRACE(stage);
        const fs::path output = scratch.path() / ("out-" + stage);
        CancelToken cancel;
        RepairOptions options;
        options.cancel = &cancel;
        bool reached = false;
        options.progress = [&](double, const std::string& text) {
            if (text == stage) {
                reached = true;
                cancel.cancel();
            }
        };
        try {
            repairOzdf(corpus, output, options);
            ADD_FAILURE() << "a cancelled repair published its output";
        } catch (const JobCancelled&) {
        }
        EXPECT_TRUE(reached);
        EXPECT_FALSE(fs::exists(output));
        EXPECT_FALSE(fs::exists(ozdfQuarantinePath(output)));
        for (const auto& entry : fs::directory_iterator(scratch.path())) {
            EXPECT_EQ(entry.path().filename().string().find(".strata-repair"), std::string::npos);
        }
    }
    EXPECT_NO_THROW(repairOzdf(corpus, scratch.path() / "out"));
}

// Random damage to generated corpora: each damaged document either comes back whole (a mend),
// loses exactly the damaged part, or is quarantined with its bytes; every other document comes
// back as it was. The report lists exactly those losses.
TEST(OzdfRepair, RandomDamageKeepsExactlyWhatWasIntact) {
    for (unsigned round = 0; round < 25; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        std::mt19937 rng(1000 + round);
        Scratch scratch("random" + std::to_string(round));
        const fs::path corpus = scratch.path() / "corpus";
        fs::create_directories(corpus);
        std::map<std::string, std::string> expected;  // filename → summary; absent: lost
        std::set<std::string> quarantinedFiles;       // relative to the corpus
        std::size_t losses = 0;
        std::size_t lostDocuments = 0;
        std::size_t rewritten = 0;  // recovered documents whose files change
        const std::size_t count = 4 + rng() % 8;
        for (std::size_t i = 0; i < count; ++i) {
            const bool directory = rng() % 2 == 0;
            const std::string name =
                "doc" + std::to_string(i) + (directory ? std::string() : std::string(".ozdf"));
            Document d = directory ? directoryDoc(rng, name) : standaloneDoc(rng, name);
            saveDocument(d, corpus);
            const fs::path path = corpus / name;
            std::string want = summary(d.elements);
            const unsigned damage = rng() % 7;
            // Strata wrote the input: only a document whose files were damaged changes, unless
            // all it lost was its last part.
            bool changes = damage >= 2;
            switch (damage) {
                case 0:  // intact
                case 1:
                    break;
                case 2:  // a text byte that is not UTF-8: the document or its part is lost
                    if (directory) {
                        const auto& items = d.elements[1].items;
                        const std::size_t k = rng() % items.size();
                        changes = k + 1 != items.size();
                        const std::string part = "ITEMS-0" + std::to_string(k + 1) + ".ozdp";
                        breakByteAfter(path / part, "#### DATA\n");
                        d.elements[1].items.erase(d.elements[1].items.begin() +
                                                  static_cast<std::ptrdiff_t>(k));
                        want = summary(d.elements);
                        quarantinedFiles.insert(name + "/" + part);
                    } else {
                        breakByteAfter(path, "#### TITLE\n");
                        want.clear();
                        quarantinedFiles.insert(name);
                        ++lostDocuments;
                    }
                    ++losses;
                    break;
                case 3:  // a missing blank line: mended
                    if (directory) {
                        writeAll(path / "_metadata.ozdf", "#### TITLE\n" +
                                                              d.elements[0].paragraphs[0].text +
                                                              "\n#### [[ITEMS]]\n");
                    } else {
                        replaceFirst(path, "\n\n#### [LIST]", "\n#### [LIST]");
                    }
                    break;
                case 4:  // header spacing: mended
                    if (directory) {
                        replaceFirst(path / "_metadata.ozdf", "#### [[ITEMS]]", "####\t[[ITEMS]]");
                    } else {
                        replaceFirst(path, "#### [LIST]", "####[LIST]");
                    }
                    break;
                case 5:  // a gap in the parts (directory) or a byte order mark: mended
                    if (directory) {
                        const std::size_t n = d.elements[1].items.size();
                        fs::rename(path / ("ITEMS-0" + std::to_string(n) + ".ozdp"),
                                   path / ("ITEMS-" + std::to_string(n + 7) + ".ozdp"));
                    } else {
                        writeAll(path, "\xEF\xBB\xBF" + readAll(path));
                    }
                    break;
                case 6:  // the metadata file lost (directory) or a malformed header (file)
                    if (directory) {
                        fs::remove(path / "_metadata.ozdf");
                        want = summary({d.elements[1]});
                    } else {
                        replaceFirst(path, "#### [LIST]", "### [LIST]");
                        want.clear();
                        quarantinedFiles.insert(name);
                        ++lostDocuments;
                    }
                    ++losses;
                    break;
            }
            if (!want.empty()) {
                expected[name] = want;
                rewritten += changes ? 1 : 0;
            }
        }
        const fs::path output = scratch.path() / "out";
        if (expected.empty()) {
            EXPECT_THROW(repairOzdf(corpus, output), RepairError);
            EXPECT_FALSE(fs::exists(output));
            continue;
        }
        const RepairReport report = repairOzdf(corpus, output);
        std::string want;
        for (const auto& [name, content] : expected) {
            want += (want.empty() ? "" : " || ") + name + ": " + content;
        }
        EXPECT_EQ(readOutput(output, true), want) << listed(report);
        EXPECT_EQ(report.recovered, expected.size());
        // A mend that makes readers read more than they read in the damaged input (a header or
        // list they skipped) is a difference of content, listed when nothing else is lost.
        if (losses > 0) {
            EXPECT_EQ(report.losses.size(), losses) << listed(report);
        } else {
            for (const RepairStep& l : report.losses) {
                EXPECT_TRUE(l.description.starts_with("the output differs from the input"))
                    << listed(report);
            }
        }
        EXPECT_EQ(report.complete(), sameContent(corpus, output)) << listed(report);
        EXPECT_EQ(report.lostKnown, lostDocuments);
        EXPECT_EQ(anyContains(report.actions, std::to_string(rewritten) + " of the " +
                                                  std::to_string(expected.size()) +
                                                  " documents written in the canonical layout"),
                  rewritten > 0)
            << listed(report);
        std::set<std::string> kept;
        const fs::path quarantine = ozdfQuarantinePath(output);
        if (fs::exists(quarantine)) {
            for (const auto& e : fs::recursive_directory_iterator(quarantine)) {
                if (e.is_regular_file()) {
                    const fs::path relative = fs::relative(e.path(), quarantine);
                    kept.insert(relative.string());
                    EXPECT_EQ(readAll(e.path()), readAll(corpus / relative)) << relative;
                }
            }
        }
        EXPECT_EQ(kept, quarantinedFiles);
    }
}

// What readers ignore is not copied, and the report says so: no loss.
TEST(OzdfRepair, WhatReadersIgnoreIsListedNotLost) {
    Scratch scratch("ignored");
    const fs::path corpus = scratch.path() / "corpus";
    writeAll(corpus / "a.ozdf", "#### A\na\n\n");
    writeAll(corpus / "nested" / "b.ozdf", "#### B\nb\n\n");
    writeAll(corpus / "loose-01.ozdp", "#### DATA\nloose\n\n");
    writeAll(corpus / "README.txt", "not a document");
    fs::create_directories(corpus / "empty");
    writeAll(corpus / "doc" / "_metadata.ozdf", "#### [[M]]\n\n");
    writeAll(corpus / "doc" / "notes.txt", "hello");
    writeAll(corpus / "doc" / "M-01.ozdp",
             "#### NAME\nn\n\n#### DATA\nd\n\n#### EXTRA\nx\n\n#### COMMENT\nnote\n\n");
    const RepairReport report = repairOzdf(corpus, scratch.path() / "out");
    EXPECT_TRUE(report.complete()) << listed(report);
    EXPECT_EQ(readOutput(scratch.path() / "out", true), "a.ozdf: A{a} || doc: [[M]]{n:d}");
    EXPECT_TRUE(anyContains(report.actions, "sub-folder 'nested' not copied"));
    EXPECT_TRUE(anyContains(report.actions, "loose-01.ozdp not copied"));
    EXPECT_TRUE(anyContains(report.actions, "README.txt not copied: it is not an OZDF document"));
    EXPECT_TRUE(anyContains(report.actions, "empty/ not copied: it is not an OZDF document"));
    EXPECT_TRUE(anyContains(report.actions, "doc/notes.txt not copied"));
    EXPECT_TRUE(anyContains(report.actions,
                            "doc/M-01.ozdp: block 'EXTRA', a comment not copied: a part holds "
                            "only NAME and DATA"));
}

// [[A B]] and [[A_B]] share the part file key A_B: readers give both lists its parts, and so
// does the repaired copy. The output may be named with a trailing slash.
TEST(OzdfRepair, ListsSharingAPartFileKeyKeepTheirParts) {
    Scratch scratch("shared_key");
    const fs::path doc = scratch.path() / "doc";
    writeAll(doc / "_metadata.ozdf", "#### [[A B]]\n\n#### [[A_B]]\n\n");
    writeAll(doc / "A_B-01.ozdp", "#### DATA\none\n\n");
    writeAll(doc / "A_B-03.ozdp", "#### DATA\nthree\n\n");
    const RepairReport report = repairOzdf(doc, (scratch.path() / "out").string() + "/");
    EXPECT_TRUE(report.complete()) << listed(report);
    EXPECT_EQ(readOutput(scratch.path() / "out", false),
              "[[A B]]{-:one;-:three} [[A_B]]{-:one;-:three}");
    EXPECT_EQ(readDocument(doc).elements.size(), 2U);
}

// Every valid input of the corpus comes back whole: no loss, and the copy reads as the
// reference reads the original, items named "" included.
TEST(OzdfRepair, IntactInputsComeBackWhole) {
    const fs::path root = test::corpusDir();
    if (!fs::exists(root / "expected" / "index.json")) {
        GTEST_SKIP() << "no OZDF corpus";
    }
    const auto index = nlohmann::json::parse(readAll(root / "expected" / "index.json"));
    Scratch scratch("intact");
    std::size_t n = 0;
    for (const auto& c : index["cases"]) {
        const fs::path input =
            root / c["input"].get<std::string>().substr(std::string("corpus/").size());
        SCOPED_TRACE(input.string());
        if (!fs::exists(input)) {
            continue;  // git keeps no empty folders
        }
        const auto expected =
            nlohmann::json::parse(readAll(root / c["expected"].get<std::string>()));
        const fs::path output =
            scratch.path() / ("out" + std::to_string(n++) + input.extension().string());
        const RepairReport report = repairPath(input, output);
        EXPECT_TRUE(report.complete()) << listed(report);
        EXPECT_EQ(report.lostKnown, 0U);
        // Items named "" (an empty NAME block) keep their name.
        const nlohmann::json& want = expected;
        if (c["mode"] == "corpus") {
            EXPECT_EQ(test::toJson(readCorpus(output))["documents"], want["result"]["documents"]);
        } else {
            EXPECT_EQ(test::toJson(readDocument(output))["elements"],
                      want["result"]["document"]["elements"]);
        }
    }
    EXPECT_GT(n, 50U);
}

}  // namespace
}  // namespace strata::ozdf
