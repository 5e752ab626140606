// What a scan (scanner.h) says of each entry it finds under a folder, bucket or prefix: a file,
// or a folder format (a ZDS dataset, an OZDF corpus, a Shardlake root) taken as one unit.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/common/location.h"

namespace strata::scan {

enum class Verdict : std::uint8_t {
    Valid,          // no errors, no warnings
    Warnings,       // warnings only
    Damaged,        // the validator found errors, or the format could not make sense of it
    Unreadable,     // its bytes could not be read (a network fault, permissions, a vanished file)
    UnknownFormat,  // read, but no format recognised it
};

inline constexpr Verdict kAllVerdicts[] = {Verdict::Valid, Verdict::Warnings, Verdict::Damaged,
                                           Verdict::Unreadable, Verdict::UnknownFormat};

// "valid", "warnings", "damaged", "unreadable", "unknown-format": the names JSON and the CLI use.
std::string_view verdictName(Verdict verdict);
std::optional<Verdict> parseVerdict(std::string_view name);
// For test failures and logs: the verdict's name.
std::ostream& operator<<(std::ostream& out, Verdict verdict);
// What makes `strata-cli scan` exit 1: damaged or unreadable.
bool isProblem(Verdict verdict);

// One of the first diagnostics an entry's validator reported.
struct ScanDiagnostic {
    Severity severity = Severity::Error;
    std::string code;
    std::string message;
    std::optional<std::uint64_t> offset;
    std::string file;  // the file inside a folder unit it is about, when not the entry itself
};

// An entry as the walk found it, before it is checked.
struct ScanEntry {
    // The order the walk found it in (0, 1, 2...): a row number for a view filling in results.
    std::uint64_t index = 0;
    Location location;
    // From the scan root, '/'-separated ("a/b.zs"); the root's own name when the root is the
    // entry. Shards are chosen by it, so they do not depend on where the tree is mounted.
    std::string relativePath;
    bool isFolder = false;
    // A file's size; for a folder unit, the total size of the files in it (known once checked).
    std::uint64_t size = 0;
    // What tells this version from another (FileTreeEntry::etag / modified); for a folder unit
    // a fingerprint of its files' names, sizes and versions. Empty when unknown.
    std::string etag;
    std::string modified;
};

struct ScanResult {
    ScanEntry entry;
    std::string format;       // the name users see ("ZS"); empty when unreadable
    std::string description;  // the detection's ("ZS file", "OZDF corpus")
    Verdict verdict = Verdict::Valid;
    std::size_t errors = 0;
    std::size_t warnings = 0;
    // The first few diagnostics (ScanOptions::keptDiagnostics), errors before warnings.
    std::vector<ScanDiagnostic> diagnostics;
    // Why it is unreadable or could not be opened; empty otherwise.
    std::string problem;
    double seconds = 0;      // time taken to check it
    bool fromCache = false;  // taken from the results cache, not read
};

}  // namespace strata::scan
