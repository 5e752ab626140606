// Salvages a damaged OZDF document or corpus into a new one beside it (formats/common/repair.h):
// a standalone `.ozdf` file into a file, a directory document into a folder, a corpus folder
// into a corpus folder. What the reader reads from every file is kept; what stops a file from
// being read is mended where the intent is certain (see docs/formats-ozdf.md, "Repair"):
//   - the parts of an external list renumbered 1..n in their order (gaps, a start other than 1,
//     two parts with one number, non-ASCII digits), and parts that follow a lost one moved up;
//   - a directory document (or corpus sub-folder) holding parts but no `_metadata.ozdf` gets one
//     naming an external list per part file key; whatever else the lost file held is a loss;
//   - a missing blank line before a header or item marker is added, a header or item marker
//     written `####<tab>NAME` or `####NAME` (`====NAME`) gets its single space, a UTF-8 byte
//     order mark is dropped;
//   - an external list whose name cannot name part files (`[[A*]]`) becomes an inline list.
// A file that cannot be read otherwise is quarantined with its original bytes under
// `<output>.quarantine/` and reported as a loss: a standalone document or `_metadata.ozdf` takes
// its whole document with it, a part file only its own item. Items counted: documents (a
// document written with a part lost counts as recovered, the lost item is listed). The output
// is written by Strata's canonical writer, read back with Strata's reader, and published only
// when it reads without error and holds exactly what was planned.
#pragma once

#include <filesystem>

#include "formats/common/repair.h"

namespace strata {

// Where the quarantined files of a repair into `output` go: `<output>.quarantine/`.
std::filesystem::path ozdfQuarantinePath(const std::filesystem::path& output);

// Throws RepairError when the input cannot be read, when nothing can be recovered, when `output`
// or its quarantine folder exists, when `output` lies inside the input, or when the output does
// not validate.
RepairReport repairOzdf(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options = {});

}  // namespace strata
