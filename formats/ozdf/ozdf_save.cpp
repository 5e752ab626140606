#include "ozdf_save.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include "formats/common/atomic_file.h"
#include "ozdf_parallel.h"
#include "ozdf_parser.h"
#include "ozdf_writer.h"

namespace strata::ozdf {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMetadataFile = "_metadata.ozdf";
constexpr std::string_view kWritingMarker = ".ozdf_writing";

struct PlannedFile {
    std::string name;  // inside the document folder; the file itself for standalone documents
    std::string contents;
};

// Everything one document's save writes, computed before the disk is touched.
struct DocumentPlan {
    const Document* document = nullptr;
    std::vector<PlannedFile> files;  // parts first, `_metadata.ozdf` last
    std::set<std::string> partKeys;  // new and previous
};

DocumentPlan planDocument(const Document& document, const DocumentFootprint* previous,
                          EmptyItemNames emptyNames) {
    DocumentPlan plan;
    plan.document = &document;
    std::string text = writeDocumentText(document);
    if (!document.isDirectory) {
        plan.files.push_back({document.filename, std::move(text)});
        return plan;
    }
    for (const Element& element : document.elements) {
        if (element.kind != ElementKind::ExternalList) {
            continue;
        }
        plan.partKeys.insert(partFileKey(element.name));
        for (auto& [name, contents] : writeParts(element, emptyNames)) {
            plan.files.push_back({std::move(name), std::move(contents)});
        }
    }
    if (previous != nullptr && previous->isDirectory) {
        plan.partKeys.insert(previous->partKeys.begin(), previous->partKeys.end());
    }
    plan.files.push_back({std::string(kMetadataFile), std::move(text)});
    return plan;
}

void checkFileName(const std::string& name) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
        name.find('\0') != std::string::npos) {
        throw WriteError("unsafe document name '" + name + "'");
    }
}

// True when `path` is a regular file holding exactly `contents`.
bool holds(const fs::path& path, const std::string& contents) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != contents.size() || ec) {
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::string buffer(64 * 1024, '\0');
    std::size_t at = 0;
    while (in && at < contents.size()) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0 || contents.compare(at, got, buffer.data(), got) != 0) {
            return false;
        }
        at += got;
    }
    return at == contents.size();
}

// How a save touches the disk.
struct WriteMode {
    bool dryRun = false;
    // Deferred only for a save into a new folder, which ends with one syncFileSystemOf().
    Durability durability = Durability::Immediate;
};

void writeFile(const fs::path& path, std::string_view contents, const WriteMode& mode) {
    AtomicFile file(path, mode.durability);
    file.write(contents);
    file.commit();
}

// `KEY-<ASCII digits>.ozdp`
bool isPartOf(const std::string& fileName, const std::string& key) {
    if (!fileName.starts_with(key + "-") || !fileName.ends_with(".ozdp")) {
        return false;
    }
    const std::string_view digits =
        std::string_view(fileName).substr(key.size() + 1, fileName.size() - key.size() - 6);
    return !digits.empty() &&
           std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `.NAME.strata-XXXX`, the temporary file of an AtomicFile whose writer was killed: NAME.
std::string staleTempTarget(const std::string& fileName) {
    const std::size_t at = fileName.rfind(".strata-");
    if (!fileName.starts_with('.') || at == std::string::npos || at < 2) {
        return {};
    }
    return fileName.substr(1, at - 1);
}

// Part files of the document's lists that the new version does not have, and temporary files
// left in the folder by a save that was killed.
std::vector<fs::path> obsoleteParts(const fs::path& folder, const DocumentPlan& plan) {
    std::set<std::string> kept;
    for (const PlannedFile& file : plan.files) {
        kept.insert(file.name);
    }
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::string tempTarget = staleTempTarget(name);
        if (!tempTarget.empty() && (kept.count(tempTarget) != 0 || tempTarget.ends_with(".ozdp") ||
                                    tempTarget == kWritingMarker)) {
            out.push_back(it->path());
            continue;
        }
        if (kept.count(name) != 0) {
            continue;
        }
        // KEY-<digits>.ozdp has no '-' after KEY's: the key it could be a part of is the name
        // up to its last '-', looked up instead of trying every list's key on every file.
        if (const std::size_t dash = name.rfind('-'); dash != std::string::npos) {
            const std::string key = name.substr(0, dash);
            if (plan.partKeys.contains(key) && isPartOf(name, key)) {
                out.push_back(it->path());
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

void removePath(const fs::path& path) {
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) {
        throw FileWriteError(path.string() + ": cannot remove: " + ec.message());
    }
}

void executeStandalone(const DocumentPlan& plan, const fs::path& folder, const WriteMode& mode,
                       SaveReport& report) {
    const fs::path path = folder / plan.files.front().name;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw WriteError(path.string() + " is a folder; cannot save a standalone document there");
    }
    if (holds(path, plan.files.front().contents)) {
        ++report.unchanged;
        return;
    }
    report.written.push_back(path);
    if (!mode.dryRun) {
        writeFile(path, plan.files.front().contents, mode);
    }
}

void executeDirectory(const DocumentPlan& plan, const fs::path& folder, const WriteMode& mode,
                      SaveReport& report) {
    const fs::path root = folder / plan.document->filename;
    std::error_code ec;
    if (fs::exists(root, ec) && !fs::is_directory(root, ec)) {
        throw WriteError(root.string() + " is a file; cannot save a directory document there");
    }
    std::vector<const PlannedFile*> changed;
    for (const PlannedFile& file : plan.files) {
        if (holds(root / file.name, file.contents)) {
            ++report.unchanged;
        } else {
            changed.push_back(&file);
        }
    }
    std::vector<fs::path> obsolete = obsoleteParts(root, plan);
    // A marker left by an interrupted save goes once this save completes.
    const bool staleMarker = fs::exists(root / kWritingMarker, ec);
    for (const PlannedFile* file : changed) {
        report.written.push_back(root / file->name);
    }
    report.removed.insert(report.removed.end(), obsolete.begin(), obsolete.end());
    if (staleMarker) {
        report.removed.push_back(root / kWritingMarker);
    }
    if (mode.dryRun || (changed.empty() && obsolete.empty() && !staleMarker)) {
        return;
    }
    fs::create_directories(root, ec);
    if (ec) {
        throw FileWriteError(root.string() + ": cannot create the folder: " + ec.message());
    }
    // Readers refuse the document while the marker exists: a save cut short is never read as
    // a mix of old and new parts.
    writeFile(root / kWritingMarker, "", mode);
    for (const PlannedFile* file : changed) {
        writeFile(root / file->name, file->contents, mode);
    }
    for (const fs::path& path : obsolete) {
        removePath(path);
    }
    removePath(root / kWritingMarker);
}

void execute(const DocumentPlan& plan, const fs::path& folder, const WriteMode& mode,
             SaveReport& report) {
    if (plan.document->isDirectory) {
        executeDirectory(plan, folder, mode, report);
    } else {
        executeStandalone(plan, folder, mode, report);
    }
}

std::vector<DocumentPlan> planCorpus(const Corpus& corpus,
                                     const std::vector<DocumentFootprint>& previous,
                                     EmptyItemNames emptyNames) {
    std::set<std::string> names;
    std::map<std::pair<std::string, bool>, const DocumentFootprint*> previousByName;
    for (const DocumentFootprint& p : previous) {
        previousByName[{p.filename, p.isDirectory}] = &p;
    }
    std::vector<const DocumentFootprint*> before;
    for (const Document& document : corpus.documents) {
        checkFileName(document.filename);
        if (!names.insert(document.filename).second) {
            throw WriteError("two documents named '" + document.filename + "'");
        }
        const auto found = previousByName.find({document.filename, document.isDirectory});
        before.push_back(found == previousByName.end() ? nullptr : found->second);
    }
    // Writing the text is most of a save's work, and documents are independent.
    std::vector<DocumentPlan> plans(corpus.documents.size());
    forEachIndex(plans.size(), kDocumentThreads, [&](std::size_t i) {
        plans[i] = planDocument(corpus.documents[i], before[i], emptyNames);
    });
    return plans;
}

// Temporary files of standalone documents left in the corpus folder by a killed save.
std::vector<fs::path> staleCorpusTemps(const fs::path& folder,
                                       const std::set<std::pair<std::string, bool>>& kept) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string target = staleTempTarget(it->path().filename().string());
        if (!target.empty() && kept.count({target, false}) != 0) {
            out.push_back(it->path());
        }
    }
    return out;
}

void report(const SaveOptions& options, std::size_t done, std::size_t total) {
    if (options.progress) {
        options.progress(total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total),
                         std::to_string(done) + " of " + std::to_string(total) + " documents");
    }
}

}  // namespace

DocumentFootprint footprintOf(const Document& document) {
    DocumentFootprint footprint{document.filename, document.isDirectory, {}};
    for (const Element& element : document.elements) {
        if (element.kind == ElementKind::ExternalList) {
            footprint.partKeys.push_back(partFileKey(element.name));
        }
    }
    return footprint;
}

std::vector<DocumentFootprint> footprintsOf(const Corpus& corpus) {
    std::vector<DocumentFootprint> out;
    out.reserve(corpus.documents.size());
    for (const Document& document : corpus.documents) {
        out.push_back(footprintOf(document));
    }
    return out;
}

SaveReport saveDocumentInPlace(const Document& document, const fs::path& folder,
                               const DocumentFootprint* previous, const SaveOptions& options) {
    checkFileName(document.filename);
    const DocumentPlan plan = planDocument(document, previous, options.emptyItemNames);
    SaveReport out;
    execute(plan, folder, WriteMode{options.dryRun}, out);
    if (previous != nullptr && (previous->filename != document.filename ||
                                previous->isDirectory != document.isDirectory)) {
        out.removed.push_back(folder / previous->filename);
        if (!options.dryRun) {
            removePath(folder / previous->filename);
        }
    }
    report(options, 1, 1);
    return out;
}

SaveReport saveCorpusInPlace(const Corpus& corpus, const fs::path& folder,
                             const std::vector<DocumentFootprint>& previous,
                             const SaveOptions& options) {
    const std::vector<DocumentPlan> plans = planCorpus(corpus, previous, options.emptyItemNames);
    // A document whose name now belongs to a document of the other kind must go first.
    std::set<std::pair<std::string, bool>> kept;
    for (const Document& document : corpus.documents) {
        kept.emplace(document.filename, document.isDirectory);
    }
    std::vector<fs::path> gone;
    SaveReport out;
    for (const DocumentFootprint& p : previous) {
        if (kept.count({p.filename, p.isDirectory}) != 0) {
            continue;
        }
        if (kept.count({p.filename, !p.isDirectory}) != 0) {
            out.removed.push_back(folder / p.filename);
            if (!options.dryRun) {
                removePath(folder / p.filename);
            }
        } else {
            gone.push_back(folder / p.filename);
        }
    }
    for (std::size_t i = 0; i < plans.size(); ++i) {
        report(options, i, plans.size());
        execute(plans[i], folder, WriteMode{options.dryRun}, out);
    }
    for (const fs::path& path : staleCorpusTemps(folder, kept)) {
        gone.push_back(path);
    }
    for (const fs::path& path : gone) {
        out.removed.push_back(path);
        if (!options.dryRun) {
            removePath(path);
        }
    }
    report(options, plans.size(), plans.size());
    return out;
}

namespace {

void removeWhatWasWritten(const fs::path& folder, bool created) {
    std::error_code ec;
    if (created) {
        fs::remove_all(folder, ec);
        return;
    }
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code removeEc;
        fs::remove_all(it->path(), removeEc);
    }
}

}  // namespace

SaveReport saveCorpusToFolder(const Corpus& corpus, const fs::path& folder,
                              const SaveOptions& options) {
    std::error_code ec;
    if (fs::exists(folder, ec) && (!fs::is_directory(folder, ec) || !fs::is_empty(folder, ec))) {
        throw WriteError(folder.string() + " exists and is not an empty folder");
    }
    const std::vector<DocumentPlan> plans = planCorpus(corpus, {}, options.emptyItemNames);
    const bool created = !fs::exists(folder, ec);
    if (!options.dryRun) {
        fs::create_directories(folder, ec);
        if (ec) {
            throw FileWriteError(folder.string() + ": cannot create the folder: " + ec.message());
        }
    }
    // Nothing old can be lost in a new folder: files are not synced one by one (thousands of
    // fsyncs), the whole corpus is made durable at once before the save reports success.
    // Each document has files of its own, so they are written on a couple of threads.
    const WriteMode mode{options.dryRun, Durability::Deferred};
    std::vector<SaveReport> reports(plans.size());
    report(options, 0, plans.size());
    try {
        forEachIndex(
            plans.size(), kDocumentThreads,
            [&](std::size_t i) {
                if (options.cancel != nullptr && options.cancel->cancelled()) {
                    throw JobCancelled();
                }
                execute(plans[i], folder, mode, reports[i]);
            },
            [&](std::size_t done) { report(options, done, plans.size()); });
    } catch (...) {
        // Everything in the folder is this save's (it was empty or new): no half corpus is left.
        if (!options.dryRun) {
            removeWhatWasWritten(folder, created);
        }
        throw;
    }
    SaveReport out;
    for (SaveReport& r : reports) {
        out.written.insert(out.written.end(), r.written.begin(), r.written.end());
        out.removed.insert(out.removed.end(), r.removed.begin(), r.removed.end());
        out.unchanged += r.unchanged;
    }
    if (!options.dryRun) {
        syncFileSystemOf(folder);
    }
    report(options, plans.size(), plans.size());
    return out;
}

}  // namespace strata::ozdf
