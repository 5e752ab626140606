// Recognises OZDF documents (.ozdf), data parts (.ozdp), directory documents and corpora.
#pragma once

#include <optional>

#include "formats/registry/format_handler.h"

namespace strata {

enum class OzdfKind {
    Document,           // a .ozdf file, or a text file that starts like one
    DataPart,           // a .ozdp file
    DirectoryDocument,  // a folder with _metadata.ozdf (or the .ozdf_writing marker)
    Corpus,             // a folder of documents
    PartsOnlyFolder,    // .ozdp files but no _metadata.ozdf
    None,
};

struct OzdfProbe {
    OzdfKind kind = OzdfKind::None;
    Detection detection;
};

OzdfProbe classifyOzdf(const ProbeInput& input);

// .ozdf / .ozdp (any case) → 90; a folder with _metadata.ozdf → 90, with only the interrupted
// save marker → 80; a folder of documents → 70; a text file whose first line is a `#### `
// header → 30; a folder of .ozdp files without metadata → 30.
std::optional<Detection> probeOzdf(const ProbeInput& input);

}  // namespace strata
