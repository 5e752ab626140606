#include "format_repair.h"

#include "builtin_formats.h"

namespace strata {

bool canRepair(FormatId format) {
    return builtinFormats().handler(format).canRepair();
}

RepairReport repairPath(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) {
    const FormatRegistry& registry = builtinFormats();
    const FormatHandler& handler = registry.handler(registry.detect(input).format);
    if (!handler.canRepair()) {
        throw RepairError(repairUnsupportedText(handler.id()));
    }
    return handler.repair(input, output, options);
}

std::string repairUnsupportedText(FormatId format) {
    std::string repairable;
    for (const FormatHandler* h : builtinFormats().handlers()) {
        if (h->canRepair()) {
            repairable += (repairable.empty() ? "" : ", ") + std::string(formatName(h->id()));
        }
    }
    return "repairing " + std::string(formatName(format)) + " is not supported yet (" + repairable +
           " can be repaired)";
}

}  // namespace strata
