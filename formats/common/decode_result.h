// What every bounded decompressor returns. Decoders never throw for bad input: they report it
// here, keep whatever they decoded before the problem (never more than maxOutput bytes), and
// say how much input they read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

enum class DecodeStatus {
    Ok,             // one complete stream, every input byte used
    TrailingData,   // a complete stream, then input bytes it did not use; `data` is complete
    Truncated,      // the input ended before the end of the stream
    Corrupt,        // the stream is not valid for this codec
    OutputLimit,    // the stream would decode to more than maxOutput bytes
    ResourceLimit,  // the stream asks for more decoder memory than Strata allows (zstd window)
    Failed,         // the library failed for another reason (out of memory, say)
};

std::string_view decodeStatusName(DecodeStatus status);

struct DecodeResult {
    // Decoded bytes: complete for Ok and TrailingData, the part decoded before the problem
    // otherwise (at most maxOutput bytes either way).
    std::vector<std::uint8_t> data;
    DecodeStatus status = DecodeStatus::Failed;
    // Empty for Ok; otherwise says what went wrong, in words fit for a diagnostic.
    std::string message;
    // Input bytes the decoder used; for TrailingData, where the unused bytes start.
    std::uint64_t consumed = 0;
    // Complete frames decoded (zstd only; 1 for a complete stream of the other codecs).
    std::uint64_t frames = 0;

    // True when `data` holds the whole decoded stream (Ok or TrailingData).
    bool complete() const {
        return status == DecodeStatus::Ok || status == DecodeStatus::TrailingData;
    }
    bool ok() const { return status == DecodeStatus::Ok; }
};

}  // namespace strata
