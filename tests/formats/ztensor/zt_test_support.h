// Helpers for the zTensor tests: the corpus location, a small in-memory file builder and a
// one-call validation.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/zt_validator.h"
#include "test_corpus.h"

namespace strata::test {

inline std::filesystem::path ztCorpusDir() {
    return corpusRoot() / "ztensor";
}

// Builds a zTensor v1.0 file the way the reference writer lays it out: magic, components each
// at the next multiple of 64 with zero padding, the CBOR manifest, its size.
class ZtBuilder {
public:
    ZtBuilder() { bytes_.assign(ztensor::kZtMagicV1.begin(), ztensor::kZtMagicV1.end()); }

    // Appends a component and returns its offset.
    std::uint64_t add(const std::vector<std::uint8_t>& data) {
        if (data.empty()) {
            return (bytes_.size() + 63) / 64 * 64;
        }
        bytes_.resize((bytes_.size() + 63) / 64 * 64, 0);
        const std::uint64_t offset = bytes_.size();
        bytes_.insert(bytes_.end(), data.begin(), data.end());
        return offset;
    }

    std::vector<std::uint8_t>& bytes() { return bytes_; }

    // Appends `manifest` (already CBOR) and the size field.
    std::vector<std::uint8_t> finishRaw(const std::vector<std::uint8_t>& manifest) const {
        std::vector<std::uint8_t> out = bytes_;
        out.insert(out.end(), manifest.begin(), manifest.end());
        std::uint64_t size = manifest.size();
        for (int i = 0; i < 8; ++i) {
            out.push_back(static_cast<std::uint8_t>(size >> (8 * i)));
        }
        return out;
    }

    std::vector<std::uint8_t> finish(const nlohmann::json& manifest) const {
        return finishRaw(nlohmann::json::to_cbor(manifest));
    }

private:
    std::vector<std::uint8_t> bytes_;
};

inline nlohmann::json ztManifest(nlohmann::json tensors) {
    return {{"version", "1.0"},
            {"generator", "Strata tests"},
            {"attributes", nlohmann::json::object()},
            {"tensors", std::move(tensors)}};
}

inline std::vector<std::uint8_t> f32Bytes(const std::vector<float>& values) {
    std::vector<std::uint8_t> out(values.size() * 4);
    if (!out.empty()) {  // an empty vector's data() may be null
        std::memcpy(out.data(), values.data(), out.size());
    }
    return out;
}

inline std::vector<std::uint8_t> u64Bytes(const std::vector<std::uint64_t>& values) {
    std::vector<std::uint8_t> out;
    for (auto v : values) {
        for (int i = 0; i < 8; ++i) {
            out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        }
    }
    return out;
}

struct ZtValidation {
    std::shared_ptr<const ztensor::ZtFile> file;
    std::shared_ptr<CollectingSink> sink = std::make_shared<CollectingSink>();
    JobOutcome outcome = JobOutcome::Completed;

    bool has(std::string_view code) const { return sink->hasCode(code); }
    Severity worst() const { return sink->worstSeverity(); }
    std::size_t errors() const { return sink->countOf(Severity::Error); }
    const Diagnostic* find(std::string_view code) const {
        for (const auto& d : sink->diagnostics()) {
            if (d.code == code) {
                return &d;
            }
        }
        return nullptr;
    }
    std::string describe() const {
        std::string out;
        for (const auto& d : sink->diagnostics()) {
            out += std::string(severityName(d.severity)) + " " + d.code + ": " + d.message + "\n";
        }
        return out;
    }
};

inline ZtValidation ztValidate(ByteSourcePtr source, unsigned threads = 2) {
    ZtValidation v;
    v.file = ztensor::ZtFile::open(std::move(source));
    ValidationOptions options;
    options.threads = threads;
    v.outcome = ztensor::ZtValidator(v.file).run(*v.sink, options);
    return v;
}

inline ZtValidation ztValidate(std::vector<std::uint8_t> bytes, unsigned threads = 2) {
    return ztValidate(makeBufferSource(std::move(bytes), "test.zt"), threads);
}

}  // namespace strata::test
