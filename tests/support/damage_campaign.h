// Random damage to files and folders for the repair campaign (tests/formats/registry/
// damage_campaign_test.cpp): flipped bytes, zeroed pages, cuts, duplicated and swapped chunks,
// garbage lines and removed files, each recorded in the original's offsets so a check can tell
// which bytes of the original survive where. Knows nothing of any format.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::test {

enum class DamageKind {
    FlipBytes,       // one to four bytes XORed with a non-zero value
    ZeroPage,        // an aligned 512- or 4096-byte page set to zero
    Truncate,        // the file cut at a random length
    DuplicateChunk,  // a chunk copied and inserted somewhere else
    SwapChunks,      // two equal, non-overlapping chunks exchanged
    GarbageLine,     // a line of random bytes inserted (at a line start in text)
    RemoveFile,      // the file deleted (folder inputs only)
};

std::string_view damageName(DamageKind kind);
const std::vector<DamageKind>& allDamageKinds();

// What one damage did to one file, in the original file's offsets.
struct FileDamage {
    std::filesystem::path file;  // the damaged file (absolute)
    DamageKind kind = DamageKind::FlipBytes;
    std::string description;  // "flipped byte 1234 of data.jsonl", for failure messages
    // Original bytes that may now differ, as [begin, end) ranges.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> changed;
    // Bytes inserted before original offset `insertedAt` (every byte from there on moved).
    std::optional<std::uint64_t> insertedAt;
    std::uint64_t insertedLength = 0;
    bool removed = false;

    // Where original bytes [offset, offset + length) of `file` now are, unchanged and with
    // their neighbours before and after; nothing when the damage may have touched them.
    std::optional<std::uint64_t> untouchedAt(std::uint64_t offset, std::uint64_t length) const;
};

// The damages of one case, by file: where a range of an original file now is, unchanged.
struct CaseDamage {
    std::vector<FileDamage> damages;

    std::optional<std::uint64_t> untouchedAt(const std::filesystem::path& file,
                                             std::uint64_t offset, std::uint64_t length) const;
    std::string describe() const;
};

// Applies `kind` to `file` (which must exist). A kind that cannot apply (a chunk in a file of
// one byte) falls back to flipping a byte; RemoveFile deletes the file.
FileDamage damageFile(const std::filesystem::path& file, DamageKind kind, std::mt19937_64& rng);

// Every regular file under `root` (or `root` itself), sorted, relative paths.
std::vector<std::filesystem::path> filesUnder(const std::filesystem::path& root);

// Every file's bytes under `root` (or `root` itself), by relative path: compared before and
// after a repair, to see that the input was only read.
std::map<std::string, std::string> snapshotTree(const std::filesystem::path& root);

// Reads a whole (small, generated) file.
std::string fileBytes(const std::filesystem::path& file);

// The campaign's size, from the environment: STRATA_CAMPAIGN_CASES (cases per format, default
// `fallback`), STRATA_CAMPAIGN_SEED (default 20261127), STRATA_CAMPAIGN_FIRST (the first case
// number, to replay one case), STRATA_CAMPAIGN_KEEP (a folder that keeps each failing case's
// input and output).
struct CampaignSettings {
    std::uint64_t cases = 0;
    std::uint64_t seed = 0;
    std::uint64_t first = 0;
    std::filesystem::path keep;

    static CampaignSettings fromEnvironment(std::uint64_t fallbackCases);
};

}  // namespace strata::test
