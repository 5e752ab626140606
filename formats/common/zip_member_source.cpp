#include "zip_member_source.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <mutex>

#include "bounds.h"
#include "codec_deflate.h"
#include "le_reader.h"
#include "validator.h"
#include "zip_library.h"

namespace strata {

namespace {

constexpr std::uint32_t kEocdSignature = 0x06054b50;
constexpr std::uint32_t kEocd64Signature = 0x06064b50;
constexpr std::uint32_t kEocd64LocatorSignature = 0x07064b50;
constexpr std::uint32_t kCentralSignature = 0x02014b50;
constexpr std::uint32_t kLocalSignature = 0x04034b50;
constexpr std::uint64_t kEocdSize = 22;
constexpr std::uint64_t kMaxCommentSize = 0xFFFF;
constexpr std::size_t kInflateChunk = 64 * 1024;
constexpr std::uint64_t kStreamViewLimit = 64ull << 20;

struct CentralDirectory {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t entries = 0;
};

// The end-of-central-directory record, searched backwards over the last 64 KiB + 22 bytes.
std::optional<CentralDirectory> findCentralDirectory(const ByteSource& src) {
    const std::uint64_t size = src.size();
    if (size < kEocdSize) {
        return std::nullopt;
    }
    const std::uint64_t searchStart =
        size > kEocdSize + kMaxCommentSize ? size - kEocdSize - kMaxCommentSize : 0;
    const ByteView tail = src.view(searchStart, size - searchStart);
    for (std::uint64_t pos = tail.size() - kEocdSize + 1; pos-- > 0;) {
        if (readLe<std::uint32_t>(tail.bytes, pos) != kEocdSignature) {
            continue;
        }
        LeCursor c(tail.bytes, pos + 10);
        CentralDirectory cd;
        cd.entries = c.u16();
        cd.size = c.u32();
        cd.offset = c.u32();
        const std::uint64_t eocdAt = searchStart + pos;
        if ((cd.entries == 0xFFFF || cd.size == 0xFFFFFFFF || cd.offset == 0xFFFFFFFF) &&
            eocdAt >= 20 && readLe<std::uint32_t>(src, eocdAt - 20) == kEocd64LocatorSignature) {
            const auto at64 = readLe<std::uint64_t>(src, eocdAt - 20 + 8);
            if (at64 && readLe<std::uint32_t>(src, *at64) == kEocd64Signature) {
                cd.entries = readLe<std::uint64_t>(src, *at64 + 32).value_or(0);
                cd.size = readLe<std::uint64_t>(src, *at64 + 40).value_or(0);
                cd.offset = readLe<std::uint64_t>(src, *at64 + 48).value_or(0);
            }
        }
        return cd;
    }
    return std::nullopt;
}

// Zip64 extra field: replaces whichever of the 32-bit fields were saturated, in order.
void applyZip64Extra(std::span<const std::uint8_t> extra, ZipMember& m, bool usizeSat,
                     bool csizeSat, bool offsetSat) {
    LeCursor c(extra);
    while (c.remaining() >= 4) {
        const std::uint16_t id = c.u16();
        const std::uint16_t len = c.u16();
        const auto body = c.bytes(len);
        if (!c.ok()) {
            return;
        }
        if (id != 0x0001) {
            continue;
        }
        LeCursor b(body);
        if (usizeSat) {
            m.uncompressedSize = b.u64();
        }
        if (csizeSat && b.ok()) {
            m.compressedSize = b.u64();
        }
        if (offsetSat && b.ok()) {
            m.localHeaderOffset = b.u64();
        }
        return;
    }
}

std::optional<std::uint64_t> localDataOffset(const ByteSource& src, const ZipMember& m) {
    std::uint8_t header[30];
    if (src.read(m.localHeaderOffset, header) != sizeof header ||
        decodeLe<std::uint32_t>(header) != kLocalSignature) {
        return std::nullopt;
    }
    const std::uint64_t nameLen = decodeLe<std::uint16_t>(header + 26);
    const std::uint64_t extraLen = decodeLe<std::uint16_t>(header + 28);
    const auto at = checkedAdd(m.localHeaderOffset, 30 + nameLen + extraLen);
    if (!at || *at > src.size()) {
        return std::nullopt;
    }
    return at;
}

std::vector<ZipMember> readCentralDirectory(const ByteSource& src) {
    std::vector<ZipMember> members;
    const auto cd = findCentralDirectory(src);
    if (!cd || !rangeFits(cd->offset, cd->size, src.size())) {
        return members;
    }
    const ByteView dir = src.view(cd->offset, cd->size);
    LeCursor c(dir.bytes);
    // Each record is at least 46 bytes, so the loop is bounded by the directory size.
    for (std::uint64_t i = 0; i < cd->entries && c.remaining() >= 46; ++i) {
        const std::uint64_t start = c.position();
        if (c.u32() != kCentralSignature) {
            break;
        }
        ZipMember m;
        m.index = i;
        c.skip(6);
        m.method = c.u16();
        c.skip(4);
        m.crc = c.u32();
        const std::uint32_t csize = c.u32();
        const std::uint32_t usize = c.u32();
        const std::uint16_t nameLen = c.u16();
        const std::uint16_t extraLen = c.u16();
        const std::uint16_t commentLen = c.u16();
        c.skip(8);
        const std::uint32_t offset = c.u32();
        const auto name = c.bytes(nameLen);
        const auto extra = c.bytes(extraLen);
        c.skip(commentLen);
        if (!c.ok() || c.position() - start < 46) {
            break;
        }
        m.name.assign(name.begin(), name.end());
        m.compressedSize = csize;
        m.uncompressedSize = usize;
        m.localHeaderOffset = offset;
        applyZip64Extra(extra, m, usize == 0xFFFFFFFF, csize == 0xFFFFFFFF, offset == 0xFFFFFFFF);
        m.dataOffset = localDataOffset(src, m);
        members.push_back(std::move(m));
    }
    return members;
}

// A window [offset, offset + length) of another source (STORE'd members).
class SliceSource final : public ByteSource {
public:
    SliceSource(ByteSourcePtr parent, std::uint64_t offset, std::uint64_t length, std::string name)
        : parent_(std::move(parent)),
          offset_(offset),
          length_(clippedLength(offset, length, parent_->size())),
          name_(std::move(name)) {}
    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return length_; }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, length_);
        if (n == 0) {
            return {};
        }
        return parent_->view(offset_ + offset, n);
    }
    bool readyNow(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, length_);
        return n == 0 || parent_->readyNow(offset_ + offset, n);
    }
    bool isRemote() const override { return parent_->isRemote(); }

private:
    ByteSourcePtr parent_;
    std::uint64_t offset_;
    std::uint64_t length_;
    std::string name_;
};

// Sequential raw-DEFLATE decoder over an in-memory compressed span.
class Inflater {
public:
    explicit Inflater(std::span<const std::uint8_t> input) : input_(input) {
        ok_ = inflateInit2(&zs_, -15) == Z_OK;
        if (!ok_) {
            problem_ = "cannot initialise the inflater";
        }
    }
    ~Inflater() { inflateEnd(&zs_); }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;

    bool finished() const { return finished_; }
    bool failed() const { return !ok_; }
    const std::string& problem() const { return problem_; }
    std::uint64_t position() const { return produced_; }

    // Fills up to out.size() bytes; fewer only at the end of the stream or on an error.
    std::size_t read(std::span<std::uint8_t> out) {
        std::size_t done = 0;
        while (done < out.size() && ok_ && !finished_) {
            if (zs_.avail_in == 0 && fed_ < input_.size()) {
                const std::uint64_t n = std::min<std::uint64_t>(input_.size() - fed_, 1u << 30);
                zs_.next_in = const_cast<Bytef*>(input_.data() + fed_);
                zs_.avail_in = static_cast<uInt>(n);
                fed_ += n;
            }
            const std::size_t room = std::min<std::size_t>(out.size() - done, 1u << 30);
            zs_.next_out = out.data() + done;
            zs_.avail_out = static_cast<uInt>(room);
            const int ret = inflate(&zs_, Z_NO_FLUSH);
            const std::size_t got = room - zs_.avail_out;
            done += got;
            produced_ += got;
            if (ret == Z_STREAM_END) {
                finished_ = true;
            } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
                ok_ = false;
                problem_ = std::string("corrupt deflate data: ") +
                           (zs_.msg != nullptr ? zs_.msg : "inflate failed");
            } else if (got == 0 && zs_.avail_in == 0 && fed_ == input_.size()) {
                ok_ = false;
                problem_ = "deflate data ends before its final block";
            }
        }
        return done;
    }

private:
    std::span<const std::uint8_t> input_;
    std::uint64_t fed_ = 0;
    std::uint64_t produced_ = 0;
    z_stream zs_{};
    bool ok_ = true;
    bool finished_ = false;
    std::string problem_;
};

class DeflatedSource final : public ByteSource {
public:
    DeflatedSource(ByteSourcePtr archive, std::uint64_t offset, std::uint64_t compressed,
                   std::uint64_t size, std::string name)
        : archive_(std::move(archive)),
          input_(archive_->view(offset, compressed)),
          size_(size),
          name_(std::move(name)) {}

    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return size_; }

    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, size_);
        if (n == 0) {
            return {};
        }
        std::lock_guard lock(mutex_);
        return size_ <= kWholeInflateLimit ? wholeView(offset, n) : streamView(offset, n);
    }

private:
    ByteView wholeView(std::uint64_t offset, std::uint64_t n) const {
        if (!whole_) {
            // Bounded by the size the directory claims, which is at most kWholeInflateLimit.
            DecodeResult r = deflateDecompress(input_.bytes, size_);
            whole_ = std::make_shared<const std::vector<std::uint8_t>>(std::move(r.data));
        }
        const std::uint64_t got = clippedLength(offset, n, whole_->size());
        if (got == 0) {
            return {};
        }
        return {{whole_->data() + offset, static_cast<std::size_t>(got)}, whole_};
    }

    ByteView streamView(std::uint64_t offset, std::uint64_t n) const {
        n = std::min(n, kStreamViewLimit);
        if (!inflater_ || inflater_->position() > offset) {
            inflater_ = std::make_unique<Inflater>(input_.bytes);  // restart for a backwards seek
        }
        std::vector<std::uint8_t> scratch(kInflateChunk);
        while (inflater_->position() < offset && !inflater_->finished() && !inflater_->failed()) {
            const std::uint64_t skip =
                std::min<std::uint64_t>(offset - inflater_->position(), scratch.size());
            inflater_->read({scratch.data(), static_cast<std::size_t>(skip)});
        }
        if (inflater_->position() != offset) {
            return {};
        }
        auto out = std::make_shared<std::vector<std::uint8_t>>();
        while (out->size() < n && !inflater_->finished() && !inflater_->failed()) {
            const std::size_t before = out->size();
            const std::size_t want =
                static_cast<std::size_t>(std::min<std::uint64_t>(n - before, kInflateChunk));
            out->resize(before + want);
            out->resize(before + inflater_->read({out->data() + before, want}));
        }
        std::span<const std::uint8_t> bytes(out->data(), out->size());
        return {bytes, std::shared_ptr<const void>(std::move(out))};
    }

    ByteSourcePtr archive_;
    ByteView input_;
    std::uint64_t size_;
    std::string name_;
    mutable std::mutex mutex_;
    mutable std::shared_ptr<const std::vector<std::uint8_t>> whole_;
    mutable std::unique_ptr<Inflater> inflater_;
};

}  // namespace

namespace {

std::string zipErrorText(const ZipLibrary& libzip, int code) {
    zip_error_t error;
    libzip.errorInitWithCode(&error, code);
    std::string text = libzip.errorStrerror(&error);
    libzip.errorFini(&error);
    return text;
}

// A libzip source reading a ByteSource. libzip is C: an exception thrown by a view (a failed
// remote read) must not unwind through it, so it is kept here and rethrown once libzip returns.
struct LibzipReader {
    const ZipLibrary* libzip = nullptr;
    const ByteSource* source = nullptr;
    std::uint64_t position = 0;
    zip_error_t error{};
    std::exception_ptr thrown;

    static zip_int64_t callback(void* state, void* data, zip_uint64_t length,
                                zip_source_cmd_t command) {
        auto* self = static_cast<LibzipReader*>(state);
        return self->handle(data, length, command);
    }

    zip_int64_t handle(void* data, zip_uint64_t length, zip_source_cmd_t command) {
        const auto size = static_cast<zip_int64_t>(source->size());
        switch (command) {
            case ZIP_SOURCE_OPEN:
                position = 0;
                return 0;
            case ZIP_SOURCE_READ: {
                if (static_cast<std::uint64_t>(size) <= position) {
                    return 0;
                }
                const std::uint64_t n =
                    std::min<std::uint64_t>(length, static_cast<std::uint64_t>(size) - position);
                try {
                    const std::size_t got = source->read(
                        position, {static_cast<std::uint8_t*>(data), static_cast<std::size_t>(n)});
                    position += got;
                    return static_cast<zip_int64_t>(got);
                } catch (...) {
                    thrown = std::current_exception();
                    libzip->errorSet(&error, ZIP_ER_READ, 0);
                    return -1;
                }
            }
            case ZIP_SOURCE_CLOSE:
                return 0;
            case ZIP_SOURCE_SEEK: {
                const zip_int64_t to = libzip->sourceSeekComputeOffset(
                    position, static_cast<zip_uint64_t>(size), data, length, &error);
                if (to < 0) {
                    return -1;
                }
                position = static_cast<std::uint64_t>(to);
                return 0;
            }
            case ZIP_SOURCE_TELL:
                return static_cast<zip_int64_t>(position);
            case ZIP_SOURCE_STAT: {
                // What ZIP_SOURCE_GET_ARGS does, its zip_error_set called through the pointer.
                if (length < sizeof(zip_stat_t)) {
                    libzip->errorSet(&error, ZIP_ER_INVAL, 0);
                    return -1;
                }
                auto* st = static_cast<zip_stat_t*>(data);
                libzip->statInit(st);
                st->size = static_cast<zip_uint64_t>(size);
                st->comp_size = st->size;
                st->comp_method = ZIP_CM_STORE;
                st->encryption_method = ZIP_EM_NONE;
                st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
                            ZIP_STAT_ENCRYPTION_METHOD;
                return sizeof(zip_stat_t);
            }
            case ZIP_SOURCE_ERROR:
                return libzip->errorToData(&error, data, length);
            case ZIP_SOURCE_FREE:
                return 0;
            case ZIP_SOURCE_ACCEPT_EMPTY:
                return 0;  // as libzip's file source: an empty file is not an archive
            case ZIP_SOURCE_SUPPORTS:
                return libzip->sourceMakeCommandBitmap(
                    ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                    ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL,
                    ZIP_SOURCE_SUPPORTS, ZIP_SOURCE_ACCEPT_EMPTY, -1);
            default:
                libzip->errorSet(&error, ZIP_ER_OPNOTSUPP, 0);
                return -1;
        }
    }
};

}  // namespace

std::shared_ptr<ZipArchive> ZipArchive::open(const std::filesystem::path& path,
                                             bool checkConsistency) {
    int flags = ZIP_RDONLY;
    if (checkConsistency) {
        flags |= ZIP_CHECKCONS;
    }
    const ZipLibrary& libzip = zipLibrary();
    int errorCode = 0;
    zip_t* za = libzip.open(path.c_str(), flags, &errorCode);
    if (za == nullptr) {
        throw ZipError(path.string() +
                       ": not a readable ZIP archive: " + zipErrorText(libzip, errorCode));
    }
    const zip_int64_t libzipCount = libzip.getNumEntries(za, 0);
    libzip.discard(za);
    return make(path, openMappedFile(path), libzipCount);
}

std::shared_ptr<ZipArchive> ZipArchive::open(const ByteSourcePtr& source, bool checkConsistency) {
    int flags = ZIP_RDONLY;
    if (checkConsistency) {
        flags |= ZIP_CHECKCONS;
    }
    const ZipLibrary& libzip = zipLibrary();
    LibzipReader reader;
    reader.libzip = &libzip;
    reader.source = source.get();
    libzip.errorInit(&reader.error);
    zip_error_t error;
    libzip.errorInit(&error);
    zip_source_t* zs = libzip.sourceFunctionCreate(&LibzipReader::callback, &reader, &error);
    if (zs == nullptr) {
        const std::string text = libzip.errorStrerror(&error);
        libzip.errorFini(&error);
        libzip.errorFini(&reader.error);
        throw ZipError(source->name() + ": not a readable ZIP archive: " + text);
    }
    zip_t* za = libzip.openFromSource(zs, flags, &error);
    if (za == nullptr) {
        libzip.sourceFree(zs);
        const int code = libzip.errorCodeZip(&error);
        libzip.errorFini(&error);
        libzip.errorFini(&reader.error);
        if (reader.thrown) {
            std::rethrow_exception(reader.thrown);
        }
        throw ZipError(source->name() +
                       ": not a readable ZIP archive: " + zipErrorText(libzip, code));
    }
    libzip.errorFini(&error);
    const zip_int64_t libzipCount = libzip.getNumEntries(za, 0);
    libzip.discard(za);
    libzip.errorFini(&reader.error);
    if (reader.thrown) {
        std::rethrow_exception(reader.thrown);
    }
    return make(source->name(), source, libzipCount);
}

std::shared_ptr<ZipArchive> ZipArchive::make(std::filesystem::path path, ByteSourcePtr source,
                                             std::int64_t libzipCount) {
    auto archive = std::shared_ptr<ZipArchive>(new ZipArchive());
    archive->path_ = std::move(path);
    archive->archive_ = std::move(source);
    archive->members_ = readCentralDirectory(*archive->archive_);
    if (libzipCount >= 0 && static_cast<std::uint64_t>(libzipCount) != archive->members_.size()) {
        throw ZipError(archive->path_.string() + ": the central directory lists " +
                       std::to_string(libzipCount) + " members but only " +
                       std::to_string(archive->members_.size()) + " records could be read");
    }
    return archive;
}

const ZipMember* ZipArchive::find(std::string_view name) const {
    for (auto it = members_.rbegin(); it != members_.rend(); ++it) {
        if (it->name == name) {
            return &*it;
        }
    }
    return nullptr;
}

ByteSourcePtr ZipArchive::openMember(const ZipMember& member) const {
    if (!member.dataOffset) {
        return nullptr;
    }
    std::string name = path_.string() + "!" + member.name;
    if (member.method == kZipMethodStore) {
        return std::make_shared<SliceSource>(archive_, *member.dataOffset, member.compressedSize,
                                             std::move(name));
    }
    if (member.method == kZipMethodDeflate) {
        return std::make_shared<DeflatedSource>(archive_, *member.dataOffset, member.compressedSize,
                                                member.uncompressedSize, std::move(name));
    }
    return nullptr;
}

ZipCrcCheck ZipArchive::checkCrc(const ZipMember& member, const CancelToken* cancel) const {
    ZipCrcCheck check;
    const auto stop = [&] {
        check.cancelled = cancel != nullptr && cancel->cancelled();
        return check.cancelled;
    };
    if (!member.dataOffset) {
        check.problem = "the member's local header is missing or damaged";
        return check;
    }
    const ByteView data = archive_->view(*member.dataOffset, member.compressedSize);
    if (data.size() < member.compressedSize) {
        check.problem = "the member's data runs past the end of the archive";
        return check;
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    if (member.method == kZipMethodStore) {
        for (std::uint64_t at = 0; at < data.size() && !stop(); at += kInflateChunk) {
            const auto n = std::min<std::uint64_t>(kInflateChunk, data.size() - at);
            crc = crc32(crc, data.data() + at, static_cast<uInt>(n));
        }
        check.produced = data.size();
    } else if (member.method == kZipMethodDeflate) {
        Inflater inflater(data.bytes);
        std::vector<std::uint8_t> buffer(kInflateChunk);
        while (!inflater.finished() && !inflater.failed() &&
               check.produced <= member.uncompressedSize && !stop()) {
            const std::size_t got = inflater.read(buffer);
            crc = crc32(crc, buffer.data(), static_cast<uInt>(got));
            check.produced += got;
        }
        if (inflater.failed()) {
            check.problem = inflater.problem();
        }
    } else {
        check.problem = "compression method " + std::to_string(member.method) +
                        " is not supported (only STORE and DEFLATE)";
        return check;
    }
    if (check.cancelled) {
        return check;
    }
    check.actualCrc = static_cast<std::uint32_t>(crc);
    check.ok = check.problem.empty() && check.actualCrc == member.crc &&
               check.produced == member.uncompressedSize;
    return check;
}

}  // namespace strata
