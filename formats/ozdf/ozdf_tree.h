// The structure tree of OZDF documents and corpora: ozdf.corpus, ozdf.document, ozdf.block,
// ozdf.list, ozdf.external_list, ozdf.part, ozdf.item, ozdf.paragraph, ozdf.comment. Every node's
// region lies in the file it came from (part items in their part file).
#pragma once

#include <memory>

#include "formats/common/node.h"
#include "ozdf_document.h"

namespace strata::ozdf {

std::unique_ptr<Node> buildDocumentNode(const Document& document);
std::unique_ptr<Node> buildCorpusNode(const Corpus& corpus);

}  // namespace strata::ozdf
