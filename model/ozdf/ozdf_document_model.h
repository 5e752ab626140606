// One document of an OZDF session as a tree: elements (blocks, lists, external lists,
// comments), their items, and the paragraphs of blocks and items. Rebuilt whenever the
// document changes; addressOf() says what a row stands for, so views can edit it.
#pragma once

#include <QAbstractItemModel>
#include <optional>
#include <vector>

#include "model/ozdf/ozdf_session.h"

namespace strata::model {

struct OzdfAddress {
    enum class Kind { None, Element, Item, Paragraph };
    Kind kind = Kind::None;
    std::size_t element = 0;
    std::optional<std::size_t> item;  // set for items and item paragraphs
    std::size_t paragraph = 0;
};

class OzdfDocumentModel : public QAbstractItemModel {
    Q_OBJECT
public:
    explicit OzdfDocumentModel(OzdfSession& session, QObject* parent = nullptr);

    // -1 shows nothing.
    void setDocument(int index);
    int documentIndex() const { return document_; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    OzdfAddress addressOf(const QModelIndex& index) const;
    QModelIndex indexOf(const OzdfAddress& address) const;

    // Paragraph previews are cut here; the editor shows the whole text.
    static constexpr int kPreviewChars = 160;

private:
    struct Row {
        OzdfAddress address;
        int parent = -1;  // -1: top level
        int row = 0;
        std::vector<int> children;
    };
    void rebuild();
    const Row* rowFor(const QModelIndex& index) const;
    QString label(const OzdfAddress& address) const;

    OzdfSession& session_;
    int document_ = -1;
    std::vector<Row> rows_;
    std::vector<int> topLevel_;
};

}  // namespace strata::model
