// Recognises zTensor files of every known version by their magic.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "formats/registry/format_handler.h"

namespace strata::ztensor {

inline constexpr std::string_view kZTensorMagicV1{"ZTEN1000", 8};
inline constexpr std::string_view kZTensorMagicV01{"ZTEN0001", 8};
inline constexpr std::string_view kZTensorMagicV2{"\x89ZT2\r\n\x1a\n", 8};

enum class ZTensorVersion {
    V1_0,       // ZTEN1000 at the start only; manifest size is the last 8 bytes
    V1_1,       // ZTEN1000 at the start and the end (v1.1 and v1.2 share this layout)
    V0_1,       // ZTEN0001
    V2,         // 89 5A 54 32 0D 0A 1A 0A
    Unknown,    // ZTEN followed by four other characters
    Truncated,  // shorter than the magic, and a prefix of ZTEN1000
    None,
};

ZTensorVersion classifyZTensor(const ProbeInput& input);
// "1.0", "1.1/1.2", "0.1", "2", or "" when unknown.
std::string_view zTensorVersionName(ZTensorVersion version);

// A known magic → 100; ZTEN with another version → 70; a file cut inside the magic → 50; a
// `.zt` / `.ztensor` name without the magic → 20.
std::optional<Detection> probeZTensor(const ProbeInput& input);

}  // namespace strata::ztensor
