// Overwrite edits over a read-only ByteSource, for repair work in the hex view. The source is
// never modified; edits live in a sparse map until the document is saved.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <span>

#include "formats/common/byte_source.h"
#include "formats/common/validator.h"

namespace strata::model {

class ByteOverlay : public QObject {
    Q_OBJECT
public:
    using EditMap = std::map<std::uint64_t, std::uint8_t>;

    explicit ByteOverlay(ByteSourcePtr source, QObject* parent = nullptr);

    const ByteSource& source() const { return *source_; }
    const ByteSourcePtr& sourcePtr() const { return source_; }
    std::uint64_t size() const { return source_->size(); }
    // The source's name as a QString (a path, or "archive!member").
    QString name() const;

    // Copies bytes as edited; returns how many were copied (fewer at the end of the source).
    std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out) const;
    // As above, never throwing: empty when the source cannot be read (a remote read failed).
    QByteArray read(std::uint64_t offset, std::uint64_t length) const;
    // For painting: as above when the bytes can be read without waiting for a server; else
    // nothing, with *pending set, while they are fetched in the background (ask again later).
    QByteArray readIfReady(std::uint64_t offset, std::uint64_t length, bool* pending) const;
    // The edited byte at `offset` (the original when unedited); 0 past the end.
    std::uint8_t byteAt(std::uint64_t offset) const;
    bool isEdited(std::uint64_t offset) const { return edits_.count(offset) != 0; }
    bool hasEdits() const { return !edits_.empty(); }
    std::size_t editedByteCount() const { return edits_.size(); }
    // The edits themselves (offset -> new byte); background jobs copy this before they start.
    const EditMap& edits() const { return edits_; }

    // Overwrites bytes (clipped to the source size). Only undo commands call this, so every
    // change is undoable; an edit back to the original byte removes the entry.
    void write(std::uint64_t offset, const QByteArray& bytes);
    // Forgets every edit (after a save wrote them out, or a reload).
    void clear();

    // Writes the whole edited file to `path` through strata::AtomicFile (a temp file beside it,
    // fsync, rename, directory fsync), copying in chunks. Returns an error text or an empty string;
    // on failure the target is left as it was.
    QString saveTo(const QString& path) const;

    // The same for a snapshot of the edits, callable from a worker thread; `progress` gets the
    // fraction written, `cancel` stops it (the target is then left as it was).
    static QString writeEdited(const ByteSource& source, const EditMap& edits, const QString& path,
                               const strata::CancelToken* cancel = nullptr,
                               const std::function<void(double)>& progress = {});

signals:
    void changed(quint64 offset, quint64 length);

private:
    ByteSourcePtr source_;
    EditMap edits_;
};

// Applies the edits that fall in [offset, offset + buffer.size()) to a buffer holding the
// original bytes from `offset`. Used by readers that work on a snapshot of the edits.
void applyEdits(const ByteOverlay::EditMap& edits, std::uint64_t offset,
                std::span<std::uint8_t> buffer);

}  // namespace strata::model
