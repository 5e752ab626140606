// Writing ZS files the way `zs make` lays them out, so the same input and options give the
// same bytes: data blocks as the input is split, index blocks written as soon as a level fills
// up, then the remaining levels flushed bottom-up at the end, the last block being the root.
//
// The file is written in place following the ZS protocol: the partial-file magic first, the
// final header and fsync at the end, and only then the real magic (and fsync again).
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/codec_lzma2.h"
#include "formats/common/ordered_pool.h"
#include "zs_header.h"

namespace strata::zs {

class ZsWriteError : public std::runtime_error {
public:
    // What is wrong: the records given (out of order, none, cut short: the input has errors),
    // or anything else (the metadata or options given, the output file, a cancel).
    enum class Cause { Records, Other };
    explicit ZsWriteError(const std::string& what, Cause cause = Cause::Other)
        : std::runtime_error(what), cause_(cause) {}
    bool inRecords() const { return cause_ == Cause::Records; }

private:
    Cause cause_;
};

struct WriterOptions {
    Codec codec = Codec::Lzma2;
    int deflateLevel = 6;
    Lzma2Preset lzmaPreset{0, true};  // "0e", the reference's default
    std::uint64_t branchingFactor = 1024;
    std::uint64_t approxBlockSize = 393216;
    unsigned threads = 0;  // compression workers, 0 = one per core
    // The metadata stored exactly as these bytes instead of encoded from the JSON given (a
    // repair copying a file's header: encoding it again could change it, a wide integer
    // rounded, say). They must hold the JSON given.
    std::optional<std::string> verbatimMetadata;
};

// The metadata text as the reference stores it: Python's json.dumps with ensure_ascii (", " and
// ": " separators, keys in the given order, non-ASCII as \uXXXX).
std::string encodeMetadata(const nlohmann::ordered_json& metadata);

// Metadata text as `zs make` takes it: a JSON object. An integer beyond 64 bits is refused, since
// it could only be stored rounded (the reference keeps it exact). Throws ZsWriteError.
nlohmann::ordered_json parseMetadata(std::string_view text);

class ZsWriter {
public:
    // Creates `path` (it must not exist). Throws ZsWriteError.
    ZsWriter(std::filesystem::path path, const nlohmann::ordered_json& metadata,
             WriterOptions options);
    ~ZsWriter();
    ZsWriter(const ZsWriter&) = delete;
    ZsWriter& operator=(const ZsWriter&) = delete;

    // Appends one data block. Records must be sorted, within the block and after every record
    // already written (ZS requires it; Strata refuses to write an invalid file).
    void addBlock(std::vector<std::string> records);
    // Appends a data block already compressed with this writer's codec, its stored bytes
    // unchanged (a repair copying intact blocks): `payload` is what they decode to (records with
    // their length prefixes, hashed for the header), `first` and `last` its first and last
    // records, which must follow every record already written. Throws ZsWriteError.
    void addEncodedBlock(std::span<const std::uint8_t> stored,
                         std::span<const std::uint8_t> payload, std::string first,
                         std::string last);
    // Writes the remaining index levels and the final header, then the magic. Throws
    // ZsWriteError (for example when no record was added: a ZS file holds at least one).
    void finish();
    // Removes the unfinished file (called by the destructor unless finish() succeeded).
    void abandon();

    std::uint64_t blocksWritten() const { return blocksWritten_; }

private:
    struct Pending;
    struct Compressed;
    void drainOne();
    void writeData(Compressed block);
    void addEntry(std::size_t level, std::string first, std::string last, std::uint64_t offset,
                  std::uint64_t length);
    void flushLevel(std::size_t level);
    std::uint64_t writeBlock(std::uint8_t level, std::span<const std::uint8_t> stored);
    std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& payload) const;
    void writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes);
    void startWriteback();
    std::vector<std::uint8_t> headerBytes(std::uint64_t rootOffset, std::uint64_t rootLength,
                                          std::uint64_t total, const Sha256Digest& sha) const;

    std::filesystem::path path_;
    std::string metadata_;
    WriterOptions options_;
    int fd_ = -1;
    std::uint64_t end_ = 0;
    std::uint64_t writebackStarted_ = 0;  // bytes before it are on their way to the disk
    bool finished_ = false;
    std::string lastRecord_;
    bool haveRecord_ = false;
    std::uint64_t recordsAdded_ = 0;
    std::uint64_t blocksWritten_ = 0;
    Sha256 sha_;
    std::vector<std::vector<Pending>> levels_;
    std::unique_ptr<OrderedPool<Compressed>> pool_;
    std::uint64_t submitted_ = 0;
    std::uint64_t written_ = 0;
    std::uint64_t rootOffset_ = 0;
    std::uint64_t rootLength_ = 0;
};

// Splits input like `zs make`: read approxBlockSize bytes at a time, every complete record in
// what has been read so far becomes one data block, the partial record is carried over. The
// input must end with the terminator.
void addTerminatedRecords(ZsWriter& writer, std::istream& in, const std::string& terminator,
                          std::uint64_t approxBlockSize);
// Records prefixed by a uleb128 or u64le length; a block ends once its records (without the
// prefixes) reach approxBlockSize bytes.
void addLengthPrefixedRecords(ZsWriter& writer, std::istream& in, bool uleb128,
                              std::uint64_t approxBlockSize);

}  // namespace strata::zs
