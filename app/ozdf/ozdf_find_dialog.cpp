#include "ozdf_find_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "app/gui/document_view.h"
#include "model/core/document.h"
#include "model/ozdf/ozdf_editor.h"

namespace strata::gui {

namespace {

constexpr int kPreviewChars = 200;

QString clipped(const QString& text) {
    return text.size() > kPreviewChars ? text.left(kPreviewChars) + QStringLiteral("…") : text;
}

}  // namespace

OzdfFindDialog::OzdfFindDialog(DocumentView& view, model::OzdfEditor& editor, QWidget* parent)
    : QDialog(parent), view_(view), editor_(editor) {
    setWindowTitle(tr("Find and Replace in Corpus"));
    pattern_ = new QLineEdit(this);
    replacement_ = new QLineEdit(this);
    blocks_ = new QLineEdit(this);
    blocks_->setPlaceholderText(tr("all blocks (or names separated by commas: TITLE, CHAPTERS)"));
    regex_ = new QCheckBox(tr("Regular expression ($1 or \\1 for groups)"), this);
    caseSensitive_ = new QCheckBox(tr("Case sensitive"), this);
    caseSensitive_->setChecked(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Find:"), pattern_);
    form->addRow(tr("Replace with:"), replacement_);
    form->addRow(tr("In blocks:"), blocks_);
    form->addRow(QString(), regex_);
    form->addRow(QString(), caseSensitive_);

    results_ = new QTreeWidget(this);
    results_->setHeaderLabels(
        {tr("Document"), tr("Block"), tr("Before"), tr("After"), tr("Problem")});
    results_->setRootIsDecorated(false);
    results_->setUniformRowHeights(true);
    summary_ = new QLabel(this);

    auto* buttons = new QDialogButtonBox(this);
    QPushButton* find = buttons->addButton(tr("Find"), QDialogButtonBox::ActionRole);
    apply_ = buttons->addButton(tr("Replace Checked"), QDialogButtonBox::ApplyRole);
    apply_->setEnabled(false);
    buttons->addButton(QDialogButtonBox::Close);
    connect(find, &QPushButton::clicked, this, &OzdfFindDialog::startFind);
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (applySelected()) {
            accept();
        }
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(results_, 1);
    layout->addWidget(summary_);
    layout->addWidget(buttons);
    resize(900, 560);
}

void OzdfFindDialog::startFind() {
    if (job_) {
        job_->cancel();
    }
    model::OzdfFindQuery query;
    query.pattern = pattern_->text();
    query.replacement = replacement_->text();
    query.regex = regex_->isChecked();
    query.caseSensitive = caseSensitive_->isChecked();
    for (const QString& name : blocks_->text().split(u',', Qt::SkipEmptyParts)) {
        query.blockNames << name.trimmed();
    }
    results_->clear();
    apply_->setEnabled(false);
    summary_->setText(tr("Searching…"));
    job_ = model::startOzdfFind(*view_.jobRunner(), editor_.session(), query);
    view_.trackJob(job_);
    connect(job_, &model::Job::stateChanged, this, [this](model::Job::State state) {
        if (state == model::Job::State::Finished) {
            showResults();
        } else if (state == model::Job::State::Failed) {
            summary_->setText(job_->errorText());
        }
    });
}

void OzdfFindDialog::showResults() {
    changes_ = job_->changes;
    revisions_ = job_->revisions;
    results_->clear();
    const model::OzdfSession& session = editor_.session();
    QList<QTreeWidgetItem*> rows;
    for (std::size_t i = 0; i < changes_.size(); ++i) {
        const model::OzdfChange& c = changes_[i];
        const ozdf::Document& d = session.document(c.document);
        auto* row = new QTreeWidgetItem;
        row->setText(0, QString::fromStdString(d.filename));
        row->setText(1, QString::fromStdString(d.elements.at(c.element).name));
        row->setText(2, clipped(c.before));
        row->setText(3, clipped(c.after));
        row->setText(4, c.problem);
        row->setData(0, Qt::UserRole, static_cast<qulonglong>(i));
        if (c.applicable) {
            row->setCheckState(0, c.selected ? Qt::Checked : Qt::Unchecked);
        } else {
            row->setFlags(row->flags() & ~Qt::ItemIsEnabled);
        }
        rows << row;
    }
    results_->addTopLevelItems(rows);
    int matches = 0;
    for (const model::OzdfChange& c : changes_) {
        matches += c.matches;
    }
    summary_->setText(tr("%1 match(es) in %2 paragraph(s)").arg(matches).arg(changes_.size()));
    apply_->setEnabled(!changes_.empty());
}

bool OzdfFindDialog::applySelected() {
    for (int r = 0; r < results_->topLevelItemCount(); ++r) {
        QTreeWidgetItem* row = results_->topLevelItem(r);
        const auto i = row->data(0, Qt::UserRole).toULongLong();
        if (i < changes_.size()) {
            changes_[i].selected = row->checkState(0) == Qt::Checked;
        }
    }
    QString error;
    if (!model::applyOzdfChanges(*view_.document()->undoStack(), editor_.session(), changes_,
                                 revisions_, &error)) {
        QMessageBox::warning(this, tr("Find and Replace"), error);
        return false;
    }
    return true;
}

}  // namespace strata::gui
