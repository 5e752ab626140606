#include "zds_document_editor.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "model/core/text_draft.h"
#include "model/zds/zds_document_text.h"
#include "model/zds/zds_json_highlighter.h"

namespace strata::gui {

namespace {

constexpr int kCheckDelayMs = 250;

}  // namespace

ZdsDocumentEditor::ZdsDocumentEditor(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel(this)),
      edit_(new QPlainTextEdit(this)),
      highlighter_(new model::ZdsJsonHighlighter(edit_->document())),
      error_(new QLabel(this)),
      pretty_(new QToolButton(this)),
      apply_(new QPushButton(tr("Apply"), this)),
      revert_(new QPushButton(tr("Revert"), this)),
      checkTimer_(new QTimer(this)) {
    edit_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit_->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit_->setPlaceholderText(tr("Select a document"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c62828"));
    pretty_->setText(tr("Pretty"));
    pretty_->setCheckable(true);
    pretty_->setChecked(true);
    pretty_->setToolTip(tr("Indented or one-line JSON (documents are saved on one line)"));
    apply_->setToolTip(tr("Replace the document with this text (undoable)"));
    checkTimer_->setSingleShot(true);
    checkTimer_->setInterval(kCheckDelayMs);

    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(pretty_);
    // The error gets a row of its own, as wide as the editor, above the buttons: beside them
    // it was squeezed into a narrow column however long the message.
    auto* bottom = new QHBoxLayout;
    bottom->addStretch(1);
    bottom->addWidget(revert_);
    bottom->addWidget(apply_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(edit_, 1);
    layout->addWidget(error_);
    layout->addLayout(bottom);

    connect(edit_, &QPlainTextEdit::textChanged, this, [this] {
        if (!loading_) {
            if (draft_) {
                draft_->setText(text());
            }
            checkTimer_->start();
            updateButtons();
        }
    });
    connect(checkTimer_, &QTimer::timeout, this, [this] { checkNow(); });
    connect(pretty_, &QToolButton::toggled, this, [this](bool on) { setPretty(on); });
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (checkNow().isEmpty()) {
            emit applyRequested(text());
        }
    });
    connect(revert_, &QPushButton::clicked, this, [this] {
        if (draft_ && draft_->hasTarget()) {
            draft_->discard();  // shows the text as it was loaded
        } else {
            setDocument(title_->text(), original_);
        }
    });
    clearDocument();
}

void ZdsDocumentEditor::setDocument(const QString& title, const std::string& json) {
    original_ = json;
    hasDocument_ = true;
    title_->setText(title);
    loading_ = true;
    if (json.size() > kMaxEditableBytes) {
        edit_->setPlainText(QString::fromUtf8(json.data(), qsizetype(kMaxEditableBytes)) +
                            tr("\n… (document too large to edit here)"));
        edit_->setReadOnly(true);
    } else {
        const auto shown = pretty() ? model::prettyJson(json) : std::optional(json);
        edit_->setPlainText(QString::fromStdString(shown.value_or(json)));
        edit_->setReadOnly(false);
    }
    loading_ = false;
    checkNow();
    updateButtons();
}

void ZdsDocumentEditor::clearDocument() {
    hasDocument_ = false;
    original_.clear();
    title_->setText(tr("No document selected"));
    loading_ = true;
    edit_->clear();
    edit_->setReadOnly(true);
    loading_ = false;
    error_->clear();
    highlighter_->setErrorAt(0, 0);
    updateButtons();
}

void ZdsDocumentEditor::setTitle(const QString& title) {
    title_->setText(title);
}

QString ZdsDocumentEditor::title() const {
    return title_->text();
}

QString ZdsDocumentEditor::text() const {
    return edit_->toPlainText();
}

void ZdsDocumentEditor::setText(const QString& text) {
    edit_->setPlainText(text);
    checkNow();
}

void ZdsDocumentEditor::setDraft(model::TextDraft* draft) {
    draft_ = draft;
    connect(draft, &model::TextDraft::textReset, this, &ZdsDocumentEditor::showDraftText);
}

bool ZdsDocumentEditor::isEditable() const {
    return hasDocument_ && !edit_->isReadOnly();
}

void ZdsDocumentEditor::showDraftText(const QString& text) {
    if (!isEditable()) {
        return;
    }
    loading_ = true;
    edit_->setPlainText(text);
    loading_ = false;
    checkNow();
}

bool ZdsDocumentEditor::pretty() const {
    return pretty_->isChecked();
}

void ZdsDocumentEditor::setPretty(bool pretty) {
    if (pretty_->isChecked() != pretty) {
        pretty_->setChecked(pretty);  // comes back here through toggled
        return;
    }
    if (edit_->isReadOnly()) {
        return;
    }
    const std::string current = text().toStdString();
    const auto formatted = pretty ? model::prettyJson(current) : model::compactJson(current);
    if (formatted) {
        // Only the layout changes: typed text stays typed, untyped text stays untyped.
        const QString shown = QString::fromStdString(*formatted);
        const bool wasLoading = loading_;
        loading_ = true;
        edit_->setPlainText(shown);
        loading_ = wasLoading;
        if (draft_) {
            draft_->reformat(shown);
        }
        updateButtons();
    }
}

QString ZdsDocumentEditor::checkNow() {
    checkTimer_->stop();
    if (!hasDocument_ || edit_->isReadOnly()) {
        error_->clear();
        highlighter_->setErrorAt(0, 0);
        return {};
    }
    const model::ZdsTextCheck check = model::checkZdsDocumentText(text().toStdString());
    QString message;
    if (!check.ok) {
        message = check.line > 0 ? tr("Line %1, column %2: %3")
                                       .arg(check.line)
                                       .arg(check.column)
                                       .arg(QString::fromStdString(check.error))
                                 : QString::fromStdString(check.error);
    }
    error_->setText(message);
    highlighter_->setErrorAt(check.line, check.column);
    updateButtons();
    return message;
}

void ZdsDocumentEditor::showError(const QString& error) {
    error_->setText(error);
}

void ZdsDocumentEditor::updateButtons() {
    const bool editable = hasDocument_ && !edit_->isReadOnly();
    apply_->setEnabled(editable);
    revert_->setEnabled(editable);
}

}  // namespace strata::gui
