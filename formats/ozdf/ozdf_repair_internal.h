// Internal to the OZDF repair (ozdf_repair.h): what its files share. Parts: ozdf_repair.cpp (the
// plan of every document, its parts and the corpus), ozdf_repair_mends.cpp (a file of the input
// read with its text mended), ozdf_repair_output.cpp (the output written and read back).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/repair.h"
#include "ozdf_diff.h"
#include "ozdf_document.h"
#include "ozdf_parser.h"

namespace strata::ozdf {

// Mended lines and renumbered parts listed one by one per file or list; the rest are counted.
inline constexpr std::size_t kListed = 20;

// A piece of text for a message: control bytes as '?', invalid UTF-8 as U+FFFD, cut after 60
// bytes.
std::string shown(std::string_view text);

// One file of the input as read after the mends of its text.
struct FileRead {
    ByteSourcePtr source;  // the input's bytes
    std::vector<Element> elements;
    std::vector<RepairStep> fixes;
    // Set when an error no mend removes remains: what it is and where (in the input's bytes).
    std::optional<std::string> problem;
};

// Reads one file, mending what can be mended; `metadata`: `_metadata.ozdf` (external lists
// allowed, their parts read by the caller).
FileRead readFile(const std::filesystem::path& path, Grammar grammar, bool metadata,
                  const std::string& name);

enum class InputKind { Standalone, Directory, Corpus };

// A file or folder of the input copied with its bytes into the quarantine folder.
struct Quarantined {
    std::filesystem::path source;
    std::filesystem::path relative;
};

inline void throwIfCancelled(const RepairOptions& options) {
    if (options.cancel != nullptr && options.cancel->cancelled()) {
        throw JobCancelled();
    }
}

// A document or corpus as every reader reads it (the app, strata-cli diff).
OzdfDiffSide readAsOpened(InputKind kind, const std::filesystem::path& path);

// The planned documents as what the output will read as (checkOutput holds it to that).
OzdfDiffSide plannedSide(InputKind kind, const OzdfDiffSide& input,
                         const std::vector<Document>& planned);

// `inputSide`: the input as readers read it, when the plan lists no loss (then the output, read
// back, is compared with it).
void writeRepaired(InputKind kind, const std::filesystem::path& input,
                   const std::optional<OzdfDiffSide>& inputSide, std::vector<Document>& documents,
                   const std::vector<Quarantined>& quarantine, const std::filesystem::path& output,
                   const RepairOptions& options, RepairReport& report);

}  // namespace strata::ozdf
