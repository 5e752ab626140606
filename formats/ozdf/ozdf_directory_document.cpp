// A directory document read: its `_metadata.ozdf`, the `.ozdp` part files of each external list
// (names, numbering, DATA and NAME blocks) and what else its folder holds.
#include <fnmatch.h>

#include <algorithm>
#include <set>

#include "ozdf_parser_internal.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace fs = std::filesystem;

namespace {

// A part file name KEY-<digits>.ozdp: the index, whether it used non-ASCII digits.
struct PartName {
    bool matches = false;
    std::uint64_t index = 0;
    bool unicodeDigits = false;
};

PartName parsePartName(std::string_view name, std::string_view key) {
    PartName out;
    const std::string prefix = std::string(key) + "-";
    if (!name.starts_with(prefix) || !name.ends_with(".ozdp") || name.size() <= prefix.size() + 5) {
        return out;
    }
    const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 5);
    std::uint64_t value = 0;
    for (std::size_t at = 0; at < digits.size();) {
        const DecodedChar ch = decodeUtf8(digits, at);
        const int digit = ch.valid ? decimalDigitValue(ch.codePoint) : -1;
        if (digit < 0) {
            return out;
        }
        out.unicodeDigits = out.unicodeDigits || ch.codePoint >= 0x80;
        const std::uint64_t limit = (UINT64_MAX - static_cast<std::uint64_t>(digit)) / 10;
        value = value > limit ? UINT64_MAX : value * 10 + static_cast<std::uint64_t>(digit);
        at += ch.length;
    }
    out.matches = true;
    out.index = value;
    return out;
}

// Opens a file of a document: a null `kept` (the problem reported) when it cannot be. Remotely
// only a missing file is reported; any other error propagates.
OpenedFile openOrReport(const RemoteFolders* remote, const fs::path& path, Reporter& reporter) {
    try {
        if (remote != nullptr) {
            ByteSourcePtr source = remote->open(path);
            return {source, source};
        }
        return openFileSource(path);
    } catch (const StoreError& error) {
        if (!error.missing()) {
            throw;
        }
        reporter.errorInFile(codes::kIo, error.what(), path.string());
    } catch (const SourceError& error) {
        if (remote != nullptr) {
            throw;
        }
        reporter.errorInFile(codes::kIo, error.what(), path.string());
    }
    return {};
}

class DirectoryReader {
public:
    DirectoryReader(Document& document, Reporter& reporter, const RemoteFolders* remote)
        : document_(document), reporter_(reporter), remote_(remote) {}

    void read() {
        const fs::path& folder = document_.path;
        listFolder(folder);
        if (hasEntry(kWritingMarker)) {
            reporter_.errorInFile(codes::kWritingMarker,
                                  "the folder holds the " + std::string(kWritingMarker) +
                                      " marker of an interrupted save; the reference refuses it",
                                  (folder / kWritingMarker).string());
        }
        const fs::path metadata = folder / kMetadataFile;
        if (remote_ != nullptr ? !hasRegularEntry(kMetadataFile) : !fs::is_regular_file(metadata)) {
            reportNoMetadata(metadata);
            return;
        }
        const OpenedFile file = openOrReport(remote_, metadata, reporter_);
        if (!file.kept) {
            return;
        }
        document_.sources.push_back(file.kept);
        document_.elements =
            parseElements(*file.kept, *file.bytes, Grammar::Document, true, reporter_,
                          [this](Element& element) { readParts(element); });
        reportIgnoredParts();
        reportNestedDocuments();
    }

private:
    // Part files without the metadata that names their lists: a directory document that lost
    // `_metadata.ozdf`, or whose save was cut short before writing it.
    void reportNoMetadata(const fs::path& metadata) {
        const std::size_t parts = static_cast<std::size_t>(std::count_if(
            entries_.begin(), entries_.end(),
            [](const auto& entry) { return entry.second && entry.first.ends_with(".ozdp"); }));
        if (parts == 0) {
            reporter_.errorInFile(
                codes::kNoMetadata,
                "a directory document needs a " + std::string(kMetadataFile) + " file",
                metadata.string());
            return;
        }
        reporter_.errorInFile(
            codes::kPartsWithoutMetadata,
            partsWithoutMetadataText(parts) + ": the reference refuses to open it as a document",
            document_.path.string());
    }

    void listFolder(const fs::path& folder) {
        if (remote_ != nullptr) {
            const auto listing = remote_->list(folder);
            if (!listing->found) {
                reporter_.errorInFile(codes::kIo, "cannot list the folder: no such folder",
                                      folder.string());
            }
            for (const FileTreeEntry& entry : listing->entries) {
                entries_.push_back({entry.name, !entry.isDirectory});
                if (entry.isDirectory) {
                    subfolders_.push_back(entry.name);
                }
            }
            std::sort(entries_.begin(), entries_.end());
            return;
        }
        std::error_code ec;
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeEc;
            entries_.push_back({it->path().filename().string(), it->is_regular_file(typeEc)});
            if (it->is_directory(typeEc) && !it->is_symlink(typeEc)) {
                subfolders_.push_back(it->path().filename().string());
            }
        }
        if (ec) {
            reporter_.errorInFile(codes::kIo, "cannot list the folder: " + ec.message(),
                                  folder.string());
        }
        std::sort(entries_.begin(), entries_.end());
    }

    bool hasEntry(std::string_view name) const {
        return std::any_of(entries_.begin(), entries_.end(),
                           [&](const auto& entry) { return entry.first == name; });
    }

    bool hasRegularEntry(std::string_view name) const {
        return std::any_of(entries_.begin(), entries_.end(),
                           [&](const auto& entry) { return entry.second && entry.first == name; });
    }

    struct Candidate {
        std::string name;
        PartName parsed;
    };

    void readParts(Element& element) {
        const std::string key = partFileKey(element.writtenName);
        const std::string pattern = key + "-*.ozdp";
        // The reference globs KEY-*.ozdp. Without glob characters in the key that is the
        // entries from KEY- on while they start with it (they are sorted), not every entry of a
        // folder of a hundred thousand parts for each list.
        // (A NUL ends the pattern fnmatch sees: that too is left to it.)
        const bool glob = key.find_first_of(std::string_view("*?[\\\0", 5)) != std::string::npos;
        const std::string prefix = key + "-";
        auto from = entries_.begin();
        if (!glob) {
            from = std::lower_bound(
                entries_.begin(), entries_.end(), prefix,
                [](const auto& entry, const std::string& p) { return entry.first < p; });
        }
        std::vector<Candidate> parts;
        for (auto it = from; it != entries_.end(); ++it) {
            const auto& [name, regular] = *it;
            if (!glob && !name.starts_with(prefix)) {
                break;
            }
            const bool matches =
                glob ? fnmatch(pattern.c_str(), name.c_str(), FNM_NOESCAPE | FNM_PERIOD) == 0
                     : name.ends_with(".ozdp") && name.size() >= prefix.size() + 5;
            if (!regular || !matches) {
                continue;
            }
            claimed_.insert(name);
            const PartName parsed = parsePartName(name, key);
            const std::string file = (document_.path / name).string();
            if (!parsed.matches) {
                reporter_.errorInFile(codes::kPartName,
                                      "part file name '" + name + "' does not have the form " +
                                          key + "-<digits>.ozdp",
                                      file);
                continue;
            }
            if (parsed.unicodeDigits) {
                reporter_.warningInFile(codes::kPartUnicodeDigits,
                                        "part number of '" + name +
                                            "' uses non-ASCII digits (the reference accepts them)",
                                        file);
            }
            parts.push_back({name, parsed});
        }
        std::stable_sort(parts.begin(), parts.end(), [](const Candidate& a, const Candidate& b) {
            return a.parsed.index < b.parsed.index;
        });
        if (parts.empty()) {
            reporter_.info(codes::kPartMissing,
                           "external list [[" + element.writtenName + "]] has no " + key +
                               "-NN.ozdp part files: it is read as an empty list",
                           element.headerRegion);
        }
        checkNumbering(parts, key);
        for (const Candidate& part : parts) {
            element.items.push_back(readPart(part));
        }
    }

    void checkNumbering(const std::vector<Candidate>& parts, const std::string& key) {
        std::uint64_t expected = 1;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const std::uint64_t index = parts[i].parsed.index;
            const std::string file = (document_.path / parts[i].name).string();
            if (i > 0 && index == parts[i - 1].parsed.index) {
                reporter_.errorInFile(codes::kPartDuplicate,
                                      "part '" + parts[i].name + "' repeats number " +
                                          std::to_string(index) + " of '" + parts[i - 1].name + "'",
                                      file);
                continue;
            }
            if (index != expected) {
                const bool start = i == 0;
                reporter_.errorInFile(start ? codes::kPartStart : codes::kPartGap,
                                      start ? "the parts of " + key + " start at " +
                                                  std::to_string(index) + " instead of 1"
                                            : "part " + std::to_string(expected) + " of " + key +
                                                  " is missing (next is '" + parts[i].name + "')",
                                      file);
            }
            expected = index == UINT64_MAX ? index : index + 1;
        }
    }

    Item readPart(const Candidate& part) {
        Item item;
        item.partFile = part.name;
        item.partIndex = part.parsed.index;
        const fs::path path = document_.path / part.name;
        const OpenedFile file = openOrReport(remote_, path, reporter_);
        if (!file.kept) {
            return item;
        }
        document_.sources.push_back(file.kept);
        item.partRegion = {file.kept.get(), 0, file.kept->size()};
        std::vector<Element> blocks =
            parseElements(*file.kept, *file.bytes, Grammar::DataPart, false, reporter_, {});
        bool hasData = false;
        for (Element& block : blocks) {
            if (block.kind != ElementKind::Block) {
                continue;
            }
            if (block.name == "DATA" && !hasData) {
                hasData = true;
                item.paragraphs = std::move(block.paragraphs);
                item.region = block.region;
                item.markerRegion = block.headerRegion;
            } else if (block.name == "NAME" && !item.name) {
                item.name = joinParagraphs(block.paragraphs);
            } else if (block.name != "DATA" && block.name != "NAME") {
                reporter_.info(codes::kPartExtraBlock,
                               "block '" + block.name + "' of a data part is ignored",
                               block.headerRegion);
            }
        }
        if (!hasData) {
            reporter_.error(codes::kPartNoData, "data part '" + part.name + "' has no DATA block",
                            item.partRegion);
            item.region = item.partRegion;
        }
        return item;
    }

    static std::string joinParagraphs(const std::vector<Paragraph>& paragraphs) {
        std::string out;
        for (std::size_t i = 0; i < paragraphs.size(); ++i) {
            if (i != 0) {
                out += "\n\n";
            }
            out += paragraphs[i].text;
        }
        return out;
    }

    void reportIgnoredParts() {
        for (const auto& [name, regular] : entries_) {
            if (regular && name.ends_with(".ozdp") && !claimed_.contains(name)) {
                reporter_.infoInFile(codes::kPartIgnored,
                                     "'" + name + "' belongs to no external list and is ignored",
                                     (document_.path / name).string());
            }
        }
    }

    // Documents cannot hold documents: the reference reads none of a sub-folder's files.
    void reportNestedDocuments() {
        std::sort(subfolders_.begin(), subfolders_.end());
        for (const std::string& name : subfolders_) {
            if (name == kBackupFolder) {
                continue;  // the reference's own save backup
            }
            const fs::path path = document_.path / name;
            const FolderContents contents =
                remote_ != nullptr ? contentsOf(*remote_, path, false) : contentsOf(path, false);
            const bool document =
                remote_ != nullptr ? isDocumentFolder(*remote_, path) : isDocumentFolder(path);
            if (document || contents.parts > 0 || contents.documents > 0) {
                reporter_.warningInFile(codes::kNestedDocument,
                                        "sub-folder '" + name +
                                            "' holds OZDF files, but a document cannot hold "
                                            "documents: the reference reads none of them",
                                        path.string());
            }
        }
    }

    Document& document_;
    Reporter& reporter_;
    std::vector<std::pair<std::string, bool>> entries_;  // name, is a regular file
    std::vector<std::string> subfolders_;
    std::set<std::string> claimed_;
    const RemoteFolders* remote_;  // null: the local file system
};

}  // namespace

Document readDirectoryDocument(const fs::path& folder, const RemoteFolders* remote) {
    Document document;
    document.filename = fileNameOf(folder);
    document.isDirectory = true;
    document.path = folder;
    document.remote = remote != nullptr;
    Reporter reporter(document.diagnostics);
    DirectoryReader(document, reporter, remote).read();
    return document;
}

}  // namespace strata::ozdf
