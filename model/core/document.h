// One opened file or folder: its byte sources (each behind an edit overlay), its structure
// tree, its diagnostics, its undo stack and bookmarks.
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>
#include <utility>
#include <vector>

#include "formats/common/node.h"
#include "formats/common/validator.h"
#include "formats/registry/format_handler.h"
#include "model/core/bookmark.h"
#include "model/core/byte_overlay.h"
#include "model/core/remote_access.h"
#include "model/core/selection_history.h"

namespace strata {
class FormatRegistry;
}

namespace strata::model {

class DiagnosticsModel;
class FormatEditor;
class TextDraft;

class Document : public QObject {
    Q_OBJECT
public:
    // Opens `path` with `formats` (null: the built-in formats); on failure returns nullptr and
    // sets *error (when given) to a readable reason.
    static std::unique_ptr<Document> open(const QString& path, QString* error = nullptr,
                                          const strata::FormatRegistry* formats = nullptr);

    // Opens an http://, https:// or s3:// file (one ranged GET of its first block, then what
    // the format's open reads) in a remote session of its own. The document is read-only.
    // On failure returns nullptr and sets *error to a reason naming the URL.
    static std::unique_ptr<Document> openUrl(const QString& url,
                                             const RemoteOpenSettings& settings = {},
                                             QString* error = nullptr,
                                             const strata::FormatRegistry* formats = nullptr);
    // Opening in two steps, so the reading (and the network) can run on a job's thread:
    // prepare and fetchUrl make no QObject (opened is null on failure, with *error set);
    // fromPrepared builds the document on the thread that will own it.
    struct Prepared {
        std::shared_ptr<strata::RemoteSession> session;  // null for a local path
        std::shared_ptr<strata::OpenedDocument> opened;
        RemoteOpenSettings settings;  // what a URL was opened with (a reload uses them again)
        QString url;                  // as typed, password and token included (a reload's too)
        // A remote folder no format claims (a plain listing or bucket prefix): nothing is
        // opened (the error says so); the app browses it instead (see isPlainFolder).
        bool plainFolder = false;
    };
    // True when `path` is a local folder no format claims (not a dataset, corpus or root):
    // the app shows it in the Browser rather than as a document. Reads only what the probes do.
    static bool isPlainFolder(const QString& path, const strata::FormatRegistry* formats = nullptr);
    // A local path or folder, or a URL (as fetchUrl).
    static Prepared prepare(const QString& path, const RemoteOpenSettings& settings,
                            QString* error = nullptr,
                            const strata::FormatRegistry* formats = nullptr);
    static Prepared fetchUrl(const QString& url, const RemoteOpenSettings& settings,
                             QString* error = nullptr,
                             const strata::FormatRegistry* formats = nullptr);
    static std::unique_ptr<Document> fromPrepared(Prepared prepared);
    // What this document opened, shared: a document built from it (fromPrepared) reads nothing
    // again and has the same parsed state, sources and remote session, but none of this one's
    // edits, undo history or editor. A comparison takes an open tab's side this way.
    Prepared share() const;

    explicit Document(std::shared_ptr<strata::OpenedDocument> opened, QObject* parent = nullptr);
    ~Document() override;

    QString path() const;
    // The file or folder name without its directory.
    QString displayName() const;
    strata::FormatId format() const;
    QString formatName() const;
    // False for a file no format recognised (opened as raw bytes): the hex view and the entropy
    // profile are all there is, and no structure is at stake when its bytes are edited.
    bool hasStructure() const;
    const strata::Node* root() const;
    const std::vector<std::pair<std::string, std::string>>& facts() const;
    // Shared so background jobs can keep the sources and nodes alive while they run.
    std::shared_ptr<const strata::OpenedDocument> opened() const { return opened_; }

    // One overlay per byte source, in the order the format listed them (then those it opened
    // later, once asked for); the first is primary.
    QList<ByteOverlay*> files() const { return files_; }
    ByteOverlay* primaryFile() const { return files_.isEmpty() ? nullptr : files_.front(); }
    // The overlay of a source the format opened, at open() or later (a shard the tree parsed
    // when first shown gets its overlay when first asked for). GUI thread only.
    ByteOverlay* overlayFor(const strata::ByteSource* source) const;
    // The node whose region covers the whole of `source` (where Node::deepestAt starts); the
    // root for single-file documents and whenever no better node is found.
    const strata::Node* fileNodeFor(const strata::ByteSource* source) const;

    // Remote documents (opened from a URL) read through a session and never write back:
    // overwrite() ignores them, no format editor is installed, Save As writes a local copy.
    bool isRemote() const { return session_ != nullptr; }
    // The endpoint, profile and signing a remote document was opened with.
    const RemoteOpenSettings& remoteSettings() const { return remoteSettings_; }
    // The URL it was opened from as typed, with any password or token: for opening it again,
    // never for showing (path() is the location without them).
    const QString& remoteUrl() const { return remoteUrl_; }
    bool isReadOnly() const { return isRemote(); }
    // Requests, bytes fetched and cache hits of the remote session so far (zeros when local).
    NetworkStats networkStats() const;

    QUndoStack* undoStack() const { return undoStack_; }
    // The format editor that edits this document's content and saves it through the format's
    // writer, or nullptr (byte edits only). The document owns it (QObject parent).
    FormatEditor* editor() const { return editor_; }
    void setEditor(FormatEditor* editor);
    // Pushes an undoable overwrite; consecutive calls continuing the previous run merge into
    // one undo step when `mergeable`.
    void overwrite(ByteOverlay* file, quint64 offset, const QByteArray& bytes,
                   bool mergeable = true);
    bool isModified() const;

    // Text typed into the document's editors and not applied yet (see TextDraft). A save
    // applies them first; closing asks about them as about unsaved edits.
    const QList<TextDraft*>& drafts() const { return drafts_; }
    QList<TextDraft*> pendingDrafts() const;
    bool hasPendingText() const;
    // Applies every pending draft (before an edit that could move what they edit); returns
    // the first that fails as "target: error", or "".
    QString applyPendingText();
    // Writes the primary file's edited bytes to `path` atomically and marks the document clean.
    // Returns an error text, or an empty string on success.
    QString saveAs(const QString& path);
    // Marks the document clean after a background save that started at undo index
    // `undoIndex`, unless it was edited meanwhile. Emits saved(path).
    void markSaved(int undoIndex, const QString& path);
    // saveAs for one particular file of a multi-file document (does not change the clean state).
    QString saveFileAs(ByteOverlay* file, const QString& path);

    // Bookmarks.
    const QList<Bookmark>& bookmarks() const { return bookmarks_; }
    void addBookmark(const Bookmark& bookmark);
    void removeBookmark(int index);
    void clearBookmarks();

    // Where the user went in this document, for Go Back and Go Forward.
    SelectionHistory* selectionHistory() const { return selectionHistory_; }

    DiagnosticsModel* diagnostics() const { return diagnostics_; }
    // A fresh validator for this document, or nullptr when the format has none.
    std::unique_ptr<strata::Validator> makeValidator() const;

signals:
    void modifiedChanged(bool modified);
    void bookmarksChanged();
    // Bytes of `file` changed (an edit, an undo, a redo).
    void bytesChanged(ByteOverlay* file, quint64 offset, quint64 length);
    void saved(const QString& path);
    // Some draft started or stopped holding typed text.
    void pendingTextChanged(bool pending);

private:
    friend class TextDraft;
    void addDraft(TextDraft* draft);
    void removeDraft(TextDraft* draft);
    ByteOverlay* addOverlay(strata::ByteSourcePtr source);

    std::shared_ptr<strata::OpenedDocument> opened_;
    std::shared_ptr<strata::RemoteSession> session_;
    RemoteOpenSettings remoteSettings_;
    QString remoteUrl_;
    QList<ByteOverlay*> files_;
    // The same by source: a corpus has a file for every document and part, and views ask for
    // the overlay of each region they show.
    QHash<const strata::ByteSource*, ByteOverlay*> overlays_;
    QUndoStack* undoStack_;
    FormatEditor* editor_ = nullptr;
    DiagnosticsModel* diagnostics_;
    QList<Bookmark> bookmarks_;
    SelectionHistory* selectionHistory_;
    QList<TextDraft*> drafts_;
};

}  // namespace strata::model
