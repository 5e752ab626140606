// Raw DEFLATE (RFC 1951, no zlib or gzip wrapper), as ZS's `deflate` codec stores it.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "decode_result.h"

namespace strata {

// Thrown by the compressors for bad parameters or a library failure (never for input data).
class CodecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr int kDeflateDefaultLevel = 6;

// zlib deflate with window bits -15, memory level 8, default strategy; level 0..9 (or -1 for
// zlib's default, which is 6). Throws CodecError for any other level.
std::vector<std::uint8_t> deflateCompress(std::span<const std::uint8_t> data,
                                          int level = kDeflateDefaultLevel);

// Decodes one raw DEFLATE stream into at most maxOutput bytes. Bytes after the final block are
// reported as TrailingData (the stream itself decoded completely).
DecodeResult deflateDecompress(std::span<const std::uint8_t> data, std::uint64_t maxOutput);

}  // namespace strata
