// Faults injected by tests/remote/fault_proxy.py between Strata and nginx: each ends in a
// correct retry or a clear error, never wrong bytes, a crash or a hang.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <thread>

#include "formats/common/diagnostic.h"
#include "formats/common/thread_cancel.h"
#include "formats/remote/remote_session.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_validator.h"
#include "formats/zs/zs_writer.h"
#include "remote_test_env.h"

namespace strata {
namespace {

using test::WebSite;

std::string text(const ByteView& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

class Faults : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (WebSite::get().ready() && test::proxyMissing().empty() && !proxy_) {
            try {
                proxy_ = std::make_unique<test::FaultProxy>(WebSite::get().nginx->port());
            } catch (const std::exception& e) {
                proxyError_ = e.what();
            }
        }
    }
    static void TearDownTestSuite() { proxy_.reset(); }
    void SetUp() override {
        STRATA_REQUIRE_WEBSITE();
        STRATA_REQUIRE_SERVER(test::proxyMissing());
        STRATA_REQUIRE_STARTED(proxyError_);
    }

    static RemoteOptions options() {
        RemoteOptions o;
        o.blockSize = 64 * 1024;
        o.retries = 3;
        o.retryBackoff = std::chrono::milliseconds(10);
        o.readAheadBytes = 0;
        return o;
    }
    // A URL through the proxy; each test uses its own tag so fault counts do not mix.
    std::string url(const std::string& fault, const std::string& path = "/data/file.bin") {
        return proxy_->url(::testing::UnitTest::GetInstance()->current_test_info()->name(), fault,
                           path);
    }
    std::string local(std::uint64_t offset, std::uint64_t n) {
        return text(openMappedFile(WebSite::get().file("data/file.bin"))->view(offset, n));
    }
    RemoteError openFails(const std::string& fault, RemoteOptions o = options()) {
        const auto session = makeRemoteSession(o);
        try {
            session->open(Location::parse(url(fault)))->view(0, 1024 * 1024);
        } catch (const RemoteError& e) {
            return e;
        }
        ADD_FAILURE() << fault << " did not fail";
        return RemoteError(RemoteError::Kind::Network, "", 0, "");
    }
    static std::string what(const RemoteError& e) { return e.what(); }

    static inline std::unique_ptr<test::FaultProxy> proxy_;
    static inline std::string proxyError_;
};

TEST_F(Faults, ServiceUnavailableIsRetried) {
    const auto session = makeRemoteSession(options());
    const auto source = session->open(Location::parse(url("s503x2")));
    EXPECT_EQ(text(source->view(100, 200000)), local(100, 200000));
    EXPECT_EQ(session->counters().retries, 2u);
}

TEST_F(Faults, TooManyRequestsIsRetried) {
    const auto session = makeRemoteSession(options());
    EXPECT_EQ(text(session->open(Location::parse(url("s429x1")))->view(5, 5)), local(5, 5));
}

TEST_F(Faults, PersistentServerErrorGivesUp) {
    RemoteOptions o = options();
    o.retries = 2;
    const RemoteError e = openFails("s500", o);
    EXPECT_EQ(e.kind(), RemoteError::Kind::ServerError);
    EXPECT_EQ(e.httpStatus(), 500);
    EXPECT_NE(what(e).find("500 Internal Server Error"), std::string::npos) << what(e);
    EXPECT_NE(what(e).find("gave up after 3 attempts"), std::string::npos) << what(e);
}

TEST_F(Faults, DroppedConnectionIsRetried) {
    const auto session = makeRemoteSession(options());
    EXPECT_EQ(text(session->open(Location::parse(url("dropx2")))->view(0, 1024 * 1024)),
              local(0, 1024 * 1024));
    EXPECT_EQ(session->counters().retries, 2u);
}

TEST_F(Faults, ConnectionThatAlwaysDropsGivesUp) {
    const RemoteError e = openFails("drop");
    EXPECT_EQ(e.kind(), RemoteError::Kind::Network);
    EXPECT_NE(what(e).find("connection dropped"), std::string::npos) << what(e);
}

TEST_F(Faults, ShortBodyIsRetriedThenReported) {
    const auto session = makeRemoteSession(options());
    EXPECT_EQ(text(session->open(Location::parse(url("truncatex1")))->view(0, 100)), local(0, 100));
    const RemoteError e = openFails("truncate");
    EXPECT_EQ(e.kind(), RemoteError::Kind::BadResponse);
    EXPECT_NE(what(e).find("shorter than its Content-Range"), std::string::npos) << what(e);
}

TEST_F(Faults, ServerIgnoringRangeIsRefusedUnread) {
    const RemoteError e = openFails("norange");
    EXPECT_EQ(e.kind(), RemoteError::Kind::NoRangeSupport);
    EXPECT_NE(what(e).find("does not support Range requests"), std::string::npos) << what(e);
    // A small file that fits in the first request is fine without ranges.
    const auto session = makeRemoteSession(options());
    const auto small = session->open(Location::parse(url("norange", "/data/small.bin")));
    EXPECT_EQ(small->size(), 1000u);
}

TEST_F(Faults, HugeContentLengthIsNotDownloaded) {
    const auto session = makeRemoteSession(options());
    try {
        session->open(Location::parse(url("hugelength")));
        FAIL() << "opened";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::NoRangeSupport) << e.what();
    }
    EXPECT_LT(session->counters().bytesFetched, 1024u * 1024);
}

TEST_F(Faults, EndlessBodyIsCutOff) {
    const RemoteError e = openFails("endless");
    EXPECT_EQ(e.kind(), RemoteError::Kind::BadResponse);
    EXPECT_NE(what(e).find("more than"), std::string::npos) << what(e);
}

TEST_F(Faults, WrongContentRangeIsReported) {
    const RemoteError e = openFails("badrange");
    EXPECT_EQ(e.kind(), RemoteError::Kind::BadResponse);
    EXPECT_NE(what(e).find("wrong Content-Range"), std::string::npos) << what(e);
    const RemoteError missing = openFails("nocontentrange");
    EXPECT_EQ(missing.kind(), RemoteError::Kind::BadResponse);
    EXPECT_NE(what(missing).find("without a Content-Range"), std::string::npos) << what(missing);
}

TEST_F(Faults, ChangedETagOnALaterReadIsAChange) {
    // "etaga1": the open passes untouched, every later answer carries another ETag.
    const auto session = makeRemoteSession(options());
    const auto source = session->open(Location::parse(url("etaga1")));
    try {
        source->view(70000, 10);
        FAIL() << "read across a changed ETag";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Changed);
        EXPECT_NE(what(e).find("changed-by-proxy"), std::string::npos) << what(e);
    }
}

TEST_F(Faults, StallPastTheTimeoutGivesUp) {
    RemoteOptions o = options();
    o.lowSpeedTime = std::chrono::seconds(1);
    o.retries = 1;
    const RemoteError e = openFails("stall", o);
    EXPECT_EQ(e.kind(), RemoteError::Kind::Timeout) << what(e);
    EXPECT_NE(what(e).find("timed out"), std::string::npos) << what(e);
}

TEST_F(Faults, CancelInterruptsASlowRead) {
    CancelToken token;
    RemoteOptions o = options();
    o.cancel = &token;
    const auto session = makeRemoteSession(o);
    auto done = std::async(std::launch::async, [&] {
        try {
            session->open(Location::parse(url("trickle")))->view(0, 100);
        } catch (const RemoteError& e) {
            return e.kind();
        }
        return RemoteError::Kind::NotFound;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    token.cancel();
    // The trickle would take an hour; cancel ends it (the bound only guards against a hang).
    ASSERT_EQ(done.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    EXPECT_EQ(done.get(), RemoteError::Kind::Cancelled);
}

TEST_F(Faults, CancelScopeStopsOneThreadsReads) {
    const auto session = makeRemoteSession(options());
    const auto source = session->open(Location::parse(url("")));
    CancelToken token;
    token.cancel();
    RemoteCancelScope scope(&token);
    try {
        source->view(500000, 10);
        FAIL() << "read under a cancelled scope";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Cancelled);
    }
}

// A remote validation run under a job's token (ThreadCancelScope on the job's thread, as the job
// runner and strata-cli set it) on two worker threads ends once the token is cancelled, though
// every read after the first two trickles (an hour per block). (That worker threads inherit the
// token is tested directly in ThreadCancel.*.)
TEST_F(Faults, CancelStopsARemoteValidationOnWorkerThreads) {
    const auto path = WebSite::get().file("data/cancel.zs");
    {
        zs::WriterOptions writerOptions;
        writerOptions.codec = zs::Codec::None;
        zs::ZsWriter writer(path, {{"name", "cancel"}}, writerOptions);
        // Blocks of 400 KB, several 64 KiB remote blocks each: a worker reads most of a block.
        for (int b = 0; b < 10; ++b) {
            std::vector<std::string> block;
            for (int i = 0; i < 200; ++i) {
                char key[32];
                std::snprintf(key, sizeof key, "key%06d", b * 200 + i);
                block.emplace_back(std::string(key) + std::string(2000, 'x'));
            }
            writer.addBlock(block);
        }
        writer.finish();
    }
    const auto session = makeRemoteSession(options());
    const auto source = session->open(Location::parse(url("tricklea2", "/data/cancel.zs")));
    CancelToken token;
    auto state = std::make_shared<std::promise<JobOutcome>>();
    std::future<JobOutcome> done = state->get_future();
    std::thread job([source, state, &token] {
        const ThreadCancelScope scope(&token);
        try {
            CollectingSink sink;
            ValidationOptions validation;
            validation.cancel = &token;
            validation.threads = 2;
            state->set_value(zs::ZsValidator(zs::ZsFile::open(source)).run(sink, validation));
        } catch (...) {
            state->set_exception(std::current_exception());
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    token.cancel();
    // The bound only guards against a hang (each trickled block would take an hour).
    if (done.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
        job.detach();  // stuck in a read no token reaches
        FAIL() << "the validation did not stop";
    }
    job.join();
    try {
        EXPECT_EQ(done.get(), JobOutcome::Cancelled);
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Cancelled) << e.what();
    }
}

}  // namespace
}  // namespace strata
