// Growing output buffer shared by the bounded decoders (internal to the codec sources). It never
// grows past the caller's bound; once full, it offers a one-byte probe so a decoder can tell
// "exactly at the bound" from "more output would follow".
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace strata::detail {

class BoundedOutput {
public:
    BoundedOutput(std::uint64_t maxOutput, std::uint64_t inputSize) : max_(maxOutput) {
        // Start near a typical ratio, but small, so a hostile header cannot make us reserve much.
        const std::uint64_t guess = std::max<std::uint64_t>(inputSize * 4, 64 * 1024);
        data_.resize(static_cast<std::size_t>(std::min(guess, max_)));
    }

    // Space for the decoder to write into: free space in the buffer (growing it if needed), or
    // the probe byte when the buffer is already at the bound.
    std::span<std::uint8_t> space() {
        if (used_ == data_.size() && data_.size() < max_) {
            const std::uint64_t grown = std::max<std::uint64_t>(data_.size() * 2, 64 * 1024);
            const auto size = static_cast<std::size_t>(std::min(grown, max_));
            data_.reserve(size);  // exact, so capacity never passes the bound
            data_.resize(size);
        }
        if (used_ == data_.size()) {
            probing_ = true;
            return {&probe_, 1};
        }
        probing_ = false;
        return {data_.data() + used_, data_.size() - used_};
    }

    // Records how many bytes of the last space() the decoder filled.
    void commit(std::size_t produced) {
        if (probing_) {
            exceeded_ = exceeded_ || produced > 0;
        } else {
            used_ += produced;
        }
    }

    // True once the decoder produced a byte beyond the bound.
    bool exceeded() const { return exceeded_; }

    std::vector<std::uint8_t> take() {
        data_.resize(used_);
        if (data_.capacity() - used_ > used_ / 4) {
            data_.shrink_to_fit();
        }
        return std::move(data_);
    }

private:
    std::uint64_t max_;
    std::vector<std::uint8_t> data_;
    std::size_t used_ = 0;
    std::uint8_t probe_ = 0;
    bool probing_ = false;
    bool exceeded_ = false;
};

}  // namespace strata::detail
