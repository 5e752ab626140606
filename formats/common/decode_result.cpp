#include "decode_result.h"

namespace strata {

std::string_view decodeStatusName(DecodeStatus status) {
    switch (status) {
        case DecodeStatus::Ok:
            return "ok";
        case DecodeStatus::TrailingData:
            return "trailing data";
        case DecodeStatus::Truncated:
            return "truncated";
        case DecodeStatus::Corrupt:
            return "corrupt";
        case DecodeStatus::OutputLimit:
            return "output limit";
        case DecodeStatus::ResourceLimit:
            return "resource limit";
        case DecodeStatus::Failed:
            return "failed";
    }
    return "unknown";
}

}  // namespace strata
