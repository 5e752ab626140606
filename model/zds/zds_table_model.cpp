#include "zds_table_model.h"

#include <QColor>
#include <QCoreApplication>
#include <QFont>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "formats/common/bounds.h"
#include "formats/zds/zds_json_line.h"
#include "formats/zds/zds_writer.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "zds_document_text.h"
#include "zds_json_cells.h"

namespace strata::model {

namespace {

constexpr std::size_t kBatchRows = 20000;
constexpr int kSampleRows = 100;
constexpr int kCellChars = 200;
constexpr std::size_t kParsedCacheRows = 4096;

}  // namespace

// ---- ZdsRowReader ----

std::string ZdsRowReader::text(const ZdsRow& row) const {
    if (row.text) {
        return row.text->json;
    }
    if (row.original < 0) {
        return {};
    }
    const ByteView v = collection->documentBytes(static_cast<std::uint64_t>(row.original));
    if (collection->mode() == zds::ZdsStorageMode::Docs) {
        // A docs/ file leaves its `_id` to its name: shown, edited and searched with it, as a
        // JSONL line is (a file that is not a JSON object is shown as it is).
        if (auto line = zds::docsFileAsLine(v.bytes, id(row))) {
            return std::move(*line);
        }
    }
    return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

std::string ZdsRowReader::id(const ZdsRow& row) const {
    if (row.text) {
        return row.text->id;
    }
    const auto i = static_cast<std::size_t>(row.original);
    return ids && row.original >= 0 && i < ids->size() ? (*ids)[i] : std::string();
}

Region ZdsRowReader::region(std::int64_t original) const {
    if (original < 0) {
        return {};
    }
    return collection->document(static_cast<std::uint64_t>(original)).region;
}

// ---- loading ----

struct ZdsTableModel::Batch {
    std::uint64_t first = 0;  // the live index of the first id
    std::vector<std::string> ids;
    std::shared_ptr<const zds::ZdsLiveSet> live;  // set on the first batch
};

struct ZdsTableModel::ParsedCache {
    std::unordered_map<int, ordered_json> rows;
};

ZdsTableModel::ZdsTableModel(std::shared_ptr<const zds::ZdsDataset> dataset, std::size_t collection,
                             QObject* parent)
    : QAbstractTableModel(parent),
      dataset_(std::move(dataset)),
      collection_(dataset_->collections.at(collection).get()),
      ids_(std::make_shared<std::vector<std::string>>()),
      cache_(std::make_unique<ParsedCache>()),
      pendingRefresh_(new QTimer(this)) {
    pendingRefresh_->setSingleShot(true);
    pendingRefresh_->setInterval(150);
    connect(pendingRefresh_, &QTimer::timeout, this, [this] {
        if (rowCount() > 0) {
            emit dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1));
        }
    });
}

bool ZdsTableModel::rowReady(int stored) const {
    const ZdsRow& row = rows_[std::size_t(stored)];
    if (row.changed() || row.original < 0) {
        return true;
    }
    const Region region = reader().region(row.original);
    if (!region.valid() || region.source->readyNow(region.offset, region.length)) {
        return true;
    }
    pendingRefresh_->start();
    return false;
}

ZdsTableModel::~ZdsTableModel() {
    if (sortJob_) {
        sortJob_->cancel();
    }
}

namespace {

using PostBatch = std::function<void(std::shared_ptr<ZdsTableModel::Batch>)>;

// Lists the live documents: the set is computed (cancellable, with progress), then its ids go
// to the model in batches.
void listDocuments(const zds::ZdsCollection& c, JobContext& context, const PostBatch& post) {
    zds::ZdsLiveOptions options;
    options.index.cancel = &context.cancelToken();
    options.index.progress = context.progressCallback();
    const auto live = c.liveSet(options);
    if (!live) {
        return;
    }
    const std::uint64_t n = live->size();
    auto batch = std::make_shared<ZdsTableModel::Batch>();
    batch->live = live;
    for (std::uint64_t i = 0; i < n && !context.cancelled(); ++i) {
        batch->ids.emplace_back(live->id(i));
        if (batch->ids.size() >= kBatchRows) {
            post(std::move(batch));
            batch = std::make_shared<ZdsTableModel::Batch>();
            batch->first = i + 1;
            context.setProgress(double(i) / double(n), QObject::tr("%1 documents").arg(i + 1));
        }
    }
    post(std::move(batch));
}

}  // namespace

Job* ZdsTableModel::startLoading(JobRunner& runner) {
    if (runner_ == nullptr) {
        runner_ = &runner;
    }
    auto dataset = dataset_;
    const zds::ZdsCollection* c = collection_;
    QPointer<ZdsTableModel> self(this);
    Job* job = runner.start(tr("Listing documents of %1").arg(QString::fromStdString(c->name())),
                            [dataset, c, self](JobContext& context) {
                                PostBatch post = [&context, self](std::shared_ptr<Batch> batch) {
                                    context.post([self, batch] {
                                        if (self) {
                                            self->appendBatch(*batch);
                                        }
                                    });
                                };
                                listDocuments(*c, context, post);
                                if (!context.cancelled()) {
                                    context.post([self] {
                                        if (self) {
                                            self->finishLoading();
                                        }
                                    });
                                    context.setProgress(1.0, QObject::tr("done"));
                                }
                            });
    return job;
}

void ZdsTableModel::appendBatch(Batch& batch) {
    if (batch.live) {
        live_ = batch.live;
        usesIndex_ = live_->fromIndex();
        liveBasis_ = QString::fromStdString(live_->basisText());
        liveNotes_.clear();
        for (const std::string& note : live_->notes()) {
            liveNotes_ << QString::fromStdString(note);
        }
    }
    const std::size_t n = batch.ids.size();
    if (n == 0) {
        return;
    }
    const int tableFirst = static_cast<int>(rows_.size());
    beginInsertRows({}, tableFirst, tableFirst + static_cast<int>(n) - 1);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t original = batch.first + i;
        if (original >= ids_->size()) {
            ids_->resize(original + 1);
        }
        countId(batch.ids[i], 1);
        (*ids_)[original] = std::move(batch.ids[i]);
        rows_.push_back(ZdsRow{static_cast<std::int64_t>(original), nullptr});
        listed_.push_back(static_cast<std::int64_t>(original));
        if (applied_) {
            view_.push_back(tableFirst + static_cast<int>(i));  // sorted again once all are in
        }
    }
    endInsertRows();
    if (columns_.isEmpty()) {
        addSampleColumns();
    }
    emit loadingProgress(documentCount(), false);
}

void ZdsTableModel::finishLoading() {
    loaded_ = true;
    // A sort asked for while rows were still coming sorts them all now.
    const auto spec = pendingSort_ ? pendingSort_ : applied_;
    if (spec && runner_) {
        runSort(*runner_, spec);
    }
    emit loadingProgress(documentCount(), true);
}

void ZdsTableModel::addSampleColumns() {
    QStringList keys;
    const ZdsRowReader r = reader();
    for (int i = 0; i < std::min(kSampleRows, documentCount()); ++i) {
        const ordered_json doc = ordered_json::parse(r.text(rows_[std::size_t(i)]), nullptr, false);
        if (!doc.is_object()) {
            continue;
        }
        for (const auto& item : doc.items()) {
            const QString key = QString::fromStdString(item.key());
            if (item.key() != "_id" && !keys.contains(key)) {
                keys << key;
            }
        }
    }
    if (keys.isEmpty()) {
        return;
    }
    beginInsertColumns({}, 1, static_cast<int>(keys.size()));
    columns_ = keys;
    endInsertColumns();
}

void ZdsTableModel::countId(const std::string& id, int delta) {
    auto it = idCounts_.try_emplace(id, 0).first;
    it->second += delta;
    if (it->second <= 0) {
        idCounts_.erase(it);
    }
}

ZdsRowReader ZdsTableModel::reader() const {
    return ZdsRowReader{dataset_, collection_, ids_};
}

// ---- Qt model ----

int ZdsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : documentCount();
}

int ZdsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 1 + static_cast<int>(columns_.size());
}

int ZdsTableModel::storedIndex(int tableRow) const {
    if (tableRow < 0 || tableRow >= documentCount()) {
        return -1;
    }
    return applied_ == nullptr ? tableRow : view_[static_cast<std::size_t>(tableRow)];
}

int ZdsTableModel::tableRow(int stored) const {
    return applied_ == nullptr ? stored : viewRowOf(stored);
}

const void* ZdsTableModel::parsedRow(int stored) const {
    auto& rows = cache_->rows;
    auto it = rows.find(stored);
    if (it == rows.end()) {
        if (rows.size() >= kParsedCacheRows) {
            rows.clear();
        }
        it = rows.emplace(stored, ordered_json::parse(text(stored), nullptr, false)).first;
    }
    return &it->second;
}

QString ZdsTableModel::cell(int stored, int column) const {
    if (column == 0) {
        return QString::fromStdString(id(stored));
    }
    if (!rowReady(stored)) {
        return QStringLiteral("…");  // on its way from the server
    }
    const auto& doc = *static_cast<const ordered_json*>(parsedRow(stored));
    if (doc.is_discarded()) {
        return column == 1 ? tr("(not JSON)") : QString();
    }
    const ordered_json* v = memberAt(doc, columnPointer(columns_[column - 1]));
    return v == nullptr ? QString() : QString::fromStdString(cellText(*v, kCellChars));
}

QVariant ZdsTableModel::data(const QModelIndex& index, int role) const {
    const int stored = storedIndex(index.row());
    if (!index.isValid() || stored < 0) {
        return {};
    }
    switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            return cell(stored, index.column());
        case Qt::FontRole:
            if (rows_[std::size_t(stored)].changed()) {
                QFont font;
                font.setItalic(true);
                return font;
            }
            return {};
        case Qt::ForegroundRole:
            if (index.column() == 0 && idCounts_.count(id(stored)) != 0 &&
                idCounts_.at(id(stored)) > 1) {
                return QColor(Qt::red);
            }
            return {};
        default:
            return {};
    }
}

QVariant ZdsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Vertical) {
        return storedIndex(section) + 1;
    }
    if (section == 0) {
        return QStringLiteral("_id");
    }
    return section - 1 < columns_.size() ? columns_[section - 1] : QVariant();
}

void ZdsTableModel::addColumn(const QString& pointer) {
    const QString p = pointer.trimmed();
    if (p.isEmpty() || columns_.contains(p)) {
        return;
    }
    const int at = columnCount();
    beginInsertColumns({}, at, at);
    columns_ << p;
    endInsertColumns();
}

void ZdsTableModel::removeColumn(int column) {
    if (column < 1 || column > columns_.size()) {
        return;
    }
    beginRemoveColumns({}, column, column);
    columns_.removeAt(column - 1);
    endRemoveColumns();
}

// ---- sorting ----

namespace {

JsonSortKey keyOfRow(const ZdsRowReader& r, const ZdsRow& row, const std::string& pointer) {
    if (pointer.empty()) {
        return JsonSortKey{4, 0, r.id(row)};
    }
    const ordered_json doc = ordered_json::parse(r.text(row), nullptr, false);
    return sortKeyOf(doc.is_discarded() ? nullptr : memberAt(doc, pointer));
}

// True when (a, storedA) goes above (b, storedB); equal keys keep stored order, so a row's
// place is the same whether it was sorted with the others or put in place after an edit.
bool sortsBefore(const JsonSortKey& a, int storedA, const JsonSortKey& b, int storedB,
                 Qt::SortOrder order) {
    const bool ascending = order == Qt::AscendingOrder;
    if (ascending ? a < b : b < a) {
        return true;
    }
    if (ascending ? b < a : a < b) {
        return false;
    }
    return storedA < storedB;
}

}  // namespace

void ZdsTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0) {
        clearSort();
        return;
    }
    if (runner_) {
        startSort(*runner_, column, order);
        return;
    }
    // Without a runner (tests, tiny tables) sort here.
    JobRunner local;
    startSort(local, column, order);
    local.waitForDone();
    QCoreApplication::processEvents();
}

Job* ZdsTableModel::startSort(JobRunner& runner, int column, Qt::SortOrder order) {
    if (column < 0 || column >= columnCount()) {
        return nullptr;
    }
    auto spec = std::make_shared<SortSpec>();
    spec->pointer = column == 0 ? std::string() : columnPointer(columns_[column - 1]);
    spec->order = order;
    spec->title = tr("Sorting by %1").arg(headerData(column, Qt::Horizontal).toString());
    return runSort(runner, std::move(spec));
}

bool ZdsTableModel::isSorting() const {
    return pendingSort_ != nullptr && sortJob_ && sortJob_->isRunning();
}

Job* ZdsTableModel::runSort(JobRunner& runner, std::shared_ptr<const SortSpec> spec) {
    if (sortJob_) {
        sortJob_->cancel();
    }
    pendingSort_ = spec;
    auto rows = std::make_shared<std::vector<ZdsRow>>(rows_);
    const ZdsRowReader r = reader();
    QPointer<ZdsTableModel> self(this);
    const auto generation = ++sortGeneration_;
    sortJob_ = runner.start(spec->title, [rows, r, spec, self, generation](JobContext& context) {
        std::vector<std::pair<JsonSortKey, int>> keys;
        keys.reserve(rows->size());
        for (std::size_t i = 0; i < rows->size(); ++i) {
            if (context.cancelled()) {
                return;
            }
            keys.push_back({keyOfRow(r, (*rows)[i], spec->pointer), int(i)});
            if (i % 4096 == 0) {
                context.setProgress(0.9 * double(i) / double(rows->size()));
            }
        }
        std::sort(keys.begin(), keys.end(), [&spec](const auto& a, const auto& b) {
            return sortsBefore(a.first, a.second, b.first, b.second, spec->order);
        });
        auto view = std::make_shared<std::vector<int>>();
        view->reserve(keys.size());
        for (const auto& k : keys) {
            view->push_back(k.second);
        }
        context.post([self, view, spec, generation] {
            // Rows listed since the snapshot: finishLoading sorts again.
            if (self && self->sortGeneration_ == generation && view->size() == self->rows_.size()) {
                self->pendingSort_.reset();
                self->setView(std::move(*view), spec);
            }
        });
    });
    return sortJob_;
}

void ZdsTableModel::restartPendingSort() {
    if (isSorting() && runner_) {
        runSort(*runner_, pendingSort_);
    }
}

void ZdsTableModel::setView(std::vector<int> view, std::shared_ptr<const SortSpec> spec) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList from = persistentIndexList();
    std::vector<int> stored;
    stored.reserve(static_cast<std::size_t>(from.size()));
    for (const QModelIndex& index : from) {
        stored.push_back(storedIndex(index.row()));
    }
    view_ = std::move(view);
    applied_ = std::move(spec);
    std::vector<int> rowOf(rows_.size(), -1);
    for (int row = 0; row < documentCount(); ++row) {
        rowOf[static_cast<std::size_t>(storedIndex(row))] = row;
    }
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype i = 0; i < from.size(); ++i) {
        const int s = stored[static_cast<std::size_t>(i)];
        to << (s < 0 ? QModelIndex() : index(rowOf[static_cast<std::size_t>(s)], from[i].column()));
    }
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void ZdsTableModel::clearSort() {
    ++sortGeneration_;
    if (sortJob_) {
        sortJob_->cancel();
    }
    pendingSort_.reset();
    if (applied_) {
        setView({}, nullptr);
    }
}

int ZdsTableModel::viewRowOf(int stored) const {
    const auto it = std::find(view_.begin(), view_.end(), stored);
    return it == view_.end() ? -1 : static_cast<int>(it - view_.begin());
}

int ZdsTableModel::sortedRowFor(const ZdsRow& row, int stored, int skip) const {
    const ZdsRowReader r = reader();
    const JsonSortKey key = keyOfRow(r, row, applied_->pointer);
    int low = 0;
    int high = static_cast<int>(view_.size()) - (skip >= 0 ? 1 : 0);
    while (low < high) {
        const int mid = low + (high - low) / 2;
        const int other = view_[static_cast<std::size_t>(skip >= 0 && mid >= skip ? mid + 1 : mid)];
        const JsonSortKey otherKey = keyOfRow(r, rows_[std::size_t(other)], applied_->pointer);
        if (sortsBefore(otherKey, other, key, stored, applied_->order)) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return low;
}

void ZdsTableModel::insertSorted(int stored, const ZdsRow& row) {
    const int at = sortedRowFor(row, stored, -1);
    beginInsertRows({}, at, at);
    rows_.insert(rows_.begin() + stored, row);
    countId(reader().id(row), 1);
    for (int& s : view_) {
        s += s >= stored ? 1 : 0;
    }
    view_.insert(view_.begin() + at, stored);
    endInsertRows();
}

void ZdsTableModel::removeSorted(int stored) {
    const int at = viewRowOf(stored);
    beginRemoveRows({}, at, at);
    countId(reader().id(rows_[std::size_t(stored)]), -1);
    rows_.erase(rows_.begin() + stored);
    view_.erase(view_.begin() + at);
    for (int& s : view_) {
        s -= s > stored ? 1 : 0;
    }
    endRemoveRows();
}

void ZdsTableModel::moveSorted(int stored, const ZdsRow& row) {
    const int from = viewRowOf(stored);
    const int to = sortedRowFor(row, stored, from);
    if (to == from) {
        return;
    }
    beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    view_.erase(view_.begin() + from);
    view_.insert(view_.begin() + to, stored);
    endMoveRows();
}

// ---- rows ----

std::string ZdsTableModel::text(int stored) const {
    return reader().text(rows_[static_cast<std::size_t>(stored)]);
}

std::string ZdsTableModel::id(int stored) const {
    return reader().id(rows_[static_cast<std::size_t>(stored)]);
}

Region ZdsTableModel::documentRegion(int stored) const {
    const ZdsRow& r = rows_[static_cast<std::size_t>(stored)];
    return r.changed() ? Region{} : reader().region(r.original);
}

Region ZdsTableModel::indexEntryRegion(int stored) const {
    const ZdsRow& r = rows_[static_cast<std::size_t>(stored)];
    if (r.changed() || r.original < 0 || !usesIndex_ || !live_ || collection_->zdx() == nullptr) {
        return {};
    }
    return collection_->zdx()->entry(live_->entry(static_cast<std::uint64_t>(r.original))).entry;
}

int ZdsTableModel::storedOfOriginal(std::int64_t original) const {
    if (original < 0) {
        return -1;
    }
    const auto it = std::find_if(rows_.begin(), rows_.end(),
                                 [original](const ZdsRow& r) { return r.original == original; });
    return it == rows_.end() ? -1 : static_cast<int>(it - rows_.begin());
}

std::int64_t ZdsTableModel::originalAtOffset(std::uint64_t offset) const {
    if (!live_ || !collection_->data) {
        return -1;
    }
    const auto i = live_->atOffset(collection_->data.get(), offset);
    return i ? static_cast<std::int64_t>(*i) : -1;
}

std::int64_t ZdsTableModel::originalForNode(const Node& node) const {
    const Node* c = node.parent();
    while (c != nullptr && c->kind() != "zds.collection") {
        c = c->parent();
    }
    if (c == nullptr || c->label() != collection_->name() || !live_) {
        return -1;
    }
    if (node.kind() == "zds.document") {
        const Region r = node.region();
        const auto i = r.valid() ? live_->atOffset(r.source, r.offset) : live_->find(node.label());
        return i ? static_cast<std::int64_t>(*i) : -1;
    }
    if (node.kind() != "zds.zdx.entry" || collection_->zdx() == nullptr) {
        return -1;
    }
    const zds::ZdxIndex& zdx = *collection_->zdx();
    const std::uint64_t header = zdx.layout() == zds::ZdxLayout::Binary ? 1 : 0;
    if (node.row() < header) {
        return -1;
    }
    const std::uint64_t entry = node.row() - header;
    if (usesIndex_) {
        if (const auto i = live_->forEntry(entry)) {
            return static_cast<std::int64_t>(*i);
        }
    }
    const zds::ZdxEntry e = zdx.entry(entry);  // not the key's last entry, or an unused index
    return e.parsed ? originalAtOffset(e.offset) : -1;
}

bool ZdsTableModel::isEdited() const {
    if (rows_.size() != listed_.size()) {
        return true;
    }
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].changed() || rows_[i].original != listed_[i]) {
            return true;
        }
    }
    return false;
}

bool ZdsTableModel::idInUse(const std::string& id) const {
    return idCounts_.count(id) != 0;
}

std::string ZdsTableModel::freeId(const std::string& base) const {
    if (!base.empty() && !idInUse(base)) {
        return base;
    }
    const std::string stem = base.empty() ? std::string("doc") : base;
    for (int n = 2;; ++n) {
        std::string candidate = stem + "_" + std::to_string(n);
        if (candidate.size() <= 255 && !idInUse(candidate)) {
            return candidate;
        }
        if (candidate.size() > 255) {
            return freeId("doc");
        }
    }
}

std::string ZdsTableModel::checkText(const std::string& json, int replacing,
                                     std::string* id) const {
    const ZdsTextCheck check = checkZdsDocumentText(json);
    if (!check.ok) {
        if (check.line > 0) {
            return tr("line %1, column %2: %3")
                .arg(check.line)
                .arg(check.column)
                .arg(QString::fromStdString(check.error))
                .toStdString();
        }
        return check.error;
    }
    const auto it = idCounts_.find(check.id);
    int uses = it == idCounts_.end() ? 0 : it->second;
    if (replacing >= 0 && replacing < documentCount() && this->id(replacing) == check.id) {
        --uses;
    }
    if (uses > 0) {
        return "another document already has the id \"" + check.id + "\"";
    }
    if (id != nullptr) {
        *id = check.id;
    }
    return {};
}

void ZdsTableModel::insertRows(int stored, const std::vector<ZdsRow>& rows) {
    cache_->rows.clear();
    if (applied_) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
            insertSorted(stored + static_cast<int>(i), rows[i]);
        }
    } else {
        beginInsertRows({}, stored, stored + static_cast<int>(rows.size()) - 1);
        rows_.insert(rows_.begin() + stored, rows.begin(), rows.end());
        for (const ZdsRow& r : rows) {
            countId(reader().id(r), 1);
        }
        endInsertRows();
    }
    restartPendingSort();
    emit rowsEdited();
}

void ZdsTableModel::removeStoredRows(int stored, int count) {
    cache_->rows.clear();
    if (applied_) {
        for (int p = stored + count - 1; p >= stored; --p) {
            removeSorted(p);
        }
    } else {
        beginRemoveRows({}, stored, stored + count - 1);
        const auto first = rows_.begin() + stored;
        for (auto it = first; it != first + count; ++it) {
            countId(reader().id(*it), -1);
        }
        rows_.erase(first, first + count);
        endRemoveRows();
    }
    restartPendingSort();
    emit rowsEdited();
}

void ZdsTableModel::setRow(int stored, const ZdsRow& row) {
    cache_->rows.clear();
    if (applied_) {
        moveSorted(stored, row);  // the edited row goes where the sort puts it
    }
    ZdsRow& target = rows_[static_cast<std::size_t>(stored)];
    countId(reader().id(target), -1);
    target = row;
    countId(reader().id(target), 1);
    const int t = tableRow(stored);
    if (t >= 0) {
        emit dataChanged(index(t, 0), index(t, columnCount() - 1));
    }
    restartPendingSort();
    emit rowsEdited();
}

}  // namespace strata::model
