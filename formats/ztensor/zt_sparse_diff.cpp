#include "zt_sparse_diff.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "../common/le_reader.h"
#include "zt_logical.h"
#include "zt_sparse.h"

namespace strata::ztensor {

namespace {

bool isSparse(const ZtTensor& t) {
    return t.format == ZtTensorFormat::SparseCsr || t.format == ZtTensorFormat::SparseCoo;
}

// A sparse tensor's stored entries in row-major order.
struct SparseEntries {
    ZtSparseData data;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> order;  // (row-major index, entry)
    const std::uint8_t* value(std::uint64_t entry, unsigned size) const {
        return data.values.bytes().data() + entry * size;
    }
};

// Loads and orders the entries; "" or why not.
std::string loadEntries(const ZtFile& file, const ZtTensor& t, std::uint64_t maxBytes,
                        const char* side, SparseEntries& out) {
    out.data = ztLoadSparse(file, t, maxBytes);
    if (!out.data.loadError.empty()) {
        return std::string(side) + ": " + out.data.loadError;
    }
    if (!out.data.issues.empty()) {
        return std::string(side) + ": " + out.data.issues.front().message;
    }
    out.order.reserve(out.data.nnz);
    if (t.format == ZtTensorFormat::SparseCsr) {
        const std::uint64_t cols = t.shape[1];
        const auto indptr = out.data.indptr.bytes();
        const auto indices = out.data.indices.bytes();
        for (std::uint64_t r = 0; r + 1 < indptr.size() / 8; ++r) {
            const auto begin = decodeLe<std::uint64_t>(indptr.data() + r * 8);
            const auto end = decodeLe<std::uint64_t>(indptr.data() + (r + 1) * 8);
            for (std::uint64_t k = begin; k < end; ++k) {
                out.order.emplace_back(r * cols + decodeLe<std::uint64_t>(indices.data() + k * 8),
                                       k);
            }
        }
    } else {
        const auto coords = out.data.coords.bytes();
        const std::uint64_t ndim = t.shape.size();
        for (std::uint64_t i = 0; i < out.data.nnz; ++i) {
            std::uint64_t linear = 0;
            for (std::uint64_t d = 0; d < ndim; ++d) {
                linear = linear * t.shape[d] +
                         decodeLe<std::uint64_t>(coords.data() + (d * out.data.nnz + i) * 8);
            }
            out.order.emplace_back(linear, i);
        }
    }
    std::sort(out.order.begin(), out.order.end());
    for (std::size_t i = 1; i < out.order.size(); ++i) {
        if (out.order[i].first == out.order[i - 1].first) {
            return std::string(side) + ": two entries at row-major index " +
                   std::to_string(out.order[i].first);
        }
    }
    return {};
}

}  // namespace

ZtValueComparison ztCompareByCoordinates(const ZtFile& a, const ZtTensor& ta, const ZtFile& b,
                                         const ZtTensor& tb, const CancelToken* cancel,
                                         std::uint64_t maxBytes) {
    ZtValueComparison out;
    const bool denseA = ta.format == ZtTensorFormat::Dense;
    const bool denseB = tb.format == ZtTensorFormat::Dense;
    if (!ta.dtype || ta.dtype != tb.dtype || !ta.shapeValid || !tb.shapeValid ||
        ta.shape != tb.shape || !ta.elementCount) {
        out.error = "the tensors differ in dtype or shape, or either is unusable";
        return out;
    }
    if ((!isSparse(ta) && !denseA) || (!isSparse(tb) && !denseB) || (denseA && denseB)) {
        out.error = "only sparse_csr and sparse_coo tensors are compared by coordinates";
        return out;
    }
    const ZtDType dtype = *ta.dtype;
    const unsigned size = ztDTypeSize(dtype);
    const std::vector<std::uint8_t> zero(size, 0);
    SparseEntries sa, sb;
    if (!denseA) {
        out.error = loadEntries(a, ta, maxBytes, "A", sa);
    }
    if (out.error.empty() && !denseB) {
        out.error = loadEntries(b, tb, maxBytes, "B", sb);
    }
    if (!out.error.empty()) {
        return out;
    }
    if (!denseA && !denseB) {
        // Both sparse: a merge of the two ordered entry lists; elements neither stores are
        // equal zeros.
        std::size_t i = 0, j = 0;
        while (i < sa.order.size() || j < sb.order.size()) {
            if (((i + j) & 0xFFFF) == 0 && cancel != nullptr && cancel->cancelled()) {
                out.cancelled = true;
                return out;
            }
            if (j == sb.order.size() ||
                (i < sa.order.size() && sa.order[i].first < sb.order[j].first)) {
                ztCompareElements(dtype, sa.value(sa.order[i].second, size), zero.data(), 1,
                                  sa.order[i].first, out.diff);
                ++i;
            } else if (i == sa.order.size() || sb.order[j].first < sa.order[i].first) {
                ztCompareElements(dtype, zero.data(), sb.value(sb.order[j].second, size), 1,
                                  sb.order[j].first, out.diff);
                ++j;
            } else {
                ztCompareElements(dtype, sa.value(sa.order[i].second, size),
                                  sb.value(sb.order[j].second, size), 1, sa.order[i].first,
                                  out.diff);
                ++i;
                ++j;
            }
        }
        out.diff.elements = *ta.elementCount;
        out.ok = true;
        return out;
    }
    // One dense side, streamed: each piece is compared with the sparse side's values for the
    // same elements, laid out densely (zeros and the entries that fall in the piece).
    const ZtFile& denseFile = denseA ? a : b;
    const ZtComponent* data = denseFile.component(denseA ? ta : tb, "data");
    if (data == nullptr) {
        out.error = std::string(denseA ? "A" : "B") + ": no 'data' component";
        return out;
    }
    const SparseEntries& sparse = denseA ? sb : sa;
    std::size_t next = 0;
    std::uint64_t position = 0;
    std::vector<std::uint8_t> other;
    const ZtReadResult read = ztReadComponent(
        denseFile, *data,
        [&](std::span<const std::uint8_t> piece) {
            const std::uint64_t count = piece.size() / size;
            other.assign(piece.size(), 0);
            while (next < sparse.order.size() && sparse.order[next].first < position + count) {
                std::memcpy(other.data() + (sparse.order[next].first - position) * size,
                            sparse.value(sparse.order[next].second, size), size);
                ++next;
            }
            ztCompareElements(dtype, denseA ? piece.data() : other.data(),
                              denseA ? other.data() : piece.data(), count, position, out.diff);
            position += count;
        },
        size, cancel);
    if (read.cancelled) {
        out.cancelled = true;
        return out;
    }
    if (!read.ok) {
        out.error = std::string(denseA ? "A" : "B") + ": " + read.error;
        return out;
    }
    out.diff.elements = *ta.elementCount;
    out.ok = true;
    return out;
}

}  // namespace strata::ztensor
