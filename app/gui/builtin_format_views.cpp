#include "builtin_format_views.h"

#include "app/ozdf/ozdf_views.h"
#include "app/shardlake/shardlake_views.h"
#include "app/zds/zds_views.h"
#include "app/zs/zs_views.h"
#include "app/ztensor/ztensor_views.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/zds/zds_format.h"
#include "formats/zs/zs_format.h"
#include "formats/ztensor/ztensor_format.h"

namespace strata::gui {

const FormatViews& builtinFormatViews() {
    static const FormatViews views = [] {
        FormatViews v;
        v.add(kZsFormat, installZsViews);
        v.add(kZdsFormat, installZdsViews);
        v.add(kShardlakeFormat, installShardlakeViews);
        v.add(kOzdfFormat, installOzdfViews);
        v.add(kZTensorFormat, installZtensorViews);
        return v;
    }();
    return views;
}

}  // namespace strata::gui
