#include "shardlake_format.h"

#include "formats/common/le_reader.h"
#include "formats/registry/file_document.h"
#include "formats/registry/fixed_diagnostic_validator.h"
#include "shardlake_probe.h"

namespace strata {

std::optional<Detection> ShardlakeFormat::probe(const ProbeInput& input) const {
    return probeShardlake(input);
}

namespace {

constexpr std::uint64_t kMagicSize = 8;

bool isBinaryArtifact(ShardlakeKind kind) {
    return kind == ShardlakeKind::Shard || kind == ShardlakeKind::CoarseQuantizer ||
           kind == ShardlakeKind::PqCodebook || kind == ShardlakeKind::BadMagicFile;
}

}  // namespace

std::unique_ptr<OpenedDocument> ShardlakeFormat::open(const std::filesystem::path& path,
                                                      const Detection& detection) const {
    const ProbeInput input = ProbeInput::fromPath(path);
    if (input.isDirectory) {
        return openFolderDocument(path, detection, "shardlake");
    }
    auto document = openFileDocument(path, detection, "shardlake");
    const ShardlakeKind kind = classifyShardlake(input).kind;
    if (!isBinaryArtifact(kind)) {
        return document;
    }
    Node* magic = addMagicNode(*document, kMagicSize, "shardlake");
    if (const auto version = readLe<std::uint32_t>(*document->sources.front(), kMagicSize)) {
        document->facts.emplace_back("version", std::to_string(*version));
    }
    if (kind == ShardlakeKind::BadMagicFile) {
        magic->setStatus(Status::Error);
        document->makeValidator = [diagnostic = makeError("SLK-MAGIC",
                                                          "the file does not start with its magic",
                                                          magic->region(), magic->path())] {
            return makeFixedDiagnosticValidator({diagnostic});
        };
    }
    return document;
}

}  // namespace strata
