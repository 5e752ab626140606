#include "scan_tally.h"

namespace strata::scan {

namespace {

Json countsJson(const ScanTally::Counts& counts) {
    Json json = Json::object();
    for (const Verdict verdict : kAllVerdicts) {
        json[std::string(verdictName(verdict))] = counts[ScanTally::index(verdict)];
    }
    return json;
}

}  // namespace

void ScanTally::add(const ScanResult& result) {
    ++entries_;
    bytes_ += result.entry.size;
    fromCache_ += result.fromCache ? 1 : 0;
    ++byVerdict_[index(result.verdict)];
    ++byFormat_[result.format][index(result.verdict)];
}

std::uint64_t ScanTally::problems() const {
    return count(Verdict::Damaged) + count(Verdict::Unreadable);
}

Json ScanTally::json() const {
    Json json = Json::object();
    json["entries"] = entries_;
    json["bytes"] = bytes_;
    json["cached"] = fromCache_;
    json["verdicts"] = countsJson(byVerdict_);
    Json formats = Json::object();
    for (const auto& [format, counts] : byFormat_) {
        formats[formatLabel(format)] = countsJson(counts);
    }
    json["formats"] = std::move(formats);
    return json;
}

std::string ScanTally::formatLabel(const std::string& format) {
    return format.empty() ? "(none)" : format;
}

}  // namespace strata::scan
