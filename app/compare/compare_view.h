// Two documents side by side with the differences between them: the list of differences
// (counts by kind, filters, F7 / Shift+F7 to step through them) above both sides' structure
// trees and hex views, which follow the selected difference to its bytes. The comparison runs
// as a job; rows appear as they are found.
#pragma once

#include <QWidget>

#include <array>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTreeView;

namespace strata::model {
class Comparison;
class DiffFilterModel;
class JobRunner;
class StructureModel;
}  // namespace strata::model

namespace strata {
struct DiffOptions;
struct DiffSide;
}  // namespace strata

namespace strata::gui {

class HexView;

class CompareView : public QWidget {
    Q_OBJECT
public:
    CompareView(std::unique_ptr<model::Comparison> comparison, model::JobRunner& runner,
                QWidget* parent = nullptr);
    ~CompareView() override;

    // Starts comparing (the view starts nothing on its own, so callers choose the options).
    void start(const strata::DiffOptions& options);
    // As a window of its own: where the last compare window was closed, brought onto the
    // screen it opens on; the first time `preferred` fitted to the screen.
    void placeAsWindow(const QSize& preferred);

    model::Comparison* comparison() const { return comparison_.get(); }
    QTableView* differencesView() const { return table_; }
    model::DiffFilterModel* filter() const { return filter_; }
    // 0 = A, 1 = B.
    HexView* hexView(int side) const { return sides_[std::size_t(side)].hex; }
    QTreeView* treeView(int side) const { return sides_[std::size_t(side)].tree; }
    QLabel* statusLabel() const { return status_; }
    QCheckBox* kindFilter(int kind) const { return kinds_[std::size_t(kind)]; }

public slots:
    void nextDifference();
    void previousDifference();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct Side {
        QLabel* title = nullptr;
        QLabel* value = nullptr;
        QTreeView* tree = nullptr;
        HexView* hex = nullptr;
        model::StructureModel* structure = nullptr;
    };

    QWidget* buildBar();
    QWidget* buildSide(int side);
    void step(int delta);
    void showCurrent();
    void showSide(int side, const strata::DiffSide& diffSide);
    void updateStatus();

    std::unique_ptr<model::Comparison> comparison_;
    model::JobRunner& runner_;
    model::DiffFilterModel* filter_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* status_ = nullptr;
    QLineEdit* text_ = nullptr;
    std::array<QCheckBox*, 5> kinds_{};
    std::array<Side, 2> sides_;
};

}  // namespace strata::gui
