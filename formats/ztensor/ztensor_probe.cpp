#include "ztensor_probe.h"
#include "ztensor_format.h"

#include <algorithm>
#include <string>

namespace strata::ztensor {

namespace {

constexpr std::uint64_t kTrailerSize = 8;

}  // namespace

ZTensorVersion classifyZTensor(const ProbeInput& input) {
    if (input.headStartsWith(kZTensorMagicV1)) {
        // v1.1/1.2 end with the magic after the manifest size; a v1.0 file ends with the size,
        // and a size spelling "ZTEN1000" would be far larger than any file.
        const bool magicAtEnd = input.fileSize >= 2 * kZTensorMagicV1.size() + kTrailerSize &&
                                input.tailEndsWith(kZTensorMagicV1);
        return magicAtEnd ? ZTensorVersion::V1_1 : ZTensorVersion::V1_0;
    }
    if (input.headStartsWith(kZTensorMagicV01)) {
        return ZTensorVersion::V0_1;
    }
    if (input.headStartsWith(kZTensorMagicV2)) {
        return ZTensorVersion::V2;
    }
    if (input.headStartsWith("ZTEN") && input.head.size() >= kZTensorMagicV1.size()) {
        return ZTensorVersion::Unknown;
    }
    if (input.head.size() >= 4 && input.head.size() < kZTensorMagicV1.size() &&
        input.headStartsWith(kZTensorMagicV1.substr(0, input.head.size()))) {
        return ZTensorVersion::Truncated;
    }
    return ZTensorVersion::None;
}

std::string_view zTensorVersionName(ZTensorVersion version) {
    switch (version) {
        case ZTensorVersion::V1_0:
            return "1.0";
        case ZTensorVersion::V1_1:
            return "1.1/1.2";
        case ZTensorVersion::V0_1:
            return "0.1";
        case ZTensorVersion::V2:
            return "2";
        case ZTensorVersion::Unknown:
        case ZTensorVersion::Truncated:
        case ZTensorVersion::None:
            break;
    }
    return "";
}

std::optional<Detection> probeZTensor(const ProbeInput& input) {
    if (input.isDirectory) {
        return std::nullopt;
    }
    const ZTensorVersion version = classifyZTensor(input);
    switch (version) {
        case ZTensorVersion::V1_0:
            return Detection{kZTensorFormat, 100, "zTensor file"};
        case ZTensorVersion::V1_1:
        case ZTensorVersion::V0_1:
        case ZTensorVersion::V2:
            return Detection{kZTensorFormat, 100,
                             "zTensor v" + std::string(zTensorVersionName(version)) + " file"};
        case ZTensorVersion::Unknown: {
            std::string magic(input.headText().substr(0, kZTensorMagicV1.size()));
            std::replace_if(
                magic.begin(), magic.end(), [](char c) { return c < 0x20 || c > 0x7e; }, '?');
            return Detection{kZTensorFormat, 70, "zTensor file of unknown version " + magic};
        }
        case ZTensorVersion::Truncated:
            return Detection{kZTensorFormat, 50, "zTensor file cut off inside its magic"};
        case ZTensorVersion::None:
            break;
    }
    if (input.extension == ".zt" || input.extension == ".ztensor") {
        return Detection{kZTensorFormat, 20,
                         "file named " + input.extension + " without the zTensor magic"};
    }
    return std::nullopt;
}

}  // namespace strata::ztensor
