#include "zt_tensor_data.h"

#include <limits>

#include "formats/common/bounds.h"
#include "formats/common/le_reader.h"

namespace strata::model {

namespace {

bool isSparse(const ztensor::ZtTensor& tensor) {
    return tensor.format == ztensor::ZtTensorFormat::SparseCsr ||
           tensor.format == ztensor::ZtTensorFormat::SparseCoo;
}

}  // namespace

std::uint64_t ZtTensorData::elementCount() const {
    std::uint64_t count = 1;
    for (auto dim : shape) {
        const auto next = checkedMul(count, dim);
        if (!next) {
            return 0;
        }
        count = *next;
    }
    return count;
}

bool ztLoadIsCheap(const ztensor::ZtFile& file, const ztensor::ZtTensor& tensor) {
    if (tensor.format != ztensor::ZtTensorFormat::Dense) {
        return false;
    }
    const ztensor::ZtComponent* data = file.component(tensor, "data");
    return data != nullptr && data->encoding == ztensor::ZtEncoding::Raw;
}

ZtTensorData ztLoadTensorData(const ztensor::ZtFile& file, const ztensor::ZtTensor& tensor,
                              std::uint64_t maxDecoded) {
    ZtTensorData out;
    out.name = tensor.name;
    out.shape = tensor.shape;
    out.sparse = isSparse(tensor);
    if (!tensor.dtype || !tensor.byteSize || !tensor.shapeValid) {
        out.error = "the tensor's dtype or shape is not usable";
        return out;
    }
    out.dtype = *tensor.dtype;
    if (tensor.format == ztensor::ZtTensorFormat::Dense) {
        // Raw data is only mapped, so no limit applies to it; in a remote file it is not even
        // read here.
        const bool raw = ztLoadIsCheap(file, tensor);
        const ztensor::ZtComponent* stored = file.component(tensor, "data");
        if (raw && stored->readable() && stored->data.source->isRemote()) {
            if (*stored->length != *tensor.byteSize) {
                out.error = "the data holds " + std::to_string(*stored->length) +
                            " bytes, but the tensor needs " + std::to_string(*tensor.byteSize);
                return out;
            }
            out.denseRegion = stored->data;
            out.hasDense = true;
            return out;
        }
        ztensor::ZtBytes bytes = ztensor::ztTensorBytes(
            file, tensor, raw ? std::numeric_limits<std::uint64_t>::max() : maxDecoded);
        if (!bytes.ok()) {
            out.error = bytes.error;
            return out;
        }
        out.dense = std::move(bytes.view);
        out.hasDense = true;
        return out;
    }
    if (!out.sparse) {
        out.error = "format '" + tensor.formatName + "' has no values Strata can show";
        return out;
    }
    auto sparse =
        std::make_shared<ztensor::ZtSparseData>(ztensor::ztLoadSparse(file, tensor, maxDecoded));
    if (!sparse->loadError.empty()) {
        out.error = sparse->loadError;
        return out;
    }
    if (!sparse->issues.empty()) {
        out.error = "the sparse structure is inconsistent: " + sparse->issues.front().message;
        return out;
    }
    if (out.elementCount() <= kZtDensifyLimit) {
        auto dense =
            std::make_shared<std::vector<std::uint8_t>>(ztensor::ztDensify(tensor, *sparse));
        out.dense.bytes = {dense->data(), dense->size()};
        out.dense.keepAlive = dense;
        out.hasDense = true;
    }
    out.sparseData = std::move(sparse);
    return out;
}

std::uint64_t ztSparseCoordinate(const ZtTensorData& data, std::uint64_t entry, std::size_t axis) {
    const ztensor::ZtSparseData& sparse = *data.sparseData;
    if (!sparse.coords.view.empty() || sparse.indptr.view.empty()) {
        // COO: coords is ndim × nnz, row-major.
        const auto coords = sparse.coords.bytes();
        const std::uint64_t at = (axis * sparse.nnz + entry) * 8;
        return at + 8 <= coords.size() ? decodeLe<std::uint64_t>(coords.data() + at) : 0;
    }
    if (axis == 1) {
        const auto indices = sparse.indices.bytes();
        return entry * 8 + 8 <= indices.size() ? decodeLe<std::uint64_t>(indices.data() + entry * 8)
                                               : 0;
    }
    // The row r with indptr[r] <= entry < indptr[r + 1].
    const auto indptr = sparse.indptr.bytes();
    const std::uint64_t rows = indptr.size() / 8 - 1;
    std::uint64_t lo = 0;
    std::uint64_t hi = rows;
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (decodeLe<std::uint64_t>(indptr.data() + mid * 8) <= entry) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

}  // namespace strata::model
