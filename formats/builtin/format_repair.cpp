#include "format_repair.h"

#include "format_registry.h"
#include "formats/ozdf/ozdf_repair.h"
#include "formats/shardlake/shardlake_repair.h"
#include "formats/zds/zds_repair.h"
#include "formats/zs/zs_repair.h"
#include "formats/ztensor/zt_repair.h"

namespace strata {

bool canRepair(FormatId format) {
    return format == FormatId::Zs || format == FormatId::Zds || format == FormatId::ZTensor ||
           format == FormatId::Ozdf || format == FormatId::Shardlake;
}

RepairReport repairPath(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) {
    const Detection detection = FormatRegistry::builtin().detect(input);
    switch (detection.format) {
        case FormatId::Zs:
            return zs::repairZsFile(input, output, options);
        case FormatId::ZTensor:
            return repairZtFile(input, output, options);
        case FormatId::Zds:
            return repairZdsDataset(input, output, options);
        case FormatId::Ozdf:
            return repairOzdf(input, output, options);
        case FormatId::Shardlake:
            return repairShardlakeRoot(input, output, options);
        default:
            break;
    }
    throw RepairError("repairing " + std::string(formatName(detection.format)) +
                      " is not supported yet (ZS files, ZDS datasets, OZDF documents and corpora, "
                      "zTensor files and Shardlake storage roots can be repaired)");
}

}  // namespace strata
