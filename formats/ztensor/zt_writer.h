// Writes zTensor v1.0 files the way the reference writer lays them out: components at multiples
// of 64 with zero padding, in the order they are added; then the CBOR manifest (definite-length
// maps; tensors and roles sorted bytewise; the other keys in the reference's field order); then
// the manifest size. Digests cover the stored bytes: "crc32c:0x%08X" or lower-case sha256.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "zt_digest.h"
#include "zt_dtype.h"
#include "zt_file.h"

namespace strata::ztensor {

// Manifest members the writer does not know (readers ignore them), kept by a copy: each key with
// its value already encoded as CBOR, written after the members the writer knows, in key order.
using ZtExtraMembers = std::vector<std::pair<std::string, std::vector<std::uint8_t>>>;

struct ZtWriterComponent {
    std::string role;
    // The decoded (logical, little-endian) bytes; the caller keeps them alive until added.
    std::span<const std::uint8_t> data;
    ZtEncoding encoding = ZtEncoding::Raw;
    std::optional<ZtDigestAlgorithm> digest;
};

struct ZtWriterTensor {
    std::string name;
    ZtDType dtype = ZtDType::Float32;
    std::vector<std::uint64_t> shape;
    std::string format = "dense";
    // Written in this order (the reference: data; values, indices, indptr; values, coords).
    std::vector<ZtWriterComponent> components;
};

// A component whose stored bytes are already encoded and digested (by a worker pool, say).
struct ZtStoredComponent {
    std::string role;
    // The bytes as they go into the file; the caller keeps them alive until added.
    std::span<const std::uint8_t> stored;
    ZtEncoding encoding = ZtEncoding::Raw;
    // The full digest text ("crc32c:0x…", "sha256:…"), or empty for none.
    std::string digest;
    ZtExtraMembers extra;
};

struct ZtStoredTensor {
    std::string name;
    ZtDType dtype = ZtDType::Float32;
    std::vector<std::uint64_t> shape;
    std::string format = "dense";
    std::vector<ZtStoredComponent> components;
    ZtExtraMembers extra;
};

struct ZtWriterOptions {
    std::string version = "1.0";
    std::string generator = "Strata";
    std::vector<std::pair<std::string, std::string>> attributes;
    int zstdLevel = 3;
    ZtExtraMembers extra;  // at the top of the manifest
};

class ZtWriter {
public:
    using Output = std::function<void(std::span<const std::uint8_t>)>;

    // Writes the magic number at once. Throws std::invalid_argument when the version, generator
    // or an attribute is not UTF-8.
    explicit ZtWriter(Output output, ZtWriterOptions options = {});

    // Encodes, digests and writes the tensor's components now. Throws std::invalid_argument for
    // a duplicate tensor name or role, text that is not UTF-8, an encoding other than raw/zstd,
    // or dense data whose size is not dtype size × element count.
    void add(const ZtWriterTensor& tensor);
    // Writes components that are already encoded, unchanged. Throws std::invalid_argument for a
    // duplicate tensor name or role, text that is not UTF-8, or an encoding other than raw/zstd.
    void addStored(const ZtStoredTensor& tensor);

    // Writes the manifest and its size; nothing may be added afterwards.
    void finish();

    std::uint64_t position() const { return position_; }

private:
    struct Written {
        std::string role;
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
        ZtEncoding encoding = ZtEncoding::Raw;
        std::string digest;
        ZtExtraMembers extra;
    };
    struct Entry {
        std::string name;
        ZtDType dtype;
        std::vector<std::uint64_t> shape;
        std::string format;
        std::vector<Written> components;
        ZtExtraMembers extra;
    };

    void emit(std::span<const std::uint8_t> bytes);
    void checkNewName(const std::string& name) const;
    Written place(const std::string& role, std::span<const std::uint8_t> stored,
                  ZtEncoding encoding, std::string digest);
    std::vector<std::uint8_t> manifest() const;

    Output output_;
    ZtWriterOptions options_;
    std::uint64_t position_ = 0;
    std::vector<Entry> entries_;
    std::unordered_set<std::string> names_;  // of entries_: a duplicate is refused without a scan
    bool finished_ = false;
};

// One zstd frame as the reference writes it (no content size, no checksum). Throws
// std::runtime_error when zstd fails.
std::vector<std::uint8_t> ztZstdEncode(std::span<const std::uint8_t> data, int level);
// The digest text Strata writes for these stored bytes.
std::string ztDigestText(ZtDigestAlgorithm algorithm, std::span<const std::uint8_t> stored);

// Whether `text` can be a CBOR text string (valid UTF-8). The reference's decoder refuses a whole
// manifest with one invalid string, so the writer refuses such names, roles and attributes.
bool ztIsValidText(std::string_view text);

// The whole file in memory.
std::vector<std::uint8_t> ztWriteToBuffer(const std::vector<ZtWriterTensor>& tensors,
                                          const ZtWriterOptions& options = {});
// Writes through an AtomicFile: the target is replaced only once the whole file is written.
void ztWriteFile(const std::filesystem::path& path, const std::vector<ZtWriterTensor>& tensors,
                 const ZtWriterOptions& options = {});

}  // namespace strata::ztensor
