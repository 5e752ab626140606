#include "zt_decode.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <vector>

#include "../common/bounds.h"
#include "../common/codec_zstd.h"
#include "zt_sparse.h"

namespace strata::ztensor {

namespace {

constexpr std::uint64_t kStreamChunk = 1ull << 20;

ZtBytes failure(std::string message) {
    ZtBytes out;
    out.error = std::move(message);
    return out;
}

ZtBytes owned(std::vector<std::uint8_t> data) {
    auto holder = std::make_shared<std::vector<std::uint8_t>>(std::move(data));
    ZtBytes out;
    out.view.bytes = {holder->data(), holder->size()};
    out.view.keepAlive = holder;
    return out;
}

std::string whyUnreadable(const ZtComponent& component) {
    if (!component.hasRange()) {
        return "the component has no usable offset and length";
    }
    if (!component.inBounds) {
        return "the component reaches past the end of the file";
    }
    return "the component's encoding '" + component.encodingName + "' is unknown";
}

struct DCtxFree {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

}  // namespace

std::optional<std::uint64_t> ztExpectedDecodedSize(const ZtFile& file,
                                                   const ZtComponent& component) {
    const ZtTensor& tensor = file.tensors()[component.tensor];
    if (tensor.format == ZtTensorFormat::Dense && component.role == "data") {
        return tensor.byteSize;
    }
    if (tensor.format == ZtTensorFormat::SparseCsr && component.role == "indptr" &&
        tensor.shapeValid && tensor.shape.size() == 2) {
        const auto rows = checkedAdd(tensor.shape[0], 1);
        return rows ? checkedMul(*rows, 8) : std::nullopt;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> ztDecodedSizeBound(const ZtFile& file, const ZtComponent& component) {
    if (auto exact = ztExpectedDecodedSize(file, component)) {
        return exact;
    }
    const ZtTensor& tensor = file.tensors()[component.tensor];
    if (!tensor.elementCount) {
        return std::nullopt;
    }
    const std::uint64_t elements = *tensor.elementCount;
    const bool sparse =
        tensor.format == ZtTensorFormat::SparseCsr || tensor.format == ZtTensorFormat::SparseCoo;
    if (!sparse) {
        return std::nullopt;
    }
    if (component.role == "values") {
        return tensor.byteSize;
    }
    if (component.role == "indices") {
        return checkedMul(elements, 8);
    }
    if (component.role == "coords") {
        const auto perEntry = checkedMul(std::max<std::uint64_t>(tensor.shape.size(), 1), 8);
        return perEntry ? checkedMul(elements, *perEntry) : std::nullopt;
    }
    return std::nullopt;
}

ZtBytes ztComponentBytes(const ZtFile& file, const ZtComponent& component, std::uint64_t maxBytes) {
    if (!component.readable()) {
        return failure(whyUnreadable(component));
    }
    const ByteView stored = file.source()->view(*component.offset, *component.length);
    if (stored.size() != *component.length) {
        return failure("the component's bytes could not be read");
    }
    if (component.encoding == ZtEncoding::Raw) {
        if (stored.size() > maxBytes) {
            return failure("the component holds " + std::to_string(stored.size()) +
                           " bytes, more than the limit of " + std::to_string(maxBytes));
        }
        ZtBytes out;
        out.view = stored;
        return out;
    }
    const auto bound = ztDecodedSizeBound(file, component);
    const std::uint64_t limit = bound ? std::min(*bound, maxBytes) : maxBytes;
    DecodeResult decoded = zstdDecompress(stored.bytes, limit);
    if (!decoded.ok()) {
        std::string message = decoded.message;
        if (decoded.status == DecodeStatus::OutputLimit && bound && *bound <= maxBytes) {
            message = "the zstd data decodes to more than the " + std::to_string(*bound) +
                      " bytes the tensor allows";
        }
        return failure(message.empty() ? std::string("the zstd data cannot be decoded") : message);
    }
    return owned(std::move(decoded.data));
}

ZtBytes ztTensorBytes(const ZtFile& file, const ZtTensor& tensor, std::uint64_t maxBytes) {
    if (!tensor.dtype || !tensor.byteSize) {
        return failure("the tensor's dtype or shape is not usable");
    }
    if (*tensor.byteSize > maxBytes) {
        return failure("the tensor holds " + std::to_string(*tensor.byteSize) +
                       " bytes, more than the limit of " + std::to_string(maxBytes));
    }
    switch (tensor.format) {
        case ZtTensorFormat::Dense: {
            const ZtComponent* data = file.component(tensor, "data");
            if (data == nullptr) {
                return failure("the dense tensor has no 'data' component");
            }
            ZtBytes bytes = ztComponentBytes(file, *data, maxBytes);
            if (bytes.ok() && bytes.view.size() != *tensor.byteSize) {
                return failure("the data holds " + std::to_string(bytes.view.size()) +
                               " bytes, but the tensor needs " + std::to_string(*tensor.byteSize));
            }
            return bytes;
        }
        case ZtTensorFormat::SparseCsr:
        case ZtTensorFormat::SparseCoo: {
            ZtSparseData sparse = ztLoadSparse(file, tensor, maxBytes);
            if (!sparse.loadError.empty()) {
                return failure(sparse.loadError);
            }
            if (!sparse.issues.empty()) {
                return failure("the sparse structure is inconsistent: " +
                               sparse.issues.front().message);
            }
            return owned(ztDensify(tensor, sparse));
        }
        case ZtTensorFormat::Other:
            break;
    }
    return failure("format '" + tensor.formatName + "' cannot be assembled");
}

ZtStreamResult ztStreamComponent(const ZtFile& file, const ZtComponent& component,
                                 std::uint64_t limit,
                                 const std::function<void(std::span<const std::uint8_t>)>& consume,
                                 const CancelToken* cancel,
                                 const std::function<void(std::uint64_t)>& progress) {
    ZtStreamResult result;
    if (!component.readable()) {
        result.message = whyUnreadable(component);
        return result;
    }
    const std::uint64_t total = *component.length;
    const ByteSource& source = *file.source();
    auto cancelled = [&] { return cancel != nullptr && cancel->cancelled(); };
    if (component.encoding == ZtEncoding::Raw) {
        for (std::uint64_t done = 0; done < total; done += kStreamChunk) {
            if (cancelled()) {
                result.cancelled = true;
                return result;
            }
            const std::uint64_t want = std::min(kStreamChunk, total - done);
            const ByteView piece = source.view(*component.offset + done, want);
            const std::uint64_t usable =
                std::min<std::uint64_t>(piece.size(), limit - result.produced);
            consume(piece.bytes.first(static_cast<std::size_t>(usable)));
            result.produced += usable;
            if (progress) {
                progress(want);
            }
            if (usable < piece.size()) {
                result.exceeded = true;
                result.message = "more than " + std::to_string(limit) + " bytes";
                return result;
            }
        }
        result.ok = true;
        return result;
    }
    std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx(ZSTD_createDCtx());
    const int windowLog =
        std::clamp(static_cast<int>(std::bit_width(std::max<std::uint64_t>(limit, 2) - 1)), 23, 27);
    if (!dctx || ZSTD_isError(ZSTD_DCtx_setParameter(dctx.get(), ZSTD_d_windowLogMax, windowLog))) {
        result.message = "zstd: cannot create a decompression context";
        return result;
    }
    std::vector<std::uint8_t> out(ZSTD_DStreamOutSize());
    std::size_t lastRet = 1;
    bool any = false;
    for (std::uint64_t done = 0; done < total; done += kStreamChunk) {
        const std::uint64_t want = std::min(kStreamChunk, total - done);
        const ByteView piece = source.view(*component.offset + done, want);
        ZSTD_inBuffer in{piece.data(), piece.size(), 0};
        while (in.pos < in.size) {
            if (cancelled()) {
                result.cancelled = true;
                return result;
            }
            ZSTD_outBuffer ob{out.data(), out.size(), 0};
            lastRet = ZSTD_decompressStream(dctx.get(), &ob, &in);
            if (ZSTD_isError(lastRet)) {
                result.message = std::string("corrupt zstd data: ") + ZSTD_getErrorName(lastRet) +
                                 " (after " + std::to_string(done + in.pos) + " stored bytes)";
                return result;
            }
            any = true;
            const std::uint64_t usable = std::min<std::uint64_t>(ob.pos, limit - result.produced);
            consume({out.data(), static_cast<std::size_t>(usable)});
            result.produced += usable;
            if (usable < ob.pos) {
                result.exceeded = true;
                result.message = "more than " + std::to_string(limit) + " bytes";
                return result;
            }
        }
        if (progress) {
            progress(want);
        }
    }
    // Flush what the decoder still holds once all input is in.
    while (any && lastRet != 0) {
        ZSTD_inBuffer in{nullptr, 0, 0};
        ZSTD_outBuffer ob{out.data(), out.size(), 0};
        lastRet = ZSTD_decompressStream(dctx.get(), &ob, &in);
        if (ZSTD_isError(lastRet) || ob.pos == 0) {
            break;
        }
        const std::uint64_t usable = std::min<std::uint64_t>(ob.pos, limit - result.produced);
        consume({out.data(), static_cast<std::size_t>(usable)});
        result.produced += usable;
        if (usable < ob.pos) {
            result.exceeded = true;
            result.message = "more than " + std::to_string(limit) + " bytes";
            return result;
        }
    }
    if (!any) {
        result.message = "the component is empty: a zstd component holds at least one frame";
        return result;
    }
    if (lastRet != 0) {
        result.message = "the zstd data ends inside a frame (truncated)";
        return result;
    }
    result.ok = true;
    return result;
}

}  // namespace strata::ztensor
