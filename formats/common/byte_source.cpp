#include "byte_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "bounds.h"

namespace strata {

bool ByteSource::readyNow(std::uint64_t, std::uint64_t) const {
    return true;
}

std::size_t ByteSource::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
    const ByteView v = view(offset, out.size());
    std::copy(v.bytes.begin(), v.bytes.end(), out.begin());
    return v.size();
}

namespace {

// Mapped files this large keep their descriptor for read(): a page-table entry per 4 KiB
// faulted in for bytes read once (a whole-file scan) costs more than copying them with pread()
// into a buffer that stays in the cache, several times more in a virtual machine. Smaller
// files close it, so that thousands of them open at once need no descriptors.
constexpr std::uint64_t kKeepDescriptorFrom = 16U << 20U;
// Reads shorter than this copy from the mapping: a system call per field (an index entry's
// 2-byte length, one byte before a line) costs far more than the page fault it saves.
constexpr std::size_t kPreadFrom = 64U << 10U;

class MappedFileSource final : public ByteSource {
public:
    MappedFileSource(std::string name, const std::uint8_t* data, std::uint64_t size, int fd)
        : name_(std::move(name)), data_(data), size_(size), fd_(fd) {}
    ~MappedFileSource() override {
        if (data_ != nullptr) {
            ::munmap(const_cast<std::uint8_t*>(data_), static_cast<std::size_t>(size_));
        }
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }

    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return size_; }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, size_);
        if (n == 0) {
            return {};
        }
        return {{data_ + offset, static_cast<std::size_t>(n)}, nullptr};
    }

    std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
        const auto n = static_cast<std::size_t>(clippedLength(offset, out.size(), size_));
        if (n == 0) {
            return 0;
        }
        std::size_t done = 0;
        while (fd_ >= 0 && n >= kPreadFrom && done < n) {
            const ssize_t got =
                ::pread(fd_, out.data() + done, n - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                break;  // the mapping has the rest, or fails the way views do
            }
            done += static_cast<std::size_t>(got);
        }
        std::copy(data_ + offset + done, data_ + offset + n, out.begin() + done);
        return n;
    }

private:
    std::string name_;
    const std::uint8_t* data_;
    std::uint64_t size_;
    int fd_;  // -1 unless the file is large
};

class BufferSource final : public ByteSource {
public:
    BufferSource(std::vector<std::uint8_t> bytes, std::string name)
        : bytes_(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes))),
          name_(std::move(name)) {}

    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return bytes_->size(); }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, bytes_->size());
        if (n == 0) {
            return {};
        }
        return {{bytes_->data() + offset, static_cast<std::size_t>(n)}, bytes_};
    }

private:
    std::shared_ptr<const std::vector<std::uint8_t>> bytes_;
    std::string name_;
};

class OwnedArraySource final : public ByteSource {
public:
    OwnedArraySource(std::unique_ptr<std::uint8_t[]> bytes, std::size_t size, std::string name)
        : bytes_(std::move(bytes)), size_(size), name_(std::move(name)) {}

    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return size_; }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, size_);
        if (n == 0) {
            return {};
        }
        return {{bytes_.get() + offset, static_cast<std::size_t>(n)}, bytes_};
    }

private:
    std::shared_ptr<const std::uint8_t[]> bytes_;
    std::size_t size_;
    std::string name_;
};

std::string describeErrno(const std::filesystem::path& path, const char* what) {
    return path.string() + ": " + what + ": " + std::strerror(errno);
}

// O_NONBLOCK: a FIFO put where a file was would block the open until a writer came; the
// callers fstat and refuse anything but a regular file, whose reads the flag does not change.
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;

// Reads [offset, offset + out.size()) of an open file into `out`, retrying short reads; how
// many bytes it got (fewer at the end of the file or on an error).
std::size_t preadFully(int fd, std::uint64_t offset, std::span<std::uint8_t> out) {
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t got =
            ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        done += static_cast<std::size_t>(got);
    }
    return done;
}

// Reads [offset, offset + out.size()) of `path` into `out`; how many bytes it got (fewer at the
// end of the file or when the file cannot be opened any more, or is no longer a regular file).
std::size_t preadWhole(const std::string& path, std::uint64_t offset, std::span<std::uint8_t> out) {
    const int fd = ::open(path.c_str(), kOpenFlags);
    if (fd < 0) {
        return 0;
    }
    // No fstat: pread of a FIFO or a folder fails (ESPIPE, EISDIR), which reads as no bytes,
    // and a document folder pays for each system call a million times.
    const std::size_t done = preadFully(fd, offset, out);
    ::close(fd);
    return done;
}

class OnDemandFileSource final : public ByteSource {
public:
    OnDemandFileSource(std::string name, std::uint64_t size)
        : name_(std::move(name)), size_(size) {}

    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return size_; }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, size_);
        if (n == 0) {
            return {};
        }
        std::shared_ptr<std::uint8_t[]> bytes(new std::uint8_t[static_cast<std::size_t>(n)]);
        const std::size_t got =
            preadWhole(name_, offset, {bytes.get(), static_cast<std::size_t>(n)});
        return {{bytes.get(), got}, std::move(bytes)};
    }
    std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
        const auto n = static_cast<std::size_t>(clippedLength(offset, out.size(), size_));
        return n == 0 ? 0 : preadWhole(name_, offset, out.first(n));
    }

private:
    std::string name_;
    std::uint64_t size_;
};

}  // namespace

ByteSourcePtr openMappedFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), kOpenFlags);
    if (fd < 0) {
        throw SourceError(describeErrno(path, "cannot open"));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const std::string message = describeErrno(path, "cannot stat");
        ::close(fd);
        throw SourceError(message);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw SourceError(path.string() + ": not a regular file");
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const std::uint8_t* data = nullptr;
    if (size > 0) {
        void* mapped =
            ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
        if (mapped == MAP_FAILED) {
            const std::string message = describeErrno(path, "cannot map");
            ::close(fd);
            throw SourceError(message);
        }
        data = static_cast<const std::uint8_t*>(mapped);
    }
    if (size < kKeepDescriptorFrom) {
        ::close(fd);  // the mapping keeps the file referenced
        return std::make_shared<MappedFileSource>(path.string(), data, size, -1);
    }
    return std::make_shared<MappedFileSource>(path.string(), data, size, fd);
}

namespace {

// Opens `path` for reading and checks it is a regular file: the descriptor and its size.
// Opened, not only stat'ed: a file that cannot be read is refused here, as a mapped one is,
// so readers see "cannot be read" rather than empty bytes later.
std::pair<int, std::uint64_t> openRegularFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), kOpenFlags);
    if (fd < 0) {
        throw SourceError(describeErrno(path, "cannot open"));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const std::string message = describeErrno(path, "cannot stat");
        ::close(fd);
        throw SourceError(message);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw SourceError(path.string() + ": not a regular file");
    }
    return {fd, static_cast<std::uint64_t>(st.st_size)};
}

}  // namespace

ByteSourcePtr openFileOnDemand(const std::filesystem::path& path) {
    const auto [fd, size] = openRegularFile(path);
    ::close(fd);
    return std::make_shared<OnDemandFileSource>(path.string(), size);
}

FileReadOnce readFileOnce(const std::filesystem::path& path, std::uint64_t limit) {
    const auto [fd, size] = openRegularFile(path);
    FileReadOnce out{std::make_shared<OnDemandFileSource>(path.string(), size), {}};
    if (size == 0 || size > limit) {
        ::close(fd);
        return out;
    }
    const auto n = static_cast<std::size_t>(size);
    std::shared_ptr<std::uint8_t[]> bytes(new std::uint8_t[n]);
    const std::size_t done = preadFully(fd, 0, {bytes.get(), n});
    ::close(fd);
    out.bytes = {{bytes.get(), done}, std::move(bytes)};
    return out;
}

ByteSourcePtr mappedForScan(const ByteSource& source) {
    if (dynamic_cast<const OnDemandFileSource*>(&source) == nullptr) {
        return nullptr;
    }
    ByteSourcePtr mapped = openMappedFile(source.name());
    if (mapped->size() != source.size()) {
        // Offsets found in the mapping would not be those of the source's bytes.
        throw SourceError(source.name() + ": changed while being read (" +
                          std::to_string(source.size()) + " bytes when opened, " +
                          std::to_string(mapped->size()) + " now)");
    }
    return mapped;
}

ByteSourcePtr makeBufferSource(std::vector<std::uint8_t> bytes, std::string name) {
    return std::make_shared<BufferSource>(std::move(bytes), std::move(name));
}

ByteSourcePtr makeBufferSource(std::string_view bytes, std::string name) {
    return makeBufferSource(std::vector<std::uint8_t>(bytes.begin(), bytes.end()), std::move(name));
}

ByteSourcePtr makeBufferSource(std::unique_ptr<std::uint8_t[]> bytes, std::size_t size,
                               std::string name) {
    return std::make_shared<OwnedArraySource>(std::move(bytes), size, std::move(name));
}

bool sameBytes(const ByteSource& a, const ByteSource& b) {
    if (&a == &b) {
        return true;
    }
    if (a.size() != b.size()) {
        return false;
    }
    constexpr std::uint64_t kStep = 4 << 20;
    for (std::uint64_t at = 0; at < a.size(); at += kStep) {
        const ByteView x = a.view(at, kStep), y = b.view(at, kStep);
        if (x.size() != y.size() || std::memcmp(x.data(), y.data(), x.size()) != 0) {
            return false;
        }
    }
    return true;
}

}  // namespace strata
