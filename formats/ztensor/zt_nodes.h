// The structure tree of a zTensor file: magic, components and padding in file order, the
// manifest with its tensors, and the manifest size. Children are built when first looked at.
//
// Node kinds: ztensor.file, ztensor.magic, ztensor.component, ztensor.padding,
// ztensor.manifest, ztensor.manifest_size, ztensor.tensor.
#pragma once

#include <memory>
#include <string>

#include "../common/node.h"
#include "zt_file.h"

namespace strata::ztensor {

// The root node; it keeps `file` (and through it the byte source) alive.
std::unique_ptr<Node> makeZtNodeTree(std::shared_ptr<const ZtFile> file, std::string label);

// Facts for `strata-cli info` and the properties panel.
std::vector<std::pair<std::string, std::string>> ztFacts(const ZtFile& file);

// "[2, 3]" (a scalar is "[]").
std::string ztShapeText(const std::vector<std::uint64_t>& shape);

}  // namespace strata::ztensor
