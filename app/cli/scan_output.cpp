#include "scan_output.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "formats/remote/remote_url.h"
#include "formats/scan/scan_json.h"

namespace strata::cli {

namespace {

using Clock = std::chrono::steady_clock;

// A terminal redraws often; a log (a batch job's) gets a line now and then.
constexpr auto kTerminalInterval = std::chrono::milliseconds(200);
constexpr auto kLogInterval = std::chrono::seconds(10);

std::string megabytes(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

std::string upper(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = c == '-' ? '-' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

// "DAMAGED  ZS  data/a.zs: 2 errors, 0 warnings; ZS-BLOCK-CRC at byte 123: message"
std::string resultLine(const scan::ScanResult& r) {
    std::string line = upper(scan::verdictName(r.verdict)) + "  " +
                       (r.format.empty() ? "-" : r.format) + "  " +
                       redactCredentials(r.entry.location.text()) + ": ";
    if (r.verdict == scan::Verdict::Unreadable) {
        return line + redactCredentials(r.problem);
    }
    line += std::to_string(r.errors) + " errors, " + std::to_string(r.warnings) + " warnings";
    if (!r.diagnostics.empty()) {
        const scan::ScanDiagnostic& d = r.diagnostics.front();
        line += "; " + d.code + (d.offset ? " at byte " + std::to_string(*d.offset) : "") + ": " +
                d.message;
    } else if (!r.problem.empty()) {
        line += "; " + r.problem;
    }
    return line;
}

std::string padded(const std::string& text, std::size_t width, bool right) {
    const std::string pad(text.size() < width ? width - text.size() : 0, ' ');
    return right ? pad + text : text + pad;
}

}  // namespace

ScanOutput::ScanOutput(ScanPrinting printing, std::string title,
                       std::function<scan::ScanCounters()> counters)
    : printing_(std::move(printing)),
      title_(std::move(title)),
      counters_(std::move(counters)),
      terminal_(::isatty(STDERR_FILENO) != 0),
      started_(Clock::now()),
      lastProgress_(started_) {
    if (printing_.only.empty() && !printing_.jsonl) {
        printing_.only = {scan::Verdict::Damaged, scan::Verdict::Unreadable};
    }
    if (!printing_.reportPath.empty()) {
        report_ = std::make_unique<scan::ScanReport>(printing_.reportPath, title_);
    }
}

void ScanOutput::listed(const scan::ScanEntry&) {
    showProgress(false);
}

void ScanOutput::checked(const scan::ScanResult& result) {
    tally_.add(result);
    if (report_) {
        report_->add(result);
    }
    if (printing_.only.empty() || printing_.only.contains(result.verdict)) {
        printResult(result);
    }
    showProgress(false);
}

void ScanOutput::printResult(const scan::ScanResult& result) const {
    if (printing_.jsonl) {
        std::cout << scan::jsonLine(scan::resultJson(result)) << '\n';
        return;
    }
    if (terminal_ && progressShown_) {
        std::fputs("\r\033[K", stderr);
    }
    std::cout << resultLine(result) << '\n';
}

// "listed 1,200, checked 1,000, damaged 12, 45.2 MB, 210 entries/s"
void ScanOutput::showProgress(bool force) {
    const Clock::time_point now = Clock::now();
    if (!counters_ ||
        (!force && now - lastProgress_ < (terminal_ ? kTerminalInterval : kLogInterval))) {
        return;
    }
    lastProgress_ = now;
    const scan::ScanCounters c = counters_();
    const double seconds = std::chrono::duration<double>(now - started_).count();
    const auto rate = seconds > 0 ? static_cast<std::uint64_t>(c.checked / seconds) : 0;
    const std::string text = "listed " + std::to_string(c.listed) + ", checked " +
                             std::to_string(c.checked) + ", damaged or unreadable " +
                             std::to_string(c.problems) + ", " + megabytes(c.bytes) + ", " +
                             std::to_string(rate) + " entries/s";
    std::cout.flush();
    std::fprintf(stderr, terminal_ ? "\r\033[K%s" : "strata-cli: %s\n", text.c_str());
    std::fflush(stderr);
    progressShown_ = terminal_;
}

void ScanOutput::finish(const scan::Json& extra, const std::string& note) {
    if (progressShown_) {
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
    }
    if (printing_.jsonl) {
        scan::Json summary = scan::Json::object();
        summary["type"] = "summary";
        summary.update(extra);
        summary.update(tally_.json());
        std::cout << scan::jsonLine(summary) << '\n';
    } else {
        printTable(note);
    }
    std::cout.flush();
    if (report_) {
        report_->finish(tally_, note);
    }
}

void ScanOutput::printTable(const std::string& note) const {
    constexpr std::size_t kFirst = 12, kColumn = 11;
    std::string header = padded("format", kFirst, false);
    for (const scan::Verdict verdict : scan::kAllVerdicts) {
        header += padded(std::string(scan::verdictName(verdict)), kColumn + 4, true);
    }
    std::cout << header << padded("total", kColumn, true) << '\n';
    const auto row = [&](const std::string& label, const scan::ScanTally::Counts& counts) {
        std::string line = padded(label, kFirst, false);
        std::uint64_t total = 0;
        for (const std::uint64_t n : counts) {
            line += padded(std::to_string(n), kColumn + 4, true);
            total += n;
        }
        std::cout << line << padded(std::to_string(total), kColumn, true) << '\n';
    };
    for (const auto& [format, counts] : tally_.byFormat()) {
        row(scan::ScanTally::formatLabel(format), counts);
    }
    scan::ScanTally::Counts all{};
    for (const scan::Verdict verdict : scan::kAllVerdicts) {
        all[scan::ScanTally::index(verdict)] = tally_.count(verdict);
    }
    row("all", all);
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    char time[32];
    std::snprintf(time, sizeof time, "%.1f s", seconds);
    std::cout << tally_.entries() << " entries, " << megabytes(tally_.bytes()) << ", "
              << tally_.problems() << " damaged or unreadable, " << tally_.fromCache()
              << " from the cache, " << time << (note.empty() ? "" : " (" + note + ")") << '\n';
}

}  // namespace strata::cli
