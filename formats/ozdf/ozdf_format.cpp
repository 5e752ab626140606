#include "ozdf_format.h"

#include "formats/registry/directory_listing.h"
#include "formats/registry/file_document.h"
#include "ozdf_probe.h"

namespace strata {

std::optional<Detection> OzdfFormat::probe(const ProbeInput& input) const {
    return probeOzdf(input);
}

std::unique_ptr<OpenedDocument> OzdfFormat::open(const std::filesystem::path& path,
                                                 const Detection& detection) const {
    if (isDirectory(path)) {
        return openFolderDocument(path, detection, "ozdf");
    }
    return openFileDocument(path, detection, "ozdf");
}

}  // namespace strata
