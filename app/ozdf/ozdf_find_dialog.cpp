#include "ozdf_find_dialog.h"

#include <QAbstractTableModel>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "model/core/counted_text.h"
#include "model/core/document.h"
#include "model/ozdf/ozdf_editor.h"

namespace strata::gui {

namespace {

constexpr int kPreviewChars = 200;

QString clipped(const QString& text) {
    return text.size() > kPreviewChars ? text.left(kPreviewChars) + QStringLiteral("…") : text;
}

}  // namespace

// The changes of the last search as rows: document, block, before, after, problem; column 0
// holds the check box of applicable changes, which edits the change's `selected` flag.
class OzdfFindDialog::ChangesModel : public QAbstractTableModel {
public:
    ChangesModel(const model::OzdfSession& session, QObject* parent)
        : QAbstractTableModel(parent), session_(session) {}

    void setChanges(std::vector<model::OzdfChange>* changes) {
        beginResetModel();
        changes_ = changes;
        endResetModel();
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || changes_ == nullptr ? 0 : static_cast<int>(changes_->size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : 5;
    }

    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || index.row() >= rowCount()) {
            return {};
        }
        const model::OzdfChange& c = changes_->at(static_cast<std::size_t>(index.row()));
        if (role == Qt::CheckStateRole && index.column() == 0 && c.applicable) {
            return c.selected ? Qt::Checked : Qt::Unchecked;
        }
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
            return {};
        }
        const bool full = role == Qt::ToolTipRole;
        switch (index.column()) {
            case 0:
                return documentOf(c) ? QString::fromStdString(documentOf(c)->filename) : QString();
            case 1:
                return documentOf(c) && c.element < documentOf(c)->elements.size()
                           ? QString::fromStdString(documentOf(c)->elements[c.element].name)
                           : QString();
            case 2:
                return full ? c.before : clipped(c.before);
            case 3:
                return full ? c.after : clipped(c.after);
            case 4:
                return c.problem;
            default:
                return {};
        }
    }

    bool setData(const QModelIndex& index, const QVariant& value, int role) override {
        if (role != Qt::CheckStateRole || index.column() != 0 || index.row() >= rowCount()) {
            return false;
        }
        model::OzdfChange& c = changes_->at(static_cast<std::size_t>(index.row()));
        if (!c.applicable) {
            return false;
        }
        c.selected = value.toInt() == Qt::Checked;
        emit dataChanged(index, index, {Qt::CheckStateRole});
        return true;
    }

    Qt::ItemFlags flags(const QModelIndex& index) const override {
        if (!index.isValid() || index.row() >= rowCount()) {
            return Qt::NoItemFlags;
        }
        if (!changes_->at(static_cast<std::size_t>(index.row())).applicable) {
            return Qt::NoItemFlags;  // shown greyed out: it cannot be applied
        }
        const Qt::ItemFlags base = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
        return index.column() == 0 ? base | Qt::ItemIsUserCheckable : base;
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        static const char* const kNames[] = {"Document", "Block", "Before", "After", "Problem"};
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
            section >= 5) {
            return {};
        }
        return OzdfFindDialog::tr(kNames[section]);
    }

private:
    const ozdf::Document* documentOf(const model::OzdfChange& c) const {
        return c.document >= 0 && c.document < session_.documentCount()
                   ? &session_.document(c.document)
                   : nullptr;
    }

    const model::OzdfSession& session_;
    std::vector<model::OzdfChange>* changes_ = nullptr;
};

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

    model_ = new ChangesModel(editor.session(), this);
    results_ = new QTreeView(this);
    results_->setModel(model_);
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

bool OzdfFindDialog::applyTypedText() {
    const QString error = view_.document()->applyPendingText();
    if (!error.isEmpty()) {
        summary_->setText(tr("The text you typed cannot be applied (%1): apply or revert it in "
                             "the editor first.")
                              .arg(error));
    }
    return error.isEmpty();
}

void OzdfFindDialog::startFind() {
    if (job_) {
        job_->cancel();
    }
    // The search reads the corpus as edited: typed text goes in first, as before any edit.
    if (!applyTypedText()) {
        changes_.clear();
        model_->setChanges(&changes_);
        apply_->setEnabled(false);
        return;
    }
    model::OzdfFindQuery query;
    query.pattern = pattern_->text();
    query.replacement = replacement_->text();
    query.regex = regex_->isChecked();
    query.caseSensitive = caseSensitive_->isChecked();
    for (const QString& name : blocks_->text().split(u',', Qt::SkipEmptyParts)) {
        query.blockNames << name.trimmed();
    }
    changes_.clear();
    model_->setChanges(&changes_);
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
    model_->setChanges(&changes_);
    int matches = 0;
    for (const model::OzdfChange& c : changes_) {
        matches += c.matches;
    }
    summary_->setText(tr("%1 in %2")
                          .arg(model::counted(matches, tr("match")),
                               model::counted(changes_.size(), tr("paragraph"))));
    apply_->setEnabled(!changes_.empty());
}

int OzdfFindDialog::resultCount() const {
    return model_->rowCount();
}

bool OzdfFindDialog::applySelected() {
    // Text typed since the search goes in first; a paragraph it changed no longer matches the
    // search's revision and is refused below.
    if (!applyTypedText()) {
        return false;
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
