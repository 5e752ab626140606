// `strata-cli scan --report report.html`: one self-contained HTML page (no external styles,
// scripts or fonts, so it can be mailed or attached to a ticket): counts by format and verdict,
// each damaged or unreadable entry with its diagnostics, and a table of every entry, sortable
// by a click on a column through a small inline script. Everything from the scan is
// HTML-escaped. Rows are streamed into temporary files as results come, so a report of 100,000
// entries is written in the memory of one.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "scan_result.h"
#include "scan_tally.h"

namespace strata::scan {

// `text` with &, <, >, " and ' replaced by entities.
std::string htmlEscape(std::string_view text);

class ScanReport {
public:
    // `title` heads the page (the scanned location). Nothing is written to `target` before
    // finish(). Throws FileWriteError when no temporary file can be made.
    ScanReport(std::filesystem::path target, std::string title);
    ~ScanReport();
    ScanReport(const ScanReport&) = delete;
    ScanReport& operator=(const ScanReport&) = delete;

    void add(const ScanResult& result);
    // Writes the page through an AtomicFile; `note` is a line under the title ("shard 1/4",
    // "interrupted"). Throws FileWriteError.
    void finish(const ScanTally& tally, const std::string& note);

private:
    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    using TempFile = std::unique_ptr<std::FILE, FileCloser>;

    std::filesystem::path target_;
    std::string title_;
    TempFile rows_;      // <tr> of every entry
    TempFile problems_;  // a section per damaged or unreadable entry
};

}  // namespace strata::scan
