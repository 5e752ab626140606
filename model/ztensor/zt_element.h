// Reading one zTensor element (little-endian, any dtype of the spec) as a number or as text.
#pragma once

#include <QString>

#include <cstdint>

#include "formats/ztensor/zt_dtype.h"

namespace strata::model {

// The element at `p` as a double (bool: 0 or 1; 64-bit integers may round).
double ztElementValue(strata::ztensor::ZtDType dtype, const std::uint8_t* p);
// The element at `p` as people read it: integers exactly, floats with enough digits to
// tell neighbours apart, bool as true/false.
QString ztElementText(strata::ztensor::ZtDType dtype, const std::uint8_t* p);

}  // namespace strata::model
