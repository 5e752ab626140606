#include "scan_cache.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "formats/common/atomic_file.h"
#include "line_reader.h"
#include "scan_json.h"
#include "scan_shard.h"

namespace strata::scan {

namespace fs = std::filesystem;

namespace {

// A result line is a few kilobytes at most (five diagnostics); anything longer is not ours.
constexpr std::size_t kMaxLine = 1 << 20;
constexpr const char* kKeyField = "cache_key";

bool isSegmentName(const std::string& name) {
    return name.starts_with("results-") && name.ends_with(".jsonl");
}

std::optional<Json> parseLine(const std::string& line) {
    Json json = Json::parse(line, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return std::nullopt;
    }
    return json;
}

std::string segmentName(std::uint64_t serial) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    std::string time = std::to_string(std::chrono::nanoseconds(now).count());
    time.insert(0, time.size() < 20 ? 20 - time.size() : 0, '0');  // sorts by time
    return "results-" + time + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial) +
           ".jsonl";
}

}  // namespace

ScanCache::ScanCache(fs::path dir, std::string salt)
    : dir_(std::move(dir)), salt_(std::move(salt)) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_)) {
        throw FileWriteError(dir_.string() + ": cannot make the results cache folder" +
                             (ec ? ": " + ec.message() : std::string()));
    }
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        if (isSegmentName(it->path().filename().string())) {
            files.push_back(it->path());
        }
    }
    // Oldest first, so a newer result of the same key replaces an older one in the index.
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        indexSegment(file);
    }
}

ScanCache::~ScanCache() {
    try {
        flush();
    } catch (const std::exception&) {
        // A cache that cannot be written costs a re-check next time, never the scan.
    }
}

void ScanCache::indexSegment(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in || segments_.size() >= UINT32_MAX) {
        return;
    }
    const auto segment = static_cast<std::uint32_t>(segments_.size());
    segments_.push_back(file);
    BoundedLineReader reader(in, kMaxLine);
    std::string line;
    std::uint64_t offset = 0;
    while (reader.next(line, &offset)) {
        const std::optional<Json> json = parseLine(line);
        const auto key = json ? json->find(kKeyField) : Json::const_iterator();
        if (!json || key == json->end() || !key->is_string()) {
            ++skipped_;
            continue;
        }
        index_[stableHash(key->get<std::string>())] = {segment, offset};
    }
    skipped_ += reader.skippedLong();
}

bool ScanCache::cacheable(const ScanEntry& entry) {
    return !entry.etag.empty() || !entry.modified.empty();
}

std::string ScanCache::keyOf(const ScanEntry& entry) const {
    return entry.location.text() + '\n' + (entry.isFolder ? "folder" : "file") + '\n' +
           std::to_string(entry.size) + '\n' + entry.etag + '\n' + entry.modified + '\n' + salt_;
}

std::optional<ScanResult> ScanCache::find(const ScanEntry& entry) const {
    if (!cacheable(entry)) {
        return std::nullopt;
    }
    const std::string key = keyOf(entry);
    const auto found = index_.find(stableHash(key));
    if (found == index_.end()) {
        return std::nullopt;
    }
    std::ifstream in(segments_[found->second.segment], std::ios::binary);
    in.seekg(static_cast<std::streamoff>(found->second.offset));
    BoundedLineReader reader(in, kMaxLine);
    std::string line;
    const std::optional<Json> json = in && reader.next(line) ? parseLine(line) : std::nullopt;
    // The hash only points at a line; the key it holds must be this one (no collisions).
    const auto stored = json ? json->find(kKeyField) : Json::const_iterator();
    if (!json || stored == json->end() || !stored->is_string() || *stored != key) {
        return std::nullopt;
    }
    std::optional<ScanResult> result = resultFromJson(*json);
    if (result) {
        result->entry = entry;  // where and in which order this scan found it
        result->fromCache = true;
    }
    return result;
}

void ScanCache::store(const ScanResult& result) {
    if (!cacheable(result.entry) || result.verdict == Verdict::Unreadable || result.fromCache) {
        return;
    }
    Json json = resultJson(result);
    json[kKeyField] = keyOf(result.entry);
    std::vector<std::string> batch;
    {
        const std::lock_guard lock(pendingMutex_);
        pending_.push_back(jsonLine(json));
        if (pending_.size() < kBatch) {
            return;
        }
        batch.swap(pending_);
    }
    writeBatch(std::move(batch));
}

void ScanCache::flush() {
    std::vector<std::string> batch;
    {
        const std::lock_guard lock(pendingMutex_);
        batch.swap(pending_);
    }
    if (!batch.empty()) {
        writeBatch(std::move(batch));
    }
}

void ScanCache::writeBatch(std::vector<std::string> lines) {
    std::uint64_t serial = 0;
    {
        const std::lock_guard lock(pendingMutex_);
        serial = written_++;
    }
    AtomicFile file(dir_ / segmentName(serial));
    for (const std::string& line : lines) {
        file.write(line);
        file.write("\n");
    }
    file.commit();
}

}  // namespace strata::scan
