#include "codec_deflate.h"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <string>

#include "codec_output.h"

namespace strata {

namespace {

constexpr std::uint64_t kMaxChunk = std::numeric_limits<uInt>::max();

// zlib counts in 32-bit uInt: feed longer input in pieces.
void refillInput(z_stream& zs, std::span<const std::uint8_t> data, std::uint64_t& fed) {
    if (zs.avail_in == 0 && fed < data.size()) {
        const std::uint64_t chunk = std::min<std::uint64_t>(data.size() - fed, kMaxChunk);
        zs.next_in = const_cast<Bytef*>(data.data() + fed);
        zs.avail_in = static_cast<uInt>(chunk);
        fed += chunk;
    }
}

std::string zlibMessage(const z_stream& zs, int ret) {
    return std::string(zs.msg != nullptr ? zs.msg : zError(ret));
}

}  // namespace

std::vector<std::uint8_t> deflateCompress(std::span<const std::uint8_t> data, int level) {
    if (level < -1 || level > 9) {
        throw CodecError("deflate: compression level " + std::to_string(level) +
                         " is outside -1..9");
    }
    z_stream zs{};
    if (deflateInit2(&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw CodecError("deflate: cannot initialise the compressor");
    }
    std::vector<std::uint8_t> out;
    std::uint64_t fed = 0;
    std::size_t used = 0;
    int ret = Z_OK;
    while (ret != Z_STREAM_END) {
        refillInput(zs, data, fed);
        if (used == out.size()) {
            out.resize(std::max<std::size_t>(out.size() * 2, deflateBound(&zs, zs.avail_in) + 64));
        }
        const std::uint64_t room = std::min<std::uint64_t>(out.size() - used, kMaxChunk);
        zs.next_out = out.data() + used;
        zs.avail_out = static_cast<uInt>(room);
        ret = deflate(&zs, fed == data.size() ? Z_FINISH : Z_NO_FLUSH);
        used += room - zs.avail_out;
        if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
            const std::string message = zlibMessage(zs, ret);
            deflateEnd(&zs);
            throw CodecError("deflate: " + message);
        }
    }
    deflateEnd(&zs);
    out.resize(used);
    return out;
}

DecodeResult deflateDecompress(std::span<const std::uint8_t> data, std::uint64_t maxOutput) {
    DecodeResult result;
    z_stream zs{};
    if (inflateInit2(&zs, -15) != Z_OK) {
        result.status = DecodeStatus::Failed;
        result.message = "deflate: cannot initialise the decompressor";
        return result;
    }
    detail::BoundedOutput output(maxOutput, data.size());
    std::uint64_t fed = 0;
    int ret = Z_OK;
    for (;;) {
        refillInput(zs, data, fed);
        const std::span<std::uint8_t> space = output.space();
        const std::uint64_t room = std::min<std::uint64_t>(space.size(), kMaxChunk);
        zs.next_out = space.data();
        zs.avail_out = static_cast<uInt>(room);
        ret = inflate(&zs, Z_NO_FLUSH);
        output.commit(static_cast<std::size_t>(room - zs.avail_out));
        if (output.exceeded()) {
            result.status = DecodeStatus::OutputLimit;
            result.message =
                "deflate stream decodes to more than " + std::to_string(maxOutput) + " bytes";
            break;
        }
        if (ret == Z_STREAM_END) {
            result.frames = 1;
            result.status = DecodeStatus::Ok;
            break;
        }
        if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT) {
            result.status = DecodeStatus::Corrupt;
            result.message = "corrupt deflate stream: " + zlibMessage(zs, ret);
            break;
        }
        if (ret == Z_MEM_ERROR || ret == Z_STREAM_ERROR) {
            result.status = DecodeStatus::Failed;
            result.message = "deflate: " + zlibMessage(zs, ret);
            break;
        }
        // Z_OK or Z_BUF_ERROR: if there was room for output and no input is left, the decoder
        // is waiting for bytes that will never come.
        if (zs.avail_out > 0 && zs.avail_in == 0 && fed == data.size()) {
            result.status = DecodeStatus::Truncated;
            result.message = "deflate stream ends before its final block";
            break;
        }
    }
    result.consumed = zs.total_in;
    inflateEnd(&zs);
    if (result.status == DecodeStatus::Ok && result.consumed < data.size()) {
        result.status = DecodeStatus::TrailingData;
        result.message = std::to_string(data.size() - result.consumed) +
                         " bytes follow the end of the deflate stream";
    }
    result.data = output.take();
    return result;
}

}  // namespace strata
