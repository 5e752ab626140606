// Checking one entry of a scan: detect its format, open it, run its validator, and sum up what
// it found. Internal to the scanner (scanner.h), apart so that it can be read on its own.
#pragma once

#include <optional>

#include "formats/common/file_tree.h"
#include "formats/registry/format_registry.h"
#include "scan_result.h"

namespace strata::scan {

struct CheckSettings {
    const FormatRegistry* formats = nullptr;
    FileTreePtr tree;
    // Entries of other formats are skipped (not reported).
    std::optional<FormatId> onlyFormat;
    std::size_t keptDiagnostics = 5;
    std::size_t maxPerCode = 100;
    unsigned validatorThreads = 1;
    const CancelToken* cancel = nullptr;
};

enum class CheckStatus { Done, Skipped, Cancelled };

// What the walk already knows of an entry: a folder unit was probed to be recognised as one.
struct Probed {
    ProbeInput input;
    Detection detection;
};

// Checks `entry` into `out`. A read that fails (SourceError: a network fault, a permission, a
// file gone since it was listed) makes it Unreadable; a format that gives up opening it makes it
// Damaged. Never throws.
CheckStatus checkEntry(const CheckSettings& settings, const ScanEntry& entry,
                       std::optional<Probed> probed, ScanResult& out);

// Fills a folder unit's size (the total of its files) and its version (a fingerprint of every
// file's path, size and version), from listings only: a rerun with a results cache recognises
// an unchanged dataset without reading it. Throws SourceError when a listing fails.
void describeFolderUnit(const FileTree& tree, ScanEntry& entry, unsigned maxDepth,
                        const CancelToken* cancel);

}  // namespace strata::scan
