// A job's cancel token follows its work onto the threads the work starts: a thread started
// with startThreadInheritingCancel, the workers of an OrderedPool and of the OZDF forEachIndex
// all see the token of the thread that started them (remote reads poll it), and a scope
// restores the previous token when it ends.
#include "formats/common/thread_cancel.h"

#include <gtest/gtest.h>

#include <mutex>
#include <set>

#include "formats/common/ordered_pool.h"
#include "formats/ozdf/ozdf_parallel.h"

namespace strata {
namespace {

TEST(ThreadCancel, ScopesNestAndRestore) {
    CancelToken outer, inner;
    EXPECT_EQ(threadCancelToken(), nullptr);
    {
        const ThreadCancelScope a(&outer);
        EXPECT_EQ(threadCancelToken(), &outer);
        {
            const ThreadCancelScope b(&inner);
            EXPECT_EQ(threadCancelToken(), &inner);
        }
        EXPECT_EQ(threadCancelToken(), &outer);
    }
    EXPECT_EQ(threadCancelToken(), nullptr);
}

TEST(ThreadCancel, StartedThreadsInheritTheToken) {
    CancelToken token;
    const CancelToken* seen = &token + 1;  // anything but the answers below
    {
        const ThreadCancelScope scope(&token);
        std::thread t = startThreadInheritingCancel([&seen] { seen = threadCancelToken(); });
        t.join();
    }
    EXPECT_EQ(seen, &token);
    std::thread plain = startThreadInheritingCancel([&seen] { seen = threadCancelToken(); });
    plain.join();
    EXPECT_EQ(seen, nullptr);
}

TEST(ThreadCancel, PoolWorkersInheritTheToken) {
    CancelToken token;
    const ThreadCancelScope scope(&token);
    OrderedPool<const CancelToken*> pool(3, 16);
    for (int i = 0; i < 16; ++i) {
        ASSERT_TRUE(pool.submit([] { return threadCancelToken(); }));
    }
    int results = 0;
    while (auto r = pool.next()) {
        EXPECT_EQ(*r, &token);
        ++results;
    }
    EXPECT_EQ(results, 16);

    std::mutex mutex;
    std::set<const CancelToken*> seen;
    ozdf::forEachIndex(64, 4, [&](std::size_t) {
        std::lock_guard lock(mutex);
        seen.insert(threadCancelToken());
    });
    EXPECT_EQ(seen, std::set<const CancelToken*>{&token});
}

}  // namespace
}  // namespace strata
