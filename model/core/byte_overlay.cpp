#include "byte_overlay.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "formats/common/bounds.h"

namespace strata::model {

namespace {

constexpr std::uint64_t kCopyChunk = 4ull << 20;

QString errnoText(const QString& what, const QString& path) {
    return QStringLiteral("%1 %2: %3")
        .arg(what, path, QString::fromLocal8Bit(std::strerror(errno)));
}

bool writeAll(int fd, const std::uint8_t* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// A temp file beside the target, removed unless commit() renamed it into place. Written with
// POSIX calls: formats/common has no AtomicFile yet.
class TempFile {
public:
    explicit TempFile(const QString& target) : target_(target) {
        QByteArray pattern = QFile::encodeName(target + QStringLiteral(".strata-XXXXXX"));
        fd_ = ::mkstemp(pattern.data());
        if (fd_ >= 0) {
            path_ = pattern;
        }
    }
    ~TempFile() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
        if (!committed_ && !path_.isEmpty()) {
            ::unlink(path_.constData());
        }
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    int fd() const { return fd_; }

    QString commit(mode_t mode) {
        ::fchmod(fd_, mode);
        if (::fsync(fd_) != 0) {
            return errnoText(QStringLiteral("cannot sync"), QString::fromLocal8Bit(path_));
        }
        if (::close(fd_) != 0) {
            fd_ = -1;
            return errnoText(QStringLiteral("cannot close"), QString::fromLocal8Bit(path_));
        }
        fd_ = -1;
        const QByteArray target = QFile::encodeName(target_);
        if (::rename(path_.constData(), target.constData()) != 0) {
            return errnoText(QStringLiteral("cannot replace"), target_);
        }
        committed_ = true;
        syncDirectory();
        return {};
    }

private:
    void syncDirectory() const {
        const QByteArray dir = QFile::encodeName(QFileInfo(target_).absolutePath());
        const int dfd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            ::fsync(dfd);
            ::close(dfd);
        }
    }

    QString target_;
    QByteArray path_;
    int fd_ = -1;
    bool committed_ = false;
};

}  // namespace

void applyEdits(const ByteOverlay::EditMap& edits, std::uint64_t offset,
                std::span<std::uint8_t> buffer) {
    const std::uint64_t end = saturatingEnd(offset, buffer.size());
    for (auto it = edits.lower_bound(offset); it != edits.end() && it->first < end; ++it) {
        buffer[static_cast<std::size_t>(it->first - offset)] = it->second;
    }
}

ByteOverlay::ByteOverlay(ByteSourcePtr source, QObject* parent)
    : QObject(parent), source_(std::move(source)) {}

QString ByteOverlay::name() const {
    return QString::fromStdString(source_->name());
}

std::size_t ByteOverlay::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
    const std::size_t n = source_->read(offset, out);
    applyEdits(edits_, offset, out.first(n));
    return n;
}

QByteArray ByteOverlay::read(std::uint64_t offset, std::uint64_t length) const {
    const std::uint64_t n = clippedLength(offset, length, size());
    QByteArray out(static_cast<qsizetype>(n), Qt::Uninitialized);
    const std::size_t got =
        read(offset, {reinterpret_cast<std::uint8_t*>(out.data()), static_cast<std::size_t>(n)});
    out.truncate(static_cast<qsizetype>(got));
    return out;
}

std::uint8_t ByteOverlay::byteAt(std::uint64_t offset) const {
    std::uint8_t b = 0;
    read(offset, {&b, 1});
    return b;
}

void ByteOverlay::write(std::uint64_t offset, const QByteArray& bytes) {
    const std::uint64_t n = clippedLength(offset, static_cast<std::uint64_t>(bytes.size()), size());
    if (n == 0) {
        return;
    }
    const ByteView original = source_->view(offset, n);
    for (std::uint64_t i = 0; i < n && i < original.size(); ++i) {
        const auto b = static_cast<std::uint8_t>(bytes[static_cast<qsizetype>(i)]);
        if (b == original.bytes[i]) {
            edits_.erase(offset + i);
        } else {
            edits_[offset + i] = b;
        }
    }
    emit changed(offset, n);
}

void ByteOverlay::clear() {
    if (edits_.empty()) {
        return;
    }
    const std::uint64_t first = edits_.begin()->first;
    const std::uint64_t last = edits_.rbegin()->first;
    edits_.clear();
    emit changed(first, last - first + 1);
}

QString ByteOverlay::saveTo(const QString& path) const {
    if (path.isEmpty()) {
        return QStringLiteral("no file name given");
    }
    TempFile temp(path);
    if (temp.fd() < 0) {
        return errnoText(QStringLiteral("cannot create a temporary file beside"), path);
    }
    std::vector<std::uint8_t> buffer;
    const std::uint64_t total = size();
    for (std::uint64_t offset = 0; offset < total; offset += kCopyChunk) {
        const std::uint64_t n = clippedLength(offset, kCopyChunk, total);
        buffer.resize(static_cast<std::size_t>(n));
        const std::size_t got = read(offset, buffer);
        if (got != n) {
            return QStringLiteral("%1 became shorter while saving").arg(name());
        }
        if (!writeAll(temp.fd(), buffer.data(), buffer.size())) {
            return errnoText(QStringLiteral("cannot write"), path);
        }
    }
    // Keep the permissions of the file being replaced; new files get the usual 0644 - umask.
    mode_t mode = 0666;
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode &= ~mask;
    }
    return temp.commit(mode);
}

}  // namespace strata::model
