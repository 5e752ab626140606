// The canonical OZDF writer: the byte layout the reference writes (blocks with paragraphs
// wrapped at 80 columns, `.ozdp` parts unwrapped), except that Strata never writes a line its
// own reader would refuse.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "formats/common/atomic_file.h"
#include "ozdf_document.h"

namespace strata::ozdf {

// Thrown when a document cannot be written as OZDF that reads back the same (a paragraph that
// starts with `###`, a name with a line break or one that reads back as another name or kind,
// an external list in a standalone document, a part file name the reference's glob would miss,
// an item name its part file would give back changed).
class WriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A paragraph wrapped greedily at 80 code points on spaces, long words on their own line; a
// word starting with `###` or `===` is never put at the start of a line.
std::string wrapParagraph(std::string_view paragraph);

// The text of a standalone document, or of `_metadata.ozdf` for a directory document.
std::string writeDocumentText(const Document& document);

// An item named "" (a part whose NAME block is empty) and an unnamed item read differently. The
// reference's writer writes both without a NAME block (the name "" is lost), and so does Strata's
// by default; a copy that must read back the same (a repair) keeps the empty NAME block.
enum class EmptyItemNames { AsTheReference, Kept };

// The part files of an external list: (file name, contents), numbered 1..n with at least two
// digits.
std::vector<std::pair<std::string, std::string>> writeParts(
    const Element& externalList, EmptyItemNames emptyNames = EmptyItemNames::AsTheReference);

// Writes `document` into `folder`: a `<filename>` file, or a `<filename>/` folder with
// `_metadata.ozdf` and the parts. Each file is written to a temporary name and renamed.
// Durability::Deferred, only where every file is new (a repair's stage): none is synced on its
// own, all of them at once at the end.
void saveDocument(const Document& document, const std::filesystem::path& folder,
                  EmptyItemNames emptyNames = EmptyItemNames::AsTheReference,
                  Durability durability = Durability::Immediate);

}  // namespace strata::ozdf
