#include "overwrite_command.h"

#include <QCoreApplication>

#include <algorithm>

#include "byte_overlay.h"
#include "model/core/counted_text.h"

namespace strata::model {

OverwriteBytesCommand::OverwriteBytesCommand(ByteOverlay* overlay, std::uint64_t offset,
                                             QByteArray bytes, bool mergeable, QUndoCommand* parent)
    : QUndoCommand(parent),
      overlay_(overlay),
      offset_(offset),
      oldBytes_(overlay->read(offset, static_cast<std::uint64_t>(bytes.size()))),
      newBytes_(std::move(bytes)),
      mergeable_(mergeable) {
    // Edits past the end are clipped away, as ByteOverlay::write clips them.
    newBytes_.truncate(oldBytes_.size());
    updateText();
}

void OverwriteBytesCommand::undo() {
    overlay_->write(offset_, oldBytes_);
}

void OverwriteBytesCommand::redo() {
    overlay_->write(offset_, newBytes_);
}

bool OverwriteBytesCommand::mergeWith(const QUndoCommand* other) {
    // Merges a command that starts inside or right after this one's run (typing the second
    // nibble of a byte, or the next byte).
    const auto* next = dynamic_cast<const OverwriteBytesCommand*>(other);
    const auto size = static_cast<std::uint64_t>(newBytes_.size());
    if (next == nullptr || !mergeable_ || !next->mergeable_ || next->overlay_ != overlay_ ||
        next->offset_ < offset_ || next->offset_ > offset_ + size) {
        return false;
    }
    const auto at = static_cast<qsizetype>(next->offset_ - offset_);
    const qsizetype overlap = std::min(newBytes_.size() - at, next->newBytes_.size());
    newBytes_.replace(at, overlap, next->newBytes_);
    oldBytes_ += next->oldBytes_.mid(overlap);
    updateText();
    return true;
}

void OverwriteBytesCommand::updateText() {
    setText(QCoreApplication::translate("strata", "Overwrite %1 at 0x%2")
                .arg(counted(newBytes_.size(), QCoreApplication::translate("strata", "byte")))
                .arg(offset_, 0, 16));
}

}  // namespace strata::model
