// The Diagnostics dock: the active document's diagnostics with a severity filter, a code
// filter, Validate, export to JSON or text, and removal of the leftovers of interrupted saves
// the validator reported. Picking a row shows its bytes and node.
#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>

#include "model/core/document.h"

#include "formats/common/diagnostic.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace strata::model {
class DiagnosticsFilterModel;
}  // namespace strata::model

namespace strata::gui {

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget* parent = nullptr);

    void setDocument(model::Document* document);
    model::Document* document() const { return document_; }
    model::DiagnosticsFilterModel* filterModel() const { return filter_; }
    QTableView* table() const { return table_; }
    void setMinimumSeverity(strata::Severity severity);
    void setCodeFilter(const QString& text);
    // Writes every diagnostic (unfiltered) as JSON or text; returns an error text or empty.
    QString exportTo(const QString& path, bool json) const;

    // Asks the user a yes/no question (a message box unless replaced, e.g. by tests); `canAccept`
    // is false when there is nothing to remove and the text only informs.
    using Confirmation = std::function<bool(const QString& text, bool canAccept)>;
    void setConfirmation(Confirmation confirmation) { confirm_ = std::move(confirmation); }
    QPushButton* removeLeftoversButton() const { return removeLeftovers_; }
    // "Remove Leftovers…": lists the leftover files the diagnostics name (checked again on
    // disk), asks, removes those no process is using, then validates again.
    void removeLeftoversInteractively();

signals:
    void diagnosticActivated(const strata::Diagnostic& diagnostic);
    void validateRequested();
    void message(const QString& text);

private:
    void updateSummary();
    void exportInteractively(bool json);
    void activateRow(const QModelIndex& proxyIndex);

    QPointer<model::Document> document_;
    model::DiagnosticsFilterModel* filter_;
    QComboBox* severity_;
    QLineEdit* code_;
    QPushButton* validate_;
    QPushButton* removeLeftovers_;
    QPushButton* exportJson_;
    QPushButton* exportText_;
    QLabel* summary_;
    QTableView* table_;
    Confirmation confirm_;
};

}  // namespace strata::gui
