// Chooses the format for a path (file or folder) by asking every handler's probe. The list
// Strata is built with is builtinFormats() (formats/builtin/builtin_formats.h).
#pragma once

#include <memory>
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

private:
    std::vector<std::unique_ptr<FormatHandler>> handlers_;
};

}  // namespace strata
