#include "builtin_format_views.h"

#include "app/ozdf/ozdf_views.h"
#include "app/shardlake/shardlake_views.h"
#include "app/zds/zds_views.h"
#include "app/zs/zs_views.h"
#include "app/ztensor/ztensor_views.h"

namespace strata::gui {

const FormatViews& builtinFormatViews() {
    static const FormatViews views = [] {
        FormatViews v;
        registerZsViews(v);
        registerZdsViews(v);
        registerShardlakeViews(v);
        registerOzdfViews(v);
        registerZtensorViews(v);
        return v;
    }();
    return views;
}

}  // namespace strata::gui
