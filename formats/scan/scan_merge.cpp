#include "scan_merge.h"

#include <fstream>
#include <unordered_set>

#include "formats/common/byte_source.h"
#include "line_reader.h"
#include "scan_json.h"

namespace strata::scan {

namespace {

// A result line with its five diagnostics is a few kilobytes; a longer line is not a result.
constexpr std::size_t kMaxLine = 1 << 20;

// Other objects (a summary) name another type; a result names its own or none.
bool isResultLine(const Json& json) {
    const auto type = json.find("type");
    return type == json.end() || !type->is_string() || *type == "entry";
}

}  // namespace

MergeStats mergeScanOutputs(const std::vector<std::filesystem::path>& files,
                            const std::function<void(const ScanResult&)>& each) {
    MergeStats stats;
    std::unordered_set<std::string> seen;
    for (const std::filesystem::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            throw SourceError(file.string() + ": cannot read the scan output");
        }
        ++stats.files;
        BoundedLineReader reader(in, kMaxLine);
        std::string line;
        while (reader.next(line)) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) {
                continue;
            }
            const Json json = Json::parse(line, nullptr, false);
            if (json.is_discarded() || !json.is_object()) {
                ++stats.malformed;
                continue;
            }
            if (!isResultLine(json)) {
                continue;  // a summary: the merged one is counted again from the entries
            }
            const std::optional<ScanResult> result = resultFromJson(json);
            if (!result) {
                ++stats.malformed;
            } else if (!seen.insert(result->entry.location.text()).second) {
                ++stats.duplicates;
            } else {
                ++stats.entries;
                each(*result);
            }
        }
        stats.malformed += reader.skippedLong();
    }
    return stats;
}

}  // namespace strata::scan
