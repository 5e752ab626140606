// The byte search bar under the hex view: pattern, mode (hex with ?? wildcards, UTF-8,
// UTF-16LE), Find next / Find all, and a cancel button while a search runs.
#pragma once

#include <QWidget>

#include "model/core/byte_search.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;

namespace strata::gui {

class SearchBar : public QWidget {
    Q_OBJECT
public:
    explicit SearchBar(QWidget* parent = nullptr);

    QString patternText() const;
    void setPatternText(const QString& text);
    model::SearchPattern::Mode mode() const;
    void setMode(model::SearchPattern::Mode mode);
    void setBusy(bool busy);
    bool isBusy() const { return busy_; }
    void setMessage(const QString& text);
    QString message() const;
    // Shows the bar and puts the cursor in the pattern field.
    void activate();

signals:
    void findRequested(bool findAll);
    void findPreviousRequested();
    void cancelRequested();
    void closed();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QLineEdit* pattern_;
    QComboBox* mode_;
    QPushButton* previous_;
    QPushButton* next_;
    QPushButton* all_;
    QPushButton* cancel_;
    QLabel* message_;
    QToolButton* close_;
    bool busy_ = false;
};

}  // namespace strata::gui
