// What the parts of the ZDS writer share: the dataset-level write (zds_writer.cpp), the staging
// of each collection (zds_writer_stage.cpp) and the folder and archive targets. Internal.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "zds_reader.h"
#include "zds_writer.h"

namespace strata::zds {

inline constexpr std::uint64_t kCopyChunk = 4ull << 20;
inline constexpr std::uint64_t kMaxMetadataBytes = 64ull << 20;
inline constexpr std::string_view kStagePrefix = "strata-stage-";

std::string joinRel(const std::string& a, const std::string& b);
// A member name or relative path that stays inside the dataset.
bool safeRelPath(std::string_view rel);
// Usable as a docs/<id>.json file name.
bool safeDocFileId(std::string_view id);
void listTree(const ZdsStorage& storage, const std::string& rel, std::vector<std::string>& out);
void writeWholeFile(const std::filesystem::path& path, std::string_view text);
void syncDirectory(const std::filesystem::path& dir);

struct Progress {
    const ZdsWriteOptions& options;
    std::uint64_t total = 0;
    std::uint64_t done = 0;
    std::vector<std::string> notes;  // what the write changed beyond what it was asked to

    bool step();
    bool cancelled() const { return options.cancel != nullptr && options.cancel->cancelled(); }
};

struct StagedCollection {
    std::string name;
    std::string dirRel;                       // in the output: "collections/<name>" or ""
    std::filesystem::path dir;                // staged generated files, same relative layout
    std::vector<std::string> generated;       // paths relative to the collection
    std::set<std::string> replacedPrefix;     // relative paths (or "docs/") the write owns
    const ZdsCollection* previous = nullptr;  // same-named collection of the original
    std::uint64_t count = 0;
    std::optional<std::size_t> schemaCount;  // file per document: distinct shapes
    // Files written without a sync each (docs/): one sync of the file system makes them
    // durable before the stage is published.
    bool deferredWrites = false;
};

bool ownedByWrite(const StagedCollection& s, const std::string& rel);

// zds.json of the output: the original's fields, with the count of every collection.
std::string zdsJsonText(const ZdsDataset* original, const std::vector<StagedCollection>& staged,
                        const std::filesystem::path& target, const ZdsWriteOptions& options);

// Stage one collection's generated files in s.dir (zds_writer_stage.cpp).
void stageJsonl(const ZdsCollectionWrite& c, StagedCollection& s, Progress& progress);
void stageDocs(const ZdsCollectionWrite& c, StagedCollection& s, Progress& progress);

// Publish the staged collections, with what the original keeps, at the target.
ZdsWriteResult writeFolder(const ZdsDataset* original, std::vector<StagedCollection>& staged,
                           const std::filesystem::path& stageRoot,
                           const std::filesystem::path& target, bool single, bool inPlace,
                           Progress& progress);
ZdsWriteResult writeArchive(const ZdsDataset* original, std::vector<StagedCollection>& staged,
                            const std::filesystem::path& stageRoot,
                            const std::filesystem::path& target, Progress& progress);

}  // namespace strata::zds
