// Repointing a Shardlake alias: `aliases/<name>.json` is rewritten to name another index
// version, atomically (readers see the old file or the new one), in the reference's layout.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "shardlake_store.h"

namespace strata::shardlake {

// Why `name` cannot be an alias or index version name ("" when it can): it must be one clean
// key segment (no '/', '\\', "." or "..", not empty, no NUL) so `aliases/<name>.json` and
// `indexes/<name>/` stay inside the root.
std::string nameProblem(std::string_view name);

// Index versions that have a readable manifest whose index_version matches the folder name.
std::vector<std::string> indexVersions(const Store& store);

// Why `version` cannot be an alias target ("" when it can): a bad name, no manifest, a manifest
// that does not parse or names another version.
std::string aliasTargetProblem(const Store& store, std::string_view version);

// The reference's alias file: {"alias", "index_version"}, pretty, no trailing newline.
std::string aliasFileText(std::string_view alias, std::string_view indexVersion);

struct AliasWrite {
    bool ok = false;
    std::string error;
    // The version the alias named before ("" when the alias is new or was unreadable).
    std::string previousVersion;
};

enum class AliasMode { CreateOrReplace, ReplaceOnly };

// Points alias `name` of the root at `indexVersion` after checking both names and the target.
// Never throws; a failed write leaves the old alias file as it was.
AliasWrite writeAlias(const std::filesystem::path& root, std::string_view name,
                      std::string_view indexVersion, AliasMode mode = AliasMode::CreateOrReplace);

}  // namespace strata::shardlake
