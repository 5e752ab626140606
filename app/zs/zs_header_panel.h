// The ZS header tab: one row per header field, decoded, with the bytes it came from; clicking a
// row selects those bytes. The metadata JSON is shown indented below the table.
#pragma once

#include <QList>
#include <QWidget>

#include <memory>

#include "formats/zs/zs_reader.h"
#include "model/zs/zs_header_rows.h"

class QPlainTextEdit;
class QTableWidget;

namespace strata::gui {

class DocumentView;

class ZsHeaderPanel : public QWidget {
    Q_OBJECT
public:
    ZsHeaderPanel(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                  QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    QPlainTextEdit* metadataText() const { return metadata_; }
    const QList<model::ZsHeaderRow>& rows() const { return rows_; }
    // Selects the bytes of row `row` in the document view (what a click does).
    void activateRow(int row);

private:
    DocumentView& view_;
    QList<model::ZsHeaderRow> rows_;
    QTableWidget* table_ = nullptr;
    QPlainTextEdit* metadata_ = nullptr;
};

}  // namespace strata::gui
