// Counts over scan results, by verdict and by format: the summary `strata-cli scan` prints at
// the end, the final JSON Lines object, and the counts at the top of the HTML report.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "scan_json.h"
#include "scan_result.h"

namespace strata::scan {

class ScanTally {
public:
    using Counts = std::array<std::uint64_t, std::size(kAllVerdicts)>;

    void add(const ScanResult& result);

    std::uint64_t entries() const { return entries_; }
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t fromCache() const { return fromCache_; }
    std::uint64_t count(Verdict verdict) const { return byVerdict_[index(verdict)]; }
    // Damaged or unreadable entries (what makes `strata-cli scan` exit 1).
    std::uint64_t problems() const;
    // Per format name ("" for entries whose format is unknown), counts by verdict.
    const std::map<std::string, Counts>& byFormat() const { return byFormat_; }

    // {"entries", "bytes", "cached", "verdicts": {"valid": n, ...},
    //  "formats": {"ZS": {"valid": n, ...}, ...}}
    Json json() const;

    static std::size_t index(Verdict verdict) { return static_cast<std::size_t>(verdict); }
    // The name a format row shows: the format, or "(none)" for unreadable and unknown entries.
    static std::string formatLabel(const std::string& format);

private:
    std::uint64_t entries_ = 0;
    std::uint64_t bytes_ = 0;
    std::uint64_t fromCache_ = 0;
    Counts byVerdict_{};
    std::map<std::string, Counts> byFormat_;
};

}  // namespace strata::scan
