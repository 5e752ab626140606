// Fuzzes the zTensor importers' readers: the same bytes as a NumPy .npy file and as a
// safetensors file. Checks: no crash, no hang, no unbounded allocation; every tensor read holds
// exactly dtype size × element count bytes.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/ztensor/npy_reader.h"
#include "formats/ztensor/safetensors_reader.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

void checkTensor(const strata::ztensor::ZtImportTensor& tensor) {
    std::uint64_t bytes = strata::ztensor::ztDTypeSize(tensor.dtype);
    for (auto dim : tensor.shape) {
        bytes *= dim;  // the reader checked it cannot overflow
    }
    check(tensor.data.size() == bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto source =
        strata::makeBufferSource(std::vector<std::uint8_t>(data, data + size), "fuzz");
    try {
        checkTensor(strata::ztensor::readNpy(source, "x"));
    } catch (const strata::ztensor::ZtImportError&) {
    }
    try {
        for (const auto& tensor : strata::ztensor::readSafetensors(source).tensors) {
            checkTensor(tensor);
        }
    } catch (const strata::ztensor::ZtImportError&) {
    }
    return 0;
}
