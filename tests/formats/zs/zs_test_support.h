// Shared helpers for the ZS tests: corpus paths, validating a source, dumping records.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/diagnostic.h"
#include "formats/common/uleb128.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_validator.h"
#include "test_corpus.h"

namespace strata::zs::testing {

inline std::filesystem::path zsCorpus() {
    return strata::test::corpusRoot() / "zs";
}

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline nlohmann::json readJson(const std::filesystem::path& path) {
    return nlohmann::json::parse(readText(path));
}

inline std::shared_ptr<ZsFile> openZs(const std::filesystem::path& path, ReadLimits limits = {}) {
    return ZsFile::open(openMappedFile(path), limits);
}

inline std::shared_ptr<ZsFile> openZs(std::vector<std::uint8_t> bytes, ReadLimits limits = {}) {
    return ZsFile::open(makeBufferSource(std::move(bytes), "test.zs"), limits);
}

inline std::unique_ptr<CollectingSink> validate(const std::shared_ptr<ZsFile>& file,
                                                ValidationOptions options = {}) {
    auto sink = std::make_unique<CollectingSink>();
    ZsValidator validator(file);
    validator.run(*sink, options);
    return sink;
}

inline std::string describe(const CollectingSink& sink) {
    std::string out;
    for (const auto& d : sink.diagnostics()) {
        out += std::string(severityName(d.severity)) + " " + d.code + " [" + d.nodePath + "] " +
               d.message;
        for (const auto& r : d.regions) {
            out += " {" + std::to_string(r.offset) + "+" + std::to_string(r.length) + "}";
        }
        out += "\n";
    }
    return out;
}

inline std::vector<std::string> allRecords(const std::shared_ptr<ZsFile>& file) {
    std::vector<std::string> out;
    ZsRecordIterator it(file);
    while (auto r = it.next()) {
        out.emplace_back(r->begin(), r->end());
    }
    return out;
}

// Frames records like `zs dump`: a terminator after each, or a uleb128 / u64le length before.
inline std::string dumpRecords(const std::vector<std::string>& records, const std::string& framing,
                               const std::string& terminator = "\n") {
    std::string out;
    for (const auto& r : records) {
        if (framing == "uleb128") {
            std::vector<std::uint8_t> prefix;
            appendUleb128(prefix, r.size());
            out.append(prefix.begin(), prefix.end());
            out += r;
        } else if (framing == "u64le") {
            for (int i = 0; i < 8; ++i) {
                out += static_cast<char>((std::uint64_t{r.size()} >> (8 * i)) & 0xff);
            }
            out += r;
        } else {
            out += r;
            out += terminator;
        }
    }
    return out;
}

}  // namespace strata::zs::testing
