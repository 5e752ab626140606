// What `strata-cli scan` prints: each result as a JSON line (--jsonl) or, for a person, a line
// per damaged or unreadable entry; the progress line on stderr; the summary at the end; the
// HTML report beside. One ScanSink for a scan and for a merge of earlier scans' outputs.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "formats/scan/scan_report.h"
#include "formats/scan/scan_tally.h"
#include "formats/scan/scanner.h"

namespace strata::cli {

struct ScanPrinting {
    bool jsonl = false;
    // Verdicts printed (--only); every verdict when empty (JSON Lines), or damaged and
    // unreadable for a person.
    std::set<scan::Verdict> only;
    std::string reportPath;  // --report; empty for none
};

class ScanOutput final : public scan::ScanSink {
public:
    // `counters` gives the scan's counters for the progress line (empty in a merge).
    ScanOutput(ScanPrinting printing, std::string title,
               std::function<scan::ScanCounters()> counters);

    void listed(const scan::ScanEntry& entry) override;
    void checked(const scan::ScanResult& result) override;

    // Clears the progress line, prints the summary (a JSON line, or the table) and writes the
    // report. `extra` goes into the JSON summary object and under the report's title.
    void finish(const scan::Json& extra, const std::string& note);
    const scan::ScanTally& tally() const { return tally_; }

private:
    void printResult(const scan::ScanResult& result) const;
    void showProgress(bool force);
    void printTable(const std::string& note) const;

    ScanPrinting printing_;
    std::string title_;
    std::function<scan::ScanCounters()> counters_;
    scan::ScanTally tally_;
    std::unique_ptr<scan::ScanReport> report_;
    bool terminal_ = false;
    std::chrono::steady_clock::time_point started_, lastProgress_;
    bool progressShown_ = false;
};

}  // namespace strata::cli
