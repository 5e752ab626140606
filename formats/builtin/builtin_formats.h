// The composition root of formats/: the list of formats Strata is built with. Everything below
// it (formats/registry, each format's folder) knows nothing of the others; a new format is one
// line here (and its model/ and app/ registrations).
#pragma once

#include "formats/registry/format_registry.h"

namespace strata {

// The registry with every built-in format and the raw-binary fallback.
const FormatRegistry& builtinFormats();

}  // namespace strata
