#include "ozdf_parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "formats/common/thread_cancel.h"

namespace strata::ozdf {

void forEachIndex(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& callerDone) {
    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> failed{false};
    const auto run = [&](bool caller) {
        for (std::size_t i = next++; i < count && !failed; i = next++) {
            try {
                work(i);
            } catch (...) {
                errors[i] = std::current_exception();
                failed = true;
            }
            const std::size_t finished = ++done;
            if (caller && callerDone) {
                callerDone(finished);
            }
        }
    };
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    const std::size_t helpers =
        std::min<std::size_t>(std::max(1U, std::min(threads, cores)) - 1, count / 2);
    std::vector<std::thread> pool;
    for (std::size_t i = 0; i < helpers; ++i) {
        try {
            pool.push_back(startThreadInheritingCancel([&run] { run(false); }));
        } catch (const std::system_error&) {
            break;  // no thread to be had: the caller runs the rest
        }
    }
    run(true);
    for (std::thread& thread : pool) {
        thread.join();
    }
    for (const std::exception_ptr& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
}

}  // namespace strata::ozdf
