// The OZDF validator: reports what the reader found in a document or corpus (every rule the
// reference enforces, plus warnings for what it silently changes). Codes: ozdf_diagnostics.h.
#pragma once

#include <memory>

#include "formats/common/validator.h"
#include "ozdf_document.h"

namespace strata::ozdf {

std::unique_ptr<Validator> makeOzdfValidator(std::shared_ptr<const Document> document);
std::unique_ptr<Validator> makeOzdfCorpusValidator(std::shared_ptr<const Corpus> corpus);

class ListedCorpus;
// Reads the corpus when run (sharing a read already under way), then validates it as above.
std::unique_ptr<Validator> makeOzdfListedCorpusValidator(
    std::shared_ptr<const ListedCorpus> corpus);

}  // namespace strata::ozdf
