// Statistics of a tensor's values (min, max, mean, standard deviation, zeros, NaN, Inf) and a
// histogram, computed by streaming the values twice in constant memory: raw components are read
// from the mapped file, zstd ones decoded piece by piece. Sparse tensors count their implicit
// zeros without expanding them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/common/validator.h"
#include "formats/ztensor/zt_dtype.h"
#include "formats/ztensor/zt_file.h"

namespace strata::model {

struct ZtStats {
    // Every element, implicit sparse zeros included.
    std::uint64_t count = 0;
    // Finite elements; min, max, mean and stddev are over these (0 when there are none).
    std::uint64_t finite = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    // Population standard deviation.
    double stddev = 0;
    std::uint64_t zeros = 0;
    std::uint64_t nan = 0;
    std::uint64_t inf = 0;
    // Finite values in equal bins over [histogramMin, histogramMax].
    std::vector<std::uint64_t> histogram;
    double histogramMin = 0;
    double histogramMax = 0;
};

// First pass: counts, extremes and moments (Welford), fed any split of the element bytes.
class ZtStatsAccumulator {
public:
    explicit ZtStatsAccumulator(strata::ztensor::ZtDType dtype);
    void feed(std::span<const std::uint8_t> bytes);
    // Adds `count` zeros (a sparse tensor's unstored elements).
    void addZeros(std::uint64_t count);
    ZtStats result() const;

private:
    void add(double value);

    strata::ztensor::ZtDType dtype_;
    std::vector<std::uint8_t> carry_;
    ZtStats stats_;
    double m2_ = 0;
};

// Second pass: the histogram of finite values over the first pass's range.
class ZtHistogramAccumulator {
public:
    ZtHistogramAccumulator(strata::ztensor::ZtDType dtype, double min, double max, int bins);
    void feed(std::span<const std::uint8_t> bytes);
    void addZeros(std::uint64_t count);
    const std::vector<std::uint64_t>& bins() const { return bins_; }

private:
    void add(double value, std::uint64_t count = 1);

    strata::ztensor::ZtDType dtype_;
    std::vector<std::uint8_t> carry_;
    double min_;
    double max_;
    std::vector<std::uint64_t> bins_;
};

// Streams the tensor's values (dense `data`, or sparse `values` plus implicit zeros). Returns
// nullopt with *error set when the tensor cannot be read, or when cancelled.
std::optional<ZtStats> ztComputeStats(const strata::ztensor::ZtFile& file,
                                      const strata::ztensor::ZtTensor& tensor, int bins,
                                      const strata::CancelToken* cancel,
                                      const std::function<void(double)>& progress,
                                      std::string* error);

}  // namespace strata::model
