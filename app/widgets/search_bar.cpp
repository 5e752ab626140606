#include "search_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace strata::gui {

using Mode = model::SearchPattern::Mode;

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent),
      pattern_(new QLineEdit(this)),
      mode_(new QComboBox(this)),
      previous_(new QPushButton(tr("&Previous"), this)),
      next_(new QPushButton(tr("Find &Next"), this)),
      all_(new QPushButton(tr("Find &All"), this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      message_(new QLabel(this)),
      close_(new QToolButton(this)) {
    pattern_->setPlaceholderText(tr("Bytes (4D 5A ?? 00) or text"));
    pattern_->setClearButtonEnabled(true);
    mode_->addItem(tr("Hex"), int(Mode::Hex));
    mode_->addItem(tr("UTF-8"), int(Mode::Utf8));
    mode_->addItem(tr("UTF-16LE"), int(Mode::Utf16Le));
    cancel_->setVisible(false);
    close_->setText(QStringLiteral("×"));
    close_->setToolTip(tr("Close the search bar (Esc)"));
    close_->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(pattern_, 1);
    layout->addWidget(mode_);
    layout->addWidget(previous_);
    layout->addWidget(next_);
    layout->addWidget(all_);
    layout->addWidget(cancel_);
    layout->addWidget(message_, 1);
    layout->addWidget(close_);
    connect(pattern_, &QLineEdit::returnPressed, this, [this] { emit findRequested(false); });
    connect(next_, &QPushButton::clicked, this, [this] { emit findRequested(false); });
    connect(previous_, &QPushButton::clicked, this, &SearchBar::findPreviousRequested);
    connect(all_, &QPushButton::clicked, this, [this] { emit findRequested(true); });
    connect(cancel_, &QPushButton::clicked, this, &SearchBar::cancelRequested);
    connect(close_, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
}

QString SearchBar::patternText() const {
    return pattern_->text();
}

void SearchBar::setPatternText(const QString& text) {
    pattern_->setText(text);
}

Mode SearchBar::mode() const {
    return static_cast<Mode>(mode_->currentData().toInt());
}

void SearchBar::setMode(Mode mode) {
    mode_->setCurrentIndex(mode_->findData(int(mode)));
}

void SearchBar::setBusy(bool busy) {
    busy_ = busy;
    cancel_->setVisible(busy);
    next_->setEnabled(!busy);
    previous_->setEnabled(!busy);
    all_->setEnabled(!busy);
}

void SearchBar::setMessage(const QString& text) {
    message_->setText(text);
}

QString SearchBar::message() const {
    return message_->text();
}

void SearchBar::activate() {
    show();
    pattern_->setFocus();
    pattern_->selectAll();
}

void SearchBar::keyPressEvent(QKeyEvent* event) {
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
        (event->modifiers() & Qt::ShiftModifier)) {
        emit findPreviousRequested();
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        if (busy_) {
            emit cancelRequested();
        } else {
            hide();
            emit closed();
        }
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace strata::gui
