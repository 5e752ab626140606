// Fuzzes the bounded decompressors. The first input byte picks the codec, the rest is the
// compressed stream. Checks: no crash or hang, output within the bound, consumed within input,
// and a complete deflate/zstd result survives a round trip.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/common/codec_deflate.h"
#include "formats/common/codec_lzma2.h"
#include "formats/common/codec_zstd.h"

namespace {

constexpr std::uint64_t kBound = 256 * 1024;

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

void checkResult(const strata::DecodeResult& result, std::span<const std::uint8_t> input) {
    check(result.data.size() <= kBound);
    check(result.consumed <= input.size());
    check(result.ok() == result.message.empty());
    if (result.status == strata::DecodeStatus::TrailingData) {
        check(result.consumed < input.size());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::span<const std::uint8_t> input(data + 1, size - 1);
    switch (data[0] % 3) {
        case 0: {
            const auto result = strata::deflateDecompress(input, kBound);
            checkResult(result, input);
            if (result.complete()) {
                const auto again =
                    strata::deflateDecompress(strata::deflateCompress(result.data, 1), kBound);
                check(again.ok() && again.data == result.data);
            }
            break;
        }
        case 1:
            checkResult(strata::lzma2Decompress(input, kBound), input);
            break;
        default: {
            const auto result = strata::zstdDecompress(input, kBound);
            checkResult(result, input);
            if (result.complete()) {
                const auto again =
                    strata::zstdDecompress(strata::zstdCompress(result.data, {.level = 1}), kBound);
                check(again.ok() && again.data == result.data);
            }
            break;
        }
    }
    return 0;
}
