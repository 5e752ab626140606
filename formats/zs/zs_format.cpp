#include "zs_format.h"

#include "formats/common/checksums.h"
#include "formats/registry/file_document.h"
#include "zs_diff.h"
#include "zs_probe.h"
#include "zs_reader.h"
#include "zs_repair.h"
#include "zs_repair_quarantine.h"
#include "zs_tree.h"
#include "zs_validator.h"

namespace strata {

std::optional<Detection> ZsFormat::probe(const ProbeInput& input) const {
    return probeZs(input);
}

namespace {

// The facts `strata-cli info` and the properties panel show: the header as `zs info` has it.
void addFacts(OpenedDocument& document, const zs::ZsFile& file) {
    const zs::Header& h = file.header();
    if (!h.hasFields) {
        return;
    }
    auto& facts = document.facts;
    facts.emplace_back("root index offset", std::to_string(h.rootIndexOffset));
    facts.emplace_back("root index length", std::to_string(h.rootIndexLength));
    facts.emplace_back("total file length", std::to_string(h.totalFileLength));
    facts.emplace_back("codec", h.codecText);
    facts.emplace_back("data sha256", toHex(h.dataSha256));
    if (h.metadata) {
        facts.emplace_back("metadata", h.metadata->dump());
    }
    const auto& root = file.rootBlock();
    if (root && root->frame.usable()) {
        facts.emplace_back("root index level", std::to_string(root->frame.frame.level));
    }
}

}  // namespace

std::unique_ptr<OpenedDocument> ZsFormat::open(const std::filesystem::path& path,
                                               const Detection& detection) const {
    return openSource(openMappedFile(path), detection);
}

std::unique_ptr<OpenedDocument> ZsFormat::openSource(const ByteSourcePtr& source,
                                                     const Detection& detection) const {
    auto document = openFileDocument(source, detection, "zs");
    auto file = zs::ZsFile::open(document->sources.front());
    document->root = zs::buildZsTree(file);
    addFacts(*document, *file);
    document->state = std::make_shared<const zs::ZsState>(file);
    document->makeValidator = [file]() -> std::unique_ptr<Validator> {
        return std::make_unique<zs::ZsValidator>(file);
    };
    return document;
}

std::unique_ptr<Differ> ZsFormat::makeDiffer(const OpenedDocument& a,
                                             const OpenedDocument& b) const {
    auto fa = zs::openedFile(a);
    auto fb = zs::openedFile(b);
    if (!fa || !fb) {
        throw DiffError("a ZS side could not be read (see validate)");
    }
    return makeZsDiffer(fa, fb);
}

RepairReport ZsFormat::repair(const std::filesystem::path& input,
                              const std::filesystem::path& output,
                              const RepairOptions& options) const {
    return zs::repairZsFile(input, output, options);
}

std::optional<std::filesystem::path> ZsFormat::repairQuarantinePath(
    const std::filesystem::path& output) const {
    return zs::zsQuarantinePath(output);
}

LeftoverScan ZsFormat::leftoverScan() const {
    // Beside the file: temporary files of killed saves and "New ZS file" jobs.
    return LeftoverScan(static_cast<unsigned>(LeftoverKind::TempFile) |
                        static_cast<unsigned>(LeftoverKind::PartFile));
}

}  // namespace strata
