#include "hex_scroll_mapping.h"

#include <algorithm>

namespace strata::gui {

int HexScrollMapping::maximum() const {
    return scaled() ? kScaledMaximum : static_cast<int>(maxTopRow_);
}

quint64 HexScrollMapping::rowForValue(int value) const {
    if (value <= 0) {
        return 0;
    }
    if (!scaled()) {
        return std::min<quint64>(static_cast<quint64>(value), maxTopRow_);
    }
    if (value >= kScaledMaximum) {
        return maxTopRow_;
    }
    // value * maxTopRow / kScaledMaximum without a 128-bit product: split maxTopRow into a
    // multiple of the range and a remainder; each partial product fits in 64 bits.
    const auto v = static_cast<quint64>(value);
    const quint64 range = kScaledMaximum;
    return v * (maxTopRow_ / range) + v * (maxTopRow_ % range) / range;
}

int HexScrollMapping::valueForRow(quint64 row) const {
    if (!scaled()) {
        return static_cast<int>(std::min(row, maxTopRow_));
    }
    int lo = 0;
    int hi = kScaledMaximum;
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (rowForValue(mid) <= row) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

}  // namespace strata::gui
