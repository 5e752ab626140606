// The OZDF repair (ozdf_repair.h): every document planned (its files read with their mends, part
// files renumbered or quarantined, a lost `_metadata.ozdf` restored), then the output written.
#include "ozdf_repair.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/counted.h"
#include "ozdf_diagnostics.h"
#include "ozdf_diff.h"
#include "ozdf_edit.h"
#include "ozdf_parser.h"
#include "ozdf_repair_internal.h"
#include "ozdf_text.h"
#include "ozdf_writer.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

using ozdf::Document;
using ozdf::Element;
using ozdf::ElementKind;
using ozdf::FileRead;
using ozdf::Grammar;
using ozdf::InputKind;
using ozdf::Item;
using ozdf::kListed;
using ozdf::plannedSide;
using ozdf::Quarantined;
using ozdf::readAsOpened;
using ozdf::readFile;
using ozdf::shown;
using ozdf::throwIfCancelled;
using ozdf::writeRepaired;

constexpr std::string_view kMetadataFile = "_metadata.ozdf";
constexpr std::string_view kWritingMarker = ".ozdf_writing";

RepairStep fileStep(std::string description, const fs::path& file, std::uint64_t offset = 0,
                    std::uint64_t length = 0) {
    RepairStep step;
    step.description = std::move(description);
    step.bytes = {file.string(), offset, length};
    return step;
}

// A part file name KEY-<digits>.ozdp (any decimal digits, as the reference's \d): its number.
std::optional<std::uint64_t> partNumber(std::string_view name, std::string_view key,
                                        bool& unicodeDigits) {
    const std::string prefix = std::string(key) + "-";
    if (!name.starts_with(prefix) || !name.ends_with(".ozdp") || name.size() <= prefix.size() + 5) {
        return std::nullopt;
    }
    const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 5);
    std::uint64_t value = 0;
    unicodeDigits = false;
    for (std::size_t at = 0; at < digits.size();) {
        const ozdf::DecodedChar ch = ozdf::decodeUtf8(digits, at);
        const int digit = ch.valid ? ozdf::decimalDigitValue(ch.codePoint) : -1;
        if (digit < 0) {
            return std::nullopt;
        }
        unicodeDigits = unicodeDigits || ch.codePoint >= 0x80;
        const std::uint64_t limit = (UINT64_MAX - static_cast<std::uint64_t>(digit)) / 10;
        value = value > limit ? UINT64_MAX : value * 10 + static_cast<std::uint64_t>(digit);
        at += ch.length;
    }
    return value;
}

// The key of a part file name KEY-<digits>.ozdp, or "".
std::string keyOfPartName(std::string_view name) {
    const std::size_t dash = name.rfind('-');
    if (dash == std::string_view::npos || dash == 0) {
        return {};
    }
    const std::string key(name.substr(0, dash));
    bool unicode = false;
    return partNumber(name, key, unicode) ? key : std::string();
}

class Planner {
public:
    Planner(const fs::path& quarantinePath, RepairReport& report)
        : quarantinePath_(quarantinePath), report_(report) {}

    std::vector<Quarantined>& quarantine() { return quarantine_; }
    // Why the first document lost was lost (without where it would be quarantined).
    const std::string& firstLoss() const { return firstLoss_; }
    // Documents written with other bytes than the input's (the canonical layout).
    std::size_t rewritten() const { return rewritten_; }

    // A standalone document read from `file`, written as `filename`; quarantined as `relative`.
    std::optional<Document> standalone(const fs::path& file, const std::string& filename,
                                       const fs::path& relative) {
        const std::string name = relative.string();
        FileRead read;
        try {
            read = readFile(file, Grammar::Document, false, name);
        } catch (const SourceError& e) {
            return lose(file, relative, "document '" + name + "' cannot be read: " + e.what(),
                        false);
        }
        if (read.problem) {
            return lose(file, relative,
                        "document '" + name + "' cannot be parsed: " + *read.problem, true,
                        read.source->size());
        }
        takeFixes(read);
        Document document;
        document.filename = filename;
        document.elements = std::move(read.elements);
        return writable(std::move(document), file, name, relative, read.source->size());
    }

    // A directory document read from `folder`, written as `filename`; its files quarantined
    // under `relative`.
    // `name` is how messages call it.
    std::optional<Document> directory(const fs::path& folder, const std::string& filename,
                                      const std::string& name, const fs::path& relative) {
        Listing listing = list(folder);
        if (listing.has(kWritingMarker)) {
            report_.actions.push_back(fileStep(
                "directory document '" + name + "': the " + std::string(kWritingMarker) +
                    " marker of an interrupted save is not carried over; the document is "
                    "written as its files stand (such a save may have left old and new parts "
                    "side by side)",
                folder / kWritingMarker));
        }
        Document document;
        document.filename = filename;
        document.isDirectory = true;
        std::map<std::string, std::string> keys;  // list name → part file key
        if (listing.has(kMetadataFile)) {
            FileRead read;
            const std::string metaName = name + "/" + std::string(kMetadataFile);
            try {
                read = readFile(folder / kMetadataFile, Grammar::Document, true, metaName);
            } catch (const SourceError& e) {
                return lose(folder, relative, "directory document '" + name + "': " + e.what(),
                            false);
            }
            if (read.problem) {
                return lose(folder, relative,
                            "directory document '" + name + "' cannot be parsed: " + metaName +
                                ": " + *read.problem,
                            true);
            }
            takeFixes(read);
            document.elements = std::move(read.elements);
            for (Element& e : document.elements) {
                if (e.kind == ElementKind::ExternalList) {
                    keys[e.name] = ozdf::partFileKey(e.writtenName);
                }
            }
        } else if (!restoreMetadata(folder, name, listing, document, keys)) {
            return std::nullopt;
        }
        std::set<std::string> allKeys;
        for (const auto& [list, key] : keys) {
            allKeys.insert(key);
        }
        std::map<std::string, std::string> claimed;  // part file → the key that read it
        for (Element& e : document.elements) {
            if (e.kind == ElementKind::ExternalList) {
                readParts(e, keys[e.name], allKeys, folder, name, relative, listing, claimed);
            }
        }
        for (const std::string& file : listing.files) {
            if (file.ends_with(".ozdp") && !claimed.contains(file)) {
                report_.actions.push_back(
                    fileStep(name + "/" + file +
                                 " not copied: it belongs to no external list (readers ignore it)",
                             folder / file));
            } else if (!file.ends_with(".ozdp") && file != kMetadataFile &&
                       file != kWritingMarker) {
                report_.actions.push_back(fileStep(
                    name + "/" + file + " not copied: it is not a file of an OZDF document",
                    folder / file));
            }
        }
        return writable(std::move(document), folder, name, relative, 0);
    }

private:
    struct Listing {
        std::vector<std::string> files;  // regular files, sorted
        bool has(std::string_view file) const {
            return std::binary_search(files.begin(), files.end(), file);
        }
    };

    static Listing list(const fs::path& folder) {
        Listing listing;
        std::error_code ec;
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeEc;
            if (it->is_regular_file(typeEc)) {
                listing.files.push_back(it->path().filename().string());
            }
        }
        if (ec) {
            throw RepairError(folder.string() + ": cannot list the folder: " + ec.message());
        }
        std::sort(listing.files.begin(), listing.files.end());
        return listing;
    }

    void takeFixes(FileRead& read) {
        for (RepairStep& step : read.fixes) {
            report_.actions.push_back(std::move(step));
        }
    }

    // Loses a whole document: its files go to the quarantine (when there are bytes to keep).
    std::optional<Document> lose(const fs::path& source, const fs::path& relative,
                                 const std::string& why, bool keep, std::uint64_t length = 0) {
        if (firstLoss_.empty()) {
            firstLoss_ = why;
        }
        std::string text = why;
        if (keep) {
            quarantine_.push_back({source, relative});
            text += "; quarantined whole in " + (quarantinePath_ / relative).string();
        }
        report_.losses.push_back(fileStep(text, source, 0, length));
        ++report_.lostKnown;
        return std::nullopt;
    }

    // The planned document must be writable as it is (the writer refuses what would not read
    // back the same); otherwise it is quarantined whole.
    // Counts it among the documents whose files change (beyond the mends listed).
    std::optional<Document> writable(Document document, const fs::path& source,
                                     const std::string& name, const fs::path& relative,
                                     std::uint64_t length) {
        bool changed = false;
        try {
            const std::string text = ozdf::writeDocumentText(document);
            changed = !sameBytes(document.isDirectory ? source / kMetadataFile : source, text);
            for (const Element& e : document.elements) {
                if (e.kind != ElementKind::ExternalList) {
                    changed = changed || (document.isDirectory && e.kind == ElementKind::List &&
                                          !e.items.empty() && !e.items[0].partFile.empty());
                    continue;
                }
                const auto parts = ozdf::writeParts(e, ozdf::EmptyItemNames::Kept);
                for (std::size_t i = 0; i < parts.size() && !changed; ++i) {
                    changed = parts[i].first != e.items[i].partFile ||
                              !sameBytes(source / e.items[i].partFile, parts[i].second);
                }
            }
        } catch (const ozdf::WriteError& e) {
            return lose(source, relative,
                        "document '" + name +
                            "' cannot be written so that it reads back the same: " + e.what(),
                        true, length);
        }
        rewritten_ += changed ? 1 : 0;
        return document;
    }

    static bool sameBytes(const fs::path& file, std::string_view text) {
        std::error_code ec;
        if (fs::file_size(file, ec) != text.size() || ec) {
            return false;
        }
        try {
            const ByteSourcePtr bytes = openMappedFile(file);
            const ByteView view = bytes->view(0, bytes->size());
            return std::string_view(reinterpret_cast<const char*>(view.data()), view.size()) ==
                   text;
        } catch (const SourceError&) {
            return false;
        }
    }

    // A folder of parts without `_metadata.ozdf`: one external list per part file key, in key
    // order. False when there is nothing to recover.
    bool restoreMetadata(const fs::path& folder, const std::string& name, const Listing& listing,
                         Document& document, std::map<std::string, std::string>& keys) {
        std::set<std::string> found;
        for (const std::string& file : listing.files) {
            if (file.ends_with(".ozdp")) {
                if (std::string key = keyOfPartName(file); !key.empty()) {
                    found.insert(std::move(key));
                }
            }
        }
        if (found.empty()) {
            (void)lose(folder, {},
                       "directory document '" + name + "' has no " + std::string(kMetadataFile) +
                           " and no part file: nothing to recover",
                       false);
            return false;
        }
        std::string lists;
        for (const std::string& key : found) {
            Element e;
            e.kind = ElementKind::ExternalList;
            e.writtenName = key;
            e.name = ozdf::upperCase(ozdf::sanitizeUtf8(key));
            keys[e.name] = key;
            lists += (lists.empty() ? "[[" : ", [[") + e.name + "]]";
            document.elements.push_back(std::move(e));
        }
        report_.losses.push_back(fileStep(
            "directory document '" + name + "': " + std::string(kMetadataFile) +
                " is missing; restored with the external list" + (found.size() == 1 ? " " : "s ") +
                lists +
                " named after the part files; whatever else it held (blocks, inline lists, "
                "comments, the lists' order, spaces in their names) is lost",
            folder));
        return true;
    }

    struct Part {
        std::string file;
        std::uint64_t number = 0;
        bool unicodeDigits = false;
    };

    void loseItem(const fs::path& folder, const std::string& file, const fs::path& relative,
                  const std::string& why, std::uint64_t length) {
        quarantine_.push_back({folder / file, relative / file});
        report_.losses.push_back(
            fileStep(why + "; quarantined in " + (quarantinePath_ / relative / file).string(),
                     folder / file, 0, length));
    }

    void readParts(Element& list, const std::string& key, const std::set<std::string>& allKeys,
                   const fs::path& folder, const std::string& name, const fs::path& relative,
                   const Listing& listing, std::map<std::string, std::string>& claimed) {
        const std::string listName = name + ": external list [[" + list.name + "]]";
        std::vector<Part> parts;
        // The files starting KEY- follow each other in the sorted listing: only those are read,
        // not the whole folder for each list.
        const std::string prefix = key + "-";
        for (auto it = std::lower_bound(listing.files.begin(), listing.files.end(), prefix);
             it != listing.files.end() && it->starts_with(prefix); ++it) {
            const std::string& file = *it;
            // Two lists with one key ([[A B]] and [[A_B]]) both read its parts, as readers do.
            const auto owner = claimed.find(file);
            if (!file.ends_with(".ozdp") || (owner != claimed.end() && owner->second != key)) {
                continue;
            }
            Part part{file};
            if (const auto n = partNumber(file, key, part.unicodeDigits)) {
                part.number = *n;
                parts.push_back(std::move(part));
                claimed[file] = key;
                continue;
            }
            if (const std::string other = keyOfPartName(file);
                !other.empty() && other != key && allKeys.contains(other)) {
                continue;  // a part of another list whose key starts like this one
            }
            if (owner != claimed.end()) {
                continue;  // lost already, with the list that read it first
            }
            claimed[file] = key;
            std::error_code ec;
            const auto size = fs::file_size(folder / file, ec);
            loseItem(folder, file, relative,
                     listName + " loses the item of '" + file +
                         "': its name has no part number, so its place in the list is unknown",
                     ec ? 0 : size);
        }
        std::stable_sort(parts.begin(), parts.end(),
                         [](const Part& a, const Part& b) { return a.number < b.number; });
        std::vector<std::string> moved;
        std::size_t movedCount = 0;
        for (const Part& part : parts) {
            const fs::path path = folder / part.file;
            const std::string partName = name + "/" + part.file;
            FileRead read;
            try {
                read = readFile(path, Grammar::DataPart, false, partName);
            } catch (const SourceError& e) {
                report_.losses.push_back(fileStep(
                    listName + " loses the item of '" + part.file + "': " + e.what(), path));
                continue;
            }
            std::optional<std::vector<ozdf::Paragraph>> data;
            std::optional<std::string> itemName;
            std::vector<std::string> ignored;  // blocks and comments readers do not read
            for (Element& block : read.elements) {
                if (block.kind != ElementKind::Block) {
                    ignored.emplace_back("a comment");
                    continue;
                }
                if (block.name != "DATA" && block.name != "NAME") {
                    ignored.push_back("block '" + shown(block.name) + "'");
                }
                if (block.name == "DATA" && !data) {
                    data = std::move(block.paragraphs);
                } else if (block.name == "NAME" && !itemName) {
                    std::string joined;
                    for (const ozdf::Paragraph& p : block.paragraphs) {
                        joined += (joined.empty() ? "" : "\n\n") + p.text;
                    }
                    itemName = std::move(joined);
                }
            }
            if (read.problem || !data) {
                loseItem(folder, part.file, relative,
                         listName + " loses the item of '" + part.file +
                             "': " + (read.problem ? *read.problem : "the part has no DATA block"),
                         read.source->size());
                continue;
            }
            takeFixes(read);
            if (!ignored.empty()) {
                std::string text;
                for (const std::string& what : ignored) {
                    text += (text.empty() ? "" : ", ") + what;
                }
                report_.actions.push_back(fileStep(
                    partName + ": " + text +
                        " not copied: a part holds only NAME and DATA (readers ignore the rest)",
                    path));
            }
            Item item;
            item.name = std::move(itemName);
            item.paragraphs = std::move(*data);
            item.partFile = part.file;
            item.partIndex = list.items.size() + 1;
            if (part.number != item.partIndex || part.unicodeDigits) {
                if (++movedCount <= kListed) {
                    moved.push_back("'" + part.file + "' is now part " +
                                    std::to_string(item.partIndex));
                }
            }
            list.items.push_back(std::move(item));
        }
        if (movedCount > 0) {
            std::string text = listName + ": parts renumbered 1.." +
                               std::to_string(list.items.size()) + " in their order: ";
            for (std::size_t i = 0; i < moved.size(); ++i) {
                text += (i == 0 ? "" : ", ") + moved[i];
            }
            if (movedCount > moved.size()) {
                text += " and " + std::to_string(movedCount - moved.size()) + " more";
            }
            report_.actions.push_back(fileStep(text, folder));
        }
        if (const std::string problem = ozdf::externalListNameProblem(list.name);
            !problem.empty()) {
            list.kind = ElementKind::List;
            report_.actions.push_back(fileStep(
                listName + " written as the inline list [" + list.name + "] (" + problem + ")",
                folder));
        }
    }

    fs::path quarantinePath_;
    RepairReport& report_;
    std::vector<Quarantined> quarantine_;
    std::string firstLoss_;
    std::size_t rewritten_ = 0;
};

bool hasPartFiles(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeEc;
        if (it->is_regular_file(typeEc) && it->path().extension() == ".ozdp") {
            return true;
        }
    }
    return false;
}

bool holdsDocuments(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".ozdf") {
            return true;
        }
    }
    return false;
}

bool isDocumentFolder(const fs::path& folder) {
    std::error_code ec;
    return fs::is_regular_file(folder / kMetadataFile, ec) ||
           fs::is_regular_file(folder / kWritingMarker, ec) || hasPartFiles(folder);
}

// The documents of a corpus folder, sorted by full path as the reference loads them.
std::vector<Document> planCorpus(const fs::path& folder, Planner& planner,
                                 const RepairOptions& options, RepairReport& report) {
    std::error_code ec;
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        entries.push_back(it->path());
    }
    if (ec) {
        throw RepairError(folder.string() + ": cannot list the folder: " + ec.message());
    }
    std::sort(entries.begin(), entries.end(),
              [](const fs::path& a, const fs::path& b) { return a.string() < b.string(); });
    std::vector<Document> documents;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        throwIfCancelled(options);
        const fs::path& path = entries[i];
        const std::string name = path.filename().string();
        std::error_code typeEc;
        std::optional<Document> planned;
        if (fs::is_regular_file(path, typeEc) && name.ends_with(".ozdf")) {
            planned = planner.standalone(path, name, name);
        } else if (fs::is_directory(path, typeEc) && isDocumentFolder(path)) {
            planned = planner.directory(path, name, name, name);
        } else if (fs::is_directory(path, typeEc) && holdsDocuments(path)) {
            report.actions.push_back(fileStep(
                "sub-folder '" + name + "' not copied: it holds .ozdf files but no " +
                    std::string(kMetadataFile) + ", so readers skip it (a corpus holds no corpora)",
                path));
        } else if (fs::is_regular_file(path, typeEc) && name.ends_with(".ozdp")) {
            report.actions.push_back(fileStep(
                name + " not copied: a part file at the top of a corpus belongs to no document",
                path));
        } else {
            report.actions.push_back(
                fileStep(name + (fs::is_directory(path, typeEc) ? "/" : "") +
                             " not copied: it is not an OZDF document, so readers of the corpus "
                             "skip it",
                         path));
        }
        if (planned) {
            documents.push_back(std::move(*planned));
        }
        options.reportProgress(
            0.5 * static_cast<double>(i + 1) / static_cast<double>(entries.size()),
            "planning " + name);
    }
    return documents;
}

}  // namespace

fs::path ozdfQuarantinePath(const fs::path& output) {
    fs::path p = output;
    p += ".quarantine";
    return p;
}

RepairReport repairOzdf(const fs::path& input, const fs::path& requested,
                        const RepairOptions& options) {
    fs::path output = requested.lexically_normal();
    if (!output.has_filename() && output.has_parent_path()) {
        output = output.parent_path();  // "out/"
    }
    const fs::path quarantinePath = ozdfQuarantinePath(output);
    RepairReport report = beginRepair("documents", output, options, quarantinePath);
    std::error_code ec;
    refuseOutputInsideInput(input, output);
    InputKind kind = InputKind::Standalone;
    if (fs::is_directory(input, ec)) {
        kind = ozdf::opensAsDocument(input) ? InputKind::Directory : InputKind::Corpus;
    } else if (!fs::is_regular_file(input, ec)) {
        throw RepairError(input.string() + ": not a file or folder");
    } else if (input.extension() == ".ozdp") {
        throw RepairError(input.string() +
                          ": a data part is not a document; repair the directory document that "
                          "holds it");
    }
    Planner planner(quarantinePath, report);
    std::vector<Document> documents;
    std::string inputName = input.lexically_normal().filename().string();
    if (inputName.empty()) {
        inputName = input.lexically_normal().parent_path().filename().string();
    }
    const std::string outputName = output.filename().string();
    std::optional<Document> one;
    switch (kind) {
        case InputKind::Standalone:
            one = planner.standalone(input, outputName, inputName);
            break;
        case InputKind::Directory:
            one = planner.directory(input, outputName, inputName, {});
            break;
        case InputKind::Corpus:
            documents = planCorpus(input, planner, options, report);
            break;
    }
    if (one) {
        documents.push_back(std::move(*one));
    }
    report.recovered = documents.size();
    if (planner.rewritten() > 0) {
        report.actions.push_back(
            {std::to_string(planner.rewritten()) + " of the " + std::to_string(documents.size()) +
                 " documents written in the canonical layout (names upper-cased, paragraphs "
                 "wrapped at 80 columns, whitespace collapsed, one blank line between blocks, "
                 "parts numbered from 01): what readers read from them is unchanged",
             Region{}});
    }
    if (!planner.quarantine().empty()) {
        report.actions.push_back(
            {"quarantined in " + quarantinePath.string() + ": " +
                 counted(planner.quarantine().size(), "file or folder", "files or folders") +
                 " with their original bytes",
             Region{}});
    }
    if (documents.empty()) {
        throw RepairError(input.string() + ": no document could be recovered" +
                          (planner.firstLoss().empty() ? std::string(" (it holds none)")
                                                       : ": " + planner.firstLoss()) +
                          "; nothing was written");
    }
    // What strata-cli diff INPUT OUTPUT will find, known before anything is written (only when
    // nothing is lost: a loss says what the output lacks).
    std::optional<OzdfDiffSide> inputSide;
    if (report.complete()) {
        inputSide = readAsOpened(kind, input);
        listContentDifferences(
            *makeOzdfDiffer(*inputSide, plannedSide(kind, *inputSide, documents)), report, options,
            {input.string()});
    }
    if (!report.complete()) {
        inputSide.reset();
    }
    if (!options.dryRun) {
        writeRepaired(kind, input, inputSide, documents, planner.quarantine(), output, options,
                      report);
        report.written = true;
    }
    return report;
}

}  // namespace strata