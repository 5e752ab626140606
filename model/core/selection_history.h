// Where the user went in a document, for Back and Forward as a browser steps through pages: the
// selections they made (a structure node, bytes in the hex view, a diagnostic, bookmark, search
// hit or record followed, Go to Offset), newest last, with a current entry that Back and Forward
// move. A location holds names and numbers, never pointers, so it outlives the tree it came
// from (a history kept over a save or reload) and is looked up again when gone back to
// (selection_location.h).
//
// What makes an entry:
// - A pick (SelectionMove::Jump: a tree node, Go to Offset, a diagnostic, bookmark, search hit,
//   record or file-map click) starts a new entry.
// - A move in the hex view (SelectionMove::Step: a click, a drag, the arrow or page keys) that
//   lands within kStepReach bytes of the current entry's bytes, in the same file, updates that
//   entry instead: a drag or a walk with the arrow keys is one entry that follows the cursor,
//   as a browser keeps one entry while a page scrolls. A move further away starts a new entry.
// - A selection of exactly the current entry's bytes updates that entry (its node) only.
// - A new entry drops the entries after the current one (those Forward would reach), and the
//   oldest entry goes once there are more than the limit.
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QVariant>

#include <optional>

namespace strata::model {

struct SelectionLocation {
    QString file;  // the name of the byte source shown (ByteSource::name())
    quint64 offset = 0;
    quint64 length = 0;  // 0: the cursor alone, no selection
    // The structure node selected, if any: its rows from the root down (none for the root
    // itself), its kind and label (to tell it is still the same node when looked up again) and
    // where its bytes started (the selection keeps its place in the node if the node moved).
    bool hasNode = false;
    QList<quint64> nodeRows;
    QString nodeKind;
    QString nodeLabel;
    quint64 nodeOffset = 0;

    bool operator==(const SelectionLocation&) const = default;
    bool sameBytes(const SelectionLocation& other) const {
        return file == other.file && offset == other.offset && length == other.length;
    }
};

// Jump: a deliberate pick (a new entry). Step: a move of the cursor (continues the current
// entry when near). Settle: where a view puts the selection by itself once it has loaded (a
// format's first item shown): the current entry follows it, so opening leaves nothing to go
// back to.
enum class SelectionMove { Jump, Step, Settle };

class SelectionHistory : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultLimit = 100;
    static constexpr quint64 kStepReach = 4096;

    explicit SelectionHistory(QObject* parent = nullptr, int limit = kDefaultLimit);

    void record(const SelectionLocation& location, SelectionMove move);
    bool canGoBack() const { return current_ > 0; }
    bool canGoForward() const { return current_ + 1 < entries_.size(); }
    // Moves to the entry before (after) the current one and returns it; nothing when there is
    // none.
    std::optional<SelectionLocation> goBack();
    std::optional<SelectionLocation> goForward();

    const QList<SelectionLocation>& entries() const { return entries_; }
    // The entry Back and Forward move from; -1 while the history is empty.
    qsizetype currentIndex() const { return current_; }
    void clear();

    // The entries and the current one as plain values, for a view opened again on the same
    // files (after a save or reload) to take the history over.
    QVariant toVariant() const;
    void restore(const QVariant& saved);

signals:
    // Entries were added, dropped or the current one moved: Back and Forward may have changed.
    void changed();

private:
    bool continuesCurrent(const SelectionLocation& location, SelectionMove move) const;
    void append(const SelectionLocation& location);

    QList<SelectionLocation> entries_;
    qsizetype current_ = -1;
    int limit_;
};

}  // namespace strata::model
