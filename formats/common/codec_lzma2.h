// Raw LZMA2 (no .xz container), as ZS's `lzma2;dsize=2^20` codec stores it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "codec_deflate.h"  // CodecError
#include "decode_result.h"

namespace strata {

// The dictionary ZS readers decode with; streams needing a larger one are Corrupt.
inline constexpr std::uint32_t kLzma2ZsDictionary = 1u << 20;

// A liblzma preset: level 0..9, optionally "extreme" (ZS allows 0, 0e, 1, 1e; default 0e).
struct Lzma2Preset {
    unsigned level = 0;
    bool extreme = true;
};

// liblzma's raw LZMA2 encoder with exactly the options lzma_lzma_preset() gives for `preset`,
// finished with LZMA_FINISH (ends with the LZMA2 end marker). Throws CodecError for a level
// above 9 or a library failure.
std::vector<std::uint8_t> lzma2Compress(std::span<const std::uint8_t> data,
                                        Lzma2Preset preset = {});

// Decodes one raw LZMA2 stream (up to its end marker) into at most maxOutput bytes, with a
// dictionary of `dictionarySize` bytes. Bytes after the end marker are reported as TrailingData.
DecodeResult lzma2Decompress(std::span<const std::uint8_t> data, std::uint64_t maxOutput,
                             std::uint32_t dictionarySize = kLzma2ZsDictionary);

}  // namespace strata
