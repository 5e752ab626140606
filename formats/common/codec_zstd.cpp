#include "codec_zstd.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <string>

#include "codec_output.h"

namespace strata {

namespace {

// zstd's own default limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT, only in its static-linking API).
constexpr int kWindowLogLimitDefault = 27;

struct CCtxFree {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// Window log the decoder may use: enough for any frame that fits in maxOutput, and never
// less than what zstd's own levels 1..19 use for input of unknown size (8 MiB).
int windowLogLimit(std::uint64_t maxOutput) {
    const int needed = maxOutput <= 1 ? 1 : static_cast<int>(std::bit_width(maxOutput - 1));
    return std::clamp(needed, 23, kWindowLogLimitDefault);
}

void checkParameter(size_t ret, const char* what) {
    if (ZSTD_isError(ret)) {
        throw CodecError(std::string("zstd: cannot set ") + what + ": " + ZSTD_getErrorName(ret));
    }
}

}  // namespace

std::vector<std::uint8_t> zstdCompress(std::span<const std::uint8_t> data,
                                       const ZstdCompressOptions& options) {
    std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx(ZSTD_createCCtx());
    if (!cctx) {
        throw CodecError("zstd: cannot create a compression context");
    }
    checkParameter(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, options.level),
                   "the compression level");
    checkParameter(
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, options.contentSize ? 1 : 0),
        "the content size flag");
    checkParameter(
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, options.checksum ? 1 : 0),
        "the checksum flag");
    std::vector<std::uint8_t> out(ZSTD_compressBound(data.size()));
    ZSTD_inBuffer in{data.data(), data.size(), 0};
    ZSTD_outBuffer ob{out.data(), out.size(), 0};
    // Streaming without a pledged size, so the frame header carries no content size unless
    // asked; one call with ZSTD_e_end finishes the frame since the output can hold the bound.
    for (;;) {
        const size_t remaining = ZSTD_compressStream2(cctx.get(), &ob, &in, ZSTD_e_end);
        if (ZSTD_isError(remaining)) {
            throw CodecError(std::string("zstd: ") + ZSTD_getErrorName(remaining));
        }
        if (remaining == 0) {
            break;
        }
        if (ob.pos == ob.size) {
            out.resize(out.size() * 2);
            ob.dst = out.data();
            ob.size = out.size();
        }
    }
    out.resize(ob.pos);
    return out;
}

DecodeResult zstdDecompress(std::span<const std::uint8_t> data, std::uint64_t maxOutput,
                            const ZstdDecodeOptions& options) {
    DecodeResult result;
    std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx(ZSTD_createDCtx());
    if (!dctx || ZSTD_isError(ZSTD_DCtx_setParameter(dctx.get(), ZSTD_d_windowLogMax,
                                                     windowLogLimit(maxOutput)))) {
        result.status = DecodeStatus::Failed;
        result.message = "zstd: cannot create a decompression context";
        return result;
    }
    detail::BoundedOutput output(maxOutput, data.size());
    ZSTD_inBuffer in{data.data(), data.size(), 0};
    bool frameOpen = false;  // inside a frame that has not ended yet
    for (;;) {
        if (!frameOpen && in.pos < in.size) {
            // A declared content size beyond the bound is refused before decoding anything.
            const unsigned long long declared =
                ZSTD_getFrameContentSize(data.data() + in.pos, in.size - in.pos);
            if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR &&
                declared > maxOutput) {
                result.status = DecodeStatus::OutputLimit;
                result.message = "zstd frame declares " + std::to_string(declared) +
                                 " bytes, more than the limit of " + std::to_string(maxOutput);
                break;
            }
        }
        const std::span<std::uint8_t> space = output.space();
        ZSTD_outBuffer ob{space.data(), space.size(), 0};
        const size_t ret = ZSTD_decompressStream(dctx.get(), &ob, &in);
        output.commit(ob.pos);
        if (output.exceeded()) {
            result.status = DecodeStatus::OutputLimit;
            result.message =
                "zstd data decodes to more than " + std::to_string(maxOutput) + " bytes";
            break;
        }
        if (ZSTD_isError(ret)) {
            const bool window = ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge;
            result.status = window ? DecodeStatus::ResourceLimit : DecodeStatus::Corrupt;
            result.message = std::string(window ? "zstd frame needs too large a window: "
                                                : "corrupt zstd data: ") +
                             ZSTD_getErrorName(ret);
            break;
        }
        if (ret == 0) {
            ++result.frames;
            frameOpen = false;
            if (in.pos == in.size || !options.multipleFrames) {
                result.status = DecodeStatus::Ok;
                break;
            }
            continue;
        }
        frameOpen = true;
        // Room for output but no input left: the frame never ends.
        if (ob.pos < ob.size && in.pos == in.size) {
            result.status = DecodeStatus::Truncated;
            result.message = data.empty() ? "no zstd frame: the input is empty"
                                          : "zstd frame ends before its last block";
            break;
        }
    }
    result.consumed = in.pos;
    if (result.status == DecodeStatus::Ok && result.consumed < data.size()) {
        result.status = DecodeStatus::TrailingData;
        result.message =
            std::to_string(data.size() - result.consumed) + " bytes follow the first zstd frame";
    }
    result.data = output.take();
    return result;
}

}  // namespace strata
