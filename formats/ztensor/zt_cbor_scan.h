// A non-recursive CBOR well-formedness scanner for zTensor manifests. It runs before the manifest
// is decoded, so that hostile input (nesting bombs, lengths past the end, endless tags) is
// rejected without deep recursion or large allocations, and it records where each map entry
// lies so every manifest field can be shown with its own bytes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata::ztensor {

// Offsets relative to the scanned bytes.
struct CborSpan {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

// One map entry (or array element, whose key span is empty): its key and its value.
struct CborEntry {
    CborSpan key;
    CborSpan value;
    // From the start of the key to the end of the value.
    CborSpan whole() const { return {key.offset, value.offset + value.length - key.offset}; }
};

struct CborScanLimits {
    // Containers and tags open at once; deeper input is rejected.
    unsigned maxDepth = 64;
    // Entries of containers nested less deeply than this are recorded.
    unsigned recordDepth = 5;
};

struct CborScanResult {
    bool ok = false;
    // Where the first data item ends (when ok).
    std::uint64_t end = 0;
    std::string error;
    std::uint64_t errorOffset = 0;
    // CBOR major type of the first item (5 = map).
    std::uint8_t rootMajor = 0;
    // Entries by path: map keys and array indices joined with kCborPathSeparator.
    std::unordered_map<std::string, CborEntry> entries;
    // Paths whose map key appeared more than once.
    std::vector<std::string> duplicateKeys;
};

inline constexpr char kCborPathSeparator = '\x1f';

// Joins path segments with kCborPathSeparator.
std::string cborPath(std::initializer_list<std::string_view> segments);
// The same path for people: segments joined with '/'.
std::string cborPathText(std::string_view path);

// Scans the first CBOR data item in `bytes`. Never reads past the end, never recurses.
CborScanResult scanCbor(std::span<const std::uint8_t> bytes, const CborScanLimits& limits = {});

}  // namespace strata::ztensor
