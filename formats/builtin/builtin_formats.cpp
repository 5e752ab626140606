#include "builtin_formats.h"

#include "formats/ozdf/ozdf_format.h"
#include "formats/registry/raw_binary_format.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/zds/zds_format.h"
#include "formats/zs/zs_format.h"
#include "formats/ztensor/ztensor_format.h"

namespace strata {

const FormatRegistry& builtinFormats() {
    static const FormatRegistry registry = [] {
        FormatRegistry r;
        // Order breaks ties between equally confident probes: the first added wins.
        r.add(std::make_unique<ZsFormat>());
        r.add(std::make_unique<ZTensorFormat>());
        r.add(std::make_unique<ShardlakeFormat>());
        r.add(std::make_unique<ZdsFormat>());
        r.add(std::make_unique<OzdfFormat>());
        r.add(std::make_unique<RawBinaryFormat>());
        return r;
    }();
    return registry;
}

}  // namespace strata
