// Ctrl-C during a long strata-cli command, handled in one place for every command: while an
// InterruptScope lives, SIGINT and SIGTERM cancel the run's token (commandInterrupt()), which
// the command passes on as its CancelToken, and remote reads in flight on this thread (and on
// the worker threads that inherit its cancel token) stop too. When the scope ends the handlers
// it replaced come back, so a second Ctrl-C outside a long job ends the process as usual.
#pragma once

#include "formats/common/job_control.h"
#include "formats/common/thread_cancel.h"

namespace strata::cli {

// The token SIGINT and SIGTERM cancel; one per process, as a run is one command.
const CancelToken& commandInterrupt();

class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    using Handler = void (*)(int);
    Handler previousInt_;
    Handler previousTerm_;
    ThreadCancelScope reads_;
};

}  // namespace strata::cli
