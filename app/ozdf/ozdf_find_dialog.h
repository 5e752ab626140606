// Find and replace across the corpus: runs the search as a background job, lists every change
// (document, block, before → after, problem) with a check box each, and applies the checked
// ones as a single undo step.
#pragma once

#include <QDialog>
#include <QPointer>
#include <vector>

#include "model/ozdf/ozdf_find_replace.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace strata::model {
class OzdfEditor;
}

namespace strata::gui {

class DocumentView;

class OzdfFindDialog : public QDialog {
    Q_OBJECT
public:
    OzdfFindDialog(DocumentView& view, model::OzdfEditor& editor, QWidget* parent = nullptr);

    QLineEdit* patternEdit() const { return pattern_; }
    QLineEdit* replacementEdit() const { return replacement_; }
    QLineEdit* blocksEdit() const { return blocks_; }
    QCheckBox* regexBox() const { return regex_; }
    // The preview: one row per change, checkable when it can be applied. A model over the
    // changes, so tens of thousands of them list at once without building a widget each.
    QTreeView* results() const { return results_; }
    int resultCount() const;
    void startFind();
    bool applySelected();
    bool searching() const { return !job_.isNull() && job_->isRunning(); }

private:
    void showResults();
    // Applies the document's pending typed text; false (and says why) when it cannot be.
    bool applyTypedText();

    DocumentView& view_;
    model::OzdfEditor& editor_;
    QLineEdit* pattern_ = nullptr;
    QLineEdit* replacement_ = nullptr;
    QLineEdit* blocks_ = nullptr;
    QCheckBox* regex_ = nullptr;
    QCheckBox* caseSensitive_ = nullptr;
    QTreeView* results_ = nullptr;
    class ChangesModel;
    ChangesModel* model_ = nullptr;
    QLabel* summary_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPointer<model::OzdfFindJob> job_;
    std::vector<model::OzdfChange> changes_;
    std::vector<quint64> revisions_;
};

}  // namespace strata::gui
