#include "shardlake_root_model.h"

#include <QStringList>

#include "model/core/counted_text.h"
#include "shardlake_alias_editor.h"
#include "shardlake_session.h"

namespace strata::model {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString number(const std::optional<std::uint64_t>& value) {
    return value ? QString::number(*value) : QStringLiteral("?");
}

QList<QStandardItem*> makeRow(const QString& kind, const QString& name, const QString& label,
                              const QString& details, const QString& status) {
    QList<QStandardItem*> row{new QStandardItem(label), new QStandardItem(details),
                              new QStandardItem(status)};
    for (QStandardItem* item : row) {
        item->setEditable(false);
        item->setData(kind, ShardlakeRootModel::ItemKindRole);
        item->setData(name, ShardlakeRootModel::ItemNameRole);
    }
    return row;
}

}  // namespace

ShardlakeRootModel::ShardlakeRootModel(const ShardlakeSession& session,
                                       ShardlakeAliasEditor* editor, QObject* parent)
    : QStandardItemModel(parent), session_(session), editor_(editor) {
    if (editor != nullptr) {
        connect(editor, &ShardlakeAliasEditor::aliasChanged, this, &ShardlakeRootModel::rebuild);
    }
    rebuild();
}

void ShardlakeRootModel::rebuild() {
    clear();
    setHorizontalHeaderLabels({tr("Name"), tr("Details"), tr("Status")});
    auto addGroup = [this](const QString& label, int count) {
        QList<QStandardItem*> row =
            makeRow(QStringLiteral("group"), label, label, counted(count, tr("item")), {});
        appendRow(row);
        return row.front();
    };
    addDatasets(addGroup(tr("Datasets"), static_cast<int>(session_.datasets().size())));
    addIndexes(addGroup(tr("Index versions"), static_cast<int>(session_.indexes().size())));
    const int aliasCount = editor_ ? static_cast<int>(editor_->aliasNames().size())
                                   : static_cast<int>(session_.aliases().size());
    addAliases(addGroup(tr("Aliases"), aliasCount));
}

void ShardlakeRootModel::addDatasets(QStandardItem* group) {
    for (const ShardlakeDatasetInfo& dataset : session_.datasets()) {
        const QString details =
            tr("%1 vectors × %2 dims, embedding %3")
                .arg(number(dataset.count), number(dataset.dims),
                     dataset.embeddingVersion.empty() ? QStringLiteral("?")
                                                      : qs(dataset.embeddingVersion));
        group->appendRow(makeRow(QStringLiteral("dataset"), qs(dataset.version),
                                 qs(dataset.version), details,
                                 dataset.error.empty() ? tr("ok") : qs(dataset.error)));
    }
}

void ShardlakeRootModel::addIndexes(QStandardItem* group) {
    for (const ShardlakeIndexInfo& index : session_.indexes()) {
        QString details;
        if (index.error.empty()) {
            details = tr("%1, %2 dims, %3 shards, %4 vectors, dataset %5")
                          .arg(qs(index.metric), number(index.dims))
                          .arg(index.shards.size())
                          .arg(number(index.totalVectors), qs(index.datasetVersion));
            if (index.pq) {
                details += tr(", PQ M=%1 K=%2").arg(index.pqM).arg(index.pqK);
            }
        }
        QStringList aliases;
        if (editor_) {
            aliases = editor_->aliasesOf(qs(index.version));
        } else {
            for (const ShardlakeAliasInfo& alias : session_.aliases()) {
                if (alias.target == index.version) {
                    aliases << qs(alias.name);
                }
            }
        }
        QString status = index.error.empty() ? tr("ok") : qs(index.error);
        for (const ShardlakeShardInfo& shard : index.shards) {
            if (!shard.problem.empty()) {
                status = tr("shard %1: %2").arg(qs(shard.key), qs(shard.problem));
                break;
            }
        }
        if (!aliases.isEmpty()) {
            status = tr("served by %1; %2").arg(aliases.join(QStringLiteral(", ")), status);
        }
        group->appendRow(makeRow(QStringLiteral("index"), qs(index.version), qs(index.version),
                                 details.isEmpty() ? tr("manifest unreadable") : details, status));
    }
}

QString ShardlakeRootModel::aliasTarget(const QString& alias, const QString& onDisk) const {
    return editor_ ? editor_->target(alias) : onDisk;
}

void ShardlakeRootModel::addAliases(QStandardItem* group) {
    QStringList names;
    QMap<QString, QString> errors;
    QMap<QString, QString> onDisk;
    for (const ShardlakeAliasInfo& alias : session_.aliases()) {
        names << qs(alias.name);
        errors.insert(qs(alias.name), qs(alias.error));
        onDisk.insert(qs(alias.name), qs(alias.target));
    }
    if (editor_) {
        for (const QString& name : editor_->aliasNames()) {
            if (!names.contains(name)) {
                names << name;
            }
        }
    }
    names.sort();
    for (const QString& name : names) {
        const QString target = aliasTarget(name, onDisk.value(name));
        if (editor_ && target.isEmpty() && errors.value(name).isEmpty()) {
            continue;  // added, then undone
        }
        QString status = errors.value(name);
        if (status.isEmpty()) {
            status = session_.index(target.toStdString()) != nullptr
                         ? tr("ok")
                         : tr("points at a missing index version");
        }
        if (editor_ && target != editor_->savedTarget(name)) {
            status += editor_->savedTarget(name).isEmpty()
                          ? tr(" (new, unsaved)")
                          : tr(" (unsaved; on disk → %1)").arg(editor_->savedTarget(name));
        }
        group->appendRow(
            makeRow(QStringLiteral("alias"), name, name,
                    target.isEmpty() ? tr("(unreadable)") : QStringLiteral("→ ") + target, status));
    }
}

QModelIndex ShardlakeRootModel::indexOf(const QString& kind, const QString& name) const {
    for (int g = 0; g < rowCount(); ++g) {
        const QStandardItem* group = item(g);
        for (int r = 0; r < group->rowCount(); ++r) {
            const QStandardItem* child = group->child(r);
            if (child->data(ItemKindRole).toString() == kind &&
                child->data(ItemNameRole).toString() == name) {
                return child->index();
            }
        }
    }
    return {};
}

}  // namespace strata::model
