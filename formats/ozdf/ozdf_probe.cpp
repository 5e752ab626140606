#include "ozdf_probe.h"

#include <algorithm>

#include "formats/registry/directory_listing.h"
#include "ozdf_format.h"

namespace strata {

namespace {

// Sub-folders looked into when deciding whether a folder is a corpus.
constexpr std::size_t kSubfolderLimit = 256;

constexpr std::string_view kMetadataFile = "_metadata.ozdf";
constexpr std::string_view kWritingMarker = ".ozdf_writing";

bool isDocumentFolder(const ProbeInput& input, const ProbeEntry& entry) {
    if (!entry.isDirectory) {
        return false;
    }
    // Through the input's tree: asked for by name (a web server's listing leaves out dot files).
    const auto folder = input.path / entry.name;
    return input.isFileAt(folder / kMetadataFile) || input.isFileAt(folder / kWritingMarker);
}

// A tree whose listings leave out dot files (a web server's): the interrupted save marker is
// asked for by name.
bool hiddenFileAt(const ProbeInput& input, std::string_view name) {
    return input.tree && !input.tree->listsDotFiles() && input.isFileAt(input.path / name);
}

// A text file whose first non-blank line is a `#### NAME` header (what the reference reads
// whatever the file is called). Binary content (a NUL in the head) never matches.
bool startsLikeDocument(std::string_view text) {
    if (text.find('\0') != std::string_view::npos) {
        return false;
    }
    const auto start = text.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) {
        return false;
    }
    const std::string_view line = text.substr(start, text.find_first_of("\r\n", start) - start);
    return line.starts_with("#### ") && line.find_first_not_of(" \t", 5) != std::string_view::npos;
}

OzdfProbe make(OzdfKind kind, int confidence, std::string description) {
    return {kind, {kOzdfFormat, confidence, std::move(description)}};
}

OzdfProbe classifyFolder(const ProbeInput& input) {
    if (input.hasFile(kMetadataFile)) {
        return make(OzdfKind::DirectoryDocument, 90, "OZDF directory document");
    }
    if (input.hasFile(kWritingMarker) || hiddenFileAt(input, kWritingMarker)) {
        return make(OzdfKind::DirectoryDocument, 80,
                    "OZDF directory document with an interrupted save");
    }
    bool anyPart = false;
    std::size_t subfolders = 0;
    for (const ProbeEntry& entry : input.entries) {
        const std::string extension = lowerExtension(entry.name);
        if (entry.isRegularFile && extension == ".ozdf") {
            return make(OzdfKind::Corpus, 70, "OZDF corpus");
        }
        if (entry.isDirectory && ++subfolders <= kSubfolderLimit &&
            isDocumentFolder(input, entry)) {
            return make(OzdfKind::Corpus, 70, "OZDF corpus");
        }
        anyPart = anyPart || (entry.isRegularFile && extension == ".ozdp");
    }
    if (anyPart) {
        return make(OzdfKind::PartsOnlyFolder, 30, "OZDF data parts without _metadata.ozdf");
    }
    return {};
}

OzdfProbe classifyFile(const ProbeInput& input) {
    if (input.extension == ".ozdf") {
        return make(OzdfKind::Document, 90, "OZDF document");
    }
    if (input.extension == ".ozdp") {
        return make(OzdfKind::DataPart, 90, "OZDF data part");
    }
    if (startsLikeDocument(input.headText())) {
        return make(OzdfKind::Document, 30, "OZDF document by content");
    }
    return {};
}

}  // namespace

OzdfProbe classifyOzdf(const ProbeInput& input) {
    return input.isDirectory ? classifyFolder(input) : classifyFile(input);
}

std::optional<Detection> probeOzdf(const ProbeInput& input) {
    OzdfProbe probe = classifyOzdf(input);
    if (probe.kind == OzdfKind::None) {
        return std::nullopt;
    }
    return probe.detection;
}

}  // namespace strata
