// What every long job of formats/ (validate, compare, repair, a writer, a conversion) is given
// to be stopped and to report how far it is: one token and one callback type for all of them.
#pragma once

#include <atomic>
#include <functional>
#include <string>

namespace strata {

// Shared between the thread that asks for a stop and the workers that poll it.
class CancelToken {
public:
    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> cancelled_{false};
};

// fraction in [0, 1]; text says what is being done ("block 12 of 262").
using ProgressCallback = std::function<void(double fraction, const std::string& text)>;

}  // namespace strata
