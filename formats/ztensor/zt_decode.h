// Reading what zTensor components hold: raw components straight from the (mapped) source, zstd
// components decoded on demand with a bound taken from the tensor's declared size.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "../common/byte_source.h"
#include "../common/validator.h"
#include "zt_file.h"

namespace strata::ztensor {

// Decoded bytes, or why there are none.
struct ZtBytes {
    ByteView view;
    std::string error;

    bool ok() const { return error.empty(); }
    std::span<const std::uint8_t> bytes() const { return view.bytes; }
};

// The most a caller gets by default: views of a tensor are for looking at, not for copying a
// 100 GB file into memory.
inline constexpr std::uint64_t kZtDefaultLoadLimit = 256ull << 20;

// The decoded size the tensor fixes for this component: dense `data` (dtype × shape) and CSR
// `indptr` (rows + 1 u64).
std::optional<std::uint64_t> ztExpectedDecodedSize(const ZtFile& file,
                                                   const ZtComponent& component);
// An upper bound on the decoded size that the tensor implies (sparse values and indices hold at
// most one entry per element), when there is one.
std::optional<std::uint64_t> ztDecodedSizeBound(const ZtFile& file, const ZtComponent& component);

// A component's decoded bytes: raw ones are a view of the source, zstd ones are decoded into
// memory, at most min(maxBytes, bound from the tensor) bytes.
ZtBytes ztComponentBytes(const ZtFile& file, const ZtComponent& component,
                         std::uint64_t maxBytes = kZtDefaultLoadLimit);

// A tensor's logical bytes, little-endian, row-major: dense tensors are their decoded `data`;
// sparse tensors are expanded to dense (zeros elsewhere) after their structure is checked.
// Other formats have no logical bytes Strata knows how to assemble.
ZtBytes ztTensorBytes(const ZtFile& file, const ZtTensor& tensor,
                      std::uint64_t maxBytes = kZtDefaultLoadLimit);

struct ZtStreamResult {
    bool ok = false;
    std::string message;
    // Decoded bytes handed to the consumer.
    std::uint64_t produced = 0;
    // The data decodes to more than the limit (the consumer saw exactly `limit` bytes).
    bool exceeded = false;
    bool cancelled = false;
};

// Streams a readable component's decoded bytes to `consume` in pieces, in constant memory,
// stopping once more than `limit` bytes would be produced. `progress` receives stored bytes read.
ZtStreamResult ztStreamComponent(const ZtFile& file, const ZtComponent& component,
                                 std::uint64_t limit,
                                 const std::function<void(std::span<const std::uint8_t>)>& consume,
                                 const CancelToken* cancel = nullptr,
                                 const std::function<void(std::uint64_t)>& progress = {});

}  // namespace strata::ztensor
