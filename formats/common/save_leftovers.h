// What an interrupted save leaves behind, recognised by the names Strata's writers give their
// temporary files and folders: every validator reports them, and `strata-cli clean-leftovers`
// and the app remove them once no running process is still writing them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostic.h"

namespace strata {

// Bit values, combined in LeftoverScan::kinds.
enum class LeftoverKind : unsigned {
    // `.NAME.strata-XXXXXXXXXXXX` (12 of a-z, 0-9), a file: an AtomicFile's temporary file. The
    // target NAME is intact (wholly old or wholly new); the temporary holds an unfinished copy.
    TempFile = 1U,
    // `.NAME.strata-stage-PID` or `.strata-stage-PID`, a folder: where a ZDS write or unpack
    // builds its output (collections, a `.zds` archive, unpacked members) before moving it into
    // place; PID is the writing process.
    StageFolder = 2U,
    // `.NAME.XXXXXXXX.part` (8 hex digits), a file: the app's "New ZS file" output before it is
    // renamed to NAME.
    PartFile = 4U,
};

inline constexpr unsigned kAllLeftoverKinds = 7U;

// "LEFTOVER-TEMP", "LEFTOVER-STAGE", "LEFTOVER-PART": the rule part of a format's code.
std::string_view leftoverCodeSuffix(LeftoverKind kind);

enum class LeftoverUse : std::uint8_t {
    Unused,   // no running process holds it open (and its writer, when named, has exited)
    InUse,    // a process holds it open or its writer still runs: a save may be in progress
    Unknown,  // it belongs to another user whose processes cannot be inspected
};

struct Leftover {
    std::filesystem::path path;
    LeftoverKind kind = LeftoverKind::TempFile;
    // The name of the file or folder the save was writing; empty for a stage folder inside the
    // dataset it writes (`.strata-stage-PID`).
    std::string target;
    bool isFolder = false;
    // The file's size, or the total size of the files in the folder.
    std::uint64_t bytes = 0;
    // The writing process named by a stage folder; 0 when the name holds none.
    std::int64_t writerPid = 0;
    // The stage of a repair (`.NAME.strata-repair-PID`, a file or a folder): an unfinished
    // repaired copy that was never given the name NAME.
    bool repairOutput = false;
    LeftoverUse use = LeftoverUse::Unknown;
    // Processes holding it (or a file in it) open, or its writer when still running.
    std::vector<std::int64_t> processes;
    // A stage folder holding `NAME.old` folders: what a ZDS write had moved out of the dataset
    // to replace it (on a file system without an atomic exchange) when it was killed. The data
    // set lacks it; it must be moved back, never removed.
    std::vector<std::string> displaced;

    // "no running process has it open", "open in process 123", "its writer, process 123, is
    // still running", ...
    std::string useText() const;
    // Whether removeLeftovers may remove it: unused, and holding nothing displaced.
    bool removable() const { return use == LeftoverUse::Unused && displaced.empty(); }
    // Why it is kept (empty when removable).
    std::string keepReason() const;
};

struct LeftoverScan {
    LeftoverScan() = default;
    LeftoverScan(unsigned kindMask, unsigned levels = 0,
                 std::function<bool(const std::filesystem::path&)> filter = {})
        : kinds(kindMask), depth(levels), descend(std::move(filter)) {}

    unsigned kinds = 0;
    // For a folder: how many levels of sub-folders are looked into (0: its own entries only).
    unsigned depth = 0;
    // For a folder: whether to look into a sub-folder, given its path relative to the folder
    // (unset: every one). Folders that writers never write into directly, such as ZDS `docs/`,
    // can be skipped so a million documents are not listed.
    std::function<bool(const std::filesystem::path& relative)> descend;
};

// The name and type of `path` as a leftover (symbolic links never are); use is not checked.
std::optional<Leftover> classifyLeftover(const std::filesystem::path& path);

// Leftovers of saves to `path`: those beside it whose target is its name and, when it is a
// folder, those inside it (to scan.depth); when `path` does not exist, those beside it (what
// an interrupted first save of it left). Sorted by path, use checked.
std::vector<Leftover> findSaveLeftovers(const std::filesystem::path& path,
                                        const LeftoverScan& scan);

// Fills `use` and `processes` from the processes' open files (/proc/PID/fd) and, for stage
// folders, whether the writer still runs.
void checkLeftoverUse(std::vector<Leftover>& leftovers);

// One diagnostic per leftover, code `PREFIX-LEFTOVER-…`, `file` = its path: a warning, a note
// when a running process is still writing it, an error when it holds displaced data.
Diagnostic leftoverDiagnostic(const Leftover& leftover, std::string_view codePrefix);

// findSaveLeftovers, each reported through `sink`. A path that is not on the local file system
// (a URL) has none.
void reportSaveLeftovers(const std::filesystem::path& path, std::string_view codePrefix,
                         const LeftoverScan& scan, DiagnosticSink& sink);

// True for the codes reportSaveLeftovers gives (`…-LEFTOVER-TEMP` and friends).
bool isLeftoverCode(std::string_view code);

struct LeftoverRemoval {
    std::vector<std::filesystem::path> removed;
    // Not removed, with the reason (no longer a leftover's name or type, in use, an error).
    std::vector<std::pair<std::filesystem::path, std::string>> kept;
};

// Removes each path that still has a leftover's name and type, that no running process uses
// and that holds nothing displaced, checked again just before; everything else is kept and
// said why. Never follows a
// symbolic link and never removes anything but the paths given (a stage folder with its
// contents).
LeftoverRemoval removeLeftovers(const std::vector<std::filesystem::path>& paths);

}  // namespace strata
