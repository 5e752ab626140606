// Shared by the scanner's tests: generated trees of every format with a known verdict per
// entry, a sink that collects results, and an in-memory "remote" tree that counts its reads.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "formats/common/file_tree.h"
#include "formats/registry/format_registry.h"
#include "formats/scan/scanner.h"

namespace strata::scan::test {

// How many entries of each kind a generated tree holds.
struct TreeShape {
    std::size_t zs = 0, ztensor = 0, zds = 0, shardlake = 0, ozdf = 0, unknown = 0;
    std::size_t total() const { return zs + ztensor + zds + shardlake + ozdf + unknown; }
};

struct ExpectedEntry {
    std::string format;  // "" for unknown-format entries
    Verdict verdict = Verdict::Valid;
    bool isFolder = false;
};

// A tree under `root` built from a few generated inputs per format (the repair campaign's
// generators), each copied many times; about one in eight copies is of a damaged variant.
// Each variant's verdict is found by validating it directly through the registry, so the
// expectations do not come from the scanner.
struct GeneratedTree {
    std::filesystem::path root;
    std::map<std::string, ExpectedEntry> expected;  // by path relative to root
};

GeneratedTree generateTree(const std::filesystem::path& root, const TreeShape& shape,
                           std::uint64_t seed);

// The verdict `path`'s format validator gives when opened on its own.
ExpectedEntry validateDirectly(const std::filesystem::path& path);

const FormatRegistry& builtinRegistry();

// Collects every result (thread-safe; the scanner serialises calls anyway) and watches how many
// entries were listed but not yet checked at once.
class CollectingScanSink : public ScanSink {
public:
    void listed(const ScanEntry& entry) override;
    void checked(const ScanResult& result) override;

    std::map<std::string, ScanResult> byPath() const;
    std::vector<ScanResult> results;
    std::size_t listedCount = 0;
    std::size_t maxInFlight = 0;
};

ScanOutcome runScan(const FormatRegistry& formats, const ScanOptions& options,
                    const FileTreePtr& tree, const Location& root, CollectingScanSink& sink);

// A tree that claims to be remote and serves `count` copies of one file's bytes from memory,
// in `folders` folders, each listed with an ETag: what an S3 prefix looks like to the scanner,
// without a server. Counts the files it opened.
class VirtualTree final : public FileTree {
public:
    VirtualTree(std::vector<std::uint8_t> bytes, std::size_t count, std::size_t folders);

    bool remote() const override { return true; }
    ByteSourcePtr open(const Location& file) const override;
    std::optional<FileTreeEntry> stat(const Location& location) const override;
    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override;
    FileOrFolder openOrList(const Location& location, std::size_t limit) const override;

    Location root() const { return Location::parse("s3://bucket/prefix"); }
    std::size_t opened() const { return opened_.load(); }
    // Listings are given these names besides the files (a hostile server).
    std::vector<std::string> extraNames;

private:
    std::vector<std::uint8_t> bytes_;
    std::size_t count_, folders_;
    mutable std::atomic<std::size_t> opened_{0};
};

}  // namespace strata::scan::test
