// Fuzzes the uleb128 decoder: no crash, and every accepted value re-encodes to its input.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/uleb128.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    const strata::Uleb128Result result = strata::decodeUleb128(input);
    check(result.length <= size && result.length <= strata::kUleb128MaxBytes);
    std::vector<std::uint8_t> encoded;
    strata::appendUleb128(encoded, result.value);
    switch (result.status) {
        case strata::Uleb128Status::Ok:
            check(encoded.size() == result.length);
            check(std::memcmp(encoded.data(), data, result.length) == 0);
            break;
        case strata::Uleb128Status::NonShortest:
            check(encoded.size() < result.length);
            break;
        case strata::Uleb128Status::Truncated:
            check(result.length == size);
            break;
        case strata::Uleb128Status::Overflow:
            break;
    }
    // Reading through a ByteSource gives the same answer.
    const auto source = strata::makeBufferSource(std::vector<std::uint8_t>(data, data + size));
    const strata::Uleb128Result viaSource = strata::decodeUleb128At(*source, 0);
    check(viaSource.status == result.status && viaSource.value == result.value &&
          viaSource.length == result.length);
    return 0;
}
