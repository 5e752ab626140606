#include "inspector_rule.h"

#include <array>
#include <string_view>

#include "document.h"

namespace strata::model {

namespace {

bool isText(std::string_view kind) {
    constexpr std::array<std::string_view, 7> kTextKinds = {
        "zds.document", "zds.json",       "zds.metadata",      "zds.manifest",
        "zds.file",     "shardlake.json", "shardlake.manifest"};
    if (kind.starts_with("ozdf.")) {
        return true;
    }
    for (std::string_view text : kTextKinds) {
        if (kind == text) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool inspectorApplies(const Document& document, const strata::Node* node) {
    if (!document.hasStructure()) {
        return true;  // bytes are all there is
    }
    if (node == nullptr || node == document.root()) {
        return false;
    }
    const strata::Region& region = node->region();
    if (region.source == nullptr) {
        return false;
    }
    const bool wholeFile = region.offset == 0 && region.length >= region.source->size();
    return !wholeFile && node != document.fileNodeFor(region.source) && !isText(node->kind());
}

}  // namespace strata::model
