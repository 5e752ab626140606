// Safe saving: only changed files are rewritten, obsolete parts and documents go after the new
// files are complete, saving to a folder leaves the input alone, and a writer killed with
// SIGKILL mid-save leaves every file wholly old or wholly new.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "formats/common/atomic_file.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_writer.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

class ScratchFolder {
public:
    explicit ScratchFolder(const std::string& name)
        : path_(fs::temp_directory_path() /
                ("strata_ozdf_save_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~ScratchFolder() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

Paragraph paragraph(std::string text) {
    Paragraph p;
    p.text = std::move(text);
    return p;
}

Element block(std::string name, std::vector<std::string> paragraphs) {
    Element e;
    e.kind = ElementKind::Block;
    e.name = std::move(name);
    for (std::string& p : paragraphs) {
        e.paragraphs.push_back(paragraph(std::move(p)));
    }
    return e;
}

Element externalList(std::string name, std::size_t items, const std::string& word) {
    Element e;
    e.kind = ElementKind::ExternalList;
    e.name = std::move(name);
    for (std::size_t i = 0; i < items; ++i) {
        Item item;
        item.name = "item " + std::to_string(i + 1);
        item.paragraphs.push_back(paragraph(word + " " + std::to_string(i)));
        e.items.push_back(std::move(item));
    }
    return e;
}

Document standalone(std::string filename, const std::string& word) {
    Document d;
    d.filename = std::move(filename);
    d.elements.push_back(block("TITLE", {word + " title"}));
    return d;
}

Document directory(std::string filename, std::size_t items, const std::string& word) {
    Document d;
    d.filename = std::move(filename);
    d.isDirectory = true;
    d.elements.push_back(block("TITLE", {word}));
    d.elements.push_back(externalList("CHAPTERS", items, word));
    return d;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

nlohmann::json readBack(const fs::path& folder) {
    return nlohmann::json::parse(corpusJson(readCorpus(folder)).dump());
}

nlohmann::json expectedJson(const Corpus& corpus) {
    return nlohmann::json::parse(corpusJson(corpus).dump());
}

TEST(OzdfSave, SaveToFolderWritesANewCorpusAndRefusesANonEmptyFolder) {
    ScratchFolder scratch("to_folder");
    Corpus corpus;
    corpus.documents.push_back(standalone("a.ozdf", "alpha"));
    corpus.documents.push_back(directory("b", 3, "beta"));
    const fs::path out = scratch.path() / "out";
    const SaveReport report = saveCorpusToFolder(corpus, out);
    EXPECT_EQ(report.written.size(), 1U + 1U + 3U);
    EXPECT_EQ(readBack(out), expectedJson(corpus));
    EXPECT_FALSE(fs::exists(out / "b" / ".ozdf_writing"));
    EXPECT_THROW(saveCorpusToFolder(corpus, out), WriteError);
}

// A save into a new folder cancelled half-way (or failing) leaves no half corpus: the folder
// it created is gone, an empty folder it was given is empty again.
TEST(OzdfSave, CancelledSaveToFolderRemovesWhatItWrote) {
    ScratchFolder scratch("to_folder_cancel");
    Corpus corpus;
    for (int i = 0; i < 40; ++i) {
        corpus.documents.push_back(i % 2 == 0
                                       ? standalone("d" + std::to_string(i) + ".ozdf", "text")
                                       : directory("dir" + std::to_string(i), 3, "parts"));
    }
    for (const bool exists : {false, true}) {
        const fs::path out = scratch.path() / (exists ? "given" : "new");
        if (exists) {
            fs::create_directory(out);
        }
        CancelToken cancel;
        SaveOptions options;
        options.cancel = &cancel;
        options.progress = [&](double fraction, const std::string&) {
            if (fraction > 0) {
                cancel.cancel();  // after the first document is written
            }
        };
        EXPECT_THROW(saveCorpusToFolder(corpus, out, options), JobCancelled);
        EXPECT_EQ(fs::exists(out), exists);
        if (exists) {
            EXPECT_TRUE(fs::is_empty(out));
        }
    }
}

TEST(OzdfSave, SaveToANewFolderSyncsOnceAtTheEndAndInPlaceSyncsEachFile) {
    ScratchFolder scratch("durability");
    Corpus corpus;
    corpus.documents.push_back(standalone("a.ozdf", "alpha"));
    corpus.documents.push_back(directory("b", 3, "beta"));
    const fs::path out = scratch.path() / "out";
    std::uint64_t before = AtomicFile::syncCount();
    saveCorpusToFolder(corpus, out);
    // One syncfs and one fsync of the new folder, instead of two per file.
    EXPECT_EQ(AtomicFile::syncCount() - before, 2U);
    EXPECT_EQ(readBack(out), expectedJson(corpus));
    // In place, old data is at stake: each replaced file (and the writing marker) is synced
    // with its folder before the next step.
    corpus.documents[1].elements[1].items[0].paragraphs[0].text = "changed";
    before = AtomicFile::syncCount();
    saveCorpusInPlace(corpus, out, footprintsOf(corpus));
    EXPECT_EQ(AtomicFile::syncCount() - before, 2U * 2U);  // the marker, then CHAPTERS-01
    EXPECT_EQ(readBack(out), expectedJson(corpus));
}

TEST(OzdfSave, UnchangedFilesAreNotRewritten) {
    ScratchFolder scratch("unchanged");
    Corpus corpus;
    corpus.documents.push_back(standalone("a.ozdf", "alpha"));
    corpus.documents.push_back(directory("b", 3, "beta"));
    saveCorpusToFolder(corpus, scratch.path() / "c");
    const fs::path folder = scratch.path() / "c";
    const auto inode = [](const fs::path& p) {
        struct stat st {};
        ::stat(p.c_str(), &st);
        return st.st_ino;
    };
    const auto before = inode(folder / "b" / "CHAPTERS-02.ozdp");
    corpus.documents[1].elements[1].items[0].paragraphs[0].text = "changed";
    const SaveReport report = saveCorpusInPlace(corpus, folder, footprintsOf(corpus));
    ASSERT_EQ(report.written.size(), 1U);
    EXPECT_EQ(report.written[0], folder / "b" / "CHAPTERS-01.ozdp");
    EXPECT_EQ(report.unchanged, 4U);
    EXPECT_EQ(inode(folder / "b" / "CHAPTERS-02.ozdp"), before);
    EXPECT_EQ(readBack(folder), expectedJson(corpus));
}

TEST(OzdfSave, ObsoletePartsAndDocumentsAreRemoved) {
    ScratchFolder scratch("obsolete");
    const fs::path folder = scratch.path() / "c";
    Corpus before;
    before.documents.push_back(standalone("a.ozdf", "alpha"));
    before.documents.push_back(directory("b", 5, "beta"));
    before.documents.push_back(standalone("gone.ozdf", "gone"));
    saveCorpusToFolder(before, folder);
    std::ofstream(folder / "b" / "notes.txt") << "kept";
    std::ofstream(folder / "b" / "OTHER-1.ozdp") << "#### DATA\nkept\n";

    Corpus after = before;
    after.documents.pop_back();
    after.documents[1].elements[1].items.resize(2);  // CHAPTERS-03..05 become obsolete
    after.documents[1].elements[1].name = "PARTS";   // and so do the CHAPTERS files
    after.documents[1].elements.push_back(externalList("MORE", 120, "more"));  // 3-digit names
    const SaveReport report = saveCorpusInPlace(after, folder, footprintsOf(before));
    EXPECT_FALSE(fs::exists(folder / "gone.ozdf"));
    for (int i = 1; i <= 5; ++i) {
        EXPECT_FALSE(fs::exists(folder / "b" / ("CHAPTERS-0" + std::to_string(i) + ".ozdp")));
    }
    EXPECT_TRUE(fs::exists(folder / "b" / "PARTS-02.ozdp"));
    EXPECT_TRUE(fs::exists(folder / "b" / "MORE-120.ozdp"));
    EXPECT_TRUE(fs::exists(folder / "b" / "MORE-001.ozdp"));
    EXPECT_TRUE(fs::exists(folder / "b" / "notes.txt"));
    EXPECT_TRUE(fs::exists(folder / "b" / "OTHER-1.ozdp"));
    EXPECT_EQ(report.removed.size(), 6U);
    EXPECT_EQ(readBack(folder), expectedJson(after));
}

TEST(OzdfSave, StandaloneAndDirectoryDocumentsSwapKinds) {
    ScratchFolder scratch("convert");
    const fs::path folder = scratch.path() / "c";
    Corpus before;
    before.documents.push_back(standalone("book.ozdf", "alpha"));
    before.documents.push_back(directory("notes", 2, "beta"));
    saveCorpusToFolder(before, folder);

    Corpus after;
    Document book = directory("book", 2, "alpha");
    after.documents.push_back(book);
    Document notes = standalone("notes.ozdf", "beta");
    after.documents.push_back(notes);
    saveCorpusInPlace(after, folder, footprintsOf(before));
    EXPECT_FALSE(fs::exists(folder / "book.ozdf"));
    EXPECT_FALSE(fs::exists(folder / "notes"));
    EXPECT_EQ(readBack(folder), expectedJson(after));
}

TEST(OzdfSave, UnwritableDocumentLeavesTheDiskUntouched) {
    ScratchFolder scratch("refused");
    const fs::path folder = scratch.path() / "c";
    Corpus before;
    before.documents.push_back(standalone("a.ozdf", "alpha"));
    before.documents.push_back(standalone("b.ozdf", "beta"));
    saveCorpusToFolder(before, folder);
    const std::string aBefore = readFile(folder / "a.ozdf");

    Corpus after = before;
    after.documents[0].elements[0].paragraphs[0].text = "changed";
    after.documents[1].elements[0].paragraphs[0].text = "#### not a header";
    EXPECT_THROW(saveCorpusInPlace(after, folder, footprintsOf(before)), WriteError);
    EXPECT_EQ(readFile(folder / "a.ozdf"), aBefore);
}

TEST(OzdfSave, DryRunListsWithoutWriting) {
    ScratchFolder scratch("dry");
    const fs::path folder = scratch.path() / "c";
    Corpus before;
    before.documents.push_back(directory("b", 4, "beta"));
    saveCorpusToFolder(before, folder);
    Corpus after = before;
    after.documents[0].elements[1].items.resize(1);
    SaveOptions options;
    options.dryRun = true;
    const SaveReport report = saveCorpusInPlace(after, folder, footprintsOf(before), options);
    EXPECT_EQ(report.removed.size(), 3U);
    EXPECT_TRUE(fs::exists(folder / "b" / "CHAPTERS-04.ozdp"));
    EXPECT_EQ(readBack(folder), expectedJson(before));
}

TEST(OzdfSave, InterruptedSaveMarkerIsClearedByTheNextSave) {
    ScratchFolder scratch("marker");
    const fs::path folder = scratch.path() / "c";
    Corpus corpus;
    corpus.documents.push_back(directory("b", 2, "beta"));
    saveCorpusToFolder(corpus, folder);
    std::ofstream(folder / "b" / ".ozdf_writing");
    std::ofstream(folder / "b" / ".CHAPTERS-01.ozdp.strata-abc123") << "half";
    EXPECT_FALSE(readCorpus(folder).accepted());
    saveCorpusInPlace(corpus, folder, footprintsOf(corpus));
    EXPECT_TRUE(readCorpus(folder).accepted());
    EXPECT_FALSE(fs::exists(folder / "b" / ".CHAPTERS-01.ozdp.strata-abc123"));
}

// Big enough that the kill lands while documents are still being written.
Corpus killCorpus(const std::string& word, std::size_t items) {
    Corpus corpus;
    const std::string filler(4000, 'x');
    for (int i = 0; i < 40; ++i) {
        Document d = standalone("doc" + std::to_string(100 + i) + ".ozdf", word);
        for (int p = 0; p < 50; ++p) {
            d.elements[0].paragraphs.push_back(paragraph(word + " " + filler));
        }
        corpus.documents.push_back(std::move(d));
        corpus.documents.push_back(
            directory("dir" + std::to_string(100 + i), i % 2 == 0 ? items : 8, word));
    }
    std::sort(corpus.documents.begin(), corpus.documents.end(),
              [](const Document& a, const Document& b) { return a.filename < b.filename; });
    return corpus;
}

// Every file a save of `corpus` would write, by path relative to the corpus folder.
std::map<std::string, std::string> filesOf(const Corpus& corpus) {
    std::map<std::string, std::string> out;
    for (const Document& d : corpus.documents) {
        if (!d.isDirectory) {
            out[d.filename] = writeDocumentText(d);
            continue;
        }
        out[d.filename + "/_metadata.ozdf"] = writeDocumentText(d);
        for (const Element& e : d.elements) {
            if (e.kind == ElementKind::ExternalList) {
                for (const auto& [name, text] : writeParts(e)) {
                    out[d.filename + "/" + name] = text;
                }
            }
        }
    }
    return out;
}

TEST(OzdfSave, WriterKilledMidSaveLeavesEveryFileOldOrNew) {
    ScratchFolder scratch("sigkill");
    const fs::path folder = scratch.path() / "c";
    const Corpus oldCorpus = killCorpus("old", 12);
    const Corpus newCorpus = killCorpus("new", 5);
    saveCorpusToFolder(oldCorpus, folder);
    const auto oldFiles = filesOf(oldCorpus);
    const auto newFiles = filesOf(newCorpus);

    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(pipeFds[0]);
        SaveOptions options;
        options.progress = [fd = pipeFds[1]](double fraction, const std::string&) {
            // Tell the parent to kill from a quarter on; stop at half, so the kill always
            // lands with documents still to write.
            if (fraction >= 0.25) {
                const char c = 'k';
                (void)!::write(fd, &c, 1);
            }
            if (fraction >= 0.5) {
                ::pause();
            }
        };
        saveCorpusInPlace(newCorpus, folder, footprintsOf(oldCorpus), options);
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    char c = 0;
    ASSERT_EQ(::read(pipeFds[0], &c, 1), 1);
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(pipeFds[0]);
    ASSERT_TRUE(WIFSIGNALED(status));

    std::size_t oldCount = 0;
    std::size_t newCount = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (!entry.is_regular_file()) {
            continue;
        }
        const std::string name = entry.path().filename().string();
        if (name.starts_with(".")) {
            continue;  // the marker and temporary files of the killed writer
        }
        const std::string relative = fs::relative(entry.path(), folder).string();
        const std::string bytes = readFile(entry.path());
        const auto o = oldFiles.find(relative);
        const auto n = newFiles.find(relative);
        const bool isOld = o != oldFiles.end() && o->second == bytes;
        const bool isNew = n != newFiles.end() && n->second == bytes;
        EXPECT_TRUE(isOld || isNew) << relative << " is neither the old nor the new file";
        oldCount += isOld && !isNew ? 1 : 0;
        newCount += isNew && !isOld ? 1 : 0;
    }
    EXPECT_GT(newCount, 0U);
    EXPECT_GT(oldCount, 0U);  // the kill landed mid-save

    // Each document reads as wholly old or wholly new, or is refused as an interrupted save.
    const Corpus mixed = readCorpus(folder);
    const nlohmann::json oldJson = expectedJson(oldCorpus);
    const nlohmann::json newJson = expectedJson(newCorpus);
    for (std::size_t i = 0; i < mixed.documents.size(); ++i) {
        const Document& d = mixed.documents[i];
        SCOPED_TRACE(d.filename);
        if (!d.accepted()) {
            EXPECT_TRUE(fs::exists(folder / d.filename / ".ozdf_writing"));
            continue;
        }
        const nlohmann::json got = nlohmann::json::parse(documentJson(d).dump());
        EXPECT_TRUE(got == oldJson["documents"][i] || got == newJson["documents"][i]);
    }

    // Saving again completes the job and leaves nothing behind.
    saveCorpusInPlace(newCorpus, folder, footprintsOf(oldCorpus));
    EXPECT_EQ(readBack(folder), newJson);
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        EXPECT_FALSE(entry.path().filename().string().starts_with("."))
            << entry.path() << " left behind";
    }
}

}  // namespace
}  // namespace strata::ozdf
