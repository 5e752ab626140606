// The results cache of `strata-cli scan --cache-dir DIR`: what each entry was found to be, keyed
// by its location and version (size, and ETag or modification time), so a rerun skips what has
// not changed without reading it, and a scan that was interrupted resumes where it stopped.
//
// DIR holds segments, JSON Lines files of results (results-<time>-<pid>-<n>.jsonl), each
// written whole through an AtomicFile once a batch of results is ready: a killed scan loses at
// most its last batch, and concurrent scans (shards sharing a folder) never write one file.
// Opening reads every segment once and keeps only a small index in memory (a 64-bit hash of
// each key and where its line is); a lookup reads that one line back and checks the key.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "scan_result.h"

namespace strata::scan {

class ScanCache {
public:
    // Results written per segment: few enough that a killed scan loses little, many enough
    // that a scan of 100,000 entries writes a few hundred files.
    static constexpr std::size_t kBatch = 256;

    // Creates `dir` when needed and indexes its segments. `salt` is part of every key (the
    // Strata version: a new version's validators check everything again). Throws
    // FileWriteError when the folder cannot be made.
    ScanCache(std::filesystem::path dir, std::string salt);
    // Writes what is still pending (a cancelled scan's last results too).
    ~ScanCache();
    ScanCache(const ScanCache&) = delete;
    ScanCache& operator=(const ScanCache&) = delete;

    // Whether results of this entry can be kept: it has a version to recognise it by.
    static bool cacheable(const ScanEntry& entry);
    // The stored result of this exact entry version, or nothing. Thread-safe.
    std::optional<ScanResult> find(const ScanEntry& entry) const;
    // Keeps a result (not an unreadable one: that is tried again next time). Thread-safe.
    void store(const ScanResult& result);
    // Writes the pending batch now. Throws FileWriteError.
    void flush();

    // Results indexed when opened.
    std::size_t indexed() const { return index_.size(); }
    // Lines of the segments that could not be used (damaged, too long, not results).
    std::size_t skippedLines() const { return skipped_; }

private:
    struct Place {
        std::uint32_t segment = 0;
        std::uint64_t offset = 0;
    };

    std::string keyOf(const ScanEntry& entry) const;
    void indexSegment(const std::filesystem::path& file);
    void writeBatch(std::vector<std::string> lines);

    std::filesystem::path dir_;
    std::string salt_;
    std::vector<std::filesystem::path> segments_;
    std::unordered_map<std::uint64_t, Place> index_;
    std::size_t skipped_ = 0;

    mutable std::mutex pendingMutex_;
    std::vector<std::string> pending_;
    std::uint64_t written_ = 0;
};

}  // namespace strata::scan
