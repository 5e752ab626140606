#include "document.h"

#include <QFileInfo>

#include <algorithm>

#include "diagnostics_model.h"
#include "format_editor.h"
#include "formats/remote/remote_session.h"
#include "overwrite_command.h"
#include "text_draft.h"

namespace strata::model {

Document::Document(std::shared_ptr<strata::OpenedDocument> opened, QObject* parent)
    : QObject(parent),
      opened_(std::move(opened)),
      undoStack_(new QUndoStack(this)),
      diagnostics_(new DiagnosticsModel(this)),
      selectionHistory_(new SelectionHistory(this)) {
    if (!opened_) {
        opened_ = std::make_shared<strata::OpenedDocument>();
    }
    for (const ByteSourcePtr& source : opened_->sources) {
        if (source) {
            addOverlay(source);
        }
    }
    connect(undoStack_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    // Files of a folder document by their place in it; a file's own by its name (a URL's by
    // what follows its last '/').
    if (isRemoteUrl(path())) {
        diagnostics_->setBaseFolder(path().left(path().lastIndexOf(u'/') + 1));
        return;
    }
    const QFileInfo info(path());
    diagnostics_->setBaseFolder(info.isDir() ? path() : info.path());
}

Document::~Document() {
    // Drafts unregister themselves: let them go while the list still exists.
    const QList<TextDraft*> drafts = drafts_;
    qDeleteAll(drafts);
    // Undo commands point at the overlays; drop them first.
    undoStack_->clear();
}

QString Document::path() const {
    return QString::fromStdString(opened_->path.string());
}

QString Document::displayName() const {
    std::filesystem::path p = opened_->path;
    if (!p.has_filename()) {
        p = p.parent_path();  // a folder given with a trailing slash
    }
    const QString name = QString::fromStdString(p.filename().string());
    return name.isEmpty() ? path() : name;
}

strata::FormatId Document::format() const {
    return opened_->format;
}

bool Document::hasStructure() const {
    return opened_->format != strata::kRawBinaryFormat;
}

QString Document::formatName() const {
    const std::string_view name = strata::formatName(opened_->format);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

const strata::Node* Document::root() const {
    return opened_->root.get();
}

const std::vector<std::pair<std::string, std::string>>& Document::facts() const {
    return opened_->facts;
}

ByteOverlay* Document::addOverlay(ByteSourcePtr source) {
    const strata::ByteSource* key = source.get();
    auto* overlay = new ByteOverlay(std::move(source), this);
    connect(overlay, &ByteOverlay::changed, this, [this, overlay](quint64 offset, quint64 length) {
        emit bytesChanged(overlay, offset, length);
    });
    files_.append(overlay);
    if (!overlays_.contains(key)) {  // a source listed twice: its first overlay
        overlays_.insert(key, overlay);
    }
    return overlays_.value(key);
}

ByteOverlay* Document::overlayFor(const strata::ByteSource* source) const {
    if (source == nullptr) {
        return nullptr;
    }
    if (ByteOverlay* overlay = overlays_.value(source, nullptr)) {
        return overlay;
    }
    if (opened_->sourceOpenedLater) {
        if (ByteSourcePtr later = opened_->sourceOpenedLater(source)) {
            // Documents are never const objects: the const is the caller's view of it.
            return const_cast<Document*>(this)->addOverlay(std::move(later));
        }
    }
    return nullptr;
}

const strata::Node* Document::fileNodeFor(const strata::ByteSource* source) const {
    const strata::Node* root = this->root();
    if (root == nullptr || source == nullptr || root->region().source == source) {
        return root;
    }
    // Multi-file documents list one node per file near the top; look two levels down for the
    // node covering the whole source, without enumerating large lazy children.
    constexpr std::uint64_t kScanLimit = 4096;
    auto coversWhole = [source](const strata::Node* n) {
        const Region& r = n->region();
        return r.source == source && r.offset == 0 && r.length >= source->size();
    };
    const std::uint64_t count = std::min(root->childCount(), kScanLimit);
    for (std::uint64_t i = 0; i < count; ++i) {
        const strata::Node* child = root->child(i);
        if (coversWhole(child)) {
            return child;
        }
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        const strata::Node* child = root->child(i);
        const std::uint64_t inner = std::min(child->childCount(), kScanLimit);
        for (std::uint64_t j = 0; j < inner; ++j) {
            if (coversWhole(child->child(j))) {
                return child->child(j);
            }
        }
    }
    return root;
}

NetworkStats Document::networkStats() const {
    return session_ ? networkStatsOf(*session_) : NetworkStats{};
}

void Document::overwrite(ByteOverlay* file, quint64 offset, const QByteArray& bytes,
                         bool mergeable) {
    if (isReadOnly() || file == nullptr || bytes.isEmpty() || offset >= file->size()) {
        return;
    }
    undoStack_->push(new OverwriteBytesCommand(file, offset, bytes, mergeable));
}

bool Document::isModified() const {
    return !undoStack_->isClean();
}

QList<TextDraft*> Document::pendingDrafts() const {
    QList<TextDraft*> out;
    for (TextDraft* draft : drafts_) {
        if (draft->isPending()) {
            out.append(draft);
        }
    }
    return out;
}

bool Document::hasPendingText() const {
    return std::any_of(drafts_.begin(), drafts_.end(),
                       [](const TextDraft* draft) { return draft->isPending(); });
}

QString Document::applyPendingText() {
    for (TextDraft* draft : pendingDrafts()) {
        const QString error = draft->apply();
        if (!error.isEmpty()) {
            return draft->target() + QStringLiteral(": ") + error;
        }
    }
    return {};
}

void Document::addDraft(TextDraft* draft) {
    drafts_.append(draft);
}

void Document::removeDraft(TextDraft* draft) {
    drafts_.removeAll(draft);
}

QString Document::saveAs(const QString& path) {
    ByteOverlay* file = primaryFile();
    if (file == nullptr) {
        return tr("%1 has no file to save").arg(displayName());
    }
    const QString error = file->saveTo(path);
    if (error.isEmpty()) {
        undoStack_->setClean();
        emit saved(path);
    }
    return error;
}

void Document::markSaved(int undoIndex, const QString& path) {
    if (undoStack_->index() == undoIndex) {
        undoStack_->setClean();
    }
    emit saved(path);
}

QString Document::saveFileAs(ByteOverlay* file, const QString& path) {
    if (file == nullptr || !files_.contains(file)) {
        return tr("that file is not part of %1").arg(displayName());
    }
    return file->saveTo(path);
}

void Document::addBookmark(const Bookmark& bookmark) {
    bookmarks_.append(bookmark);
    emit bookmarksChanged();
}

void Document::removeBookmark(int index) {
    if (index < 0 || index >= bookmarks_.size()) {
        return;
    }
    bookmarks_.removeAt(index);
    emit bookmarksChanged();
}

void Document::setEditor(FormatEditor* editor) {
    if (editor_ != nullptr && editor_ != editor) {
        delete editor_;
    }
    editor_ = editor;
    if (editor_ != nullptr) {
        editor_->setParent(this);
    }
}

void Document::clearBookmarks() {
    if (bookmarks_.isEmpty()) {
        return;
    }
    bookmarks_.clear();
    emit bookmarksChanged();
}

std::unique_ptr<strata::Validator> Document::makeValidator() const {
    if (!opened_->makeValidator) {
        return nullptr;
    }
    return opened_->makeValidator();
}

}  // namespace strata::model
