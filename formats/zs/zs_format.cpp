#include "zs_format.h"

#include "formats/registry/file_document.h"
#include "formats/registry/fixed_diagnostic_validator.h"
#include "zs_probe.h"

namespace strata {

std::optional<Detection> ZsFormat::probe(const ProbeInput& input) const {
    return probeZs(input);
}

namespace {

// What a file with a wrong or unfinished magic is reported as; nothing for a good magic.
std::optional<Diagnostic> magicProblem(ZsMagicKind kind, const Region& magic,
                                       const std::string& nodePath) {
    switch (kind) {
        case ZsMagicKind::Complete:
            return std::nullopt;
        case ZsMagicKind::Incomplete:
            return makeError("ZS-INCOMPLETE",
                             "the file starts with the partial-file magic \\xabZStoBe\\x01: the "
                             "writer never finished it",
                             magic, nodePath);
        case ZsMagicKind::UnknownVersion:
            return makeError("ZS-MAGIC", "unknown ZS format version in the magic", magic, nodePath);
        case ZsMagicKind::Truncated:
            return makeError("ZS-MAGIC", "the file ends inside the 8-byte ZS magic", magic,
                             nodePath);
        case ZsMagicKind::None:
            break;
    }
    return makeError("ZS-MAGIC", "the file does not start with the ZS magic \\xabZSfiLe\\x01",
                     magic, nodePath);
}

}  // namespace

std::unique_ptr<OpenedDocument> ZsFormat::open(const std::filesystem::path& path,
                                               const Detection& detection) const {
    auto document = openFileDocument(path, detection, "zs");
    Node* magic = addMagicNode(*document, kZsMagic.size(), "zs");
    const ByteView head = document->sources.front()->view(0, kZsMagic.size());
    if (auto problem = magicProblem(classifyZsMagic(head.bytes), magic->region(), magic->path())) {
        magic->setStatus(Status::Error);
        document->makeValidator = [diagnostic = *problem] {
            return makeFixedDiagnosticValidator({diagnostic});
        };
    }
    return document;
}

}  // namespace strata
