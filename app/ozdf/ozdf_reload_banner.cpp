#include "ozdf_reload_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace strata::gui {

OzdfReloadBanner::OzdfReloadBanner(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    text_ = new QLabel(this);
    text_->setWordWrap(true);
    layout->addWidget(text_, 1);
    auto* reload = new QPushButton(tr("Reload"), this);
    auto* ignore = new QPushButton(tr("Ignore"), this);
    layout->addWidget(reload);
    layout->addWidget(ignore);
    setStyleSheet(QStringLiteral("background: #fff3c4;"));
    hide();
    connect(ignore, &QPushButton::clicked, this, &QWidget::hide);
    connect(reload, &QPushButton::clicked, this, [this] {
        hide();
        emit reloadClicked();
    });
}

void OzdfReloadBanner::showChange(const QString& what) {
    text_->setText(tr("%1 changed on disk. Reload it? Unsaved edits and their undo history "
                      "will be lost.")
                       .arg(what));
    show();
}

QString OzdfReloadBanner::text() const {
    return text_->text();
}

}  // namespace strata::gui
