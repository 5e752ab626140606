#include "ozdf_diagnostics.h"

namespace strata::ozdf {

void Reporter::error(std::string_view code, std::string message, Region region) {
    add(Severity::Error, code, std::move(message), region, {});
}

void Reporter::warning(std::string_view code, std::string message, Region region) {
    add(Severity::Warning, code, std::move(message), region, {});
}

void Reporter::info(std::string_view code, std::string message, Region region) {
    add(Severity::Info, code, std::move(message), region, {});
}

void Reporter::errorInFile(std::string_view code, std::string message, std::string file) {
    add(Severity::Error, code, std::move(message), {}, std::move(file));
}

void Reporter::warningInFile(std::string_view code, std::string message, std::string file) {
    add(Severity::Warning, code, std::move(message), {}, std::move(file));
}

void Reporter::infoInFile(std::string_view code, std::string message, std::string file) {
    add(Severity::Info, code, std::move(message), {}, std::move(file));
}

void Reporter::add(Severity severity, std::string_view code, std::string message, Region region,
                   std::string file) {
    std::size_t& count = counts_[std::string(code)];
    ++count;
    if (count > kPerCodeLimit) {
        if (count == kPerCodeLimit + 1) {
            Diagnostic note;
            // Keep the worst severity visible: the dropped ones may be errors.
            note.severity = severity;
            note.code = std::string(codes::kTruncated);
            note.message = "more " + std::string(code) +
                           " diagnostics in this document are not "
                           "listed";
            if (region.valid()) {
                note.regions.push_back(region);
            }
            note.file = file;
            out_.push_back(std::move(note));
        }
        return;
    }
    Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.code = std::string(code);
    diagnostic.message = std::move(message);
    if (region.valid()) {
        diagnostic.regions.push_back(region);
    }
    diagnostic.file = std::move(file);
    out_.push_back(std::move(diagnostic));
}

}  // namespace strata::ozdf
