// Maps a 64-bit top row to QScrollBar's int range. Up to INT_MAX rows the mapping is 1:1; past
// that the scrollbar gets a fixed range and each step stands for many rows, so files of any
// size (2^64 bytes at 8 bytes per row is 2^61 rows) scroll end to end.
#pragma once

#include <QtGlobal>

namespace strata::gui {

class HexScrollMapping {
public:
    static constexpr int kScaledMaximum = 1 << 30;

    explicit HexScrollMapping(quint64 maxTopRow = 0) : maxTopRow_(maxTopRow) {}

    quint64 maxTopRow() const { return maxTopRow_; }
    bool scaled() const { return maxTopRow_ > static_cast<quint64>(kScaledMaximum); }
    int maximum() const;
    // The row shown at the top for a scrollbar value; value maximum() gives maxTopRow().
    quint64 rowForValue(int value) const;
    // The largest value whose row does not pass `row`, so rowForValue(valueForRow(r)) <= r and
    // a row set from the keyboard keeps its scrollbar value stable.
    int valueForRow(quint64 row) const;

private:
    quint64 maxTopRow_;
};

}  // namespace strata::gui
