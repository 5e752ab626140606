#include "zt_element.h"

#include "formats/common/le_reader.h"
#include "formats/ztensor/zt_logical.h"

namespace strata::model {

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
