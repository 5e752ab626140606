// A validator that reports diagnostics known when the document was opened (a wrong magic, an
// unfinished file), for formats whose full validator cannot run on such a file.
#pragma once

#include <memory>
#include <vector>

#include "../common/validator.h"

namespace strata {

std::unique_ptr<Validator> makeFixedDiagnosticValidator(std::vector<Diagnostic> diagnostics);

// An Error diagnostic about `region` (the common case for the validators above).
Diagnostic makeError(std::string code, std::string message, Region region,
                     std::string nodePath = {});

}  // namespace strata
