// Counting NaN and infinite values among little-endian float elements, with the widest vector
// kernel the CPU offers (AVX-512, AVX2, or plain C++ elsewhere), chosen once at run time.
#pragma once

#include <cstdint>
#include <string_view>

#include "zt_dtype.h"

namespace strata::ztensor {

struct ZtNonFiniteCount {
    std::uint64_t nan = 0;
    std::uint64_t inf = 0;

    ZtNonFiniteCount& operator+=(const ZtNonFiniteCount& other) {
        nan += other.nan;
        inf += other.inf;
        return *this;
    }
};

enum class ZtScanKernel { Scalar, Avx2, Avx512 };

std::string_view ztScanKernelName(ZtScanKernel kernel);
// True when this CPU (and this build's target) can run the kernel.
bool ztScanKernelAvailable(ZtScanKernel kernel);
// The widest available kernel: what countNonFinite uses.
ZtScanKernel ztScanKernel();

// Counts NaN/Inf among the whole elements in `bytes` (a trailing partial element is ignored).
// Does nothing for non-float dtypes.
void countNonFinite(ZtDType dtype, const std::uint8_t* bytes, std::uint64_t size,
                    ZtNonFiniteCount& count);
// The same with a given kernel, which must be available (for tests and benchmarks).
void countNonFiniteWith(ZtScanKernel kernel, ZtDType dtype, const std::uint8_t* bytes,
                        std::uint64_t size, ZtNonFiniteCount& count);

}  // namespace strata::ztensor
