#include "zds_search_results.h"

#include <memory>

#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "zds_table_model.h"

namespace strata::model {

namespace {

constexpr std::size_t kBatchHits = 256;

std::span<const std::uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

ZdsSearchResults::ZdsSearchResults(QObject* parent) : QAbstractTableModel(parent) {}

ZdsSearchResults::~ZdsSearchResults() {
    cancel();
}

void ZdsSearchResults::cancel() {
    if (job_) {
        job_->cancel();
    }
}

void ZdsSearchResults::clear() {
    cancel();
    ++generation_;
    beginResetModel();
    hits_.clear();
    endResetModel();
}

Job* ZdsSearchResults::start(JobRunner& runner, ZdsTableModel* table,
                             const strata::zds::ZdsQuery& query, QString* error) {
    clear();
    std::string why;
    auto compiled = strata::zds::ZdsMatcher::compile(query, &why);
    if (!compiled) {
        if (error != nullptr) {
            *error = QString::fromStdString(why);
        }
        return nullptr;
    }
    if (!table->loaded()) {
        if (error != nullptr) {
            *error = tr("the documents are still being listed");
        }
        return nullptr;
    }
    table_ = table;
    auto matcher = std::make_shared<const strata::zds::ZdsMatcher>(std::move(*compiled));
    auto rows = std::make_shared<const std::vector<ZdsRow>>(table->rows());
    const ZdsRowReader reader = table->reader();
    QPointer<ZdsSearchResults> self(this);
    const auto generation = generation_;
    auto work = [rows, reader, matcher, self, generation](JobContext& context) {
        std::vector<ZdsSearchRow> batch;
        std::size_t total = 0;
        auto flush = [&](bool last) {
            context.post([self, generation, hits = std::move(batch), total, last]() mutable {
                if (self && self->generation_ == generation) {
                    self->append(std::move(hits));
                    emit self->searchFinished(int(total), last);
                }
            });
            batch = {};
        };
        const std::size_t n = rows->size();
        for (std::size_t i = 0; i < n && !context.cancelled() && total < kMaxHits; ++i) {
            const ZdsRow& row = (*rows)[i];
            const std::string id = reader.id(row);
            std::string snippet;
            if (matcher->matches(id, bytesOf(reader.text(row)), &snippet)) {
                batch.push_back({int(i), id, std::move(snippet)});
                ++total;
            }
            if (batch.size() >= kBatchHits) {
                flush(false);
            }
            if (i % 1024 == 0) {
                context.setProgress(double(i) / double(n), tr("%1 found").arg(total));
            }
        }
        const bool complete = !context.cancelled() && total < kMaxHits;
        flush(complete);
        context.setProgress(1.0, tr("%1 found").arg(total));
    };
    job_ = runner.start(tr("Searching %1").arg(QString::fromStdString(table->collection().name())),
                        work);
    return job_;
}

void ZdsSearchResults::append(std::vector<ZdsSearchRow> hits) {
    if (hits.empty()) {
        return;
    }
    const int first = static_cast<int>(hits_.size());
    beginInsertRows({}, first, first + static_cast<int>(hits.size()) - 1);
    for (auto& h : hits) {
        hits_.push_back(std::move(h));
    }
    endInsertRows();
}

int ZdsSearchResults::storedPosition(int row) const {
    if (row < 0 || row >= static_cast<int>(hits_.size()) || !table_) {
        return -1;
    }
    const ZdsSearchRow& hit = hits_[static_cast<std::size_t>(row)];
    if (hit.stored < table_->documentCount() && table_->id(hit.stored) == hit.id) {
        return hit.stored;
    }
    for (int i = 0; i < table_->documentCount(); ++i) {
        if (table_->id(i) == hit.id) {
            return i;
        }
    }
    return -1;
}

int ZdsSearchResults::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(hits_.size());
}

int ZdsSearchResults::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 3;
}

QVariant ZdsSearchResults::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) {
        return {};
    }
    const ZdsSearchRow& hit = hits_[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
        case 0:
            return hit.stored + 1;
        case 1:
            return QString::fromStdString(hit.id);
        default:
            return QString::fromStdString(hit.snippet);
    }
}

QVariant ZdsSearchResults::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) {
        return {};
    }
    switch (section) {
        case 0:
            return tr("row");
        case 1:
            return QStringLiteral("_id");
        case 2:
            return tr("match");
        default:
            return {};
    }
}

}  // namespace strata::model
