#include "zds_zip_salvage.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <string_view>

#include "formats/common/le_reader.h"
#include "zds_jobs.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kLocalSignature = 0x04034b50;
constexpr std::uint32_t kDescriptorSignature = 0x08074b50;
constexpr std::uint32_t kCentralSignature = 0x02014b50;
constexpr std::uint32_t kEndSignature = 0x06054b50;
constexpr std::uint32_t kEnd64Signature = 0x06064b50;
constexpr std::uint64_t kLocalHeaderSize = 30;
constexpr std::uint16_t kFlagDescriptor = 0x0008;
constexpr std::size_t kChunk = 1 << 16;
constexpr std::uint64_t kSearchWindow = 1 << 20;

struct LocalHeader {
    std::uint64_t offset = 0;
    std::uint16_t flags = 0;
    std::uint16_t method = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressedSize = 0;
    std::uint64_t size = 0;
    std::string name;
    std::uint64_t dataOffset = 0;

    bool sizesKnown() const { return (flags & kFlagDescriptor) == 0 || compressedSize != 0; }
};

// The next local header signature at or after `from`, or the end of the archive.
std::uint64_t findSignature(const ByteSource& archive, std::uint64_t from) {
    static constexpr std::uint8_t sig[4] = {'P', 'K', 3, 4};
    for (std::uint64_t at = from; at < archive.size(); at += kSearchWindow) {
        const ByteView v = archive.view(at, kSearchWindow + 3);
        const auto found = std::search(v.bytes.begin(), v.bytes.end(), sig, sig + 4);
        if (found != v.bytes.end()) {
            return at + static_cast<std::uint64_t>(found - v.bytes.begin());
        }
    }
    return archive.size();
}

std::optional<LocalHeader> readHeader(const ByteSource& archive, std::uint64_t at) {
    const ByteView v = archive.view(at, kLocalHeaderSize);
    if (v.size() < kLocalHeaderSize || decodeLe<std::uint32_t>(v.data()) != kLocalSignature) {
        return std::nullopt;
    }
    LocalHeader h;
    h.offset = at;
    h.flags = decodeLe<std::uint16_t>(v.data() + 6);
    h.method = decodeLe<std::uint16_t>(v.data() + 8);
    h.crc = decodeLe<std::uint32_t>(v.data() + 14);
    h.compressedSize = decodeLe<std::uint32_t>(v.data() + 18);
    h.size = decodeLe<std::uint32_t>(v.data() + 22);
    const std::uint16_t nameLength = decodeLe<std::uint16_t>(v.data() + 26);
    const std::uint16_t extraLength = decodeLe<std::uint16_t>(v.data() + 28);
    const ByteView name = archive.view(at + kLocalHeaderSize, nameLength);
    if (nameLength == 0 || name.size() != nameLength) {
        return std::nullopt;
    }
    h.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
    h.dataOffset = at + kLocalHeaderSize + nameLength + extraLength;
    if (h.dataOffset > archive.size()) {
        return std::nullopt;
    }
    return h;
}

// What became of one member's data.
struct Extracted {
    std::uint64_t written = 0;
    std::uint64_t dataEnd = 0;  // where its data ends in the archive (0 when unknown)
    std::uint32_t crc = 0;
    std::string problem;  // cut short or corrupt; empty when whole
    bool cut = false;  // the problem is the end of the archive: the bytes before it are as stored
};

Extracted copyStored(const ByteSource& archive, const LocalHeader& h, std::ofstream& out) {
    Extracted e;
    const std::uint64_t available = archive.size() - h.dataOffset;
    const std::uint64_t n = std::min(h.compressedSize, available);
    for (std::uint64_t at = 0; at < n; at += kChunk) {
        const ByteView v = archive.view(h.dataOffset + at, std::min<std::uint64_t>(kChunk, n - at));
        out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size()));
        e.crc = static_cast<std::uint32_t>(crc32(e.crc, v.data(), static_cast<uInt>(v.size())));
    }
    e.written = n;
    e.dataEnd = h.dataOffset + n;
    if (n < h.compressedSize) {
        e.cut = true;
        e.problem = "the archive ends " + std::to_string(n) + " bytes into its " +
                    std::to_string(h.compressedSize) + " bytes of data";
    }
    return e;
}

Extracted inflateMember(const ByteSource& archive, const LocalHeader& h, std::ofstream& out) {
    Extracted e;
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
        e.problem = "zlib cannot start inflating";
        return e;
    }
    const std::uint64_t inputEnd =
        h.sizesKnown() ? std::min(archive.size(), h.dataOffset + h.compressedSize) : archive.size();
    // One byte beyond the declared size, so the end of the stream can be seen with room left.
    const std::uint64_t limit =
        h.sizesKnown() && h.size > 0 ? h.size + 1 : (inputEnd - h.dataOffset) * kZdsMaxExpansion;
    std::vector<std::uint8_t> buffer(kChunk);
    std::uint64_t at = h.dataOffset;
    int rc = Z_OK;
    while (rc == Z_OK && at < inputEnd && e.written < limit) {
        const ByteView in = archive.view(at, std::min<std::uint64_t>(kChunk, inputEnd - at));
        z.next_in = const_cast<Bytef*>(in.data());
        z.avail_in = static_cast<uInt>(in.size());
        while (z.avail_in > 0 && rc == Z_OK && e.written < limit) {
            z.next_out = buffer.data();
            z.avail_out = static_cast<uInt>(std::min<std::uint64_t>(kChunk, limit - e.written));
            rc = inflate(&z, Z_NO_FLUSH);
            const std::size_t produced = std::size_t(z.next_out - buffer.data());
            out.write(reinterpret_cast<const char*>(buffer.data()),
                      static_cast<std::streamsize>(produced));
            e.crc = static_cast<std::uint32_t>(crc32(e.crc, buffer.data(), uInt(produced)));
            e.written += produced;
            if (rc == Z_BUF_ERROR) {
                rc = Z_OK;  // no progress possible in this round: more input is needed
                break;
            }
        }
        at += in.size() - z.avail_in;
    }
    inflateEnd(&z);
    if (rc == Z_STREAM_END) {
        e.dataEnd = at;
    } else if (rc != Z_OK) {
        e.problem = "its DEFLATE data is corrupt after " + std::to_string(e.written) + " bytes";
    } else if (e.written >= limit) {
        e.problem = "it inflates beyond " + std::to_string(limit) + " bytes";
    } else if (at >= archive.size()) {
        e.cut = true;
        e.problem = "the archive ends inside its DEFLATE data";
    } else {
        e.problem = "its DEFLATE data does not end where its header says";
    }
    return e;
}

// The CRC a member's data should have: the header's, or its data descriptor's.
std::uint32_t expectedCrc(const ByteSource& archive, const LocalHeader& h, std::uint64_t dataEnd) {
    if ((h.flags & kFlagDescriptor) == 0 || dataEnd == 0) {
        return h.crc;
    }
    const auto first = readLe<std::uint32_t>(archive, dataEnd);
    if (first == kDescriptorSignature) {
        return readLe<std::uint32_t>(archive, dataEnd + 4).value_or(h.crc);
    }
    return first.value_or(h.crc);
}

class Scanner {
public:
    Scanner(const ByteSource& archive, const fs::path& dest, const CancelToken* cancel)
        : archive_(archive), dest_(dest), cancel_(cancel) {}

    // Every byte up to the central directory is accounted for: a member's record, or a loss
    // (bytes no readable local header starts, where a member with a damaged header may lie).
    ZipSalvage run() {
        std::uint64_t at = findSignature(archive_, 0);
        std::optional<std::uint64_t> expected = 0;  // where the next record should start
        while (at < archive_.size()) {
            if (cancel_ != nullptr && cancel_->cancelled()) {
                throw JobCancelled();
            }
            if (expected) {
                unaccounted(*expected, at);
            }
            const auto header = readHeader(archive_, at);
            if (!header) {
                if (cutHeader(at)) {
                    return std::move(result_);
                }
                const std::uint64_t next = findSignature(archive_, at + 4);
                result_.losses.push_back({"the local file header at byte " + std::to_string(at) +
                                              " cannot be read: the bytes up to the next one "
                                              "are lost, with any member they held",
                                          bytes(at, next - at)});
                expected = next;
                at = next;
                continue;
            }
            const std::uint64_t end = recordEnd(*header, member(*header));
            expected = end != 0 ? std::optional(end) : std::nullopt;
            at = findSignature(archive_, std::max(end, at + 4));
        }
        if (expected) {
            centralDirectoryFollows(*expected);
        }
        return std::move(result_);
    }

private:
    Region bytes(std::uint64_t offset, std::uint64_t length) const {
        return {&archive_, offset, std::min(length, archive_.size() - offset)};
    }
    void loss(const LocalHeader& h, const std::string& text, std::uint64_t length) {
        result_.losses.push_back({"archive member '" + h.name + "' (local header at byte " +
                                      std::to_string(h.offset) + "): " + text,
                                  bytes(h.offset, length)});
    }

    // Bytes between the end of one record and the next local header.
    void unaccounted(std::uint64_t from, std::uint64_t to) {
        if (to > from) {
            result_.losses.push_back({"bytes " + std::to_string(from) + " to " +
                                          std::to_string(to) +
                                          " hold no readable local file header: a member whose "
                                          "header is damaged may be lost there",
                                      bytes(from, to - from)});
        }
    }

    // After the last member the central directory (or, when it is gone, its end record) starts.
    void centralDirectoryFollows(std::uint64_t from) {
        if (from >= archive_.size()) {
            return;
        }
        const auto signature = readLe<std::uint32_t>(archive_, from);
        if (signature != kCentralSignature && signature != kEndSignature &&
            signature != kEnd64Signature) {
            result_.losses.push_back({"bytes " + std::to_string(from) +
                                          " to the end of the archive hold neither a readable "
                                          "member nor the central directory: a member whose "
                                          "header is damaged may be lost there",
                                      bytes(from, archive_.size() - from)});
        }
    }

    // Where a member's record ends: its data, then the data descriptor its header announces
    // (0 when the end of its data is unknown).
    std::uint64_t recordEnd(const LocalHeader& h, std::uint64_t dataEnd) const {
        if (dataEnd == 0 || (h.flags & kFlagDescriptor) == 0) {
            return dataEnd;
        }
        return dataEnd +
               (readLe<std::uint32_t>(archive_, dataEnd) == kDescriptorSignature ? 16 : 12);
    }

    // A local header the end of the archive cuts off: that member and any after it are lost.
    bool cutHeader(std::uint64_t at) {
        const auto nameLength = readLe<std::uint16_t>(archive_, at + 26);
        const auto extraLength = readLe<std::uint16_t>(archive_, at + 28);
        if (nameLength && extraLength &&
            at + kLocalHeaderSize + *nameLength + *extraLength <= archive_.size()) {
            return false;  // whole, just not a header (bytes inside some data)
        }
        result_.losses.push_back({"the archive ends inside a local file header at byte " +
                                      std::to_string(at) +
                                      ": that member and any that followed it are lost",
                                  bytes(at, archive_.size() - at)});
        return true;
    }

    // Extracts one member; returns where its data ends (0 when unknown).
    std::uint64_t member(const LocalHeader& h) {
        const std::uint64_t span =
            h.dataOffset - h.offset + (h.sizesKnown() ? h.compressedSize : 0);
        if (!zdsSafeMemberName(h.name)) {
            loss(h, "its name would leave the dataset; skipped", span);
            return h.sizesKnown() ? h.dataOffset + h.compressedSize : 0;
        }
        if (h.name.back() == '/') {
            std::error_code ec;
            fs::create_directories(dest_ / h.name, ec);
            return h.dataOffset;
        }
        if (h.method != 0 && h.method != 8) {
            loss(h, "compression method " + std::to_string(h.method) + " is not STORE or DEFLATE",
                 span);
            return h.sizesKnown() ? h.dataOffset + h.compressedSize : 0;
        }
        if (h.method == 0 && !h.sizesKnown()) {
            loss(h, "STORE'd with its size only in a data descriptor: its end cannot be found",
                 h.dataOffset - h.offset);
            return 0;
        }
        const fs::path file = dest_ / h.name;
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        if (seen_.contains(h.name)) {
            result_.actions.push_back({"archive member '" + h.name + "' appears again at byte " +
                                           std::to_string(h.offset) + "; the later copy is used",
                                       bytes(h.offset, span)});
        }
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        const Extracted e =
            h.method == 0 ? copyStored(archive_, h, out) : inflateMember(archive_, h, out);
        out.close();
        if (!out) {
            throw RepairError("cannot write " + file.string());
        }
        seen_.insert(h.name);
        ++result_.members;
        const std::uint64_t end = e.dataEnd != 0 ? e.dataEnd : archive_.size();
        result_.untrusted.files.erase(h.name);  // a later copy replaces an earlier one
        if (e.cut) {
            // The bytes before the cut are as stored, but the CRC-32 covers the whole member:
            // nothing vouches for them, so they are treated as a member failing its CRC-32.
            loss(h, e.problem + "; the rest is lost, and so are any members that followed it",
                 end - h.offset);
            result_.untrusted.files[h.name] = "cut short after " + std::to_string(e.written) +
                                              " bytes, so no CRC-32 can vouch for them";
        } else if (!e.problem.empty()) {
            result_.untrusted.files[h.name] = "cannot be read whole (" + e.problem + ")";
        } else if (const std::uint32_t want = expectedCrc(archive_, h, e.dataEnd); want != e.crc) {
            result_.untrusted.files[h.name] = zdsCrcMismatch(e.crc, want);
        }
        return e.dataEnd;
    }

    const ByteSource& archive_;
    fs::path dest_;
    const CancelToken* cancel_;
    ZipSalvage result_;
    std::set<std::string> seen_;
};

}  // namespace

ZipSalvage salvageZipMembers(const ByteSource& archive, const fs::path& dest,
                             const CancelToken* cancel) {
    return Scanner(archive, dest, cancel).run();
}

}  // namespace strata::zds
