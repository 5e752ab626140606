// The cancel token of the work a thread does for a job (a GUI job, a strata-cli command stopped
// by Ctrl-C). Remote reads made on the thread stop when it is cancelled, beside the remote
// session's own token, so a read that waits for a slow server ends with the job. Worker threads
// a job's work starts inherit it (startThreadInheritingCancel), so a validator's or a reader's
// workers stop their reads too.
#pragma once

#include <thread>
#include <utility>

#include "job_control.h"

namespace strata {

// The token this thread works under, or null.
const CancelToken* threadCancelToken();

// Sets this thread's token while it lives (null clears it); restores the previous one after.
class ThreadCancelScope {
public:
    explicit ThreadCancelScope(const CancelToken* token);
    ~ThreadCancelScope();
    ThreadCancelScope(const ThreadCancelScope&) = delete;
    ThreadCancelScope& operator=(const ThreadCancelScope&) = delete;

private:
    const CancelToken* previous_;
};

// A new thread running `work` under the calling thread's token.
template <class Work>
std::thread startThreadInheritingCancel(Work&& work) {
    return std::thread([token = threadCancelToken(), work = std::forward<Work>(work)]() mutable {
        const ThreadCancelScope scope(token);
        work();
    });
}

}  // namespace strata
