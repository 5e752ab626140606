// The banner an OZDF tab shows when its files change on disk behind Strata's back: what
// changed, Reload (the window reopens the document, asking about unsaved edits first) and
// Ignore.
#pragma once

#include <QWidget>

class QLabel;

namespace strata::gui {

class OzdfReloadBanner : public QWidget {
    Q_OBJECT
public:
    explicit OzdfReloadBanner(QWidget* parent = nullptr);

    void showChange(const QString& what);
    QString text() const;

signals:
    void reloadClicked();

private:
    QLabel* text_ = nullptr;
};

}  // namespace strata::gui
