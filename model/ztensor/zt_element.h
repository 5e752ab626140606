// Reading one zTensor element (little-endian, any dtype of the spec) as text; as a number it is
// ztensor::ztElementValue (formats/ztensor/zt_logical.h).
#pragma once

#include <QString>

#include <cstdint>

#include "formats/ztensor/zt_dtype.h"
#include "formats/ztensor/zt_logical.h"

namespace strata::model {

// The element at `p` as people read it: integers exactly, floats with enough digits to
// tell neighbours apart, bool as true/false.
QString ztElementText(strata::ztensor::ZtDType dtype, const std::uint8_t* p);

}  // namespace strata::model
