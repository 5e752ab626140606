// Reads a text file line by line without trusting it: a line longer than the limit is skipped
// (and counted) instead of growing a buffer without bound. For the JSON Lines a scan reads back
// (its results cache, the outputs `scan --merge` joins), which may come from anywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

namespace strata::scan {

class BoundedLineReader {
public:
    BoundedLineReader(std::istream& in, std::size_t maxLine) : in_(in), maxLine_(maxLine) {}

    // The next line (without '\n') and the offset it starts at; false at the end.
    bool next(std::string& line, std::uint64_t* offset = nullptr);
    // Lines skipped for being longer than maxLine.
    std::size_t skippedLong() const { return skippedLong_; }

private:
    std::istream& in_;
    std::size_t maxLine_;
    std::uint64_t position_ = 0;
    std::size_t skippedLong_ = 0;
};

}  // namespace strata::scan
