// A background task as the GUI sees it: title, state, progress, status and error text. Lives
// on the GUI thread; its worker reaches it only through JobContext, which queues every update.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>

#include <memory>

#include "formats/common/pause_gate.h"
#include "formats/common/validator.h"

namespace strata::model {

class Job : public QObject {
    Q_OBJECT
public:
    enum class State { Running, Finished, Cancelled, Failed };
    Q_ENUM(State)

    explicit Job(QString title, QObject* parent = nullptr);
    ~Job() override;

    QString title() const { return title_; }
    State state() const { return state_; }
    bool isRunning() const { return state_ == State::Running; }
    double progress() const { return progress_; }
    QString statusText() const { return statusText_; }
    QString errorText() const { return errorText_; }
    QDateTime startedAt() const { return startedAt_; }
    QDateTime finishedAt() const { return finishedAt_; }  // null while running

    // Asks the worker to stop; the state becomes Cancelled once it has.
    void cancel();
    bool cancelRequested() const { return token_->cancelled(); }
    // Shared with the worker; validators poll it.
    const std::shared_ptr<strata::CancelToken>& token() const { return token_; }

    // A job whose work can wait between items (a scan) is made pausable before it starts; its
    // workers then hold at their next item while paused (what is in flight finishes). The
    // state stays Running; a cancel ends the pause.
    void makePausable();
    bool canPause() const { return pauseGate_ != nullptr; }
    bool isPaused() const { return paused_; }
    void setPaused(bool paused);
    // Shared with the worker (null when not pausable).
    const std::shared_ptr<strata::PauseGate>& pauseGate() const { return pauseGate_; }

    static QString stateName(State state);
    // "running", "paused", "finished"…: the state as a user reads it.
    QString stateText() const;

signals:
    void progressChanged(double fraction, const QString& text);
    void stateChanged(strata::model::Job::State state);
    void pausedChanged(bool paused);
    void finished();

private:
    friend class JobRunner;
    friend class JobContext;
    void applyProgress(double fraction, const QString& text);
    void finish(State state, const QString& error);

    QString title_;
    State state_ = State::Running;
    double progress_ = 0.0;
    QString statusText_;
    QString errorText_;
    QDateTime startedAt_;
    QDateTime finishedAt_;
    std::shared_ptr<strata::CancelToken> token_;
    std::shared_ptr<strata::PauseGate> pauseGate_;
    bool paused_ = false;
};

}  // namespace strata::model
