#include "format_diff.h"

#include "formats/zds/zds_diff.h"
#include "formats/zds/zds_reader.h"

namespace strata {

std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a, const OpenedDocument& b) {
    if (a.format != b.format) {
        throw DiffError("cannot compare a " + std::string(formatName(a.format)) + " with a " +
                        std::string(formatName(b.format)) + ": both sides must be one format");
    }
    switch (a.format) {
        case FormatId::Zds: {
            auto da = a.stateAs<ZdsDataset>();
            auto db = b.stateAs<ZdsDataset>();
            if (!da || !db) {
                throw DiffError("a ZDS side could not be read as a dataset (see validate)");
            }
            return makeZdsDiffer(da, db);
        }
        default:
            break;
    }
    throw DiffError("comparing " + std::string(formatName(a.format)) +
                    " files is not supported yet");
}

}  // namespace strata
