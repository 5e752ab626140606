#include "line_reader.h"

namespace strata::scan {

bool BoundedLineReader::next(std::string& line, std::uint64_t* offset) {
    while (true) {
        line.clear();
        const std::uint64_t start = position_;
        bool tooLong = false;
        int c = 0;
        while ((c = in_.get()) != std::char_traits<char>::eof() && c != '\n') {
            if (line.size() < maxLine_) {
                line.push_back(static_cast<char>(c));
            } else {
                tooLong = true;
            }
            ++position_;
        }
        const bool ended = c == std::char_traits<char>::eof();
        position_ += ended ? 0 : 1;
        if (tooLong) {
            ++skippedLong_;
            if (ended) {
                return false;
            }
            continue;
        }
        if (ended && line.empty() && start == position_) {
            return false;
        }
        if (offset != nullptr) {
            *offset = start;
        }
        return true;
    }
}

}  // namespace strata::scan
