#include "diagnostics_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QVBoxLayout>

#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/leftover_cleanup.h"

namespace strata::gui {

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QWidget(parent),
      filter_(new model::DiagnosticsFilterModel(this)),
      severity_(new QComboBox(this)),
      code_(new QLineEdit(this)),
      validate_(new QPushButton(tr("&Validate"), this)),
      removeLeftovers_(new QPushButton(tr("Remove &Leftovers…"), this)),
      exportJson_(new QPushButton(tr("Export &JSON…"), this)),
      exportText_(new QPushButton(tr("Export &Text…"), this)),
      summary_(new QLabel(this)),
      table_(new QTableView(this)) {
    removeLeftovers_->setToolTip(
        tr("Remove the temporary files and folders interrupted saves left behind (those "
           "reported as *-LEFTOVER-*), after asking"));
    confirm_ = [this](const QString& text, bool canAccept) {
        if (!canAccept) {
            QMessageBox::information(this, tr("Remove Leftovers"), text);
            return false;
        }
        return QMessageBox::question(this, tr("Remove Leftovers"), text,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };
    severity_->addItem(tr("All severities"), int(strata::Severity::Info));
    severity_->addItem(tr("Warnings and errors"), int(strata::Severity::Warning));
    severity_->addItem(tr("Errors only"), int(strata::Severity::Error));
    code_->setPlaceholderText(tr("Filter by code (e.g. ZS-BLOCK)"));
    code_->setClearButtonEnabled(true);
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(severity_);
    bar->addWidget(code_, 1);
    bar->addWidget(summary_);
    bar->addWidget(validate_);
    bar->addWidget(removeLeftovers_);
    bar->addWidget(exportJson_);
    bar->addWidget(exportText_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);

    connect(severity_, &QComboBox::currentIndexChanged, this, [this] {
        filter_->setMinimumSeverity(
            static_cast<strata::Severity>(severity_->currentData().toInt()));
    });
    connect(code_, &QLineEdit::textChanged, filter_, &model::DiagnosticsFilterModel::setCodeFilter);
    connect(validate_, &QPushButton::clicked, this, &DiagnosticsPanel::validateRequested);
    connect(removeLeftovers_, &QPushButton::clicked, this,
            &DiagnosticsPanel::removeLeftoversInteractively);
    connect(exportJson_, &QPushButton::clicked, this, [this] { exportInteractively(true); });
    connect(exportText_, &QPushButton::clicked, this, [this] { exportInteractively(false); });
    connect(table_, &QTableView::clicked, this, &DiagnosticsPanel::activateRow);
    connect(table_, &QTableView::activated, this, &DiagnosticsPanel::activateRow);
    setDocument(nullptr);
}

void DiagnosticsPanel::setDocument(model::Document* document) {
    if (document_) {
        disconnect(document_->diagnostics(), nullptr, this, nullptr);
    }
    document_ = document;
    model::DiagnosticsModel* source = document ? document->diagnostics() : nullptr;
    filter_->setSourceModel(source);
    if (source != nullptr) {
        connect(source, &model::DiagnosticsModel::summaryChanged, this,
                &DiagnosticsPanel::updateSummary);
        table_->setColumnWidth(model::DiagnosticsModel::SeverityColumn, 70);
        table_->setColumnWidth(model::DiagnosticsModel::CodeColumn, 150);
        table_->setColumnWidth(model::DiagnosticsModel::MessageColumn, 420);
    }
    validate_->setEnabled(document != nullptr);
    exportJson_->setEnabled(document != nullptr);
    exportText_->setEnabled(document != nullptr);
    updateSummary();
}

void DiagnosticsPanel::setMinimumSeverity(strata::Severity severity) {
    severity_->setCurrentIndex(severity_->findData(int(severity)));
}

void DiagnosticsPanel::setCodeFilter(const QString& text) {
    code_->setText(text);
}

void DiagnosticsPanel::updateSummary() {
    removeLeftovers_->setEnabled(document_ &&
                                 model::hasLeftoverDiagnostics(*document_->diagnostics()));
    if (!document_) {
        summary_->clear();
        return;
    }
    const model::DiagnosticsModel* d = document_->diagnostics();
    summary_->setText(tr("%1 errors, %2 warnings, %3 notes")
                          .arg(d->countOf(strata::Severity::Error))
                          .arg(d->countOf(strata::Severity::Warning))
                          .arg(d->countOf(strata::Severity::Info)));
}

void DiagnosticsPanel::removeLeftoversInteractively() {
    if (!document_) {
        return;
    }
    const model::LeftoverPlan plan = model::planLeftoverRemoval(*document_->diagnostics());
    if (plan.empty()) {
        emit message(tr("The leftovers listed are gone already."));
        emit validateRequested();
        return;
    }
    const QString question = model::leftoverRemovalQuestion(plan);
    if (!confirm_(question, !plan.removable.empty()) || plan.removable.empty()) {
        return;
    }
    emit message(model::removePlannedLeftovers(plan));
    emit validateRequested();
}

void DiagnosticsPanel::activateRow(const QModelIndex& proxyIndex) {
    if (!document_ || !proxyIndex.isValid()) {
        return;
    }
    const QModelIndex sourceIndex = filter_->mapToSource(proxyIndex);
    emit diagnosticActivated(document_->diagnostics()->diagnostic(sourceIndex.row()));
}

QString DiagnosticsPanel::exportTo(const QString& path, bool json) const {
    if (!document_) {
        return tr("No document is open.");
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return file.errorString();
    }
    const model::DiagnosticsModel* d = document_->diagnostics();
    file.write(json ? d->exportJson() : d->exportText().toUtf8());
    if (!file.commit()) {
        return file.errorString();
    }
    return {};
}

void DiagnosticsPanel::exportInteractively(bool json) {
    const QString filter = json ? tr("JSON (*.json)") : tr("Text (*.txt)");
    const QString path = QFileDialog::getSaveFileName(
        this, json ? tr("Export Diagnostics as JSON") : tr("Export Diagnostics as Text"), {},
        filter);
    if (path.isEmpty()) {
        return;
    }
    const QString error = exportTo(path, json);
    emit message(error.isEmpty() ? tr("Diagnostics written to %1").arg(path)
                                 : tr("Could not write %1: %2").arg(path, error));
}

}  // namespace strata::gui
