#include "ozdf_document_model.h"

namespace strata::model {

namespace {

// "1 paragraph", "3 paragraphs".
QString counted(std::size_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString elementLabel(const ozdf::Element& e) {
    const QString name = QString::fromStdString(e.name);
    switch (e.kind) {
        case ozdf::ElementKind::Block:
            return QStringLiteral("%1  (%2)")
                .arg(name, counted(e.paragraphs.size(), "paragraph", "paragraphs"));
        case ozdf::ElementKind::List:
            return QStringLiteral("[%1]  (%2)").arg(name, counted(e.items.size(), "item", "items"));
        case ozdf::ElementKind::ExternalList:
            return QStringLiteral("[[%1]]  (%2)")
                .arg(name, counted(e.items.size(), "part file", "part files"));
        case ozdf::ElementKind::Comment:
            return QStringLiteral("COMMENT  %1")
                .arg(QString::fromStdString(e.text).left(60).simplified());
    }
    return name;
}

}  // namespace

OzdfDocumentModel::OzdfDocumentModel(OzdfSession& session, QObject* parent)
    : QAbstractItemModel(parent), session_(session) {
    connect(&session, &OzdfSession::documentChanged, this, [this](int index) {
        if (index == document_) {
            beginResetModel();
            rebuild();
            endResetModel();
        }
    });
    connect(&session, &OzdfSession::aboutToReset, this, [this] { beginResetModel(); });
    connect(&session, &OzdfSession::wasReset, this, [this] {
        document_ = document_ < session_.documentCount() ? document_ : -1;
        rebuild();
        endResetModel();
    });
    connect(&session, &OzdfSession::documentInserted, this, [this](int index) {
        if (document_ >= index) {
            ++document_;
        }
    });
    connect(&session, &OzdfSession::documentRemoved, this, [this](int index) {
        beginResetModel();
        if (document_ == index) {
            document_ = -1;
        } else if (document_ > index) {
            --document_;
        }
        rebuild();
        endResetModel();
    });
}

void OzdfDocumentModel::setDocument(int index) {
    beginResetModel();
    document_ = index >= 0 && index < session_.documentCount() ? index : -1;
    rebuild();
    endResetModel();
}

void OzdfDocumentModel::rebuild() {
    rows_.clear();
    topLevel_.clear();
    if (document_ < 0) {
        return;
    }
    const ozdf::Document& d = session_.document(document_);
    auto add = [this](OzdfAddress address, int parent) {
        const int id = static_cast<int>(rows_.size());
        std::vector<int>& siblings = parent < 0 ? topLevel_ : rows_[parent].children;
        rows_.push_back({address, parent, static_cast<int>(siblings.size()), {}});
        (parent < 0 ? topLevel_ : rows_[parent].children).push_back(id);
        return id;
    };
    for (std::size_t e = 0; e < d.elements.size(); ++e) {
        const ozdf::Element& element = d.elements[e];
        const int elementRow = add({OzdfAddress::Kind::Element, e, std::nullopt, 0}, -1);
        for (std::size_t p = 0; p < element.paragraphs.size(); ++p) {
            add({OzdfAddress::Kind::Paragraph, e, std::nullopt, p}, elementRow);
        }
        for (std::size_t i = 0; i < element.items.size(); ++i) {
            const int itemRow = add({OzdfAddress::Kind::Item, e, i, 0}, elementRow);
            for (std::size_t p = 0; p < element.items[i].paragraphs.size(); ++p) {
                add({OzdfAddress::Kind::Paragraph, e, i, p}, itemRow);
            }
        }
    }
}

const OzdfDocumentModel::Row* OzdfDocumentModel::rowFor(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() >= rows_.size()) {
        return nullptr;
    }
    return &rows_[index.internalId()];
}

QModelIndex OzdfDocumentModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= 1 || row < 0) {
        return {};
    }
    const std::vector<int>& siblings = parent.isValid() ? rowFor(parent)->children : topLevel_;
    if (row >= static_cast<int>(siblings.size())) {
        return {};
    }
    return createIndex(row, column, static_cast<quintptr>(siblings[static_cast<std::size_t>(row)]));
}

QModelIndex OzdfDocumentModel::parent(const QModelIndex& child) const {
    const Row* row = rowFor(child);
    if (row == nullptr || row->parent < 0) {
        return {};
    }
    const Row& parent = rows_[static_cast<std::size_t>(row->parent)];
    return createIndex(parent.row, 0, static_cast<quintptr>(row->parent));
}

int OzdfDocumentModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) {
        return static_cast<int>(topLevel_.size());
    }
    const Row* row = rowFor(parent);
    return row == nullptr || parent.column() != 0 ? 0 : static_cast<int>(row->children.size());
}

int OzdfDocumentModel::columnCount(const QModelIndex&) const {
    return 1;
}

QString OzdfDocumentModel::label(const OzdfAddress& a) const {
    const ozdf::Element& e = session_.document(document_).elements.at(a.element);
    switch (a.kind) {
        case OzdfAddress::Kind::Element:
            return elementLabel(e);
        case OzdfAddress::Kind::Item: {
            const ozdf::Item& item = e.items.at(*a.item);
            return QStringLiteral("==== %1  (%2)")
                .arg(item.name ? QString::fromStdString(*item.name) : tr("(unnamed)"),
                     counted(item.paragraphs.size(), "paragraph", "paragraphs"));
        }
        case OzdfAddress::Kind::Paragraph: {
            const auto& list = a.item ? e.items.at(*a.item).paragraphs : e.paragraphs;
            QString text = QString::fromStdString(list.at(a.paragraph).text);
            if (text.size() > kPreviewChars) {
                text = text.left(kPreviewChars) + QStringLiteral("…");
            }
            return text;
        }
        case OzdfAddress::Kind::None:
            break;
    }
    return {};
}

QVariant OzdfDocumentModel::data(const QModelIndex& index, int role) const {
    const Row* row = rowFor(index);
    if (row == nullptr || document_ < 0 || role != Qt::DisplayRole) {
        return {};
    }
    return label(row->address);
}

QVariant OzdfDocumentModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (section == 0 && orientation == Qt::Horizontal && role == Qt::DisplayRole) {
        return tr("Content");
    }
    return {};
}

OzdfAddress OzdfDocumentModel::addressOf(const QModelIndex& index) const {
    const Row* row = rowFor(index);
    return row == nullptr ? OzdfAddress{} : row->address;
}

QModelIndex OzdfDocumentModel::indexOf(const OzdfAddress& address) const {
    for (std::size_t id = 0; id < rows_.size(); ++id) {
        const OzdfAddress& a = rows_[id].address;
        if (a.kind == address.kind && a.element == address.element && a.item == address.item &&
            a.paragraph == address.paragraph) {
            return createIndex(rows_[id].row, 0, static_cast<quintptr>(id));
        }
    }
    return {};
}

}  // namespace strata::model
