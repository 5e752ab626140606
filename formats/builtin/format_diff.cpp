#include "format_diff.h"

#include "formats/ozdf/ozdf_diff.h"
#include "formats/shardlake/shardlake_diff.h"
#include "formats/zds/zds_diff.h"
#include "formats/zds/zds_reader.h"
#include "formats/zs/zs_diff.h"
#include "formats/ztensor/zt_diff.h"

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
        case FormatId::Ozdf: {
            const OzdfDiffSide sa{a.stateAs<const ozdf::Document>(),
                                  a.stateAs<const ozdf::Corpus>(),
                                  a.stateAs<const ozdf::ListedCorpus>()};
            const OzdfDiffSide sb{b.stateAs<const ozdf::Document>(),
                                  b.stateAs<const ozdf::Corpus>(),
                                  b.stateAs<const ozdf::ListedCorpus>()};
            const auto readable = [](const OzdfDiffSide& side) {
                return side.document || side.corpus || side.listed;
            };
            if (!readable(sa) || !readable(sb)) {
                throw DiffError("an OZDF side could not be read (see validate)");
            }
            return makeOzdfDiffer(sa, sb);
        }
        case FormatId::Shardlake: {
            auto sa = a.stateAs<const shardlake::Store>();
            auto sb = b.stateAs<const shardlake::Store>();
            if (sa && sb) {
                return makeShardlakeDiffer(sa, sb);
            }
            auto ia = a.stateAs<const shardlake::StoreIndex>();
            auto ib = b.stateAs<const shardlake::StoreIndex>();
            if (ia && ib) {
                return makeShardlakeIndexDiffer(*ia, *ib);
            }
            auto da = a.stateAs<const shardlake::StoreDataset>();
            auto db = b.stateAs<const shardlake::StoreDataset>();
            if (da && db) {
                return makeShardlakeDatasetDiffer(*da, *db);
            }
            auto fa = a.stateAs<const shardlake::ShardFile>();
            auto fb = b.stateAs<const shardlake::ShardFile>();
            if (fa && fb) {
                return makeShardlakeShardDiffer(*fa, *fb);
            }
            throw DiffError(
                "Shardlake comparisons are between two storage roots (folders holding "
                "datasets/, indexes/ and aliases/), two index folders, two dataset folders or "
                "two .sidx shards");
        }
        case FormatId::Zs: {
            auto fa = a.stateAs<const zs::ZsFile>();
            auto fb = b.stateAs<const zs::ZsFile>();
            if (!fa || !fb) {
                throw DiffError("a ZS side could not be read (see validate)");
            }
            return makeZsDiffer(fa, fb);
        }
        case FormatId::ZTensor: {
            auto fa = a.stateAs<const ZtFile>();
            auto fb = b.stateAs<const ZtFile>();
            if (!fa || !fb) {
                throw DiffError("a zTensor side could not be read (see validate)");
            }
            return makeZtDiffer(fa, fb);
        }
        default:
            break;
    }
    throw DiffError("comparing " + std::string(formatName(a.format)) +
                    " files is not supported yet");
}

}  // namespace strata
