#include "zt_stats.h"

#include <algorithm>
#include <cmath>

#include "formats/ztensor/zt_decode.h"
#include "model/ztensor/zt_element.h"

namespace strata::model {

namespace {

// Calls fn(value) for each whole element of `bytes`, keeping a split element in `carry`.
template <typename Fn>
void forEachElement(ztensor::ZtDType dtype, std::vector<std::uint8_t>& carry,
                    std::span<const std::uint8_t> bytes, Fn&& fn) {
    const std::size_t size = ztensor::ztDTypeSize(dtype);
    std::size_t at = 0;
    if (!carry.empty()) {
        const std::size_t take = std::min(size - carry.size(), bytes.size());
        carry.insert(carry.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
        at = take;
        if (carry.size() < size) {
            return;
        }
        fn(ztElementValue(dtype, carry.data()));
        carry.clear();
    }
    for (; at + size <= bytes.size(); at += size) {
        fn(ztElementValue(dtype, bytes.data() + at));
    }
    carry.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
}

}  // namespace

ZtStatsAccumulator::ZtStatsAccumulator(ztensor::ZtDType dtype) : dtype_(dtype) {}

void ZtStatsAccumulator::feed(std::span<const std::uint8_t> bytes) {
    forEachElement(dtype_, carry_, bytes, [this](double v) { add(v); });
}

void ZtStatsAccumulator::add(double value) {
    ++stats_.count;
    if (std::isnan(value)) {
        ++stats_.nan;
        return;
    }
    if (std::isinf(value)) {
        ++stats_.inf;
        return;
    }
    if (value == 0) {
        ++stats_.zeros;
    }
    if (stats_.finite == 0) {
        stats_.min = stats_.max = value;
    } else {
        stats_.min = std::min(stats_.min, value);
        stats_.max = std::max(stats_.max, value);
    }
    ++stats_.finite;
    const double delta = value - stats_.mean;
    stats_.mean += delta / static_cast<double>(stats_.finite);
    m2_ += delta * (value - stats_.mean);
}

void ZtStatsAccumulator::addZeros(std::uint64_t count) {
    if (count == 0) {
        return;
    }
    // Merges a block of `count` zeros (mean 0, no spread) into the running moments.
    const double n = static_cast<double>(stats_.finite);
    const double k = static_cast<double>(count);
    const double delta = -stats_.mean;
    if (stats_.finite == 0) {
        stats_.min = stats_.max = 0;
    } else {
        stats_.min = std::min(stats_.min, 0.0);
        stats_.max = std::max(stats_.max, 0.0);
    }
    m2_ += delta * delta * n * k / (n + k);
    stats_.mean = stats_.mean * n / (n + k);
    stats_.finite += count;
    stats_.count += count;
    stats_.zeros += count;
}

ZtStats ZtStatsAccumulator::result() const {
    ZtStats out = stats_;
    out.stddev = out.finite > 0 ? std::sqrt(m2_ / static_cast<double>(out.finite)) : 0.0;
    return out;
}

ZtHistogramAccumulator::ZtHistogramAccumulator(ztensor::ZtDType dtype, double min, double max,
                                               int bins)
    : dtype_(dtype), min_(min), max_(max), bins_(static_cast<std::size_t>(std::max(bins, 1)), 0) {}

void ZtHistogramAccumulator::feed(std::span<const std::uint8_t> bytes) {
    forEachElement(dtype_, carry_, bytes, [this](double v) { add(v); });
}

void ZtHistogramAccumulator::addZeros(std::uint64_t count) {
    add(0.0, count);
}

void ZtHistogramAccumulator::add(double value, std::uint64_t count) {
    if (!std::isfinite(value) || count == 0) {
        return;
    }
    const double width = max_ - min_;
    std::size_t bin = 0;
    if (width > 0) {
        const double scaled = (value - min_) / width * static_cast<double>(bins_.size());
        bin = static_cast<std::size_t>(
            std::clamp(scaled, 0.0, static_cast<double>(bins_.size() - 1)));
    }
    bins_[bin] += count;
}

namespace {

// The component whose decoded bytes are the tensor's (stored) values.
const ztensor::ZtComponent* valuesComponent(const ztensor::ZtFile& file,
                                            const ztensor::ZtTensor& tensor) {
    switch (tensor.format) {
        case ztensor::ZtTensorFormat::Dense:
            return file.component(tensor, "data");
        case ztensor::ZtTensorFormat::SparseCsr:
        case ztensor::ZtTensorFormat::SparseCoo:
            return file.component(tensor, "values");
        case ztensor::ZtTensorFormat::Other:
            break;
    }
    return nullptr;
}

}  // namespace

std::optional<ZtStats> ztComputeStats(const ztensor::ZtFile& file, const ztensor::ZtTensor& tensor,
                                      int bins, const CancelToken* cancel,
                                      const std::function<void(double)>& progress,
                                      std::string* error) {
    auto fail = [&](std::string message) -> std::optional<ZtStats> {
        if (error != nullptr) {
            *error = std::move(message);
        }
        return std::nullopt;
    };
    const ztensor::ZtComponent* values = valuesComponent(file, tensor);
    if (!tensor.dtype || !tensor.byteSize || !tensor.elementCount) {
        return fail("the tensor's dtype or shape is not usable");
    }
    if (values == nullptr || !values->readable()) {
        return fail("the tensor has no readable values component");
    }
    // Sparse values hold at most one entry per element; dense data exactly that many.
    const std::uint64_t limit = *tensor.byteSize;
    const double stored = static_cast<double>(std::max<std::uint64_t>(*values->length, 1));
    auto pass = [&](const std::function<void(std::span<const std::uint8_t>)>& consume,
                    double base) {
        std::uint64_t done = 0;  // the callback receives increments
        return ztensor::ztStreamComponent(
            file, *values, limit, consume, cancel, [&](std::uint64_t n) {
                done += n;
                if (progress) {
                    progress(base + 0.5 * std::min(1.0, static_cast<double>(done) / stored));
                }
            });
    };
    ZtStatsAccumulator first(*tensor.dtype);
    const auto one = pass([&](auto piece) { first.feed(piece); }, 0.0);
    if (one.cancelled || (cancel != nullptr && cancel->cancelled())) {
        return fail("cancelled");
    }
    if (!one.ok || one.exceeded) {
        return fail(one.exceeded ? "the values decode to more bytes than the tensor allows"
                                 : one.message);
    }
    const std::uint64_t storedCount = one.produced / ztensor::ztDTypeSize(*tensor.dtype);
    const std::uint64_t implicitZeros =
        tensor.format == ztensor::ZtTensorFormat::Dense || storedCount > *tensor.elementCount
            ? 0
            : *tensor.elementCount - storedCount;
    first.addZeros(implicitZeros);
    ZtStats stats = first.result();
    ZtHistogramAccumulator second(*tensor.dtype, stats.min, stats.max, bins);
    const auto two = pass([&](auto piece) { second.feed(piece); }, 0.5);
    if (two.cancelled || (cancel != nullptr && cancel->cancelled())) {
        return fail("cancelled");
    }
    second.addZeros(implicitZeros);
    stats.histogram = second.bins();
    stats.histogramMin = stats.min;
    stats.histogramMax = stats.max;
    if (progress) {
        progress(1.0);
    }
    return stats;
}

}  // namespace strata::model
