// The Jobs dock: every background job (validation, search, entropy) with its state, a
// progress bar, a cancel button, and Pause/Resume for the jobs that can wait (a scan).
#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace strata::model {
class Job;
class JobRunner;
}  // namespace strata::model

namespace strata::gui {

class JobsPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobsPanel(model::JobRunner* runner, QWidget* parent = nullptr);

    QTreeWidget* list() const { return list_; }
    int rowCount() const;

private:
    void addJob(model::Job* job);
    void updateRow(model::Job* job);
    void clearFinished();

    QPointer<model::JobRunner> runner_;
    QTreeWidget* list_;
    QHash<model::Job*, QTreeWidgetItem*> rows_;
};

}  // namespace strata::gui
