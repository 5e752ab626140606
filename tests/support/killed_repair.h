// Runs a repair in a child process that kills itself (SIGKILL) at one of its progress reports,
// for the tests that check a repair killed half-way leaves nothing half-written behind.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <functional>
#include <string>

#include "formats/common/repair.h"

namespace strata::test {

struct KilledRepair {
    bool finished = false;  // the child ran to the end (it was never killed)
    int exitCode = 0;       // then: 0 done, 3 the repair threw, -1 no child could start
};

// `repair` gets options whose progress callback kills the process at its `killAt`-th call.
inline KilledRepair repairKilledAt(int killAt,
                                   const std::function<void(const RepairOptions&)>& repair) {
    const pid_t child = ::fork();
    if (child < 0) {
        return {true, -1};
    }
    if (child == 0) {
        RepairOptions options;
        int calls = 0;
        options.progress = [&](double, const std::string&) {
            if (++calls == killAt) {
                ::raise(SIGKILL);
            }
        };
        try {
            repair(options);
        } catch (...) {
            ::_exit(3);
        }
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return {WIFEXITED(status), WIFEXITED(status) ? WEXITSTATUS(status) : 0};
}

}  // namespace strata::test
