#include "zt_logical.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include "zt_decode.h"
#include "zt_dtype.h"

namespace strata::ztensor {

namespace {

template <class T>
T loadLe(const std::uint8_t* bytes) {
    T value{};
    std::memcpy(&value, bytes, sizeof(T));
    if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
        auto* raw = reinterpret_cast<std::uint8_t*>(&value);
        std::reverse(raw, raw + sizeof(T));
    }
    return value;
}

// Re-cuts a stream of pieces at element boundaries.
class ElementCutter {
public:
    ElementCutter(unsigned size, const ZtBytesConsumer& consume)
        : size_(std::max(1u, size)), consume_(consume) {}

    void operator()(std::span<const std::uint8_t> piece) {
        if (!carry_.empty()) {
            const std::size_t need = std::min<std::size_t>(size_ - carry_.size(), piece.size());
            carry_.insert(carry_.end(), piece.begin(), piece.begin() + need);
            piece = piece.subspan(need);
            if (carry_.size() < size_) {
                return;
            }
            consume_(carry_);
            carry_.clear();
        }
        const std::size_t whole = piece.size() / size_ * size_;
        if (whole > 0) {
            consume_(piece.first(whole));
        }
        carry_.assign(piece.begin() + whole, piece.end());
    }

    // Bytes of a partial element at the end (handed over as they are).
    void flush() {
        if (!carry_.empty()) {
            consume_(carry_);
            carry_.clear();
        }
    }

private:
    unsigned size_;
    const ZtBytesConsumer& consume_;
    std::vector<std::uint8_t> carry_;
};

}  // namespace

ZtReadResult ztReadComponent(const ZtFile& file, const ZtComponent& component,
                             const ZtBytesConsumer& consume, unsigned elementSize,
                             const CancelToken* cancel, std::uint64_t maxBytes) {
    ZtReadResult result;
    const auto expected = ztExpectedDecodedSize(file, component);
    const auto bound = ztDecodedSizeBound(file, component);
    const std::uint64_t limit = std::min(bound.value_or(maxBytes), maxBytes);
    ElementCutter cutter(elementSize, consume);
    const ZtStreamResult streamed = ztStreamComponent(
        file, component, limit, [&](std::span<const std::uint8_t> piece) { cutter(piece); },
        cancel);
    cutter.flush();
    result.bytes = streamed.produced;
    if (streamed.cancelled) {
        result.cancelled = true;
        result.error = "cancelled";
        return result;
    }
    if (streamed.exceeded) {
        result.error = "decodes to more than " + std::to_string(limit) + " bytes";
        return result;
    }
    if (!streamed.ok) {
        result.error = streamed.message.empty() ? "cannot be read" : streamed.message;
        return result;
    }
    if (expected && streamed.produced != *expected) {
        result.error = "decodes to " + std::to_string(streamed.produced) +
                       " bytes, the tensor needs " + std::to_string(*expected);
        return result;
    }
    result.ok = true;
    return result;
}

ZtTensorSummary ztSummarizeTensor(const ZtFile& file, const ZtTensor& tensor,
                                  const CancelToken* cancel) {
    ZtTensorSummary summary;
    std::map<std::string, const ZtComponent*> roles;
    for (std::size_t index : tensor.components) {
        roles.emplace(file.components()[index].role, &file.components()[index]);
    }
    if (tensor.format == ZtTensorFormat::Dense && !roles.contains("data")) {
        summary.error = "the dense tensor has no 'data' component";
        return summary;
    }
    for (const auto& [role, component] : roles) {
        Sha256 hash;
        const ZtReadResult read = ztReadComponent(
            file, *component, [&](std::span<const std::uint8_t> piece) { hash.update(piece); }, 1,
            cancel);
        if (!read.ok) {
            summary.error = file.componentPath(*component) + ": " + read.error;
            return summary;
        }
        summary.components.push_back({role, read.bytes, hash.finish()});
        if (tensor.format == ZtTensorFormat::Dense && role == "data") {
            summary.nbytes = read.bytes;
            summary.sha256 = summary.components.back().sha256;
        }
    }
    summary.ok = true;
    return summary;
}

float ztHalfToFloat(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    const std::uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa × 2^-24.
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign != 0 ? -magnitude : magnitude;
    }
    std::uint32_t out = 0;
    if (exponent == 0x1F) {
        out = sign | 0x7F800000u | (mantissa << 13);
    } else {
        out = sign | ((exponent + 112) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(out);
}

float ztBFloat16ToFloat(std::uint16_t bits) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

double ztElementValue(ZtDType dtype, const std::uint8_t* bytes) {
    switch (dtype) {
        case ZtDType::Float64:
            return std::bit_cast<double>(loadLe<std::uint64_t>(bytes));
        case ZtDType::Float32:
            return std::bit_cast<float>(loadLe<std::uint32_t>(bytes));
        case ZtDType::Float16:
            return ztHalfToFloat(loadLe<std::uint16_t>(bytes));
        case ZtDType::BFloat16:
            return ztBFloat16ToFloat(loadLe<std::uint16_t>(bytes));
        case ZtDType::Int64:
            return static_cast<double>(loadLe<std::int64_t>(bytes));
        case ZtDType::Int32:
            return loadLe<std::int32_t>(bytes);
        case ZtDType::Int16:
            return loadLe<std::int16_t>(bytes);
        case ZtDType::Int8:
            return static_cast<std::int8_t>(bytes[0]);
        case ZtDType::UInt64:
            return static_cast<double>(loadLe<std::uint64_t>(bytes));
        case ZtDType::UInt32:
            return loadLe<std::uint32_t>(bytes);
        case ZtDType::UInt16:
            return loadLe<std::uint16_t>(bytes);
        case ZtDType::UInt8:
            return bytes[0];
        case ZtDType::Bool:
            return bytes[0] != 0 ? 1.0 : 0.0;
    }
    return 0.0;
}

void ZtStatsAccumulator::addFinite(double value, std::uint64_t times) {
    if (finite_ == 0) {
        min_ = max_ = value;
    } else {
        min_ = std::min(min_, value);
        max_ = std::max(max_, value);
    }
    // Merging a group of `times` equal values (Chan et al.), which is Welford's step for 1.
    const double n = static_cast<double>(finite_);
    const double k = static_cast<double>(times);
    const double delta = value - mean_;
    const double total = n + k;
    mean_ += delta * k / total;
    m2_ += delta * delta * n * k / total;
    finite_ += times;
}

void ZtStatsAccumulator::add(std::span<const std::uint8_t> bytes) {
    const unsigned size = ztDTypeSize(dtype_);
    for (std::size_t at = 0; at + size <= bytes.size(); at += size) {
        const double value = ztElementValue(dtype_, bytes.data() + at);
        ++count_;
        if (std::isnan(value)) {
            ++nan_;
        } else if (std::isinf(value)) {
            ++inf_;
        } else {
            zeros_ += value == 0.0 ? 1 : 0;
            addFinite(value, 1);
        }
    }
}

void ZtStatsAccumulator::addZeros(std::uint64_t count) {
    if (count == 0) {
        return;
    }
    count_ += count;
    zeros_ += count;
    addFinite(0.0, count);
}

ZtStats ZtStatsAccumulator::stats() const {
    ZtStats out;
    out.count = count_;
    out.zeros = zeros_;
    out.nan = nan_;
    out.inf = inf_;
    if (finite_ > 0) {
        out.min = min_;
        out.max = max_;
        out.mean = mean_;
        out.stddev = std::sqrt(m2_ / static_cast<double>(finite_));
    }
    return out;
}

ZtStatsResult ztTensorStats(const ZtFile& file, const ZtTensor& tensor, const CancelToken* cancel) {
    ZtStatsResult result;
    if (!tensor.dtype || !tensor.elementCount) {
        result.error = "the tensor's dtype or shape is not usable";
        return result;
    }
    const char* role = nullptr;
    switch (tensor.format) {
        case ZtTensorFormat::Dense:
            role = "data";
            break;
        case ZtTensorFormat::SparseCsr:
        case ZtTensorFormat::SparseCoo:
            role = "values";
            break;
        case ZtTensorFormat::Other:
            result.error = "format '" + tensor.formatName + "' has no elements Strata can read";
            return result;
    }
    const ZtComponent* component = file.component(tensor, role);
    if (component == nullptr) {
        result.error = std::string("the tensor has no '") + role + "' component";
        return result;
    }
    ZtStatsAccumulator accumulator(*tensor.dtype);
    const ZtReadResult read = ztReadComponent(
        file, *component, [&](std::span<const std::uint8_t> piece) { accumulator.add(piece); },
        ztDTypeSize(*tensor.dtype), cancel);
    if (!read.ok) {
        result.cancelled = read.cancelled;
        result.error = file.componentPath(*component) + ": " + read.error;
        return result;
    }
    if (tensor.format != ZtTensorFormat::Dense) {
        const std::uint64_t stored = accumulator.stats().count;
        if (stored > *tensor.elementCount) {
            result.error = "more stored values than the tensor has elements";
            return result;
        }
        accumulator.addZeros(*tensor.elementCount - stored);
    }
    result.stats = accumulator.stats();
    result.ok = true;
    return result;
}

}  // namespace strata::ztensor
