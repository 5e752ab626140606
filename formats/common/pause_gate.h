// Holds a long job's workers between items while the user has paused it: a scan's walk and its
// workers wait here before each entry, so nothing new is listed or read until it is resumed.
// A cancel always ends the wait, so a paused job can be cancelled.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "job_control.h"

namespace strata {

class PauseGate {
public:
    void pause() {
        const std::lock_guard lock(mutex_);
        paused_ = true;
    }
    void resume() {
        {
            const std::lock_guard lock(mutex_);
            paused_ = false;
        }
        resumed_.notify_all();
    }
    bool paused() const {
        const std::lock_guard lock(mutex_);
        return paused_;
    }
    // Returns at once when not paused; otherwise once resumed or once `cancel` (may be null)
    // is cancelled. The token cannot wake a waiter, so it is looked at every 50 ms.
    void waitWhilePaused(const CancelToken* cancel) const {
        std::unique_lock lock(mutex_);
        while (paused_ && (cancel == nullptr || !cancel->cancelled())) {
            resumed_.wait_for(lock, std::chrono::milliseconds(50));
        }
    }

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable resumed_;
    bool paused_ = false;
};

}  // namespace strata
