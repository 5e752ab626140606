// What every long job of formats/ (validate, compare, repair, a writer, a conversion) is given
// to be stopped and to report how far it is, and how it says it was stopped: one token, one
// callback type, one outcome and one exception for all of them.
#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
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

// How a job that reports as it goes (a validator, a differ) ended: all of it done, stopped
// early because its sink asked (a difference limit), or cancelled through its CancelToken.
enum class JobOutcome { Completed, Stopped, Cancelled };

// Thrown by a job that builds a result (a repair, a save, a conversion) when its CancelToken
// was cancelled: what it wrote so far is removed and nothing was published. Callers tell a
// cancel from a failure by this type, never by the message.
class JobCancelled : public std::runtime_error {
public:
    JobCancelled() : std::runtime_error("cancelled") {}
};

// Throws JobCancelled once `cancel` (may be null) was cancelled.
inline void throwIfCancelled(const CancelToken* cancel) {
    if (cancel != nullptr && cancel->cancelled()) {
        throw JobCancelled();
    }
}

// fraction in [0, 1]; text says what is being done ("block 12 of 262").
using ProgressCallback = std::function<void(double fraction, const std::string& text)>;

}  // namespace strata
