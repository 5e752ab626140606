// A small thread pool for block-parallel work (compressing or decompressing many blocks): tasks
// run concurrently, results come back in submission order, and at most maxInFlight results
// exist at once (queued, running or finished but not yet taken), so memory stays bounded.
//
// One thread may both submit and consume, as long as it never submits while full():
//
//     OrderedPool<Block> pool(threads, 2 * threads);
//     for (auto& job : jobs) {
//         if (pool.full()) consume(*pool.next());
//         pool.submit([&job] { return decode(job); });
//     }
//     while (auto block = pool.next()) consume(*block);
//
// With separate producer and consumer threads, submit() simply blocks until next() makes room.
// A pool of one thread runs each task inside submit(), on the caller's thread: a thread of its
// own would only add a hand-over per task (a scan validates thousands of small files, each on a
// worker that is already one of many).
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "job_control.h"
#include "thread_cancel.h"

namespace strata {

template <class R>
class OrderedPool {
public:
    // threads == 0 means one per core; maxInFlight is at least 1. `cancel`, if given, must
    // outlive the pool; once it is cancelled, queued tasks are dropped unrun.
    OrderedPool(unsigned threads, std::size_t maxInFlight, const CancelToken* cancel = nullptr)
        : maxInFlight_(std::max<std::size_t>(maxInFlight, 1)), cancel_(cancel) {
        if (threads == 0) {
            threads = std::max(1u, std::thread::hardware_concurrency());
        }
        inline_ = threads == 1;
        workers_.reserve(inline_ ? 0 : threads);
        for (unsigned i = 0; i < (inline_ ? 0 : threads); ++i) {
            workers_.push_back(startThreadInheritingCancel([this] { work(); }));
        }
    }

    // Drops queued tasks, waits for running ones, discards their results.
    ~OrderedPool() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            queue_.clear();
        }
        changed_.notify_all();
        for (auto& worker : workers_) {
            worker.join();
        }
    }

    OrderedPool(const OrderedPool&) = delete;
    OrderedPool& operator=(const OrderedPool&) = delete;

    // Queues a task; blocks while maxInFlight results are outstanding. Returns false (and does
    // not queue) once the pool is cancelled.
    bool submit(std::function<R()> task) {
        std::unique_lock lock(mutex_);
        waitUntil(lock, [this] { return slots_.size() < maxInFlight_; });
        if (isCancelled()) {
            return false;
        }
        slots_.emplace_back();
        if (inline_) {
            const std::uint64_t sequence = nextSequence_++;
            lock.unlock();
            finish(sequence, run(task));
            return true;
        }
        queue_.emplace_back(nextSequence_++, std::move(task));
        lock.unlock();
        changed_.notify_all();
        return true;
    }

    // The result of the oldest task not yet taken, waiting for it if needed; rethrows what the
    // task threw. Returns nothing when no task is outstanding or the pool is cancelled.
    std::optional<R> next() {
        std::unique_lock lock(mutex_);
        waitUntil(lock, [this] { return slots_.empty() || slots_.front().done; });
        if (isCancelled() || slots_.empty()) {
            return std::nullopt;
        }
        Slot slot = std::move(slots_.front());
        slots_.pop_front();
        ++firstSequence_;
        lock.unlock();
        changed_.notify_all();
        if (slot.error) {
            std::rethrow_exception(slot.error);
        }
        return std::move(slot.value);
    }

    // Stops the pool: queued tasks are dropped, submit() and next() return at once.
    void cancel() {
        {
            std::lock_guard lock(mutex_);
            cancelled_ = true;
            queue_.clear();
        }
        changed_.notify_all();
    }

    bool cancelled() const {
        std::lock_guard lock(mutex_);
        return isCancelled();
    }

    // Results outstanding: queued, running, or finished and waiting for next().
    std::size_t inFlight() const {
        std::lock_guard lock(mutex_);
        return slots_.size();
    }
    bool full() const { return inFlight() >= maxInFlight_; }
    std::size_t maxInFlight() const { return maxInFlight_; }

private:
    struct Slot {
        std::optional<R> value;
        std::exception_ptr error;
        bool done = false;
    };

    // The external token cannot wake us, so waits poll it a few times a second.
    static constexpr std::chrono::milliseconds kCancelPoll{20};

    bool isCancelled() const { return cancelled_ || (cancel_ != nullptr && cancel_->cancelled()); }

    template <class Ready>
    void waitUntil(std::unique_lock<std::mutex>& lock, Ready ready) {
        while (!ready() && !isCancelled()) {
            changed_.wait_for(lock, kCancelPoll);
        }
    }

    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) {
                return;
            }
            if (isCancelled()) {
                queue_.clear();
                continue;
            }
            auto [sequence, task] = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            finish(sequence, run(task));
            lock.lock();
        }
    }

    static Slot run(const std::function<R()>& task) {
        Slot outcome;
        try {
            outcome.value.emplace(task());
        } catch (...) {
            outcome.error = std::current_exception();
        }
        outcome.done = true;
        return outcome;
    }

    // Stores a task's outcome in its slot (gone if the pool was cancelled and drained meanwhile).
    void finish(std::uint64_t sequence, Slot outcome) {
        {
            const std::lock_guard lock(mutex_);
            if (sequence >= firstSequence_ && sequence - firstSequence_ < slots_.size()) {
                slots_[static_cast<std::size_t>(sequence - firstSequence_)] = std::move(outcome);
            }
        }
        changed_.notify_all();
    }

    const std::size_t maxInFlight_;
    const CancelToken* cancel_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::pair<std::uint64_t, std::function<R()>>> queue_;
    std::deque<Slot> slots_;  // slots_[i] belongs to task number firstSequence_ + i
    std::uint64_t firstSequence_ = 0;
    std::uint64_t nextSequence_ = 0;
    bool cancelled_ = false;
    bool stopping_ = false;
    bool inline_ = false;  // one thread: tasks run in submit()
    std::vector<std::thread> workers_;
};

}  // namespace strata
