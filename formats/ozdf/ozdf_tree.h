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

class ListedCorpus;
// The same corpus node over a corpus listed at open: a document's node (and so the reading of
// its files) is made when the tree first asks for it.
std::unique_ptr<Node> buildListedCorpusNode(std::shared_ptr<const ListedCorpus> corpus);

}  // namespace strata::ozdf
