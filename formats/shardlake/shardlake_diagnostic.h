// Building Shardlake diagnostics: every code is listed in docs/formats-shardlake.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "formats/common/diagnostic.h"

namespace strata::shardlake {

inline Diagnostic makeDiagnostic(Severity severity, std::string code, std::string message,
                                 std::vector<Region> regions, std::string file = {}) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    for (const Region& region : regions) {
        if (region.valid()) {
            d.regions.push_back(region);
        }
    }
    d.file =
        !file.empty() || d.regions.empty() ? std::move(file) : d.regions.front().source->name();
    return d;
}

inline Diagnostic errorAt(std::string code, std::string message, Region region,
                          std::string file = {}) {
    return makeDiagnostic(Severity::Error, std::move(code), std::move(message), {region},
                          std::move(file));
}

inline Diagnostic warningAt(std::string code, std::string message, Region region,
                            std::string file = {}) {
    return makeDiagnostic(Severity::Warning, std::move(code), std::move(message), {region},
                          std::move(file));
}

}  // namespace strata::shardlake
