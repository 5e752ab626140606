#include "job.h"

#include <algorithm>

namespace strata::model {

Job::Job(QString title, QObject* parent)
    : QObject(parent),
      title_(std::move(title)),
      startedAt_(QDateTime::currentDateTime()),
      token_(std::make_shared<strata::CancelToken>()) {}

Job::~Job() = default;

void Job::cancel() {
    if (state_ == State::Running) {
        token_->cancel();
    }
}

void Job::makePausable() {
    if (pauseGate_ == nullptr) {
        pauseGate_ = std::make_shared<strata::PauseGate>();
    }
}

void Job::setPaused(bool paused) {
    if (pauseGate_ == nullptr || paused_ == paused || (paused && state_ != State::Running)) {
        return;
    }
    paused_ = paused;
    if (paused) {
        pauseGate_->pause();
    } else {
        pauseGate_->resume();
    }
    emit pausedChanged(paused_);
}

QString Job::stateText() const {
    return paused_ && state_ == State::Running ? tr("paused") : stateName(state_);
}

QString Job::stateName(State state) {
    switch (state) {
        case State::Running:
            return tr("running");
        case State::Finished:
            return tr("finished");
        case State::Cancelled:
            return tr("cancelled");
        case State::Failed:
            return tr("failed");
    }
    return {};
}

void Job::applyProgress(double fraction, const QString& text) {
    if (state_ != State::Running) {
        return;
    }
    progress_ = std::clamp(fraction, 0.0, 1.0);
    if (!text.isNull()) {
        statusText_ = text;
    }
    emit progressChanged(progress_, statusText_);
}

void Job::finish(State state, const QString& error) {
    if (state_ != State::Running) {
        return;
    }
    state_ = state;
    errorText_ = error;
    paused_ = false;  // nothing is held any more
    finishedAt_ = QDateTime::currentDateTime();
    if (state == State::Finished) {
        progress_ = 1.0;
    }
    emit stateChanged(state_);
    emit finished();
}

}  // namespace strata::model
