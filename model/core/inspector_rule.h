// When the numeric data inspector has something to say. Not for a whole file or document (the
// root of a folder, a corpus, a file node: the cursor sits on a magic number or the first byte
// of text), nor for the text of text formats (OZDF, ZDS documents and metadata, Shardlake JSON),
// where the bytes are characters, not numbers.
#pragma once

#include "formats/common/node.h"

namespace strata::model {

class Document;

bool inspectorApplies(const Document& document, const strata::Node* node);

}  // namespace strata::model
