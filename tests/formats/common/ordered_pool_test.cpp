#include "formats/common/ordered_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <stdexcept>

namespace strata {
namespace {

using namespace std::chrono_literals;

TEST(OrderedPool, ResultsComeBackInSubmissionOrder) {
    OrderedPool<int> pool(4, 8);
    std::mt19937 rng(42);
    std::vector<int> got;
    for (int i = 0; i < 200; ++i) {
        if (pool.full()) {
            got.push_back(*pool.next());
        }
        const auto delay = std::chrono::microseconds(rng() % 2000);
        ASSERT_TRUE(pool.submit([i, delay] {
            std::this_thread::sleep_for(delay);
            return i;
        }));
    }
    while (auto r = pool.next()) {
        got.push_back(*r);
    }
    ASSERT_EQ(got.size(), 200u);
    for (int i = 0; i < 200; ++i) {
        EXPECT_EQ(got[static_cast<std::size_t>(i)], i);
    }
    EXPECT_EQ(pool.inFlight(), 0u);
}

TEST(OrderedPool, NextOnAnEmptyPoolReturnsNothing) {
    OrderedPool<int> pool(2, 2);
    EXPECT_FALSE(pool.next().has_value());
}

TEST(OrderedPool, NeverHoldsMoreThanMaxInFlight) {
    constexpr std::size_t kMax = 3;
    OrderedPool<std::size_t> pool(4, kMax);
    std::atomic<std::size_t> maxSeenByTasks{0};
    std::vector<std::size_t> results;
    std::thread consumer([&] {
        while (results.size() < 50) {
            std::this_thread::sleep_for(1ms);  // slower than the producer, so submit() blocks
            if (auto r = pool.next()) {
                results.push_back(*r);
            }
        }
    });
    std::size_t maxSeen = 0;
    for (std::size_t i = 0; i < 50; ++i) {
        ASSERT_TRUE(pool.submit([&pool, &maxSeenByTasks, i] {
            const std::size_t now = pool.inFlight();
            std::size_t seen = maxSeenByTasks.load();
            while (now > seen && !maxSeenByTasks.compare_exchange_weak(seen, now)) {
            }
            return i;
        }));
        maxSeen = std::max(maxSeen, pool.inFlight());
    }
    consumer.join();
    EXPECT_LE(maxSeen, kMax);
    EXPECT_LE(maxSeenByTasks.load(), kMax);
    EXPECT_GE(maxSeen, 1u);
    ASSERT_EQ(results.size(), 50u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        EXPECT_EQ(results[i], i);
    }
}

TEST(OrderedPool, ExceptionsReachTheConsumerInOrder) {
    OrderedPool<int> pool(2, 4);
    pool.submit([] { return 1; });
    pool.submit([]() -> int { throw std::runtime_error("block 2 is corrupt"); });
    pool.submit([] { return 3; });
    EXPECT_EQ(*pool.next(), 1);
    try {
        pool.next();
        FAIL() << "expected the task's exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "block 2 is corrupt");
    }
    EXPECT_EQ(*pool.next(), 3);
}

TEST(OrderedPool, CancelTokenStopsQueuedWork) {
    CancelToken token;
    std::atomic<int> ran{0};
    std::atomic<bool> release{false};
    OrderedPool<int> pool(2, 100, &token);
    for (int i = 0; i < 50; ++i) {
        pool.submit([&] {
            while (!release) {
                std::this_thread::sleep_for(1ms);
            }
            ++ran;
            return 0;
        });
    }
    token.cancel();
    release = true;
    EXPECT_FALSE(pool.next().has_value());
    EXPECT_TRUE(pool.cancelled());
    EXPECT_FALSE(pool.submit([] { return 1; }));
    EXPECT_LT(ran.load(), 50);
}

TEST(OrderedPool, CancelWakesABlockedProducer) {
    // Declared before the pool: the pool's destructor joins the worker that still reads it.
    std::atomic<bool> release{false};
    OrderedPool<int> pool(2, 1);
    pool.submit([&] {
        while (!release) {
            std::this_thread::sleep_for(1ms);
        }
        return 0;
    });
    std::thread canceller([&] {
        std::this_thread::sleep_for(20ms);
        pool.cancel();
    });
    EXPECT_FALSE(pool.submit([] { return 1; }));  // full: blocks until cancelled
    canceller.join();
    release = true;
}

// One thread is the caller's: each task runs inside submit(), with no hand-over to another
// thread; results and errors still come back through next(), in order.
TEST(OrderedPool, OneThreadRunsTasksOnTheCaller) {
    OrderedPool<std::thread::id> pool(1, 2);
    EXPECT_TRUE(pool.submit([] { return std::this_thread::get_id(); }));
    EXPECT_TRUE(pool.submit([]() -> std::thread::id { throw std::runtime_error("second"); }));
    EXPECT_TRUE(pool.full());
    EXPECT_EQ(pool.next(), std::this_thread::get_id());
    EXPECT_THROW(pool.next(), std::runtime_error);
    EXPECT_FALSE(pool.next().has_value());
}

TEST(OrderedPool, MoveOnlyResults) {
    OrderedPool<std::unique_ptr<int>> pool(2, 2);
    pool.submit([] { return std::make_unique<int>(7); });
    auto r = pool.next();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(**r, 7);
}

}  // namespace
}  // namespace strata
