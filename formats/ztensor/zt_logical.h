// The logical contents of zTensor tensors, read in constant memory: decoded little-endian bytes
// streamed piece by piece (whole elements only), their SHA-256 (what `strata-cli zt dump` and the
// corpus' expected/logical.jsonl list), element values as doubles, and summary statistics.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../common/checksums.h"
#include "../common/validator.h"
#include "zt_file.h"

namespace strata::ztensor {

// Receives decoded bytes; every piece holds whole elements of the component.
using ZtBytesConsumer = std::function<void(std::span<const std::uint8_t>)>;

struct ZtReadResult {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    std::uint64_t bytes = 0;
};

// Streams a component's decoded bytes. The decoded size must equal what the tensor fixes for it
// (dense data, CSR indptr) and may not pass what the tensor bounds (other sparse components) or
// `maxBytes`. Pieces are cut at multiples of `elementSize` (1 = anywhere).
ZtReadResult ztReadComponent(const ZtFile& file, const ZtComponent& component,
                             const ZtBytesConsumer& consume, unsigned elementSize = 1,
                             const CancelToken* cancel = nullptr,
                             std::uint64_t maxBytes = 64ull << 30);

struct ZtComponentSummary {
    std::string role;
    std::uint64_t nbytes = 0;
    Sha256Digest sha256{};
};

struct ZtTensorSummary {
    bool ok = false;
    std::string error;
    // Dense tensors: size and SHA-256 of the decoded `data`.
    std::uint64_t nbytes = 0;
    Sha256Digest sha256{};
    // Every component decoded, in role order (bytewise).
    std::vector<ZtComponentSummary> components;
};

// Decodes every component of the tensor once, hashing as it goes.
ZtTensorSummary ztSummarizeTensor(const ZtFile& file, const ZtTensor& tensor,
                                  const CancelToken* cancel = nullptr);

// One element as a double: IEEE half and bfloat16 widened, integers converted (64-bit ones may
// round), bool as 0 or 1. `bytes` holds at least ztDTypeSize(dtype) bytes, little-endian.
double ztElementValue(ZtDType dtype, const std::uint8_t* bytes);
// IEEE 754 binary16 / bfloat16 bit patterns as floats.
float ztHalfToFloat(std::uint16_t bits);
float ztBFloat16ToFloat(std::uint16_t bits);

struct ZtStats {
    std::uint64_t count = 0;  // elements
    std::uint64_t zeros = 0;
    std::uint64_t nan = 0;
    std::uint64_t inf = 0;
    // Over the finite elements; empty when there are none.
    std::optional<double> min, max, mean, stddev;
};

// Accumulates statistics over elements (numerically stable: Welford's method).
class ZtStatsAccumulator {
public:
    explicit ZtStatsAccumulator(ZtDType dtype) : dtype_(dtype) {}
    // Whole elements only; a trailing partial element is ignored.
    void add(std::span<const std::uint8_t> bytes);
    // `count` more elements that are zero (the implicit entries of a sparse tensor).
    void addZeros(std::uint64_t count);
    ZtStats stats() const;

private:
    void addFinite(double value, std::uint64_t times);
    ZtDType dtype_;
    std::uint64_t count_ = 0, zeros_ = 0, nan_ = 0, inf_ = 0, finite_ = 0;
    double min_ = 0, max_ = 0, mean_ = 0, m2_ = 0;
};

struct ZtStatsResult {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    ZtStats stats;
};

// Statistics of the tensor's logical elements: a dense tensor's data; a sparse tensor's values
// plus its implicit zeros. Other formats have none.
ZtStatsResult ztTensorStats(const ZtFile& file, const ZtTensor& tensor,
                            const CancelToken* cancel = nullptr);

}  // namespace strata::ztensor
