// The OZDF entry in the format registry.
#pragma once

#include <memory>
#include <variant>

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kOzdfFormat{"ozdf", "OZDF"};

namespace ozdf {

struct Document;
struct Corpus;
class ListedCorpus;

// What an OZDF open() read: one document; a local corpus folder listed, its documents read when
// the tree shows them or a job asks for them all; or a remote corpus read whole.
struct OzdfState final : FormatState {
    using Read = std::variant<std::shared_ptr<const Document>, std::shared_ptr<const ListedCorpus>,
                              std::shared_ptr<const Corpus>>;
    explicit OzdfState(Read r) : read(std::move(r)) {}
    Read read;
};

// What `opened` read when it is a T (one of OzdfState::Read's), else null.
template <class T>
std::shared_ptr<const T> openedAs(const OpenedDocument& opened) {
    const auto state = opened.stateOf<OzdfState>();
    const auto* held = state ? std::get_if<std::shared_ptr<const T>>(&state->read) : nullptr;
    return held != nullptr ? *held : nullptr;
}

}  // namespace ozdf

class OzdfFormat final : public FormatHandler {
public:
    FormatId id() const override { return kOzdfFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // Files and directory documents as an `ozdf.document` tree, other folders as an
    // `ozdf.corpus`; the validator reports what the reader found. The state (ozdf::OzdfState)
    // holds what was read.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    // The same for an http(s):// or s3:// file or folder: a document's part files and a
    // corpus's documents are read through the input's tree (the probe's file is not fetched
    // again).
    std::unique_ptr<OpenedDocument> openTree(const ProbeInput& input,
                                             const Detection& detection) const override;
    LeftoverScan leftoverScan() const override;
    std::vector<std::string> fileDialogPatterns() const override { return {"*.ozdf"}; }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override;
    bool canRepair() const override { return true; }
    std::optional<std::filesystem::path> repairQuarantinePath(
        const std::filesystem::path& output) const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
