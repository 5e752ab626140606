// Zstandard frames, as zTensor stores compressed components.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "codec_deflate.h"  // CodecError
#include "decode_result.h"

namespace strata {

struct ZstdCompressOptions {
    int level = 3;
    // zTensor's reference writes frames without a content size and without a checksum.
    bool contentSize = false;
    bool checksum = false;
};

// One zstd frame. Throws CodecError for a level zstd rejects or a library failure.
std::vector<std::uint8_t> zstdCompress(std::span<const std::uint8_t> data,
                                       const ZstdCompressOptions& options = {});

struct ZstdDecodeOptions {
    // When false, decoding stops after the first frame and any further bytes are TrailingData.
    bool multipleFrames = true;
};

// Decodes zstd frames into at most maxOutput bytes; result.frames counts complete frames
// (skippable frames included). Frames whose window is larger than both 8 MiB and maxOutput are
// refused with ResourceLimit, so a hostile header cannot make the decoder allocate much.
DecodeResult zstdDecompress(std::span<const std::uint8_t> data, std::uint64_t maxOutput,
                            const ZstdDecodeOptions& options = {});

}  // namespace strata
