// DocumentView's state: what a view opened again on the same files restores (after a save or a
// reload), the selection history among it, and the centre tab remembered per kind of document.
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>

#include <filesystem>

#include "document_view.h"
#include "model/core/document.h"
#include "model/core/structure_model.h"

namespace strata::gui {
namespace {

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

// A tree row as the rows from the top down, so a view of the same files can find it again.
QVariantList rowPath(const QModelIndex& index) {
    QVariantList rows;
    for (QModelIndex i = index; i.isValid(); i = i.parent()) {
        rows.prepend(i.row());
    }
    return rows;
}

QModelIndex indexAtPath(QAbstractItemModel* model, const QVariantList& rows) {
    QModelIndex index;
    for (const QVariant& value : rows) {
        const int row = value.toInt();
        while (model->rowCount(index) <= row && model->canFetchMore(index)) {
            model->fetchMore(index);
        }
        const QModelIndex child = model->index(row, 0, index);
        if (!child.isValid()) {
            break;  // the tree changed below here: keep the deepest row still there
        }
        index = child;
    }
    return index;
}

}  // namespace

QString DocumentView::tabPreferenceKey() const {
    std::error_code error;
    const bool folder = std::filesystem::is_directory(document_->opened()->path, error);
    return QStringLiteral("centreTab/%1/%2")
        .arg(document_->formatName(), folder ? QStringLiteral("folder") : QStringLiteral("file"));
}

void DocumentView::showPreferredTab() {
    const QString wanted = QSettings().value(tabPreferenceKey()).toString();
    for (int i = 0; !wanted.isEmpty() && i < centreTabs_->count(); ++i) {
        if (centreTabs_->tabText(i) == wanted) {
            centreTabs_->setCurrentIndex(i);
            return;
        }
    }
}

QVariantMap DocumentView::saveState() const {
    QVariantMap state;
    state.insert(QStringLiteral("tab"), centreTabs_->tabText(centreTabs_->currentIndex()));
    state.insert(QStringLiteral("tree"), rowPath(tree_->currentIndex()));
    state.insert(QStringLiteral("treeScroll"), tree_->verticalScrollBar()->value());
    if (currentFile_ != nullptr) {
        state.insert(QStringLiteral("file"), qstr(currentFile_->source().name()));
        state.insert(QStringLiteral("cursor"), hex_->cursorOffset());
        state.insert(QStringLiteral("selectionStart"), hex_->selectionStart());
        state.insert(QStringLiteral("selectionLength"),
                     hex_->hasSelection() ? hex_->selectionLength() : 0);
        state.insert(QStringLiteral("topRow"), hex_->topRow());
    }
    for (const StateKeeper& keeper : keepers_) {
        if (keeper.owner) {
            state.insert(QStringLiteral("format/") + keeper.key, keeper.save());
        }
    }
    state.insert(QStringLiteral("history"), document_->selectionHistory()->toVariant());
    return state;
}

void DocumentView::restoreState(const QVariantMap& state) {
    restoreTreeAndHex(state);
    for (const StateKeeper& keeper : keepers_) {
        const QString key = QStringLiteral("format/") + keeper.key;
        if (keeper.owner && state.contains(key)) {
            keeper.restore(state.value(key));
        }
    }
    const QString tab = state.value(QStringLiteral("tab")).toString();
    for (int i = 0; i < centreTabs_->count(); ++i) {
        if (centreTabs_->tabText(i) == tab) {
            centreTabs_->setCurrentIndex(i);
            break;
        }
    }
    if (state.contains(QStringLiteral("history"))) {
        document_->selectionHistory()->restore(state.value(QStringLiteral("history")));
    }
}

void DocumentView::restoreTreeAndHex(const QVariantMap& state) {
    const QModelIndex node = indexAtPath(structure_, state.value(QStringLiteral("tree")).toList());
    if (node.isValid()) {
        tree_->selectionModel()->setCurrentIndex(
            node, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    const QString name = state.value(QStringLiteral("file")).toString();
    for (model::ByteOverlay* file : document_->files()) {
        if (qstr(file->source().name()) == name) {
            setCurrentFile(file);
            break;
        }
    }
    if (currentFile_ != nullptr && state.contains(QStringLiteral("cursor"))) {
        const quint64 length = state.value(QStringLiteral("selectionLength")).toULongLong();
        syncing_ = true;
        hex_->setSelection(length > 0 ? state.value(QStringLiteral("selectionStart")).toULongLong()
                                      : state.value(QStringLiteral("cursor")).toULongLong(),
                           length);
        syncing_ = false;
    }
    // Scroll ranges are known once the new view is laid out.
    const quint64 topRow = state.value(QStringLiteral("topRow")).toULongLong();
    const int treeScroll = state.value(QStringLiteral("treeScroll")).toInt();
    QTimer::singleShot(0, this, [this, topRow, treeScroll] {
        hex_->scrollToRow(topRow);
        tree_->verticalScrollBar()->setValue(treeScroll);
    });
}

void DocumentView::addStateKeeper(const QString& key, QObject* owner,
                                  std::function<QVariant()> save,
                                  std::function<void(const QVariant&)> restore) {
    keepers_.append({key, owner, std::move(save), std::move(restore)});
}

}  // namespace strata::gui
