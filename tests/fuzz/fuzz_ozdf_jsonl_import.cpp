// Fuzzes the OZDF JSONL import (`strata-cli ozdf import`, Import in the app): any bytes are
// either refused with JsonImportError or give documents that the writer either refuses with
// WriteError or writes as files Strata's reader accepts and reads back as the same content
// (names upper-cased, paragraphs normalised). Checks: no crash, no hang, no other exception.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_writer.h"

namespace {

using namespace strata::ozdf;

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

Document readBack(const std::string& text, std::string name, Grammar grammar) {
    return readDocumentSource(strata::makeBufferSource(std::string_view(text), name),
                              std::move(name), grammar);
}

// The paragraphs a part file gives back: those of its DATA block.
const std::vector<Paragraph>& dataParagraphs(const Document& part) {
    static const std::vector<Paragraph> none;
    for (const Element& block : part.elements) {
        if (block.kind == ElementKind::Block && block.name == "DATA") {
            return block.paragraphs;
        }
    }
    return none;
}

void checkSameParagraphs(const std::vector<Paragraph>& written,
                         const std::vector<Paragraph>& read) {
    check(written.size() == read.size());
    for (std::size_t i = 0; i < written.size(); ++i) {
        check(written[i].text == read[i].text);
    }
}

// What the writer produced for an external list reads back as its items.
void checkParts(const Element& list) {
    const auto parts = writeParts(list);
    check(parts.size() == list.items.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Document part = readBack(parts[i].second, parts[i].first, Grammar::DataPart);
        check(part.accepted());
        checkSameParagraphs(list.items[i].paragraphs, dataParagraphs(part));
    }
}

// Read from a buffer, `_metadata.ozdf` is taken for a standalone file, whose external lists the
// reader refuses: for a directory document that is the only error allowed.
void checkAccepted(const Document& back, bool directory) {
    for (const strata::Diagnostic& d : back.diagnostics) {
        check(d.severity != strata::Severity::Error ||
              (directory && d.code == "OZDF-EXTERNAL-IN-STANDALONE"));
    }
}

void checkRoundTrip(const Document& document) {
    std::string text;
    try {
        text = writeDocumentText(document);
        for (const Element& element : document.elements) {
            if (element.kind == ElementKind::ExternalList) {
                writeParts(element);
            }
        }
    } catch (const WriteError&) {
        return;  // refused before anything is written: fine
    }
    const Document back = readBack(text, document.filename, Grammar::Document);
    checkAccepted(back, document.isDirectory);
    check(back.elements.size() == document.elements.size());
    for (std::size_t e = 0; e < back.elements.size(); ++e) {
        const Element& want = document.elements[e];
        const Element& got = back.elements[e];
        check(want.kind == got.kind);
        if (want.kind == ElementKind::Comment) {
            continue;
        }
        check(want.name == got.name);
        if (want.kind == ElementKind::Block) {
            checkSameParagraphs(want.paragraphs, got.paragraphs);
        } else if (want.kind == ElementKind::List) {
            check(want.items.size() == got.items.size());
            for (std::size_t i = 0; i < want.items.size(); ++i) {
                checkSameParagraphs(want.items[i].paragraphs, got.items[i].paragraphs);
            }
        } else {
            checkParts(want);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    Corpus corpus;
    try {
        corpus = importJsonl(in);
    } catch (const JsonImportError&) {
        return 0;
    }
    for (const Document& document : corpus.documents) {
        checkRoundTrip(document);
    }
    return 0;
}
