#include "scan_report.h"

#include <array>

#include "formats/common/atomic_file.h"

namespace strata::scan {

namespace {

constexpr std::string_view kStyle = R"(<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
th.sortable{cursor:pointer;background:#f3f3f3}
.damaged,.unreadable{color:#b00020;font-weight:600}.warnings{color:#a15c00}
section.problem{border-left:4px solid #b00020;padding-left:1em;margin:1em 0}
code{font-family:ui-monospace,monospace}
</style>
)";

// Sorts the table of entries by the column clicked: by data-v when a cell has it (numbers),
// else by its text; a second click reverses.
constexpr std::string_view kScript = R"(<script>
document.querySelectorAll('#entries th').forEach(function(th, column) {
  th.classList.add('sortable');
  th.addEventListener('click', function() {
    var body = document.querySelector('#entries tbody');
    var rows = Array.prototype.slice.call(body.rows);
    var up = th.dataset.dir !== 'up';
    th.dataset.dir = up ? 'up' : 'down';
    function key(row) {
      var cell = row.cells[column];
      return cell.dataset.v !== undefined ? Number(cell.dataset.v) : cell.textContent;
    }
    rows.sort(function(a, b) {
      var x = key(a), y = key(b);
      var order = typeof x === 'number' ? x - y : x.localeCompare(y);
      return up ? order : -order;
    });
    rows.forEach(function(row) { body.appendChild(row); });
  });
});
</script>
)";

std::FILE* openTemporary() {
    std::FILE* file = std::tmpfile();
    if (file == nullptr) {
        throw FileWriteError("cannot make a temporary file for the report");
    }
    return file;
}

void put(std::FILE* file, std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), file);
}

std::string cell(std::string_view text) {
    return "<td>" + htmlEscape(text) + "</td>";
}

std::string numberCell(std::uint64_t value) {
    return "<td class=\"n\" data-v=\"" + std::to_string(value) + "\">" + std::to_string(value) +
           "</td>";
}

std::string verdictCell(Verdict verdict) {
    const std::string name(verdictName(verdict));
    return "<td class=\"" + name + "\">" + name + "</td>";
}

std::string diagnosticItem(const ScanDiagnostic& d) {
    std::string item = "<li><code>" + htmlEscape(d.code) + "</code> ";
    item += htmlEscape(severityName(d.severity));
    if (!d.file.empty()) {
        item += " in " + htmlEscape(d.file);
    }
    if (d.offset) {
        item += " at byte " + std::to_string(*d.offset);
    }
    return item + ": " + htmlEscape(d.message) + "</li>\n";
}

std::string problemSection(const ScanResult& r) {
    std::string html = "<section class=\"problem\"><h3>" + htmlEscape(r.entry.location.text()) +
                       "</h3>\n<p><span class=\"" + std::string(verdictName(r.verdict)) + "\">" +
                       std::string(verdictName(r.verdict)) + "</span>";
    if (!r.format.empty()) {
        html += " · " + htmlEscape(r.format);
    }
    html += " · " + std::to_string(r.errors) + " errors, " + std::to_string(r.warnings) +
            " warnings</p>\n";
    if (!r.problem.empty()) {
        html += "<p>" + htmlEscape(r.problem) + "</p>\n";
    }
    if (!r.diagnostics.empty()) {
        html += "<ul>\n";
        for (const ScanDiagnostic& d : r.diagnostics) {
            html += diagnosticItem(d);
        }
        html += "</ul>\n";
    }
    return html + "</section>\n";
}

std::string countsRow(const std::string& label, const ScanTally::Counts& counts) {
    std::string row = "<tr>" + cell(label);
    std::uint64_t total = 0;
    for (const std::uint64_t n : counts) {
        row += numberCell(n);
        total += n;
    }
    return row + numberCell(total) + "</tr>\n";
}

std::string countsTable(const ScanTally& tally) {
    std::string html = "<table id=\"counts\"><thead><tr><th>format</th>";
    for (const Verdict verdict : kAllVerdicts) {
        html += "<th>" + std::string(verdictName(verdict)) + "</th>";
    }
    html += "<th>total</th></tr></thead><tbody>\n";
    ScanTally::Counts all{};
    for (const auto& [format, counts] : tally.byFormat()) {
        html += countsRow(ScanTally::formatLabel(format), counts);
        for (std::size_t i = 0; i < counts.size(); ++i) {
            all[i] += counts[i];
        }
    }
    return html + countsRow("all", all) + "</tbody></table>\n";
}

// Copies a temporary file's contents into the page.
void copyInto(std::FILE* from, AtomicFile& to) {
    std::rewind(from);
    std::array<char, 1 << 16> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), from)) > 0) {
        to.write(std::string_view(buffer.data(), n));
    }
}

}  // namespace

std::string htmlEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

ScanReport::ScanReport(std::filesystem::path target, std::string title)
    : target_(std::move(target)),
      title_(std::move(title)),
      rows_(openTemporary()),
      problems_(openTemporary()) {}

ScanReport::~ScanReport() = default;

void ScanReport::add(const ScanResult& r) {
    std::string row = "<tr>" + cell(r.entry.location.text()) + cell(r.format) +
                      verdictCell(r.verdict) + numberCell(r.errors) + numberCell(r.warnings) +
                      numberCell(r.entry.size) + "<td class=\"n\" data-v=\"" +
                      std::to_string(r.seconds) + "\">" + std::to_string(r.seconds) + "</td>" +
                      cell(r.fromCache ? "yes" : "") + "</tr>\n";
    put(rows_.get(), row);
    if (isProblem(r.verdict)) {
        put(problems_.get(), problemSection(r));
    }
}

void ScanReport::finish(const ScanTally& tally, const std::string& note) {
    if (std::ferror(rows_.get()) != 0 || std::ferror(problems_.get()) != 0) {
        throw FileWriteError(target_.string() +
                             ": the report's temporary files could not be "
                             "written (is the temporary folder full?)");
    }
    AtomicFile page(target_);
    page.write(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Strata scan "
        "of " +
        htmlEscape(title_) + "</title>\n");
    page.write(kStyle);
    page.write("</head><body>\n<h1>Strata scan of " + htmlEscape(title_) + "</h1>\n");
    page.write("<p>" + std::to_string(tally.entries()) + " entries, " +
               std::to_string(tally.bytes()) + " bytes, " + std::to_string(tally.problems()) +
               " damaged or unreadable" + (note.empty() ? "" : " · " + htmlEscape(note)) +
               "</p>\n<h2>Counts</h2>\n" + countsTable(tally));
    page.write("<h2>Damaged and unreadable entries</h2>\n");
    if (tally.problems() == 0) {
        page.write("<p>None.</p>\n");
    }
    copyInto(problems_.get(), page);
    page.write(
        "<h2>All entries</h2>\n<table id=\"entries\"><thead><tr><th>location</th>"
        "<th>format</th><th>verdict</th><th>errors</th><th>warnings</th><th>bytes</th>"
        "<th>seconds</th><th>cached</th></tr></thead><tbody>\n");
    copyInto(rows_.get(), page);
    page.write("</tbody></table>\n");
    page.write(kScript);
    page.write("</body></html>\n");
    page.commit();
}

}  // namespace strata::scan
