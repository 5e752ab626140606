// The quarantine file of a ZS repair, `NEW.quarantine.txt`: the metadata of a header that fails
// its CRC, and the records of every block the repair left out that still read as records (a block
// failing its CRC, out of order, under a wrong level byte), so nothing readable is thrown away, yet
// nothing unverified is in the output. Text, one record per line, escaped so that any bytes survive
// (see zsQuarantineLine); lines starting with '#' are notes: the file's header (the input, what the
// records are) and one note per block naming its bytes and why it was left out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace strata {
class AtomicFile;
}

namespace strata::zs {

// Where the quarantined records of a repair into `output` go: `<output>.quarantine.txt`.
std::filesystem::path zsQuarantinePath(const std::filesystem::path& output);

// A record as one line (without the newline): '\\' as "\\\\", newline, carriage return and tab
// as "\\n", "\\r", "\\t", every other byte below 0x20 and 0x7f as "\\xNN", a '#' that starts the
// record as "\\x23" (so no record reads as a note); every other byte as it is (UTF-8 text stays
// readable). An empty line is an empty record.
std::string zsQuarantineLine(std::span<const std::uint8_t> record);

class ZsQuarantine {
public:
    // Writes to `path` (through an AtomicFile, created with the first block) unless `path` is
    // empty: then it only counts, as a dry run does. `input` is named in the header.
    ZsQuarantine(std::filesystem::path path, std::string input);
    ~ZsQuarantine();
    ZsQuarantine(const ZsQuarantine&) = delete;
    ZsQuarantine& operator=(const ZsQuarantine&) = delete;

    // Adds the records a decoded payload holds, up to the first that cannot be read, under a note
    // (`note`: the block's bytes and why it was left out). Returns how many were added.
    std::uint64_t addBlock(const std::string& note, std::span<const std::uint8_t> payload);
    // Adds the header's metadata as one escaped line under a note: a header that fails its CRC
    // cannot vouch for it, so the output does not carry it.
    void addMetadata(const std::string& note, std::span<const std::uint8_t> metadata);
    // Finishes the file, if one was started.
    void commit();

    std::uint64_t blocks() const { return blocks_; }
    std::uint64_t records() const { return records_; }
    bool holdsMetadata() const { return metadata_; }

private:
    std::filesystem::path path_;
    std::string input_;
    std::unique_ptr<AtomicFile> file_;
    std::uint64_t blocks_ = 0;
    std::uint64_t records_ = 0;
    bool metadata_ = false;

    void write(const std::string& text);
};

}  // namespace strata::zs
