// "Go to offset": one line edit that accepts 0x hex, decimal, and +/- relative offsets, with
// the parse result shown live.
#pragma once

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace strata::gui {

class GoToOffsetDialog : public QDialog {
    Q_OBJECT
public:
    GoToOffsetDialog(quint64 current, quint64 size, QWidget* parent = nullptr);

    std::optional<quint64> offset() const { return offset_; }
    void setText(const QString& text);

private:
    void revalidate();

    quint64 current_;
    quint64 size_;
    std::optional<quint64> offset_;
    QLineEdit* edit_;
    QLabel* feedback_;
    QDialogButtonBox* buttons_;
};

}  // namespace strata::gui
