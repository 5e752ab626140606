#include "document_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScopedValueRollback>
#include <QSettings>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "data_inspector.h"
#include "entropy_view.h"
#include "file_map.h"
#include "format_views.h"
#include "model/core/byte_search.h"
#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/format_colors.h"
#include "model/core/inspector_rule.h"
#include "model/core/job_runner.h"
#include "model/core/structure_model.h"
#include "model/core/validation_job.h"
#include "search_bar.h"
#include "selection_navigator.h"

namespace strata::gui {
namespace {

constexpr int kFieldRole = Qt::UserRole + 1;
// Past this many diagnostics the file map and hex view show only the first ones.
constexpr int kMaxMarkers = 50000;
constexpr int kMaxSearchHighlights = 10000;

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

bool isDark(const QWidget* widget) {
    return widget->palette().color(QPalette::Base).lightness() < 128;
}

}  // namespace

DocumentView::DocumentView(std::unique_ptr<model::Document> document, model::JobRunner* runner,
                           const FormatViews& views, QWidget* parent)
    : QWidget(parent), document_(std::move(document)), runner_(runner) {
    structure_ = new model::StructureModel(document_->root(), this);
    // A remote file's lazy nodes read the server when they are built: on a worker.
    structure_->setBackgroundFetch(document_->isRemote());
    markerTimer_ = new QTimer(this);
    markerTimer_->setSingleShot(true);
    markerTimer_->setInterval(150);
    connect(markerTimer_, &QTimer::timeout, this, &DocumentView::rebuildMarkers);
    buildLayout();

    model::DiagnosticsModel* diagnostics = document_->diagnostics();
    connect(diagnostics, &model::DiagnosticsModel::summaryChanged, markerTimer_,
            qOverload<>(&QTimer::start));
    connect(diagnostics, &QAbstractItemModel::modelReset, markerTimer_,
            qOverload<>(&QTimer::start));

    setCurrentFile(document_->primaryFile());
    const QModelIndex rootIndex = structure_->index(0, 0);
    tree_->expand(rootIndex);
    syncing_ = true;
    tree_->setCurrentIndex(rootIndex);
    syncing_ = false;
    if (!document_->hasStructure() && !document_->isRemote()) {
        computeEntropy();
    }
    views.install(*this);
    showPreferredTab();
    navigator_ = new SelectionNavigator(*this);  // where the document opened is the first entry
    // A click on a tab is the user's choice for this kind of document from now on.
    connect(centreTabs_->tabBar(), &QTabBar::tabBarClicked, this, [this](int index) {
        if (index >= 0) {
            QSettings().setValue(tabPreferenceKey(), centreTabs_->tabText(index));
        }
    });
}

DocumentView::~DocumentView() {
    // A node search on a worker reads the document: stop it before the document goes, and
    // start no other (the views letting go below move the hex cursor).
    currentFile_ = nullptr;
    nodeSearch_.wanted.reset();
    nodeSearch_.cancel->cancel();
    nodeSearch_.watcher.waitForFinished();
    for (const QPointer<model::Job>& job : jobs_) {
        if (job && job->isRunning()) {
            job->cancel();
        }
    }
    // Views let go of the document's nodes and overlays before it goes away.
    hex_->setOverlay(nullptr);
    inspector_->setOverlay(nullptr);
    fileMap_->setFile(0, nullptr, nullptr);
    tree_->setModel(nullptr);
    delete structure_;
}

void DocumentView::buildLayout() {
    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->setChildrenCollapsible(false);

    tree_ = new QTreeView(splitter_);
    tree_->setModel(structure_);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->header()->setStretchLastSection(false);
    tree_->setColumnWidth(model::StructureModel::NameColumn, 190);
    tree_->setColumnWidth(model::StructureModel::ValueColumn, 150);
    tree_->setColumnWidth(model::StructureModel::OffsetColumn, 90);
    tree_->setColumnWidth(model::StructureModel::SizeColumn, 90);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onTreeCurrentChanged(current); });

    centreTabs_ = new QTabWidget(splitter_);
    centreTabs_->setDocumentMode(true);
    auto* hexPage = new QWidget(centreTabs_);
    hex_ = new HexView(hexPage);
    fileMap_ = new FileMap(hexPage);
    searchBar_ = new SearchBar(hexPage);
    searchBar_->hide();
    auto* hexRow = new QHBoxLayout;
    hexRow->setContentsMargins(0, 0, 0, 0);
    hexRow->setSpacing(2);
    hexRow->addWidget(hex_, 1);
    hexRow->addWidget(fileMap_);
    auto* hexColumn = new QVBoxLayout(hexPage);
    hexColumn->setContentsMargins(0, 0, 0, 0);
    hexColumn->setSpacing(0);
    hexColumn->addLayout(hexRow, 1);
    hexColumn->addWidget(searchBar_);
    centreTabs_->addTab(hexPage, tr("Hex"));
    if (!document_->hasStructure()) {
        entropyView_ = new EntropyView(centreTabs_);
        centreTabs_->addTab(entropyView_, tr("Entropy"));
        if (document_->isRemote()) {
            entropyView_->clear(
                tr("The entropy profile reads the whole remote file: Tools > "
                   "Compute Entropy Profile starts it."));
        }
        connect(entropyView_, &EntropyView::offsetClicked, this, [this](quint64 offset) {
            centreTabs_->setCurrentIndex(0);
            goToOffset(offset);
        });
    }

    auto* right = new QSplitter(Qt::Vertical, splitter_);
    inspector_ = new DataInspector(right);
    auto* propertiesPage = new QWidget(right);
    nodeTitle_ = new QLabel(propertiesPage);
    nodeTitle_->setWordWrap(true);
    nodeTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    properties_ = new QTableWidget(propertiesPage);
    properties_->setColumnCount(4);
    properties_->setHorizontalHeaderLabels({tr("Name"), tr("Value"), tr("Offset"), tr("Size")});
    // The value takes what the name, offset and size leave: those stay in view at any width.
    properties_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    properties_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    properties_->verticalHeader()->hide();
    properties_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    properties_->setSelectionBehavior(QAbstractItemView::SelectRows);
    properties_->setSelectionMode(QAbstractItemView::SingleSelection);
    properties_->setAlternatingRowColors(true);
    auto* propertiesLayout = new QVBoxLayout(propertiesPage);
    propertiesLayout->setContentsMargins(0, 0, 0, 0);
    propertiesLayout->addWidget(nodeTitle_);
    propertiesLayout->addWidget(properties_, 1);
    right->addWidget(inspector_);
    right->addWidget(propertiesPage);

    splitter_->addWidget(tree_);
    splitter_->addWidget(centreTabs_);
    splitter_->addWidget(right);
    splitter_->setStretchFactor(1, 1);
    splitter_->setSizes({340, 720, 340});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);

    connect(hex_, &HexView::cursorMoved, this, &DocumentView::onHexCursorMoved);
    connect(&nodeSearch_.watcher, &QFutureWatcher<const strata::Node*>::finished, this,
            &DocumentView::onNodeFound);
    connect(hex_, &HexView::selectionChanged, this, &DocumentView::statusChanged);
    connect(hex_, &HexView::selectionChanged, this, [this] {
        if (!syncing_ && !quietHex_) {
            emit selectionMoved(model::SelectionMove::Step);
        }
    });
    connect(hex_, &HexView::statusMessage, this, &DocumentView::message);
    connect(hex_, &HexView::overwriteRequested, this,
            [this](quint64 offset, const QByteArray& bytes) {
                document_->overwrite(currentFile_, offset, bytes);
            });
    connect(hex_, &HexView::viewportMoved, fileMap_, &FileMap::setViewport);
    connect(hex_, &HexView::viewportMoved, this, [this](quint64 first, quint64 length) {
        if (entropyView_ && currentFile_ == document_->primaryFile()) {
            entropyView_->setViewport(first, length);
        }
    });
    connect(fileMap_, &FileMap::offsetClicked, this, &DocumentView::goToOffset);
    connect(inspector_, &DataInspector::selectBytesRequested, this,
            [this](quint64 offset, quint64 length) {
                syncing_ = true;
                hex_->setSelection(offset, length);
                syncing_ = false;
            });
    connect(properties_, &QTableWidget::cellClicked, this, [this](int row, int) {
        const QTableWidgetItem* item = properties_->item(row, 0);
        if (currentNode_ == nullptr || item == nullptr || !item->data(kFieldRole).isValid()) {
            return;
        }
        const auto index = item->data(kFieldRole).toULongLong();
        if (index < currentNode_->fields().size()) {
            const strata::Region& region = currentNode_->fields()[index].region;
            if (region.valid()) {
                selectRegion(region, currentNode_);  // keep the node whose field was clicked
            }
        }
    });
    connect(searchBar_, &SearchBar::findRequested, this, [this](bool all) { find(all); });
    connect(searchBar_, &SearchBar::findPreviousRequested, this, [this] { find(false, true); });
    connect(searchBar_, &SearchBar::cancelRequested, this, &DocumentView::cancelSearch);
    connect(searchBar_, &SearchBar::closed, this, [this] {
        searchHits_.clear();
        rebuildHighlights();
        hex_->setFocus();
    });
}

void DocumentView::setCurrentFile(model::ByteOverlay* file) {
    if (file == currentFile_ && file != nullptr) {
        return;
    }
    currentFile_ = file;
    {
        const QScopedValueRollback quiet(quietHex_, true);
        hex_->setOverlay(file);
    }
    inspector_->setOverlay(file);
    searchHits_.clear();
    if (file == nullptr) {
        segments_.clear();
        fileMap_->setFile(0, nullptr, nullptr);
        return;
    }
    const strata::ByteSource* source = &file->source();
    const strata::Node* fileNode = document_->fileNodeFor(source);
    // A remote file's map colours only what the tree shows at first: descending further would
    // fetch index blocks no one asked for.
    MapSegmentOptions options;
    if (document_->isRemote()) {
        options.maxDepth = 1;
    }
    segments_ = collectMapSegments(fileNode, source, options);
    fileMap_->setFile(file->size(), fileNode, source);
    fileMap_->setSegments(segments_);
    fileMap_->setViewport(hex_->firstVisibleOffset(), hex_->visibleByteCount());
    rebuildMarkers();
    emit statusChanged();
}

void DocumentView::onTreeCurrentChanged(const QModelIndex& current) {
    const strata::Node* node = structure_->nodeAt(current);
    if (node == nullptr) {
        return;
    }
    const bool picked = !syncing_;
    if (picked) {
        const strata::Region region = node->region().clipped();
        model::ByteOverlay* file = region.valid() ? document_->overlayFor(region.source) : nullptr;
        if (file != nullptr) {
            setCurrentFile(file);
            syncing_ = true;
            hex_->setSelection(region.offset, region.length);
            syncing_ = false;
        }
    }
    showNodeDetails(node);
    emit statusChanged();
    if (picked) {
        emit selectionMoved(model::SelectionMove::Jump);
    }
}

void DocumentView::onHexCursorMoved(quint64 offset) {
    inspector_->setOffset(offset);
    emit statusChanged();
    if (syncing_ || currentFile_ == nullptr) {
        return;
    }
    const strata::ByteSource* source = &currentFile_->source();
    const strata::Node* fileNode = document_->fileNodeFor(source);
    if (fileNode == nullptr) {
        return;
    }
    if (document_->isRemote()) {
        findNodeInBackground(fileNode, offset, source);
        return;
    }
    const strata::Node* node = fileNode->deepestAt(offset, source);
    if (node != nullptr && node != currentNode_) {
        selectNodeInTree(node);
    }
}

// Finding the node at an offset can build lazy nodes, which reads the file: on a worker for a
// remote file, so the window never waits for a server. Only the last offset asked for counts.
void DocumentView::findNodeInBackground(const strata::Node* fileNode, quint64 offset,
                                        const strata::ByteSource* source) {
    nodeSearch_.wanted = NodeSearch::Target{fileNode, offset, source};
    if (nodeSearch_.watcher.isRunning()) {
        return;  // started again for the latest offset when this one ends
    }
    const NodeSearch::Target target = *nodeSearch_.wanted;
    nodeSearch_.running = target;
    const std::shared_ptr<strata::CancelToken> cancel = nodeSearch_.cancel;
    nodeSearch_.watcher.setFuture(QtConcurrent::run([target, cancel]() -> const strata::Node* {
        const strata::RemoteCancelScope scope(cancel.get());
        try {
            return target.fileNode->deepestAt(target.offset, target.source);
        } catch (const std::exception&) {
            return nullptr;  // a failed read: the tree stays where it is
        }
    }));
}

void DocumentView::onNodeFound() {
    const NodeSearch::Target done = nodeSearch_.running;
    const strata::Node* node = nodeSearch_.watcher.result();
    const bool stillWanted = nodeSearch_.wanted && nodeSearch_.wanted->offset == done.offset &&
                             nodeSearch_.wanted->source == done.source;
    if (!stillWanted && nodeSearch_.wanted) {
        const NodeSearch::Target next = *nodeSearch_.wanted;
        findNodeInBackground(next.fileNode, next.offset, next.source);
        return;
    }
    nodeSearch_.wanted.reset();
    const bool sameFile = currentFile_ != nullptr && &currentFile_->source() == done.source;
    if (node != nullptr && node != currentNode_ && sameFile && !syncing_) {
        selectNodeInTree(node);
        emit selectionMoved(model::SelectionMove::Step);  // the move's node, found at last
    }
}

bool DocumentView::isFindingNode() const {
    return nodeSearch_.watcher.isRunning();
}

void DocumentView::selectNodeInTree(const strata::Node* node) {
    const QModelIndex index = structure_->indexForNode(node);
    if (!index.isValid()) {
        return;
    }
    const bool wasSyncing = syncing_;
    syncing_ = true;
    tree_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    tree_->scrollTo(index);
    syncing_ = wasSyncing;
    showNodeDetails(node);
}

void DocumentView::showNodeDetails(const strata::Node* node) {
    const bool changed = currentNode_ != node;
    currentNode_ = node;
    if (changed) {
        emit currentNodeChanged(node);
    }
    // Numbers read from a whole document or from text say nothing: give the room to the
    // properties.
    inspector_->setVisible(model::inspectorApplies(*document_, node));
    const bool dark = isDark(this);
    const strata::Region region = node->region().clipped();
    const bool here = currentFile_ != nullptr && region.source == &currentFile_->source();
    // Shading the whole file would only mute the kind colours; the file node gets none.
    const bool wholeFile = here && node == document_->fileNodeFor(region.source);
    if (here && !wholeFile) {
        QList<HexHighlight> fields;
        for (const strata::Field& field : node->fields()) {
            const strata::Region r = field.region.clipped();
            if (r.source == region.source && r.length > 0) {
                const QColor tint = field.status == strata::Status::Ok
                                        ? palette().color(QPalette::Highlight)
                                        : model::colorForStatus(field.status);
                fields.append({r.offset, r.length, withAlpha(tint, dark ? 110 : 90)});
            }
        }
        hex_->setNodeRegion(region.offset, region.length, std::move(fields));
    } else {
        hex_->clearNodeRegion();
    }

    const QString status =
        node->status() == strata::Status::Ok
            ? QString()
            : QStringLiteral(" — ") + qstr(std::string(strata::statusName(node->status())));
    nodeTitle_->setText(
        QStringLiteral("<b>%1</b> <i>%2</i>%3")
            .arg(qstr(node->label()).toHtmlEscaped(), qstr(node->kind()).toHtmlEscaped(), status));
    const auto& nodeFields = node->fields();
    const bool isRoot = node == document_->root();
    const auto& facts = document_->facts();
    const int rows = static_cast<int>(nodeFields.size() + (isRoot ? facts.size() : 0));
    properties_->setRowCount(rows);
    int row = 0;
    for (std::size_t i = 0; i < nodeFields.size(); ++i, ++row) {
        const strata::Field& field = nodeFields[i];
        auto* name = new QTableWidgetItem(qstr(field.name));
        name->setData(kFieldRole, static_cast<qulonglong>(i));
        auto* value = new QTableWidgetItem(qstr(field.text()));
        value->setToolTip(value->text());
        if (field.status != strata::Status::Ok) {
            value->setForeground(model::colorForStatus(field.status));
        }
        const bool hasRegion = field.region.valid();
        properties_->setItem(row, 0, name);
        properties_->setItem(row, 1, value);
        properties_->setItem(
            row, 2,
            new QTableWidgetItem(hasRegion ? model::formatOffset(field.region.offset) : QString()));
        properties_->setItem(
            row, 3,
            new QTableWidgetItem(hasRegion ? model::formatSize(field.region.length) : QString()));
    }
    if (isRoot) {
        for (const auto& [key, value] : facts) {
            // A fact the root's fields show already (with its bytes) is not listed twice.
            const bool shown =
                std::any_of(nodeFields.begin(), nodeFields.end(), [&key](const strata::Field& f) {
                    return qstr(f.name).compare(qstr(key), Qt::CaseInsensitive) == 0;
                });
            if (shown) {
                continue;
            }
            properties_->setItem(row, 0, new QTableWidgetItem(qstr(key)));
            properties_->setItem(row, 1, new QTableWidgetItem(qstr(value)));
            properties_->setItem(row, 2, new QTableWidgetItem);
            properties_->setItem(row, 3, new QTableWidgetItem);
            ++row;
        }
    }
    properties_->setRowCount(row);
}

void DocumentView::selectNode(const strata::Node* node) {
    const QModelIndex index = structure_->indexForNode(node);
    if (!index.isValid()) {
        return;
    }
    tree_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    tree_->scrollTo(index);
}

void DocumentView::selectRegion(const strata::Region& region, const strata::Node* node,
                                model::SelectionMove move) {
    model::ByteOverlay* file = region.valid() ? document_->overlayFor(region.source) : nullptr;
    if (file == nullptr) {
        return;
    }
    setCurrentFile(file);
    syncing_ = true;
    hex_->setSelection(region.offset, region.length);
    syncing_ = false;
    if (node == nullptr) {
        const strata::Node* fileNode = document_->fileNodeFor(region.source);
        node = fileNode ? fileNode->deepestAt(region.offset, region.source) : nullptr;
    }
    if (node != nullptr) {
        selectNodeInTree(node);
    }
    emit selectionMoved(move);
}

void DocumentView::showDiagnostic(const strata::Diagnostic& diagnostic) {
    if (!diagnostic.regions.empty()) {
        // The bytes at fault are what the user asked to see, whatever tab was showing.
        centreTabs_->setCurrentIndex(0);
        selectRegion(diagnostic.regions.front());
    }
    emit message(qstr(diagnostic.code) + QStringLiteral(": ") + qstr(diagnostic.message));
}

void DocumentView::goToOffset(quint64 offset) {
    {
        const QScopedValueRollback quiet(quietHex_, true);  // a pick, not a move near here
        hex_->goToOffset(offset);
    }
    hex_->setFocus();
    emit selectionMoved(model::SelectionMove::Jump);
}

void DocumentView::addBookmark(const QString& name) {
    if (currentFile_ == nullptr || currentFile_->size() == 0) {
        return;
    }
    model::Bookmark bookmark;
    bookmark.source = &currentFile_->source();
    bookmark.offset = hex_->selectionStart();
    bookmark.length = std::max<quint64>(hex_->selectionLength(), 1);
    bookmark.name =
        name.isEmpty() ? tr("Bookmark at %1").arg(model::formatOffset(bookmark.offset)) : name;
    document_->addBookmark(bookmark);
}

void DocumentView::goToBookmark(int index) {
    const auto& bookmarks = document_->bookmarks();
    if (index < 0 || index >= bookmarks.size()) {
        return;
    }
    const model::Bookmark& b = bookmarks[index];
    selectRegion(strata::Region{b.source, b.offset, b.length});
}

void DocumentView::showSearchBar() {
    searchBar_->activate();
}

void DocumentView::find(bool findAll, bool backward) {
    if (currentFile_ == nullptr || runner_ == nullptr) {
        return;
    }
    QString error;
    auto pattern =
        model::SearchPattern::parse(searchBar_->patternText(), searchBar_->mode(), false, &error);
    if (!pattern) {
        searchBar_->setMessage(error);
        return;
    }
    cancelSearch();
    model::ByteSearchOptions options;
    options.findAll = findAll;
    options.wrap = true;
    options.backward = backward && !findAll;
    options.from =
        hex_->hasSelection() && !backward ? hex_->selectionStart() + 1 : hex_->selectionStart();
    if (findAll) {
        options.from = 0;
    }
    model::ByteSearchJob* job =
        model::startByteSearch(*runner_, currentFile_, std::move(*pattern), options);
    searchJob_ = job;
    trackJob(job);
    searchBar_->setBusy(true);
    searchBar_->setMessage(tr("Searching…"));
    model::ByteOverlay* file = currentFile_;
    connect(job, &model::Job::finished, this, [this, job, file, findAll] {
        searchBar_->setBusy(false);
        if (job->state() == model::Job::State::Cancelled) {
            searchBar_->setMessage(tr("Search cancelled."));
            return;
        }
        if (job->state() == model::Job::State::Failed) {
            searchBar_->setMessage(job->errorText());
            return;
        }
        const QList<quint64>& results = job->results();
        if (results.isEmpty()) {
            searchBar_->setMessage(tr("Not found."));
            return;
        }
        if (file != currentFile_) {
            return;  // the user moved to another file meanwhile
        }
        const auto length = static_cast<quint64>(job->patternLength());
        if (findAll) {
            searchHits_.clear();
            for (qsizetype i = 0; i < results.size() && i < kMaxSearchHighlights; ++i) {
                searchHits_.append({results[i], length, QColor(255, 196, 0, 150)});
            }
            rebuildHighlights();
            searchBar_->setMessage(
                job->truncated() ? tr("%1 matches (stopped at the limit).").arg(results.size())
                                 : tr("%1 matches.").arg(results.size()));
        } else {
            searchBar_->setMessage(tr("Found at %1.").arg(model::formatOffset(results.front())));
        }
        selectRegion(strata::Region{&file->source(), results.front(), length});
    });
}

void DocumentView::cancelSearch() {
    if (searchJob_ && searchJob_->isRunning()) {
        searchJob_->cancel();
    }
}

model::Job* DocumentView::validate() {
    if (runner_ == nullptr) {
        return nullptr;
    }
    model::Job* job = model::startValidation(*runner_, *document_);
    if (job == nullptr) {
        emit message(tr("%1 has no validator.").arg(document_->formatName()));
        return nullptr;
    }
    trackJob(job);
    return job;
}

void DocumentView::computeEntropy() {
    model::ByteOverlay* file = document_->primaryFile();
    if (runner_ == nullptr || file == nullptr || entropy_ ||
        (entropyJob_ && entropyJob_->isRunning())) {
        return;
    }
    entropyRequested_ = true;
    if (entropyView_) {
        entropyView_->clear(tr("Computing the entropy profile…"));
    }
    model::EntropyJob* job = model::startEntropyProfile(*runner_, file->sourcePtr());
    entropyJob_ = job;
    trackJob(job);
    connect(job, &model::EntropyJob::profileReady, this,
            [this](const model::EntropyProfile& profile) {
                entropy_ = profile;
                if (entropyView_) {
                    entropyView_->setProfile(profile);
                    entropyView_->setViewport(hex_->firstVisibleOffset(), hex_->visibleByteCount());
                }
                emit entropyReady();
            });
}

QList<model::Job*> DocumentView::runningJobs() const {
    QList<model::Job*> out;
    for (const QPointer<model::Job>& job : jobs_) {
        if (job && job->isRunning()) {
            out.append(job);
        }
    }
    return out;
}

void DocumentView::trackJob(model::Job* job) {
    jobs_.removeIf([](const QPointer<model::Job>& j) { return j.isNull() || !j->isRunning(); });
    jobs_.append(job);
}

void DocumentView::rebuildMarkers() {
    markers_.clear();
    if (currentFile_ != nullptr) {
        const strata::ByteSource* source = &currentFile_->source();
        const model::DiagnosticsModel* diagnostics = document_->diagnostics();
        for (int row = 0; row < diagnostics->size() && markers_.size() < kMaxMarkers; ++row) {
            const strata::Diagnostic& d = diagnostics->diagnostic(row);
            for (const strata::Region& region : d.regions) {
                if (region.source == source) {
                    markers_.append({region.offset, region.length, d.severity,
                                     qstr(d.code) + QStringLiteral(": ") + qstr(d.message)});
                    break;
                }
            }
        }
    }
    fileMap_->setMarkers(markers_);
    rebuildHighlights();
}

void DocumentView::rebuildHighlights() {
    QList<HexHighlight> highlights;
    const bool dark = isDark(this);
    for (const MapSegment& s : segments_) {
        highlights.append(
            {s.offset, s.length, withAlpha(model::colorForNode(*s.node, dark), dark ? 90 : 120)});
    }
    for (const MapMarker& m : markers_) {
        highlights.append({m.offset, std::max<quint64>(m.length, 1),
                           withAlpha(model::colorForSeverity(m.severity), 170)});
    }
    highlights.append(searchHits_);
    hex_->setHighlights(std::move(highlights));
}

}  // namespace strata::gui
