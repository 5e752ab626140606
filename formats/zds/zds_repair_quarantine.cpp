#include "zds_repair_quarantine.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "formats/common/atomic_file.h"
#include "formats/common/crypto_library.h"
#include "zds_validator.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

std::span<const std::uint8_t> withoutLineEnd(std::span<const std::uint8_t> bytes) {
    std::size_t n = bytes.size();
    while (n > 0 && (bytes[n - 1] == '\n' || bytes[n - 1] == '\r')) {
        --n;
    }
    return bytes.first(n);
}

std::string base64(std::span<const std::uint8_t> bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = cryptoLibrary().encodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                              bytes.data(), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(std::max(n, 0)));
    return out;
}

// One JSON line: where the bytes were, why they were quarantined and the text itself (invalid
// UTF-8 shown as U+FFFD, with the exact bytes in base64 beside it).
std::string quarantineLine(const ZdsQuarantined& q) {
    const ByteView v = q.region.source->view(q.region.offset, q.region.length);
    const auto raw = q.line != 0 ? withoutLineEnd(v.bytes) : v.bytes;  // a file: every byte
    nlohmann::ordered_json j;
    j["collection"] = q.collection;
    j["file"] = q.file;
    if (q.line != 0) {
        j["line"] = q.line;
    }
    j["offset"] = q.region.offset;
    j["length"] = q.region.length;
    j["reason"] = q.reason;
    j["text"] = std::string(reinterpret_cast<const char*>(raw.data()), raw.size());
    if (firstInvalidUtf8(raw) != std::string::npos) {
        j["bytes_base64"] = base64(raw);
    }
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

void writeZdsQuarantine(const fs::path& path, const std::vector<ZdsQuarantined>& quarantine) {
    AtomicFile out(path);
    for (const ZdsQuarantined& q : quarantine) {
        out.write(quarantineLine(q));
    }
    out.commit();
}

std::string zdsQuarantineSummary(const std::vector<ZdsQuarantined>& quarantine,
                                 const fs::path& path) {
    const auto lines = static_cast<std::size_t>(
        std::count_if(quarantine.begin(), quarantine.end(), [](auto& q) { return q.line != 0; }));
    const std::size_t files = quarantine.size() - lines;
    std::string text = "quarantined in " + path.string() + ":";
    if (lines > 0) {
        text += " " + std::to_string(lines) + " damaged line" + (lines == 1 ? "" : "s");
    }
    if (files > 0) {
        text += std::string(lines > 0 ? " and" : "") + " " + std::to_string(files) +
                " damaged file" + (files == 1 ? "" : "s");
    }
    return text;
}

}  // namespace strata::zds
