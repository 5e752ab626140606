#include "zds_probe.h"

#include <algorithm>

#include "formats/common/le_reader.h"
#include "formats/registry/directory_listing.h"
#include "zds_format.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

// Sub-folders examined per level; enough for any real dataset's collections.
constexpr std::size_t kFolderLimit = 256;
// Folders looked into, and collections per folder, when looking for a renamed collections/.
constexpr std::size_t kRenamedFolderLimit = 32;
// Local headers walked in the first bytes of a ZIP.
constexpr int kZipMemberLimit = 64;

constexpr std::string_view kZipLocalHeader{"PK\x03\x04", 4};
constexpr std::string_view kZipEmptyArchive{"PK\x05\x06", 4};

bool isCollectionMetaFile(std::string_view name) {
    return name == "data.jsonl" || name == "index.bin" || name == "manifest.json" ||
           name == "doc_index.jsonl" || name == "order.ids";
}

// Everything beyond the probed folder is looked at through the input (a URL's tree or disk).
bool looksLikeCollection(const ProbeInput& input, const fs::path& folder) {
    const DirectoryListing meta = input.listAt(folder / "meta", kFolderLimit);
    const bool metaKnown = std::any_of(
        meta.entries.begin(), meta.entries.end(),
        [](const ProbeEntry& e) { return e.isRegularFile && isCollectionMetaFile(e.name); });
    return metaKnown || (!meta.failed && input.isDirectoryAt(folder / "docs"));
}

bool anyCollectionUnder(const ProbeInput& input, const fs::path& folder,
                        std::size_t limit = kFolderLimit) {
    const DirectoryListing listing = input.listAt(folder, limit);
    return std::any_of(listing.entries.begin(), listing.entries.end(), [&](const ProbeEntry& e) {
        return e.isDirectory && looksLikeCollection(input, folder / e.name);
    });
}

// Member names of the local file headers found in the head of a ZIP. Stops at a member whose
// size is only given after its data (bit 3), since the next header cannot be found then.
std::vector<std::string> zipMemberNames(std::span<const std::uint8_t> head) {
    std::vector<std::string> names;
    std::uint64_t pos = 0;
    for (int i = 0; i < kZipMemberLimit; ++i) {
        const auto signature = readLe<std::uint32_t>(head, pos);
        const auto flags = readLe<std::uint16_t>(head, pos + 6);
        const auto compressedSize = readLe<std::uint32_t>(head, pos + 18);
        const auto nameLength = readLe<std::uint16_t>(head, pos + 26);
        const auto extraLength = readLe<std::uint16_t>(head, pos + 28);
        if (!signature || *signature != 0x04034b50 || !extraLength) {
            break;
        }
        const std::uint64_t nameStart = pos + 30;
        if (!rangeFits(nameStart, *nameLength, head.size())) {
            break;
        }
        names.emplace_back(reinterpret_cast<const char*>(head.data() + nameStart), *nameLength);
        if ((*flags & 0x08) != 0) {
            break;
        }
        pos = nameStart + *nameLength + *extraLength + *compressedSize;
    }
    return names;
}

bool namesLookLikeDataset(const std::vector<std::string>& names) {
    return std::any_of(names.begin(), names.end(), [](const std::string& name) {
        return name.starts_with("collections/") || name == "zds.json";
    });
}

ZdsProbe make(ZdsKind kind, int confidence, std::string description) {
    return {kind, {kZdsFormat, confidence, std::move(description)}};
}

ZdsProbe classifyFolder(const ProbeInput& input) {
    if (input.hasDirectory("collections")) {
        if (input.hasFile("zds.json") || anyCollectionUnder(input, input.path / "collections")) {
            return make(ZdsKind::DatasetFolder, 90, "ZDS dataset");
        }
        return make(ZdsKind::DatasetFolder, 50, "ZDS dataset without collections");
    }
    if (input.hasFile("zds.json")) {
        return make(ZdsKind::DatasetFolder, 90, "ZDS dataset");
    }
    if (input.hasDirectory("meta") && looksLikeCollection(input, input.path)) {
        return make(ZdsKind::CollectionFolder, 80, "ZDS collection");
    }
    // A dataset whose collections/ folder was renamed: <name>/<collection>/meta/...
    std::size_t looked = 0;
    for (const ProbeEntry& entry : input.entries) {
        if (!entry.isDirectory) {
            continue;
        }
        if (++looked > kRenamedFolderLimit) {
            break;
        }
        if (anyCollectionUnder(input, input.path / entry.name, kRenamedFolderLimit)) {
            return make(ZdsKind::NoCollectionsFolder, 30,
                        "ZDS dataset without a collections/ folder");
        }
    }
    return {};
}

ZdsProbe classifyFile(const ProbeInput& input) {
    if (input.headStartsWith(kZdxMagic)) {
        return make(ZdsKind::ZdxIndex, 100, "ZDX index");
    }
    const bool isZip =
        input.headStartsWith(kZipLocalHeader) || input.headStartsWith(kZipEmptyArchive);
    if (isZip && input.extension == ".zds") {
        return make(ZdsKind::Archive, 100, "ZDS archive");
    }
    if (isZip && namesLookLikeDataset(zipMemberNames(input.head))) {
        return make(ZdsKind::Archive, 60, "ZIP archive holding a ZDS dataset");
    }
    if (input.extension == ".zds") {
        return make(ZdsKind::NotAZip, 20, "file named .zds that is not a ZIP archive");
    }
    return {};
}

}  // namespace

ZdsProbe classifyZds(const ProbeInput& input) {
    return input.isDirectory ? classifyFolder(input) : classifyFile(input);
}

std::optional<Detection> probeZds(const ProbeInput& input) {
    ZdsProbe probe = classifyZds(input);
    if (probe.kind == ZdsKind::None) {
        return std::nullopt;
    }
    return probe.detection;
}

}  // namespace strata::zds
