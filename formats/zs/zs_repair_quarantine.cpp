#include "zs_repair_quarantine.h"

#include "formats/common/atomic_file.h"
#include "zs_block.h"

namespace strata::zs {

namespace fs = std::filesystem;

fs::path zsQuarantinePath(const fs::path& output) {
    fs::path p = output;
    p += ".quarantine.txt";
    return p;
}

std::string zsQuarantineLine(std::span<const std::uint8_t> record) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(record.size());
    for (std::size_t i = 0; i < record.size(); ++i) {
        const std::uint8_t b = record[i];
        if (b == '\\') {
            out += "\\\\";
        } else if (b == '\n') {
            out += "\\n";
        } else if (b == '\r') {
            out += "\\r";
        } else if (b == '\t') {
            out += "\\t";
        } else if (b < 0x20 || b == 0x7f || (b == '#' && i == 0)) {
            out += "\\x";
            out += kHex[b >> 4];
            out += kHex[b & 15];
        } else {
            out += static_cast<char>(b);
        }
    }
    return out;
}

ZsQuarantine::ZsQuarantine(fs::path path, std::string input)
    : path_(std::move(path)), input_(std::move(input)) {}

ZsQuarantine::~ZsQuarantine() = default;

std::uint64_t ZsQuarantine::addBlock(const std::string& note,
                                     std::span<const std::uint8_t> payload) {
    std::string text = "# " + note + "\n";
    std::uint64_t added = 0;
    RecordCursor cursor(payload);
    while (const auto record = cursor.next()) {
        text += zsQuarantineLine(*record);
        text += '\n';
        ++added;
    }
    if (added == 0) {
        return 0;
    }
    ++blocks_;
    records_ += added;
    write(text);
    return added;
}

void ZsQuarantine::addMetadata(const std::string& note, std::span<const std::uint8_t> metadata) {
    metadata_ = true;
    write("# " + note + "\n" + zsQuarantineLine(metadata) + "\n");
}

void ZsQuarantine::write(const std::string& text) {
    if (path_.empty()) {
        return;
    }
    if (!file_) {
        file_ = std::make_unique<AtomicFile>(path_);
        file_->write(
            "# Strata ZS repair quarantine: records of " + input_ +
            " from blocks the repair left out.\n"
            "# Nothing vouches for them: they were read from damaged bytes or from blocks whose\n"
            "# records do not belong in the file as they stand (each block's note says why),\n"
            "# and a header's metadata when the header fails its CRC.\n"
            "# One record per line; \\\\ is a backslash, \\n \\r \\t and \\xNN are bytes (\\x23 a\n"
            "# record's leading #); every other byte is as it was. Lines starting with # are "
            "notes.\n");
    }
    file_->write(text);
}

void ZsQuarantine::commit() {
    if (file_) {
        file_->commit();
    }
}

}  // namespace strata::zs
