// Compares OZDF documents and corpora by what they say: documents matched by their path in the
// corpus (a lone document is a corpus of one), then elements by kind and name (the k-th element
// of a name matches the k-th; comments by their order), list items by name (unnamed ones by
// position). Elements and items only on one side are removed or added; common ones in another
// order are moved; changed paragraphs get a word-level diff. The same text wrapped, spaced or
// cased differently, or a list stored inline on one side and in parts on the other, is an
// encoding difference, kept apart from content changes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/common/diff.h"
#include "ozdf_document.h"
#include "ozdf_listed_corpus.h"

namespace strata {

// The words of `a` and `b` (split on spaces) that a longest common subsequence leaves out:
// removed from a, added in b.
struct OzdfWordDiff {
    std::vector<std::string> removed, added;
};
OzdfWordDiff ozdfWordDiff(const std::string& a, const std::string& b);

// Either side may be a document or a corpus.
// A corpus listed at open is read when the comparison runs.
struct OzdfDiffSide {
    std::shared_ptr<const ozdf::Document> document;
    std::shared_ptr<const ozdf::Corpus> corpus;
    std::shared_ptr<const ozdf::ListedCorpus> listed;
};

std::unique_ptr<Differ> makeOzdfDiffer(OzdfDiffSide a, OzdfDiffSide b);

}  // namespace strata
