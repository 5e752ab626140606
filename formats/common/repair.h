// What repairing a damaged file or folder produces: a new output beside the input (never in
// place, never over an existing path), validated before it is reported, and a report of every
// action taken and every loss, each pointing at the input's bytes. Each format's repair planner
// (formats/<format>/*_repair.h) fills one; `strata-cli repair` and the GUI print it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "diff.h"
#include "region.h"
#include "validator.h"

namespace strata {

// The input's bytes a step concerns. Owned, by file name: a report outlives the byte sources
// the planner opened.
struct RepairBytes {
    std::string file;  // empty when the step concerns no particular bytes
    std::uint64_t offset = 0;
    std::uint64_t length = 0;

    bool valid() const { return !file.empty(); }
};

struct RepairStep {
    RepairStep() = default;
    RepairStep(std::string text, const Region& region);  // region may be invalid

    std::string description;  // one line for a person
    RepairBytes bytes;
};

struct RepairReport {
    std::string itemName = "items";   // what was counted: "records", "documents"
    std::uint64_t recovered = 0;      // items written to the output
    std::uint64_t lostKnown = 0;      // items known to be lost (when countable)
    std::vector<RepairStep> actions;  // what was done: kept, rebuilt, dropped
    std::vector<RepairStep> losses;   // what could not be saved
    bool dryRun = false;
    bool written = false;  // the output exists and validated

    // "1 record", "7 documents": the items recovered, counted.
    std::string recoveredText() const;
    // "1 loss", "3 losses".
    std::string lossesText() const;
    std::filesystem::path output;
    // What another choice would keep (the app offers to plan again with it): lines left out that
    // RepairOptions::keepSuperseded keeps (ZDS), and a loss RepairOptions::recomputeDigests
    // saves (Shardlake; a zTensor plan sets it for any loss).
    std::uint64_t supersededLeftOut = 0;
    bool recomputingDigestsKeepsMore = false;

    bool complete() const { return losses.empty(); }
};

// A choice a repair may offer beyond what it keeps by default; a format says which it offers
// (FormatHandler::repairChoiceText).
enum class RepairChoice {
    RecomputeDigests,  // RepairOptions::recomputeDigests
    KeepSuperseded,    // RepairOptions::keepSuperseded
};

struct RepairOptions {
    bool dryRun = false;  // plan and report only; write nothing
    // zTensor: keep tensors whose digest does not match, with digests computed afresh (which
    // vouches for bytes no digest protected; the report says so). Shardlake: the same for shards
    // whose fingerprint does not match and that nothing else (the dataset) vouches for.
    bool recomputeDigests = false;
    // ZDS: keep the valid lines no live document uses (older versions of a document, deleted
    // documents) in data.jsonl without index entries, as history, instead of dropping them.
    bool keepSuperseded = false;
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    // For tests: called with the staged output once it is written, just before its final
    // check, so a test can damage it there and see the repair refuse to publish it.
    std::function<void(const std::filesystem::path& stage)> beforeOutputCheck;

    void reportProgress(double fraction, const std::string& text) const {
        if (progress) {
            progress(fraction, text);
        }
    }
};

// The input cannot be read at all, nothing could be recovered, the output path is taken, or the
// repaired output failed its own validation (then nothing is left under the output name).
class RepairError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A report of a repair to `output` counting `itemName`. Throws RepairError when `output` exists,
// or `quarantine` (where the repair would put what it cannot use; empty when it has none) does
// (a repair never replaces anything), unless it is a dry run.
RepairReport beginRepair(std::string itemName, const std::filesystem::path& output,
                         const RepairOptions& options,
                         const std::filesystem::path& quarantine = {});

// How the identity check below compares.
struct IdentityCheck {
    // Named by a difference that has no bytes in the input (something only the output holds).
    std::string inputFile;
    // Both sides' digests are known to match their bytes: components compare by digest alone.
    bool digestsChecked = false;
};

// The identity check of a repair that lists no loss: `differ` compares the input (A) with the
// staged or planned output (B), and every difference of content it finds (not `encoding`)
// becomes a loss naming its path and the input's bytes, so such a repair is never reported
// complete (at most kMaxListedDifferences are listed; one more loss counts the rest). A
// comparison that cannot be made is a loss too. Does nothing when the report already lists
// losses: they say what was lost.
void listContentDifferences(Differ& differ, RepairReport& report, const RepairOptions& options,
                            const IdentityCheck& check = {});

inline constexpr std::size_t kMaxListedDifferences = 100;

// The repaired output's own validation: throws RepairError quoting its first error.
void requireValidOutput(const std::vector<Diagnostic>& diagnostics);
// Runs `validator` over the repaired output, stopped by the repair's cancel token: throws
// JobCancelled when cancelled, else as requireValidOutput.
void requireValidOutput(Validator& validator, const RepairOptions& options);

// Moves the finished `staged` file to `output` only if nothing is there (no overwrite, even in a
// race): link, then unlink the stage. Throws RepairError naming `output` when it is taken.
void publishRepairOutput(const std::filesystem::path& staged, const std::filesystem::path& output);

// The same for a finished folder: renamed to `output` only if nothing is there
// (renameat2 RENAME_NOREPLACE). Throws RepairError naming `output` when it is taken.
void publishRepairFolder(const std::filesystem::path& staged, const std::filesystem::path& output);

// Throws RepairError when `output` lies inside `input` (or is it): writing there would change
// what is being repaired.
void refuseOutputInsideInput(const std::filesystem::path& input,
                             const std::filesystem::path& output);

// A stage beside `output` for the repair to write into: ".NAME.strata-repair-PID".
std::filesystem::path repairStagePath(const std::filesystem::path& output);

// Runs `work` in a fresh stage folder beside `output` (repairStagePath; a stale one of this
// process id is removed first) and removes the folder afterwards, whatever happens. Any
// exception that is not a RepairError becomes one naming `output`.
void runInRepairStage(const std::filesystem::path& output,
                      const std::function<void(const std::filesystem::path& stage)>& work);

// Publishes a staged file or folder as `output` (publishRepairOutput, publishRepairFolder) and,
// first, when `stagedQuarantine` exists, the quarantine staged with it as `quarantine`; if the
// output then cannot be published, the quarantine is removed again: neither stands alone.
void publishRepairWithQuarantine(const std::filesystem::path& staged,
                                 const std::filesystem::path& output,
                                 const std::filesystem::path& stagedQuarantine,
                                 const std::filesystem::path& quarantine);

}  // namespace strata
