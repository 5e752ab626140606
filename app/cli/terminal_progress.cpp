#include "terminal_progress.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace strata::cli {

ProgressCallback terminalProgress() {
    if (::isatty(STDERR_FILENO) == 0) {
        return {};
    }
    auto state = std::make_shared<std::pair<std::mutex, int>>();
    state->second = -1;
    return [state](double fraction, const std::string& text) {
        const int percent = static_cast<int>(fraction * 100.0);
        const std::lock_guard lock(state->first);
        if (percent == state->second) {
            return;
        }
        state->second = percent;
        std::fprintf(stderr, "\r\033[K[%3d%%] %s", percent, text.c_str());
        std::fflush(stderr);
    };
}

void clearTerminalProgress(const ProgressCallback& progress) {
    if (progress) {
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
    }
}

}  // namespace strata::cli
