// Salvages a damaged zTensor file into a new one. The validator decides what is intact: every
// tensor it finds no error in is copied into the new file with its stored bytes unchanged (same
// encoding, same digests), so the copy vouches for nothing the original did not. A tensor whose
// only faults are where the manifest put its bytes (an offset not a multiple of 64, components
// overlapping each other, the magic or the manifest while every component's digest still
// matches) is kept too: the new file places its components afresh. A tensor with a digest that
// does not match is lost unless the caller asks for digests to be recomputed, and the report
// then says that the new digest vouches for bytes no digest protected. Every other tensor is a
// loss, reported with its bytes and the validator's reason. A manifest that cannot be decoded
// leaves nothing to recover (no name, type or shape is known). The output is validated before
// it gets its name.
#pragma once

#include <filesystem>

#include "formats/common/repair.h"

namespace strata::ztensor {

// Throws RepairError when the manifest cannot be read, when no tensor can be recovered, when
// `output` exists, or when the output fails validation.
RepairReport repairZtFile(const std::filesystem::path& input, const std::filesystem::path& output,
                          const RepairOptions& options = {});

}  // namespace strata::ztensor
