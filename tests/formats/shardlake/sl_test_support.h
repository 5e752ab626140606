// Helpers for the Shardlake tests: the corpus location, validation in one call, a scratch
// folder, and a builder for synthetic .sidx shards.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/shardlake/shardlake_store.h"
#include "formats/shardlake/shardlake_validator.h"
#include "test_corpus.h"

namespace strata::test {

inline std::filesystem::path slCorpusDir() {
    return corpusRoot() / "shardlake";
}

// What a validation run reported (a CollectingSink cannot be returned by value).
class Findings {
public:
    // `keepAlive` owns the sources the diagnostics' regions point into.
    explicit Findings(const CollectingSink& sink, std::shared_ptr<const void> keepAlive = {})
        : list_(sink.diagnostics()), keepAlive_(std::move(keepAlive)) {}
    const std::vector<Diagnostic>& diagnostics() const { return list_; }
    bool hasCode(std::string_view code) const {
        for (const Diagnostic& d : list_) {
            if (d.code == code) {
                return true;
            }
        }
        return false;
    }
    Severity worstSeverity() const {
        Severity worst = Severity::Info;
        for (const Diagnostic& d : list_) {
            worst = d.severity > worst ? d.severity : worst;
        }
        return worst;
    }
    std::size_t countOf(Severity severity) const {
        std::size_t n = 0;
        for (const Diagnostic& d : list_) {
            n += d.severity == severity ? 1 : 0;
        }
        return n;
    }

private:
    std::vector<Diagnostic> list_;
    std::shared_ptr<const void> keepAlive_;
};

inline std::string describe(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) {
        out += std::string(severityName(d.severity)) + " " + d.code + ": " + d.message + " [" +
               d.fileName() + "]\n";
    }
    return out;
}

inline std::string describe(const Findings& findings) {
    return describe(findings.diagnostics());
}

inline std::string describe(const CollectingSink& sink) {
    return describe(sink.diagnostics());
}

inline Findings validateShardlake(const std::filesystem::path& root,
                                  shardlake::ValidationTarget target = {}) {
    auto store = std::make_shared<const shardlake::Store>(root);
    CollectingSink sink;
    ValidationOptions options;
    options.threads = 1;
    shardlake::makeShardlakeValidator(store, std::move(target))->run(sink, options);
    return Findings(sink, store);
}

class SlScratch {
public:
    SlScratch() {
        std::random_device device;
        path_ = std::filesystem::temp_directory_path() /
                ("strata-sl-" + std::to_string(device()) + std::to_string(device()));
        std::filesystem::create_directories(path_);
    }
    ~SlScratch() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    SlScratch(const SlScratch&) = delete;
    SlScratch& operator=(const SlScratch&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
        const std::filesystem::path file = path_ / name;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
        return file;
    }

private:
    std::filesystem::path path_;
};

// Little-endian byte building.
class Bytes {
public:
    Bytes& raw(std::string_view text) {
        bytes_.insert(bytes_.end(), text.begin(), text.end());
        return *this;
    }
    Bytes& u32(std::uint32_t v) { return le(v, 4); }
    Bytes& u64(std::uint64_t v) { return le(v, 8); }
    Bytes& f32(float v) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, 4);
        return u32(bits);
    }
    Bytes& u8(std::uint8_t v) { return le(v, 1); }
    std::vector<std::uint8_t> take() const { return bytes_; }

private:
    Bytes& le(std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) {
            bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        }
        return *this;
    }
    std::vector<std::uint8_t> bytes_;
};

// A raw (v1) shard: one centroid, `count` records with ids first_id.. and values id + j / 8.
inline std::vector<std::uint8_t> makeRawShard(std::uint32_t shardId, std::uint32_t dims,
                                              std::uint64_t count, std::uint64_t firstId = 1) {
    Bytes b;
    b.raw(std::string_view("SLKIDX\0\0", 8)).u32(1).u32(shardId).u32(dims).u32(1).u64(count);
    for (std::uint32_t j = 0; j < dims; ++j) {
        b.f32(0.5f);
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        b.u64(firstId + i);
        for (std::uint32_t j = 0; j < dims; ++j) {
            b.f32(static_cast<float>(firstId + i) + static_cast<float>(j) / 8.0f);
        }
    }
    return b.take();
}

}  // namespace strata::test
