// Fuzzes the OZDF reader on standalone documents and data parts held in a buffer: read, build
// the tree, run the validator. Checks: no crash, no hang, regions inside their source,
// paragraphs and names valid UTF-8 whatever the input.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_text.h"
#include "formats/ozdf/ozdf_tree.h"
#include "formats/ozdf/ozdf_validator.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

bool validUtf8(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const auto ch = strata::ozdf::decodeUtf8(text, at);
        if (!ch.valid) {
            return false;
        }
        at += ch.length;
    }
    return true;
}

void checkRegion(const strata::Region& region) {
    if (region.source != nullptr) {
        check(region.end() <= region.source->size());
    }
}

void checkDocument(const strata::ozdf::Document& document) {
    for (const auto& element : document.elements) {
        checkRegion(element.region);
        checkRegion(element.headerRegion);
        check(validUtf8(element.name));
        check(validUtf8(element.text));
        for (const auto& paragraph : element.paragraphs) {
            checkRegion(paragraph.region);
            check(element.region.contains(paragraph.region));
            check(validUtf8(paragraph.text));
        }
        for (const auto& item : element.items) {
            checkRegion(item.region);
            check(!item.name || validUtf8(*item.name));
            for (const auto& paragraph : item.paragraphs) {
                checkRegion(paragraph.region);
                check(validUtf8(paragraph.text));
            }
        }
    }
    for (const auto& diagnostic : document.diagnostics) {
        for (const auto& region : diagnostic.regions) {
            checkRegion(region);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    for (const auto grammar : {strata::ozdf::Grammar::Document, strata::ozdf::Grammar::DataPart}) {
        auto document = std::make_shared<strata::ozdf::Document>(strata::ozdf::readDocumentSource(
            strata::makeBufferSource(bytes, "fuzz.ozdf"), "fuzz.ozdf", grammar));
        checkDocument(*document);
        const auto tree = strata::ozdf::buildDocumentNode(*document);
        check(tree != nullptr);
        strata::CollectingSink sink;
        strata::ozdf::makeOzdfValidator(document)->run(sink, {});
    }
    return 0;
}
