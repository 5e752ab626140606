#include "shardlake_query.h"

#include <QObject>

#include <cfloat>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "formats/common/le_reader.h"
#include "formats/shardlake/shardlake_dataset.h"
#include "model/core/job_runner.h"

namespace strata::model {

using namespace strata::shardlake;

namespace {

// Longest pasted query accepted (a 65,536-dim vector fits easily).
constexpr qsizetype kMaxQueryText = 4 << 20;

void locateHits(const LoadedIndex& index, std::vector<ShardlakeQueryHit>& hits,
                const CancelToken* cancel) {
    std::unordered_map<std::uint64_t, std::size_t> wanted;
    for (std::size_t i = 0; i < hits.size(); ++i) {
        wanted.emplace(hits[i].id, i);
    }
    std::size_t found = 0;
    for (std::size_t s = 0; s < index.shards.size() && found < wanted.size(); ++s) {
        const ShardLayout& layout = index.shards[s].layout;
        const ByteSource& source = *index.shards[s].source;
        for (std::uint64_t r = 0; r < layout.recordsPresent(); ++r) {
            if ((r & 0xffff) == 0 && cancel != nullptr && cancel->cancelled()) {
                return;
            }
            const auto id = readLe<std::uint64_t>(source, layout.recordOffset(r));
            const auto it = id ? wanted.find(*id) : wanted.end();
            if (it != wanted.end() && hits[it->second].shard < 0) {
                hits[it->second].shard = static_cast<int>(s);
                hits[it->second].record = r;
                ++found;
            }
        }
    }
}

}  // namespace

std::optional<std::vector<float>> parseQueryVector(const QString& text, QString* error) {
    auto fail = [error](const QString& why) {
        if (error != nullptr) {
            *error = why;
        }
        return std::nullopt;
    };
    if (text.size() > kMaxQueryText) {
        return fail(QObject::tr("the query text is too long"));
    }
    const nlohmann::json doc = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (doc.is_discarded() || !doc.is_array()) {
        return fail(QObject::tr("the query must be a JSON array of numbers"));
    }
    if (doc.empty()) {
        return fail(QObject::tr("the query array is empty"));
    }
    std::vector<float> out;
    out.reserve(doc.size());
    for (const auto& value : doc) {
        if (!value.is_number()) {
            return fail(QObject::tr("element %1 is not a number").arg(out.size()));
        }
        const double d = value.get<double>();
        if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(FLT_MAX)) {
            return fail(QObject::tr("element %1 does not fit in f32").arg(out.size()));
        }
        out.push_back(static_cast<float>(d));
    }
    return out;
}

std::vector<float> findVectorById(const LoadedIndex& index, const Store& store,
                                  const std::string& vectorsKey, std::uint64_t id, QString* error,
                                  const CancelToken* cancel) {
    if (!index.pq) {
        for (const LoadedIndex::Shard& shard : index.shards) {
            const ShardLayout& layout = shard.layout;
            for (std::uint64_t r = 0; r < layout.recordsPresent(); ++r) {
                if ((r & 0xffff) == 0 && cancel != nullptr && cancel->cancelled()) {
                    return {};
                }
                if (readLe<std::uint64_t>(*shard.source, layout.recordOffset(r)) == id) {
                    return readF32s(*shard.source, layout.recordOffset(r) + 8, layout.dims);
                }
            }
        }
    }
    std::vector<float> out;
    if (ByteSourcePtr vectors = vectorsKey.empty() ? nullptr : store.source(vectorsKey)) {
        forEachDatasetLine(*vectors, [&](const DatasetLine& line) {
            if (line.id == id && line.hasValues) {
                out.assign(line.values.begin(), line.values.end());
                return false;
            }
            return cancel == nullptr || !cancel->cancelled();
        });
    }
    if (out.empty() && error != nullptr) {
        *error = QObject::tr("no record with id %1").arg(id);
    }
    return out;
}

ShardlakeQueryOutcome runShardlakeQuery(const LoadedIndex& index, const Store& store,
                                        const ShardlakeQuerySpec& spec, const CancelToken* cancel) {
    ShardlakeQueryOutcome outcome;
    outcome.query = spec.vector;
    if (outcome.query.empty() && spec.id) {
        outcome.query =
            findVectorById(index, store, spec.vectorsKey, *spec.id, &outcome.error, cancel);
    }
    if (outcome.query.empty()) {
        if (outcome.error.isEmpty()) {
            outcome.error = QObject::tr("no query vector");
        }
        outcome.cancelled = cancel != nullptr && cancel->cancelled();
        return outcome;
    }
    SearchOptions options;
    options.k = spec.k;
    options.metric = spec.metric;
    options.nprobe = spec.nprobe;
    options.cancel = cancel;
    outcome.probed = routeQuery(index, outcome.query, spec.nprobe).size();
    const SearchResult result = searchIndex(index, outcome.query, options);
    if (!result.error.empty()) {
        outcome.error = QString::fromStdString(result.error);
        return outcome;
    }
    for (const Hit& hit : result.hits) {
        outcome.hits.push_back({hit.id, hit.score, -1, 0});
    }
    locateHits(index, outcome.hits, cancel);
    outcome.cancelled = cancel != nullptr && cancel->cancelled();
    return outcome;
}

Job* startShardlakeQueryJob(JobRunner& runner, std::shared_ptr<const LoadedIndex> index,
                            std::shared_ptr<const Store> store, ShardlakeQuerySpec spec,
                            std::function<void(const ShardlakeQueryOutcome&)> done) {
    const QString title = QObject::tr("Query %1").arg(QString::fromStdString(index->version));
    return runner.start(title, [index, store, spec = std::move(spec), done](JobContext& context) {
        context.setProgress(0.0, QObject::tr("searching"));
        auto outcome = std::make_shared<ShardlakeQueryOutcome>(
            runShardlakeQuery(*index, *store, spec, &context.cancelToken()));
        if (outcome->cancelled) {
            return;
        }
        if (!outcome->error.isEmpty()) {
            context.fail(outcome->error);
            return;
        }
        context.setProgress(1.0);
        context.post([done, outcome] { done(*outcome); });
    });
}

ShardlakeQueryResultsModel::ShardlakeQueryResultsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ShardlakeQueryResultsModel::setHits(std::vector<ShardlakeQueryHit> hits,
                                         std::vector<std::string> shardKeys) {
    beginResetModel();
    hits_ = std::move(hits);
    shardKeys_ = std::move(shardKeys);
    endResetModel();
}

int ShardlakeQueryResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(hits_.size());
}

int ShardlakeQueryResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ShardlakeQueryResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || static_cast<std::size_t>(index.row()) >= hits_.size()) {
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() != ShardColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    const ShardlakeQueryHit& hit = hits_[static_cast<std::size_t>(index.row())];
    const bool located = hit.shard >= 0;
    switch (index.column()) {
        case RankColumn:
            return index.row() + 1;
        case IdColumn:
            return QString::number(hit.id);
        case ScoreColumn:
            return QString::number(static_cast<double>(hit.score), 'g', 9);
        case ShardColumn:
            if (!located) {
                return tr("(not found)");
            }
            return static_cast<std::size_t>(hit.shard) < shardKeys_.size()
                       ? QString::fromStdString(shardKeys_[static_cast<std::size_t>(hit.shard)])
                       : QString::number(hit.shard);
        case RecordColumn:
            return located ? QString::number(hit.record) : QString();
        default:
            return {};
    }
}

QVariant ShardlakeQueryResultsModel::headerData(int section, Qt::Orientation orientation,
                                                int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case RankColumn:
            return tr("#");
        case IdColumn:
            return tr("Id");
        case ScoreColumn:
            return tr("Score");
        case ShardColumn:
            return tr("Shard");
        case RecordColumn:
            return tr("Record");
        default:
            return {};
    }
}

}  // namespace strata::model
