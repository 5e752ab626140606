#include "raw_binary_format.h"

#include "directory_listing.h"
#include "file_document.h"

namespace strata {

std::optional<Detection> RawBinaryFormat::probe(const ProbeInput& input) const {
    return Detection{kRawBinaryFormat, 1, input.isDirectory ? "folder" : "raw binary file"};
}

std::unique_ptr<OpenedDocument> RawBinaryFormat::open(const std::filesystem::path& path,
                                                      const Detection& detection) const {
    if (isDirectory(path)) {
        return openFolderDocument(path, detection, "raw");
    }
    return openFileDocument(path, detection, "raw");
}

std::unique_ptr<OpenedDocument> RawBinaryFormat::openSource(const ByteSourcePtr& source,
                                                            const Detection& detection) const {
    return openFileDocument(source, detection, "raw");
}

}  // namespace strata
