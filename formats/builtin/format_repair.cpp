#include "format_repair.h"

#include "builtin_formats.h"

namespace strata {

bool canRepair(FormatId format) {
    return builtinFormats().handler(format).canRepair();
}

RepairReport repairPath(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) {
    const FormatRegistry& formats = builtinFormats();
    return formats.repair(formats.detect(input).format, input, output, options);
}

std::string repairUnsupportedText(FormatId format) {
    return builtinFormats().repairUnsupportedText(format);
}

}  // namespace strata
