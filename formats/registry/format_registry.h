// Chooses the format for a path (file or folder) by asking every handler's probe. The list
// Strata is built with is builtinFormats() (formats/builtin/builtin_formats.h).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "format_handler.h"

namespace strata {

class FormatRegistry {
public:
    void add(std::unique_ptr<FormatHandler> handler);

    // The most confident detection; raw binary for any other readable file. Throws
    // SourceError when the path does not exist or cannot be read.
    Detection detect(const std::filesystem::path& path) const;
    const FormatHandler& handler(FormatId id) const;
    // Every handler, in the order they were added.
    std::vector<const FormatHandler*> handlers() const;
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path) const;
    // The same for one file already open as a byte source (a remote file).
    Detection detect(const ByteSourcePtr& source) const;
    std::unique_ptr<OpenedDocument> open(const ByteSourcePtr& source) const;
    // The same for a location in a tree (a file or a folder on an HTTP server or in an S3
    // bucket; a local location as the path overloads). See ProbeInput::fromTree.
    Detection detect(const FileTreePtr& tree, const Location& location) const;
    std::unique_ptr<OpenedDocument> open(const FileTreePtr& tree, const Location& location) const;
    // The two steps of the above apart, for a caller that looks at the detection before it
    // opens (a scan skipping formats it was not asked for) without probing twice. A local
    // input (no tree) opens by its path.
    Detection detect(const ProbeInput& input) const;
    std::unique_ptr<OpenedDocument> open(const ProbeInput& input, const Detection& detection) const;

    // The differ of two opened documents' format. Throws DiffError when they are of different
    // formats, or when theirs cannot be compared yet (the message says which).
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a, const OpenedDocument& b) const;
    // Repairs `input`, detected as `format`, into `output` (see the format's planner). Throws
    // RepairError when the format has no repair (naming those that have) or its planner gives
    // up.
    RepairReport repair(FormatId format, const std::filesystem::path& input,
                        const std::filesystem::path& output,
                        const RepairOptions& options = {}) const;
    // Why `format` cannot be repaired, naming those that can: "repairing raw binary is not
    // supported yet (ZS, ZDS, ... can be repaired)".
    std::string repairUnsupportedText(FormatId format) const;

private:
    std::vector<std::unique_ptr<FormatHandler>> handlers_;
};

}  // namespace strata
