// One open document in its tab: structure tree (left), hex view with the file map and the
// format views (centre), data inspector and node properties (right), all linked: a tree node
// selects its bytes, the hex cursor selects the deepest node covering it.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QPointer>
#include <QVariantMap>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

#include "format_views.h"
#include "formats/common/diagnostic.h"
#include "formats/common/node.h"
#include "formats/common/validator.h"
#include "formats/remote/remote_session.h"
#include "hex_view.h"
#include "map_segments.h"
#include "model/core/entropy_job.h"
#include "model/core/selection_history.h"

class QLabel;
class QSplitter;
class QTabWidget;
class QTableWidget;
class QTimer;
class QTreeView;

namespace strata::model {
class ByteOverlay;
class Document;
class Job;
class JobRunner;
class StructureModel;
}  // namespace strata::model

namespace strata::gui {

class DataInspector;
class EntropyView;
class FileMap;
class SearchBar;
class SelectionNavigator;

class DocumentView : public QWidget {
    Q_OBJECT
public:
    // `views` adds the document format's own tabs (app/gui/builtin_format_views.h).
    DocumentView(std::unique_ptr<model::Document> document, model::JobRunner* runner,
                 const FormatViews& views, QWidget* parent = nullptr);
    ~DocumentView() override;

    model::Document* document() const { return document_.get(); }
    model::StructureModel* structureModel() const { return structure_; }
    QTreeView* treeView() const { return tree_; }
    HexView* hexView() const { return hex_; }
    DataInspector* dataInspector() const { return inspector_; }
    FileMap* fileMap() const { return fileMap_; }
    SearchBar* searchBar() const { return searchBar_; }
    QTabWidget* centreTabs() const { return centreTabs_; }
    QTableWidget* propertiesTable() const { return properties_; }
    // The entropy tab (raw binaries only), or nullptr.
    EntropyView* entropyView() const { return entropyView_; }

    // The file the hex view shows (the primary one until a node in another file is picked).
    model::ByteOverlay* currentFile() const { return currentFile_; }
    const strata::Node* currentNode() const { return currentNode_; }

    // As if the user clicked the node in the tree.
    void selectNode(const strata::Node* node);
    // Selects the bytes (switching file if needed) and `node` in the tree, the deepest node at
    // the bytes' start when null.
    // `move`: how the selection history takes it (Settle for a place the view goes to by
    // itself, such as a format's first item once loaded).
    void selectRegion(const strata::Region& region, const strata::Node* node = nullptr,
                      model::SelectionMove move = model::SelectionMove::Jump);
    void showDiagnostic(const strata::Diagnostic& diagnostic);
    void goToOffset(quint64 offset);
    // Records where the user goes (selectionMoved) and goes Back and Forward through it.
    SelectionNavigator* navigator() const { return navigator_; }
    // True while the tree is being synchronised with the hex cursor on a worker (remote files).
    bool isFindingNode() const;
    void addBookmark(const QString& name = {});
    void goToBookmark(int index);
    void showSearchBar();
    // Starts a byte search for what the search bar holds: the next match after the cursor,
    // the previous one before it, or all of them.
    void find(bool findAll, bool backward = false);
    void cancelSearch();

    // Starts the validation job (nullptr when the format has none).
    model::Job* validate();
    // Starts the entropy job for the current file unless it ran or runs already. Local raw
    // binaries start it on open; remote documents only when asked (it reads every byte).
    void computeEntropy();
    bool entropyRequested() const { return entropyRequested_; }
    const std::optional<model::EntropyProfile>& entropy() const { return entropy_; }
    // Jobs this view started that are still running.
    QList<model::Job*> runningJobs() const;
    // Where format views start their background jobs.
    model::JobRunner* jobRunner() const { return runner_; }
    // Lists a job among this view's (cancelled when the view closes; shown while it runs).
    void trackJob(model::Job* job);

    // What a view opened again on the same files restores (after a save, or a reload of files
    // changed on disk): the centre tab, the tree's current node and scroll, the hex view's
    // file, cursor, selection and scroll, and what each format view keeps under its key (its
    // selection, scroll positions and text typed but not applied).
    QVariantMap saveState() const;
    void restoreState(const QVariantMap& state);
    // The QSettings key remembering the centre tab last picked (by a click on its tab) for
    // documents of this format and kind (file or folder).
    QString tabPreferenceKey() const;
    // A format view's part of that state; `owner` going away removes it.
    void addStateKeeper(const QString& key, QObject* owner, std::function<QVariant()> save,
                        std::function<void(const QVariant&)> restore);

signals:
    // Cursor, selection or file changed: the status bar should refresh.
    void statusChanged();
    // The node shown in the properties panel changed (tree click, hex cursor, selectNode).
    void currentNodeChanged(const strata::Node* node);
    // A format view asks the window to open this document again (its files changed on disk, or
    // a job it ran wrote new ones). The window asks about unsaved edits first.
    void reloadRequested();
    void entropyReady();
    void message(const QString& text);
    // The user went somewhere: picked a node in the tree, went to bytes (Go to Offset, a
    // diagnostic, bookmark, search hit, record, the file map), or moved in the hex view (Step).
    // Selections made to follow another view's are not reported.
    void selectionMoved(model::SelectionMove move);

private:
    void buildLayout();
    void setCurrentFile(model::ByteOverlay* file);
    void onTreeCurrentChanged(const QModelIndex& current);
    void onHexCursorMoved(quint64 offset);
    void findNodeInBackground(const strata::Node* fileNode, quint64 offset,
                              const strata::ByteSource* source);
    void onNodeFound();
    void showNodeDetails(const strata::Node* node);
    void selectNodeInTree(const strata::Node* node);
    void rebuildMarkers();
    void rebuildHighlights();
    void restoreTreeAndHex(const QVariantMap& state);
    void showPreferredTab();

    struct StateKeeper {
        QString key;
        QPointer<QObject> owner;
        std::function<QVariant()> save;
        std::function<void(const QVariant&)> restore;
    };
    std::unique_ptr<model::Document> document_;
    QPointer<model::JobRunner> runner_;
    model::StructureModel* structure_ = nullptr;
    model::ByteOverlay* currentFile_ = nullptr;
    const strata::Node* currentNode_ = nullptr;
    bool syncing_ = false;
    // Set while the hex view moves for a reason reported otherwise (another file shown, Go to
    // Offset reported as a pick).
    bool quietHex_ = false;
    SelectionNavigator* navigator_ = nullptr;
    bool entropyRequested_ = false;

    QSplitter* splitter_ = nullptr;
    QTreeView* tree_ = nullptr;
    QTabWidget* centreTabs_ = nullptr;
    HexView* hex_ = nullptr;
    FileMap* fileMap_ = nullptr;
    SearchBar* searchBar_ = nullptr;
    DataInspector* inspector_ = nullptr;
    QLabel* nodeTitle_ = nullptr;
    QTableWidget* properties_ = nullptr;
    EntropyView* entropyView_ = nullptr;
    QTimer* markerTimer_ = nullptr;

    QList<MapSegment> segments_;
    QList<MapMarker> markers_;
    QList<HexHighlight> searchHits_;
    std::optional<model::EntropyProfile> entropy_;
    QPointer<model::Job> entropyJob_;
    QPointer<model::Job> searchJob_;
    QList<QPointer<model::Job>> jobs_;
    // The node under the hex cursor of a remote file, looked for on a worker.
    struct NodeSearch {
        struct Target {
            const strata::Node* fileNode = nullptr;
            quint64 offset = 0;
            const strata::ByteSource* source = nullptr;
        };
        QFutureWatcher<const strata::Node*> watcher;
        std::optional<Target> wanted;  // the latest offset asked for, until it is answered
        Target running;
        std::shared_ptr<strata::CancelToken> cancel = std::make_shared<strata::CancelToken>();
    } nodeSearch_;
    QList<StateKeeper> keepers_;
};

}  // namespace strata::gui
