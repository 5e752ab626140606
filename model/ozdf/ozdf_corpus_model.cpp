#include "ozdf_corpus_model.h"

#include <QLocale>

namespace strata::model {

OzdfCorpusModel::OzdfCorpusModel(OzdfSession& session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
    rebuild();
    connect(&session, &OzdfSession::documentChanged, this, [this](int row) {
        rows_.at(static_cast<std::size_t>(row)) = rowOf(row);
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    });
    connect(&session, &OzdfSession::aboutToReset, this, [this] { beginResetModel(); });
    connect(&session, &OzdfSession::wasReset, this, [this] {
        rebuild();
        endResetModel();
    });
    connect(&session, &OzdfSession::documentInserted, this, [this](int row) {
        beginInsertRows({}, row, row);
        rows_.insert(rows_.begin() + row, rowOf(row));
        endInsertRows();
    });
    connect(&session, &OzdfSession::documentRemoved, this, [this](int row) {
        beginRemoveRows({}, row, row);
        rows_.erase(rows_.begin() + row);
        endRemoveRows();
    });
}

OzdfCorpusModel::Row OzdfCorpusModel::rowOf(int index) const {
    const ozdf::Document& document = session_.document(index);
    return {QString::fromStdString(document.filename), countsOf(document), document.accepted(),
            document.isDirectory, session_.revision(index) != 0};
}

void OzdfCorpusModel::rebuild() {
    rows_.clear();
    rows_.reserve(static_cast<std::size_t>(session_.documentCount()));
    for (int i = 0; i < session_.documentCount(); ++i) {
        rows_.push_back(rowOf(i));
    }
}

int OzdfCorpusModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int OzdfCorpusModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

OzdfCorpusModel::Counts OzdfCorpusModel::countsOf(const ozdf::Document& document) {
    Counts c;
    for (const ozdf::Element& e : document.elements) {
        c.blocks += e.kind == ozdf::ElementKind::Comment ? 0 : 1;
        c.paragraphs += static_cast<qint64>(e.paragraphs.size());
        c.textBytes += static_cast<qint64>(e.text.size());
        for (const ozdf::Paragraph& p : e.paragraphs) {
            c.textBytes += static_cast<qint64>(p.text.size());
        }
        c.items += static_cast<qint64>(e.items.size());
        for (const ozdf::Item& item : e.items) {
            c.paragraphs += static_cast<qint64>(item.paragraphs.size());
            for (const ozdf::Paragraph& p : item.paragraphs) {
                c.textBytes += static_cast<qint64>(p.text.size());
            }
        }
    }
    return c;
}

QVariant OzdfCorpusModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() ||
        (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole)) {
        return {};
    }
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const Counts& c = row.counts;
    const auto number = [role](qint64 n) -> QVariant {
        return role == kSortRole ? QVariant(n) : QVariant(QLocale().toString(n));
    };
    switch (index.column()) {
        case Name:
            return row.name;
        case Kind:
            return row.directory ? tr("directory") : tr("standalone");
        case Blocks:
            return number(c.blocks);
        case Items:
            return number(c.items);
        case Paragraphs:
            return number(c.paragraphs);
        case TextBytes:
            return role == kSortRole ? QVariant(c.textBytes)
                                     : QVariant(QLocale().formattedDataSize(c.textBytes));
        case Status:
            if (!row.accepted) {
                return tr("errors");
            }
            return row.edited ? tr("edited") : QString();
        default:
            return {};
    }
}

QVariant OzdfCorpusModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const names[] = {"Document",   "Kind", "Blocks", "Items",
                                        "Paragraphs", "Text", "Status"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace strata::model
