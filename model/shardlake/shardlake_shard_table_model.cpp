#include "shardlake_shard_table_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QPointer>

#include <algorithm>

#include "formats/common/checksums.h"
#include "model/core/job_runner.h"

namespace strata::model {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

constexpr std::uint64_t kHashPiece = 4u << 20;

QString hex16(std::uint64_t value) {
    return QStringLiteral("%1").arg(value, 16, 16, QLatin1Char('0'));
}

}  // namespace

ShardlakeShardTableModel::ShardlakeShardTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ShardlakeShardTableModel::setShards(std::vector<ShardlakeShardInfo> shards) {
    beginResetModel();
    shards_ = std::move(shards);
    computed_ = QVector<QString>(static_cast<int>(shards_.size()));
    checks_ = QVector<Check>(static_cast<int>(shards_.size()), Check::Pending);
    for (std::size_t i = 0; i < shards_.size(); ++i) {
        if (!shards_[i].source) {
            checks_[static_cast<int>(i)] = Check::Missing;
        }
    }
    ++generation_;
    endResetModel();
}

const ShardlakeShardInfo* ShardlakeShardTableModel::shard(int row) const {
    return row >= 0 && static_cast<std::size_t>(row) < shards_.size()
               ? &shards_[static_cast<std::size_t>(row)]
               : nullptr;
}

ShardlakeShardTableModel::Check ShardlakeShardTableModel::check(int row) const {
    return row >= 0 && row < checks_.size() ? checks_[row] : Check::Missing;
}

QString ShardlakeShardTableModel::computedFingerprint(int row) const {
    return row >= 0 && row < computed_.size() ? computed_[row] : QString();
}

void ShardlakeShardTableModel::setComputed(int row, const QString& fingerprint) {
    const ShardlakeShardInfo* info = shard(row);
    if (info == nullptr) {
        return;
    }
    computed_[row] = fingerprint;
    if (fingerprint.isEmpty()) {
        checks_[row] = Check::Running;
    } else if (info->manifestFingerprint.empty()) {
        checks_[row] = Check::NoFingerprint;
    } else {
        checks_[row] =
            qs(info->manifestFingerprint) == fingerprint ? Check::Match : Check::Mismatch;
    }
    emit dataChanged(index(row, FingerprintColumn), index(row, StatusColumn));
}

Job* ShardlakeShardTableModel::startFingerprints(JobRunner& runner) {
    std::vector<std::pair<int, ByteSourcePtr>> work;
    for (std::size_t i = 0; i < shards_.size(); ++i) {
        if (shards_[i].source) {
            work.emplace_back(static_cast<int>(i), shards_[i].source);
        }
    }
    std::uint64_t total = 0;
    for (const auto& item : work) {
        total += item.second->size();
    }
    QPointer<ShardlakeShardTableModel> self(this);
    const int generation = generation_;
    auto deliver = [self, generation](int row, QString fingerprint) {
        if (self && self->generation_ == generation) {
            self->setComputed(row, fingerprint);
        }
    };
    return runner.start(tr("Shard fingerprints"), [work, total, deliver](JobContext& context) {
        std::uint64_t done = 0;
        for (const auto& [row, source] : work) {
            context.post([deliver, r = row] { deliver(r, {}); });
            std::uint64_t state = kFnv1a64Basis;
            for (std::uint64_t at = 0; at < source->size(); at += kHashPiece) {
                if (context.cancelled()) {
                    return;
                }
                const ByteView piece = source->view(at, kHashPiece);
                state = fnv1a64(piece.bytes, state);
                done += piece.size();
                context.setProgress(
                    total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total),
                    QString::fromStdString(source->name()));
            }
            context.post([deliver, r = row, hex = hex16(state)] { deliver(r, hex); });
        }
    });
}

int ShardlakeShardTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(shards_.size());
}

int ShardlakeShardTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ShardlakeShardTableModel::statusText(int row) const {
    const ShardlakeShardInfo& info = shards_[static_cast<std::size_t>(row)];
    QString header = info.problem.empty() ? QString() : qs(info.problem);
    if (header.isEmpty() && info.layout && info.manifestCount &&
        *info.manifestCount != info.layout->vectorCount) {
        header = tr("manifest says %1 records").arg(*info.manifestCount);
    }
    QString fingerprint;
    switch (checks_[row]) {
        case Check::Pending:
            fingerprint = tr("fingerprint not checked");
            break;
        case Check::Running:
            fingerprint = tr("hashing…");
            break;
        case Check::Match:
            fingerprint = tr("fingerprint ok");
            break;
        case Check::Mismatch:
            fingerprint =
                tr("fingerprint mismatch (manifest %1)").arg(qs(info.manifestFingerprint));
            break;
        case Check::NoFingerprint:
            fingerprint = tr("no fingerprint in the manifest");
            break;
        case Check::Missing:
            fingerprint = tr("file missing");
            break;
    }
    return header.isEmpty() ? fingerprint : header + QStringLiteral("; ") + fingerprint;
}

QVariant ShardlakeShardTableModel::data(const QModelIndex& index, int role) const {
    const ShardlakeShardInfo* info = shard(index.row());
    if (info == nullptr) {
        return {};
    }
    const auto& layout = info->layout;
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        const Check state = checks_[index.row()];
        const bool bad =
            state == Check::Mismatch || state == Check::Missing || !info->problem.empty();
        return bad ? QVariant(QBrush(QColor(0xc0, 0x20, 0x20))) : QVariant();
    }
    if (role == Qt::TextAlignmentRole && index.column() >= ShardIdColumn &&
        index.column() <= SizeColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    switch (index.column()) {
        case KeyColumn:
            return qs(info->key);
        case ShardIdColumn:
            return QString::number(info->shardId);
        case RecordsColumn:
            return layout ? QLocale().toString(static_cast<qulonglong>(layout->vectorCount))
                          : QString();
        case DimsColumn:
            return layout ? QString::number(layout->dims) : QString();
        case KindColumn:
            return layout
                       ? (layout->isPq() ? tr("PQ (M=%1, K=%2)").arg(layout->pqM).arg(layout->pqK)
                                         : tr("raw f32"))
                       : QString();
        case SizeColumn:
            return info->source
                       ? QLocale().formattedDataSize(static_cast<qint64>(info->source->size()))
                       : QString();
        case FingerprintColumn:
            return computed_[index.row()].isEmpty() ? qs(info->manifestFingerprint)
                                                    : computed_[index.row()];
        case StatusColumn:
            return statusText(index.row());
        default:
            return {};
    }
}

QVariant ShardlakeShardTableModel::headerData(int section, Qt::Orientation orientation,
                                              int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case KeyColumn:
            return tr("Shard");
        case ShardIdColumn:
            return tr("Id");
        case RecordsColumn:
            return tr("Records");
        case DimsColumn:
            return tr("Dims");
        case KindColumn:
            return tr("Kind");
        case SizeColumn:
            return tr("Size");
        case FingerprintColumn:
            return tr("Fingerprint");
        case StatusColumn:
            return tr("Status");
        default:
            return {};
    }
}

}  // namespace strata::model
