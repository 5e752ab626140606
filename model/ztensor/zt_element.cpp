#include "zt_element.h"

#include <qfloat16.h>
#include <QtNumeric>

#include <bit>
#include <cstring>

#include "formats/common/le_reader.h"

namespace strata::model {

namespace {

// IEEE 754 binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
double halfValue(std::uint16_t bits) {
    const double sign = (bits & 0x8000u) != 0 ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1F;
    const int fraction = bits & 0x3FF;
    if (exponent == 0) {
        return sign * std::ldexp(fraction, -24);  // zero and subnormals
    }
    if (exponent == 0x1F) {
        return fraction == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
    }
    return sign * std::ldexp(1024 + fraction, exponent - 25);
}

double bfloat16Value(std::uint16_t bits) {
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

}  // namespace

double ztElementValue(ztensor::ZtDType dtype, const std::uint8_t* p) {
    switch (dtype) {
        case ztensor::ZtDType::Float64:
            return std::bit_cast<double>(decodeLe<std::uint64_t>(p));
        case ztensor::ZtDType::Float32:
            return static_cast<double>(std::bit_cast<float>(decodeLe<std::uint32_t>(p)));
        case ztensor::ZtDType::Float16:
            return halfValue(decodeLe<std::uint16_t>(p));
        case ztensor::ZtDType::BFloat16:
            return bfloat16Value(decodeLe<std::uint16_t>(p));
        case ztensor::ZtDType::Int64:
            return static_cast<double>(static_cast<std::int64_t>(decodeLe<std::uint64_t>(p)));
        case ztensor::ZtDType::Int32:
            return static_cast<double>(static_cast<std::int32_t>(decodeLe<std::uint32_t>(p)));
        case ztensor::ZtDType::Int16:
            return static_cast<double>(static_cast<std::int16_t>(decodeLe<std::uint16_t>(p)));
        case ztensor::ZtDType::Int8:
            return static_cast<double>(static_cast<std::int8_t>(p[0]));
        case ztensor::ZtDType::UInt64:
            return static_cast<double>(decodeLe<std::uint64_t>(p));
        case ztensor::ZtDType::UInt32:
            return static_cast<double>(decodeLe<std::uint32_t>(p));
        case ztensor::ZtDType::UInt16:
            return static_cast<double>(decodeLe<std::uint16_t>(p));
        case ztensor::ZtDType::UInt8:
            return static_cast<double>(p[0]);
        case ztensor::ZtDType::Bool:
            return p[0] != 0 ? 1.0 : 0.0;
    }
    return 0.0;
}

QString ztElementText(ztensor::ZtDType dtype, const std::uint8_t* p) {
    switch (dtype) {
        case ztensor::ZtDType::Float64:
            return QString::number(ztElementValue(dtype, p), 'g', 17);
        case ztensor::ZtDType::Float32:
            return QString::number(ztElementValue(dtype, p), 'g', 9);
        case ztensor::ZtDType::Float16:
        case ztensor::ZtDType::BFloat16:
            return QString::number(ztElementValue(dtype, p), 'g', 5);
        case ztensor::ZtDType::Int64:
            return QString::number(static_cast<qint64>(decodeLe<std::uint64_t>(p)));
        case ztensor::ZtDType::UInt64:
            return QString::number(static_cast<quint64>(decodeLe<std::uint64_t>(p)));
        case ztensor::ZtDType::Bool:
            return p[0] != 0 ? QStringLiteral("true") : QStringLiteral("false");
        default:
            return QString::number(static_cast<qint64>(ztElementValue(dtype, p)));
    }
}

}  // namespace strata::model
