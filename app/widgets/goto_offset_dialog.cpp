#include "goto_offset_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "model/core/structure_model.h"
#include "offset_expression.h"

namespace strata::gui {

GoToOffsetDialog::GoToOffsetDialog(quint64 current, quint64 size, QWidget* parent)
    : QDialog(parent),
      current_(current),
      size_(size),
      edit_(new QLineEdit(this)),
      feedback_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Go to Offset"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(
        new QLabel(tr("Offset (0x hex or decimal; +n or -n moves from the cursor at %1):")
                       .arg(model::formatOffset(current)),
                   this));
    layout->addWidget(edit_);
    layout->addWidget(feedback_);
    layout->addWidget(buttons_);
    edit_->setPlaceholderText(QStringLiteral("0x0"));
    connect(edit_, &QLineEdit::textChanged, this, &GoToOffsetDialog::revalidate);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    revalidate();
}

void GoToOffsetDialog::setText(const QString& text) {
    edit_->setText(text);
}

void GoToOffsetDialog::revalidate() {
    const OffsetParseResult result = parseOffsetExpression(edit_->text(), current_, size_);
    offset_ = result.offset;
    feedback_->setText(result.offset ? tr("→ %1").arg(model::formatOffset(*result.offset))
                                     : result.error);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(result.offset.has_value());
}

}  // namespace strata::gui
