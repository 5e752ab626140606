#include "zt_sparse.h"

#include <cstring>

#include "../common/bounds.h"
#include "../common/le_reader.h"

namespace strata::ztensor {

namespace {

// One u64 of an index component and the bytes it came from.
struct IndexArray {
    const ZtComponent* component = nullptr;
    std::span<const std::uint8_t> bytes;

    std::uint64_t count() const { return bytes.size() / 8; }
    std::uint64_t at(std::uint64_t i) const {
        return decodeLe<std::uint64_t>(bytes.data() + i * 8);
    }
    Region region(std::uint64_t i) const {
        if (component->encoding == ZtEncoding::Raw) {
            return {component->data.source, *component->offset + i * 8, 8};
        }
        return component->data;
    }
};

class SparseChecker {
public:
    SparseChecker(const ZtFile& file, const ZtTensor& tensor, ZtSparseData& out)
        : file_(file), tensor_(tensor), out_(out) {}

    bool load(const char* role, ZtBytes& target, std::uint64_t maxBytes) {
        const ZtComponent* component = file_.component(tensor_, role);
        if (component == nullptr) {
            out_.loadError = std::string("no '") + role + "' component";
            return false;
        }
        target = ztComponentBytes(file_, *component, maxBytes);
        if (!target.ok()) {
            out_.loadError = std::string("component '") + role + "': " + target.error;
            return false;
        }
        return true;
    }

    IndexArray indexArray(const char* role, const ZtBytes& bytes) const {
        return {file_.component(tensor_, role), bytes.bytes()};
    }

    void issue(std::string message, Region region) {
        out_.issues.push_back({"tensor '" + tensor_.name + "': " + std::move(message), region});
    }

    // Checks that byte counts are whole elements; returns false when they are not.
    bool wholeElements(const char* role, const ZtBytes& bytes, unsigned size) {
        if (bytes.view.size() % size == 0) {
            return true;
        }
        issue(std::string("component '") + role + "' holds " + std::to_string(bytes.view.size()) +
                  " bytes, not a whole number of " + std::to_string(size) + "-byte elements",
              file_.component(tensor_, role)->data);
        return false;
    }

    void checkCountWithinShape() {
        if (tensor_.elementCount && out_.nnz > *tensor_.elementCount) {
            issue(std::to_string(out_.nnz) + " stored entries, more than the " +
                      std::to_string(*tensor_.elementCount) + " elements of the shape",
                  file_.component(tensor_, "values")->data);
        }
    }

    void checkCsr();
    void checkCoo();

private:
    const ZtFile& file_;
    const ZtTensor& tensor_;
    ZtSparseData& out_;
};

void SparseChecker::checkCsr() {
    if (tensor_.shape.size() != 2) {
        issue("a sparse_csr tensor needs a 2-D shape, not " + std::to_string(tensor_.shape.size()) +
                  "-D",
              tensor_.shapeField);
        return;
    }
    const std::uint64_t rows = tensor_.shape[0];
    const std::uint64_t cols = tensor_.shape[1];
    bool sizesOk = wholeElements("values", out_.values, ztDTypeSize(*tensor_.dtype));
    sizesOk = wholeElements("indices", out_.indices, 8) && sizesOk;
    sizesOk = wholeElements("indptr", out_.indptr, 8) && sizesOk;
    out_.nnz = out_.values.view.size() / ztDTypeSize(*tensor_.dtype);
    const IndexArray indices = indexArray("indices", out_.indices);
    const IndexArray indptr = indexArray("indptr", out_.indptr);
    if (indices.count() != out_.nnz) {
        issue("'indices' holds " + std::to_string(indices.count()) +
                  " column indices but 'values' " + std::to_string(out_.nnz) + " entries",
              indices.component->data);
        sizesOk = false;
    }
    if (rows == UINT64_MAX || indptr.count() != rows + 1) {
        issue("'indptr' holds " + std::to_string(indptr.count()) + " row pointers; " +
                  std::to_string(rows) + " rows need rows + 1",
              indptr.component->data);
        sizesOk = false;
    }
    checkCountWithinShape();
    if (indptr.count() > 0 && indptr.at(0) != 0) {
        issue("'indptr' starts at " + std::to_string(indptr.at(0)) + ", not 0", indptr.region(0));
    }
    for (std::uint64_t i = 1; i < indptr.count(); ++i) {
        if (indptr.at(i) < indptr.at(i - 1)) {
            issue("'indptr' decreases at row " + std::to_string(i - 1) + " (" +
                      std::to_string(indptr.at(i - 1)) + " then " + std::to_string(indptr.at(i)) +
                      "): row pointers must not decrease",
                  indptr.region(i));
            sizesOk = false;
            break;
        }
    }
    if (indptr.count() > 0 && indptr.at(indptr.count() - 1) != indices.count()) {
        issue("'indptr' ends at " + std::to_string(indptr.at(indptr.count() - 1)) +
                  ", but there are " + std::to_string(indices.count()) + " stored entries",
              indptr.region(indptr.count() - 1));
        sizesOk = false;
    }
    std::uint64_t bad = 0;
    std::uint64_t first = 0;
    for (std::uint64_t i = 0; i < indices.count(); ++i) {
        if (indices.at(i) >= cols) {
            if (bad++ == 0) {
                first = i;
            }
        }
    }
    if (bad > 0) {
        issue("column index " + std::to_string(indices.at(first)) + " at entry " +
                  std::to_string(first) + " is not below the " + std::to_string(cols) + " columns" +
                  (bad > 1 ? " (" + std::to_string(bad) + " such entries)" : ""),
              indices.region(first));
    }
    (void)sizesOk;
}

void SparseChecker::checkCoo() {
    const std::uint64_t ndim = tensor_.shape.size();
    wholeElements("values", out_.values, ztDTypeSize(*tensor_.dtype));
    const bool coordsWhole = wholeElements("coords", out_.coords, 8);
    out_.nnz = out_.values.view.size() / ztDTypeSize(*tensor_.dtype);
    const IndexArray coords = indexArray("coords", out_.coords);
    checkCountWithinShape();
    const auto expected = checkedMul(ndim, out_.nnz);
    if (!coordsWhole || !expected || coords.count() != *expected) {
        issue("'coords' holds " + std::to_string(coords.count()) + " indices; " +
                  std::to_string(ndim) + " dimensions × " + std::to_string(out_.nnz) +
                  " entries need " + (expected ? std::to_string(*expected) : "more"),
              coords.component->data);
        return;
    }
    std::uint64_t bad = 0;
    std::uint64_t firstDim = 0;
    std::uint64_t firstEntry = 0;
    for (std::uint64_t d = 0; d < ndim; ++d) {
        for (std::uint64_t i = 0; i < out_.nnz; ++i) {
            if (coords.at(d * out_.nnz + i) >= tensor_.shape[d] && bad++ == 0) {
                firstDim = d;
                firstEntry = i;
            }
        }
    }
    if (bad > 0) {
        const std::uint64_t at = firstDim * out_.nnz + firstEntry;
        issue("coordinate " + std::to_string(coords.at(at)) + " of entry " +
                  std::to_string(firstEntry) + " in dimension " + std::to_string(firstDim) +
                  " is not below its size " + std::to_string(tensor_.shape[firstDim]) +
                  (bad > 1 ? " (" + std::to_string(bad) + " such coordinates)" : ""),
              coords.region(at));
    }
}

}  // namespace

ZtSparseData ztLoadSparse(const ZtFile& file, const ZtTensor& tensor, std::uint64_t maxBytes) {
    ZtSparseData out;
    if (!tensor.dtype || !tensor.shapeValid) {
        out.loadError = "the tensor's dtype or shape is not usable";
        return out;
    }
    SparseChecker checker(file, tensor, out);
    if (tensor.format == ZtTensorFormat::SparseCsr) {
        if (checker.load("values", out.values, maxBytes) &&
            checker.load("indices", out.indices, maxBytes) &&
            checker.load("indptr", out.indptr, maxBytes)) {
            checker.checkCsr();
        }
    } else if (tensor.format == ZtTensorFormat::SparseCoo) {
        if (checker.load("values", out.values, maxBytes) &&
            checker.load("coords", out.coords, maxBytes)) {
            checker.checkCoo();
        }
    } else {
        out.loadError = "not a sparse tensor";
    }
    return out;
}

std::vector<std::uint8_t> ztDensify(const ZtTensor& tensor, const ZtSparseData& sparse) {
    const unsigned size = ztDTypeSize(*tensor.dtype);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(*tensor.byteSize), 0);
    const auto values = sparse.values.bytes();
    auto place = [&](std::uint64_t linear, std::uint64_t entry) {
        std::memcpy(out.data() + linear * size, values.data() + entry * size, size);
    };
    if (tensor.format == ZtTensorFormat::SparseCsr) {
        const std::uint64_t cols = tensor.shape[1];
        const auto indptr = sparse.indptr.bytes();
        const auto indices = sparse.indices.bytes();
        for (std::uint64_t r = 0; r + 1 < indptr.size() / 8; ++r) {
            const std::uint64_t begin = decodeLe<std::uint64_t>(indptr.data() + r * 8);
            const std::uint64_t end = decodeLe<std::uint64_t>(indptr.data() + (r + 1) * 8);
            for (std::uint64_t k = begin; k < end; ++k) {
                place(r * cols + decodeLe<std::uint64_t>(indices.data() + k * 8), k);
            }
        }
    } else {
        const auto coords = sparse.coords.bytes();
        const std::uint64_t ndim = tensor.shape.size();
        for (std::uint64_t i = 0; i < sparse.nnz; ++i) {
            std::uint64_t linear = 0;
            for (std::uint64_t d = 0; d < ndim; ++d) {
                const std::uint64_t c =
                    decodeLe<std::uint64_t>(coords.data() + (d * sparse.nnz + i) * 8);
                linear = linear * tensor.shape[d] + c;
            }
            place(linear, i);
        }
    }
    return out;
}

}  // namespace strata::ztensor
