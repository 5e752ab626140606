#include "codec_lzma2.h"

#include <lzma.h>

#include <algorithm>
#include <string>

#include "codec_output.h"

namespace strata {

namespace {

// Ends the liblzma stream however the function is left.
struct LzmaStream {
    lzma_stream strm = LZMA_STREAM_INIT;
    ~LzmaStream() { lzma_end(&strm); }
};

std::string lzmaMessage(lzma_ret ret) {
    switch (ret) {
        case LZMA_MEM_ERROR:
            return "out of memory";
        case LZMA_MEMLIMIT_ERROR:
            return "memory limit reached";
        case LZMA_OPTIONS_ERROR:
            return "unsupported options";
        case LZMA_DATA_ERROR:
            return "data error";
        case LZMA_BUF_ERROR:
            return "unexpected end of input";
        case LZMA_PROG_ERROR:
            return "programming error";
        default:
            return "liblzma error " + std::to_string(static_cast<int>(ret));
    }
}

}  // namespace

std::vector<std::uint8_t> lzma2Compress(std::span<const std::uint8_t> data, Lzma2Preset preset) {
    if (preset.level > 9) {
        throw CodecError("lzma2: preset level " + std::to_string(preset.level) +
                         " is outside 0..9");
    }
    lzma_options_lzma options{};
    if (lzma_lzma_preset(&options, preset.level | (preset.extreme ? LZMA_PRESET_EXTREME : 0u))) {
        throw CodecError("lzma2: liblzma does not know preset " + std::to_string(preset.level));
    }
    const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    LzmaStream stream;
    lzma_ret ret = lzma_raw_encoder(&stream.strm, filters);
    if (ret != LZMA_OK) {
        throw CodecError("lzma2: cannot initialise the encoder: " + lzmaMessage(ret));
    }
    // Incompressible input grows by 3 bytes per 64 KiB chunk plus the end marker.
    std::vector<std::uint8_t> out(data.size() + data.size() / 16384 + 64);
    stream.strm.next_in = data.data();
    stream.strm.avail_in = data.size();
    for (;;) {
        if (stream.strm.total_out == out.size()) {
            out.resize(out.size() * 2);
        }
        stream.strm.next_out = out.data() + stream.strm.total_out;
        stream.strm.avail_out = out.size() - stream.strm.total_out;
        ret = lzma_code(&stream.strm, LZMA_FINISH);
        if (ret == LZMA_STREAM_END) {
            break;
        }
        if (ret != LZMA_OK) {
            throw CodecError("lzma2: " + lzmaMessage(ret));
        }
    }
    out.resize(stream.strm.total_out);
    return out;
}

DecodeResult lzma2Decompress(std::span<const std::uint8_t> data, std::uint64_t maxOutput,
                             std::uint32_t dictionarySize) {
    DecodeResult result;
    lzma_options_lzma options{};
    lzma_lzma_preset(&options, 0);
    options.dict_size = std::max<std::uint32_t>(dictionarySize, LZMA_DICT_SIZE_MIN);
    const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    LzmaStream stream;
    lzma_ret ret = lzma_raw_decoder(&stream.strm, filters);
    if (ret != LZMA_OK) {
        result.status = DecodeStatus::Failed;
        result.message = "lzma2: cannot initialise the decoder: " + lzmaMessage(ret);
        return result;
    }
    detail::BoundedOutput output(maxOutput, data.size());
    stream.strm.next_in = data.data();
    stream.strm.avail_in = data.size();
    for (;;) {
        const std::span<std::uint8_t> space = output.space();
        stream.strm.next_out = space.data();
        stream.strm.avail_out = space.size();
        ret = lzma_code(&stream.strm, LZMA_RUN);
        output.commit(space.size() - stream.strm.avail_out);
        if (output.exceeded()) {
            result.status = DecodeStatus::OutputLimit;
            result.message =
                "LZMA2 stream decodes to more than " + std::to_string(maxOutput) + " bytes";
            break;
        }
        if (ret == LZMA_STREAM_END) {
            result.status = DecodeStatus::Ok;
            result.frames = 1;
            break;
        }
        if (ret == LZMA_DATA_ERROR || ret == LZMA_OPTIONS_ERROR) {
            result.status = DecodeStatus::Corrupt;
            result.message = "corrupt LZMA2 stream (" + lzmaMessage(ret) + ")";
            break;
        }
        if (ret != LZMA_OK && ret != LZMA_BUF_ERROR) {
            result.status = DecodeStatus::Failed;
            result.message = "lzma2: " + lzmaMessage(ret);
            break;
        }
        // Room for output but no input left: the end marker is missing.
        if (stream.strm.avail_out > 0 && stream.strm.avail_in == 0) {
            result.status = DecodeStatus::Truncated;
            result.message = "LZMA2 stream ends before its end marker";
            break;
        }
    }
    result.consumed = stream.strm.total_in;
    if (result.status == DecodeStatus::Ok && result.consumed < data.size()) {
        result.status = DecodeStatus::TrailingData;
        result.message = std::to_string(data.size() - result.consumed) +
                         " bytes follow the end of the LZMA2 stream";
    }
    result.data = output.take();
    return result;
}

}  // namespace strata
