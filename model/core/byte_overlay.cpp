#include "byte_overlay.h"

#include <QFile>

#include <exception>
#include <filesystem>
#include <vector>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"

namespace strata::model {

namespace {

constexpr std::uint64_t kCopyChunk = 4ull << 20;

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
    try {
        const std::size_t got = read(
            offset, {reinterpret_cast<std::uint8_t*>(out.data()), static_cast<std::size_t>(n)});
        out.truncate(static_cast<qsizetype>(got));
    } catch (const std::exception&) {
        // A remote read that failed (server gone, file changed): views show nothing there
        // rather than bytes of unknown origin; jobs use the throwing read above.
        out.clear();
    }
    return out;
}

QByteArray ByteOverlay::readIfReady(std::uint64_t offset, std::uint64_t length,
                                    bool* pending) const {
    *pending = !source_->readyNow(offset, length);
    return *pending ? QByteArray() : read(offset, length);
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
    return writeEdited(*source_, edits_, path);
}

QString ByteOverlay::writeEdited(const ByteSource& source, const EditMap& edits,
                                 const QString& path, const strata::CancelToken* cancel,
                                 const std::function<void(double)>& progress) {
    if (path.isEmpty()) {
        return tr("no file name given");
    }
    try {
        // Temp file beside the target, fsync, rename, directory fsync; removed on failure.
        strata::AtomicFile out(std::filesystem::path(QFile::encodeName(path).toStdString()));
        std::vector<std::uint8_t> buffer;
        const std::uint64_t total = source.size();
        for (std::uint64_t offset = 0; offset < total; offset += kCopyChunk) {
            if (cancel != nullptr && cancel->cancelled()) {
                return tr("saving was cancelled");
            }
            const std::uint64_t n = clippedLength(offset, kCopyChunk, total);
            buffer.resize(static_cast<std::size_t>(n));
            if (source.read(offset, buffer) != n) {
                return tr("%1 became shorter while saving")
                    .arg(QString::fromStdString(source.name()));
            }
            applyEdits(edits, offset, buffer);
            out.write(buffer);
            if (progress) {
                progress(double(offset + n) / double(total));
            }
        }
        out.commit();
    } catch (const std::exception& e) {
        return QString::fromLocal8Bit(e.what());
    }
    return {};
}

}  // namespace strata::model
