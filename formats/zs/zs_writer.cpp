#include "zs_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include "formats/common/checksums.h"
#include "formats/common/codec_deflate.h"
#include "formats/common/json_error.h"
#include "formats/common/uleb128.h"
#include "zs_block.h"
#include "zs_probe.h"

namespace strata::zs {

namespace {

void appendLe64(std::vector<std::uint8_t>& out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    }
}

// Python's repr() of a float, which json.dumps uses: the shortest digits that read back the same,
// in positional form when the decimal exponent is in [-4, 16), otherwise as d.ddde+XX.
std::string pythonFloatText(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value < 0 ? "-Infinity" : "Infinity";
    }
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
    const std::size_t e = text.find('e');
    const bool negative = text.front() == '-';
    std::string digits;
    for (char c : text.substr(0, e)) {
        if (c >= '0' && c <= '9') {
            digits += c;
        }
    }
    int exponent = 0;
    std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(),
                    exponent);
    std::string out = negative ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
        out += digits.substr(0, 1);
        if (digits.size() > 1) {
            out += '.' + digits.substr(1);
        }
        const std::string power = std::to_string(std::abs(exponent));
        out += exponent < 0 ? "e-" : "e+";
        out += (power.size() < 2 ? "0" : "") + power;
    } else if (exponent < 0) {
        out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    } else {
        const auto whole = static_cast<std::size_t>(exponent) + 1;
        if (digits.size() <= whole) {
            out += digits + std::string(whole - digits.size(), '0') + ".0";
        } else {
            out += digits.substr(0, whole) + '.' + digits.substr(whole);
        }
    }
    return out;
}

// Checks integer literals before nlohmann turns the ones beyond 64 bits into doubles.
class IntegerWidthCheck : public nlohmann::json_sax<nlohmann::ordered_json> {
public:
    std::string tooWide;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t& text) override {
        if (text.find_first_of(".eE") == string_t::npos && tooWide.empty()) {
            tooWide = text;
        }
        return true;
    }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }
};

void encodeValue(const nlohmann::ordered_json& value, std::string& out) {
    if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            out += first ? "" : ", ";
            first = false;
            out += nlohmann::ordered_json(key).dump(-1, ' ', true);
            out += ": ";
            encodeValue(item, out);
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        bool first = true;
        for (const auto& item : value) {
            out += first ? "" : ", ";
            first = false;
            encodeValue(item, out);
        }
        out += ']';
    } else if (value.is_number_float()) {
        out += pythonFloatText(value.get<double>());
    } else {
        out += value.dump(-1, ' ', true);
    }
}

std::string errnoText(const std::string& what, const std::filesystem::path& path) {
    return path.string() + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

std::string encodeMetadata(const nlohmann::ordered_json& metadata) {
    std::string out;
    encodeValue(metadata, out);
    return out;
}

nlohmann::ordered_json parseMetadata(std::string_view text) {
    nlohmann::ordered_json metadata;
    try {
        metadata = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw ZsWriteError("error parsing metadata as JSON: " + jsonErrorText(e.what()));
    }
    IntegerWidthCheck check;
    nlohmann::ordered_json::sax_parse(text, &check);
    if (!check.tooWide.empty()) {
        throw ZsWriteError("the metadata integer " + check.tooWide +
                           " does not fit in 64 bits (it would be stored rounded)");
    }
    if (!metadata.is_object()) {
        throw ZsWriteError("the metadata must be a JSON object ({...})");
    }
    return metadata;
}

struct ZsWriter::Pending {
    std::string first, last;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

struct ZsWriter::Compressed {
    std::vector<std::uint8_t> payload;  // as hashed: records with their length prefixes
    std::vector<std::uint8_t> stored;
    std::string first, last;
};

ZsWriter::ZsWriter(std::filesystem::path path, const nlohmann::ordered_json& metadata,
                   WriterOptions options)
    : path_(std::move(path)),
      metadata_(options.verbatimMetadata ? *options.verbatimMetadata : encodeMetadata(metadata)),
      options_(options) {
    if (!metadata.is_object()) {
        throw ZsWriteError("the metadata must be a JSON object");
    }
    if (options_.branchingFactor < 2) {
        throw ZsWriteError("the branching factor must be at least 2");
    }
    if (options_.approxBlockSize == 0) {
        throw ZsWriteError("the approximate block size must be at least 1");
    }
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) {
        throw ZsWriteError(errnoText("cannot create", path_));
    }
    // Until finish() the file carries the partial-file magic and a placeholder header.
    std::vector<std::uint8_t> start(kZsPartialMagic.begin(), kZsPartialMagic.end());
    const auto header = headerBytes(~std::uint64_t{0} >> 1, 0, 0, Sha256Digest{});
    start.insert(start.end(), header.begin(), header.end());
    std::fill(start.end() - 8, start.end(), 0);
    writeAt(0, start);
    end_ = start.size();
    const unsigned threads = options_.threads != 0
                                 ? options_.threads
                                 : std::max(1u, std::thread::hardware_concurrency());
    pool_ =
        std::make_unique<OrderedPool<Compressed>>(threads, 2 * static_cast<std::size_t>(threads));
}

ZsWriter::~ZsWriter() {
    pool_.reset();
    if (!finished_) {
        abandon();
    }
}

void ZsWriter::abandon() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
}

std::vector<std::uint8_t> ZsWriter::headerBytes(std::uint64_t rootOffset, std::uint64_t rootLength,
                                                std::uint64_t total,
                                                const Sha256Digest& sha) const {
    std::vector<std::uint8_t> data;
    appendLe64(data, rootOffset);
    appendLe64(data, rootLength);
    appendLe64(data, total);
    data.insert(data.end(), sha.begin(), sha.end());
    std::string codec(codecHeaderName(options_.codec));
    codec.resize(kCodecFieldLength, '\0');
    data.insert(data.end(), codec.begin(), codec.end());
    appendLe64(data, metadata_.size());
    data.insert(data.end(), metadata_.begin(), metadata_.end());
    std::vector<std::uint8_t> out;
    appendLe64(out, data.size());
    out.insert(out.end(), data.begin(), data.end());
    appendLe64(out, crc64xz(data));
    return out;
}

void ZsWriter::writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                                   static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            throw ZsWriteError(errnoText("cannot write", path_));
        }
        done += static_cast<std::size_t>(n);
    }
}

std::vector<std::uint8_t> ZsWriter::compress(const std::vector<std::uint8_t>& payload) const {
    switch (options_.codec) {
        case Codec::None:
            return payload;
        case Codec::Deflate:
            return deflateCompress(payload, options_.deflateLevel);
        case Codec::Lzma2:
            return lzma2Compress(payload, options_.lzmaPreset);
    }
    return payload;
}

// The frame around the stored bytes is written in pieces, so the stored bytes are never copied.
std::uint64_t ZsWriter::writeBlock(std::uint8_t level, std::span<const std::uint8_t> stored) {
    std::vector<std::uint8_t> head;
    appendUleb128(head, stored.size() + 1);
    head.push_back(level);
    const std::uint64_t crc = crc64xz(stored, crc64xz({&head.back(), 1}));
    std::vector<std::uint8_t> tail;
    appendLe64(tail, crc);
    const std::uint64_t offset = end_;
    writeAt(offset, head);
    writeAt(offset + head.size(), stored);
    writeAt(offset + head.size() + stored.size(), tail);
    const std::uint64_t length = head.size() + stored.size() + tail.size();
    end_ += length;
    ++blocksWritten_;
    startWriteback();
    return length;
}

// Hands every full stretch written so far to the disk without waiting for it, so the fsync at
// the end finds little left to write (the disk works while the rest is being produced).
void ZsWriter::startWriteback() {
    constexpr std::uint64_t kStretch = 8u << 20;
    if (end_ - writebackStarted_ < kStretch) {
        return;
    }
    // Advice only: when the kernel refuses, the fsync at the end writes it all.
    ::sync_file_range(fd_, static_cast<off_t>(writebackStarted_),
                      static_cast<off_t>(end_ - writebackStarted_), SYNC_FILE_RANGE_WRITE);
    writebackStarted_ = end_;
}

void ZsWriter::addBlock(std::vector<std::string> records) {
    if (records.empty()) {
        return;
    }
    for (const std::string& r : records) {
        ++recordsAdded_;
        if (haveRecord_ && r < lastRecord_) {
            // With newline-terminated input the record number is the line number.
            throw ZsWriteError("records are not sorted: record " + std::to_string(recordsAdded_) +
                                   " \"" + printableBytes(asBytes(r)) + "\" comes after \"" +
                                   printableBytes(asBytes(lastRecord_)) + "\"",
                               ZsWriteError::Cause::Records);
        }
        lastRecord_ = r;
        haveRecord_ = true;
    }
    auto job = std::make_shared<std::vector<std::string>>(std::move(records));
    while (pool_->full()) {
        drainOne();
    }
    ++submitted_;
    pool_->submit([this, job] {
        Compressed out;
        for (const std::string& r : *job) {
            appendUleb128(out.payload, r.size());
            out.payload.insert(out.payload.end(), r.begin(), r.end());
        }
        out.stored = compress(out.payload);
        out.first = job->front();
        out.last = job->back();
        return out;
    });
}

void ZsWriter::addEncodedBlock(std::span<const std::uint8_t> stored,
                               std::span<const std::uint8_t> payload, std::string first,
                               std::string last) {
    if (haveRecord_ && first < lastRecord_) {
        throw ZsWriteError("records are not sorted: a block starting with \"" +
                               printableBytes(asBytes(first)) + "\" comes after \"" +
                               printableBytes(asBytes(lastRecord_)) + "\"",
                           ZsWriteError::Cause::Records);
    }
    while (written_ < submitted_) {
        drainOne();  // the blocks given before it go first
    }
    lastRecord_ = last;
    haveRecord_ = true;
    sha_.update(payload);
    const std::uint64_t offset = end_;
    const std::uint64_t length = writeBlock(0, stored);
    addEntry(0, std::move(first), std::move(last), offset, length);
}

void ZsWriter::drainOne() {
    auto block = pool_->next();
    if (!block) {
        throw ZsWriteError("compression was cancelled");
    }
    ++written_;
    writeData(std::move(*block));
}

void ZsWriter::writeData(Compressed block) {
    sha_.update(block.payload);
    const std::uint64_t offset = end_;
    const std::uint64_t length = writeBlock(0, block.stored);
    addEntry(0, std::move(block.first), std::move(block.last), offset, length);
}

void ZsWriter::addEntry(std::size_t level, std::string first, std::string last,
                        std::uint64_t offset, std::uint64_t length) {
    if (levels_.size() <= level) {
        levels_.resize(level + 1);
    }
    levels_[level].push_back({std::move(first), std::move(last), offset, length});
    if (levels_[level].size() >= options_.branchingFactor) {
        flushLevel(level);
    }
}

// Packs a level's pending entries into one index block one level up (keys are the children's
// first records, never shortened).
void ZsWriter::flushLevel(std::size_t level) {
    if (level + 1 > kMaxIndexLevel) {
        throw ZsWriteError("the index would need more than 63 levels");
    }
    std::vector<Pending> entries = std::move(levels_[level]);
    levels_[level].clear();
    std::vector<std::uint8_t> payload;
    for (const Pending& e : entries) {
        appendUleb128(payload, e.first.size());
        payload.insert(payload.end(), e.first.begin(), e.first.end());
        appendUleb128(payload, e.offset);
        appendUleb128(payload, e.length);
    }
    const std::uint64_t offset = end_;
    const std::uint64_t length =
        writeBlock(static_cast<std::uint8_t>(level + 1), compress(payload));
    rootOffset_ = offset;
    rootLength_ = length;
    addEntry(level + 1, entries.front().first, entries.back().last, offset, length);
}

void ZsWriter::finish() {
    while (written_ < submitted_) {
        drainOne();
    }
    if (!haveRecord_) {
        throw ZsWriteError("cannot create an empty ZS file: the input holds no records",
                           ZsWriteError::Cause::Records);
    }
    // Flush the lowest non-empty level until one index block is left on top.
    for (;;) {
        std::size_t lowest = 0;
        while (lowest < levels_.size() && levels_[lowest].empty()) {
            ++lowest;
        }
        std::size_t nonEmpty = 0;
        for (const auto& level : levels_) {
            nonEmpty += level.empty() ? 0 : 1;
        }
        if (lowest >= 1 && nonEmpty == 1 && levels_[lowest].size() == 1) {
            rootOffset_ = levels_[lowest].front().offset;
            rootLength_ = levels_[lowest].front().length;
            break;
        }
        flushLevel(lowest);
    }
    const auto header = headerBytes(rootOffset_, rootLength_, end_, sha_.finish());
    writeAt(8, header);
    if (::fsync(fd_) != 0) {
        throw ZsWriteError(errnoText("cannot sync", path_));
    }
    writeAt(0, std::vector<std::uint8_t>(kZsMagic.begin(), kZsMagic.end()));
    if (::fsync(fd_) != 0 || ::close(fd_) != 0) {
        fd_ = -1;
        throw ZsWriteError(errnoText("cannot sync", path_));
    }
    fd_ = -1;
    finished_ = true;
}

void addTerminatedRecords(ZsWriter& writer, std::istream& in, const std::string& terminator,
                          std::uint64_t approxBlockSize) {
    if (terminator.empty()) {
        throw ZsWriteError("the record terminator must not be empty");
    }
    std::string carry;
    std::vector<char> chunk(
        static_cast<std::size_t>(std::min<std::uint64_t>(approxBlockSize, 1u << 30)));
    for (;;) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) {
            break;
        }
        carry.append(chunk.data(), got);
        const auto last = carry.rfind(terminator);
        if (last == std::string::npos) {
            continue;  // no complete record yet: keep reading
        }
        // What precedes the last terminator, split left to right like Python's bytes.split
        // (a self-overlapping terminator such as "\n\n" matches without overlaps).
        const std::string_view head(carry.data(), last);
        std::vector<std::string> records;
        for (std::size_t pos = 0;;) {
            const auto next = head.find(terminator, pos);
            if (next == std::string_view::npos) {
                records.emplace_back(head.substr(pos));
                break;
            }
            records.emplace_back(head.substr(pos, next - pos));
            pos = next + terminator.size();
        }
        carry.erase(0, last + terminator.size());
        writer.addBlock(std::move(records));
    }
    if (!carry.empty()) {
        throw ZsWriteError("the input does not end with the record terminator",
                           ZsWriteError::Cause::Records);
    }
}

namespace {

// Reads exactly `length` bytes in pieces, so a hostile length cannot allocate ahead of data.
bool readExactly(std::istream& in, std::uint64_t length, std::string& out) {
    out.clear();
    char buffer[1 << 16];
    while (out.size() < length) {
        const auto want = std::min<std::uint64_t>(sizeof buffer, length - out.size());
        in.read(buffer, static_cast<std::streamsize>(want));
        const auto got = static_cast<std::size_t>(in.gcount());
        out.append(buffer, got);
        if (got < want) {
            return false;
        }
    }
    return true;
}

}  // namespace

void addLengthPrefixedRecords(ZsWriter& writer, std::istream& in, bool uleb128,
                              std::uint64_t approxBlockSize) {
    std::vector<std::string> records;
    std::uint64_t size = 0;
    for (;;) {
        std::uint64_t length = 0;
        if (uleb128) {
            std::vector<std::uint8_t> bytes;
            int c = 0;
            while ((c = in.get()) != EOF) {
                bytes.push_back(static_cast<std::uint8_t>(c));
                if ((c & 0x80) == 0 || bytes.size() > kMaxZsUlebBytes) {
                    break;
                }
            }
            if (bytes.empty()) {
                break;
            }
            const Uleb128Result value = decodeUleb128(bytes);
            if (!value.ok() || bytes.size() > kMaxZsUlebBytes) {
                throw ZsWriteError("bad uleb128 record length in the input",
                                   ZsWriteError::Cause::Records);
            }
            length = value.value;
        } else {
            std::string bytes;
            if (!readExactly(in, 8, bytes)) {
                if (bytes.empty()) {
                    break;
                }
                throw ZsWriteError("the input ends inside a u64le record length",
                                   ZsWriteError::Cause::Records);
            }
            for (int i = 7; i >= 0; --i) {
                length =
                    (length << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
            }
        }
        std::string record;
        if (!readExactly(in, length, record)) {
            throw ZsWriteError("the input ends inside a record", ZsWriteError::Cause::Records);
        }
        size += record.size();
        records.push_back(std::move(record));
        if (size >= approxBlockSize) {
            writer.addBlock(std::move(records));
            records.clear();
            size = 0;
        }
    }
    writer.addBlock(std::move(records));
}

}  // namespace strata::zs
