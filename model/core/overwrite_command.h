// The undo command for overwrite edits in the hex view.
#pragma once

#include <QByteArray>
#include <QUndoCommand>

#include <cstdint>

namespace strata::model {

class ByteOverlay;

class OverwriteBytesCommand : public QUndoCommand {
public:
    static constexpr int kId = 0x5354'0001;

    // `mergeable` lets consecutive typing (this command starting where the previous one ended,
    // in the same file) collapse into one undo step.
    OverwriteBytesCommand(ByteOverlay* overlay, std::uint64_t offset, QByteArray bytes,
                          bool mergeable = true, QUndoCommand* parent = nullptr);

    void undo() override;
    void redo() override;
    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override;

    ByteOverlay* overlay() const { return overlay_; }
    std::uint64_t offset() const { return offset_; }
    const QByteArray& newBytes() const { return newBytes_; }

private:
    void updateText();

    ByteOverlay* overlay_;
    std::uint64_t offset_;
    QByteArray oldBytes_;
    QByteArray newBytes_;
    bool mergeable_;
};

}  // namespace strata::model
