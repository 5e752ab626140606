// libcurl is loaded by the first use of an http(s) URL, not at start and not by making a
// client or a session: programs that never read a remote file never load it (start-up time).
// ctest runs each test in a process of its own, so each starts with libcurl not yet loaded.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "formats/remote/curl_library.h"
#include "formats/remote/http_client.h"
#include "formats/remote/remote_session.h"
#include "formats/remote/remote_url.h"

namespace strata {
namespace {

#define SKIP_IF_ALREADY_LOADED()                                                           \
    if (curlLibraryLoaded()) {                                                             \
        GTEST_SKIP() << "an earlier test in this process loaded libcurl; run this one on " \
                        "its own (as ctest does)";                                         \
    }

TEST(CurlLibrary, LoadedByTheFirstHttpUrlOnly) {
    SKIP_IF_ALREADY_LOADED();
    const HttpClient client(RemoteOptions{}, std::make_shared<RemoteCounters>());
    const RemoteSessionPtr session = makeRemoteSession();
    EXPECT_EQ(parseTypedUrl("s3://bucket/a%20b.zs").location.key(), "a%20b.zs");
    EXPECT_EQ(parseTypedUrl("/tmp/local.zs").location.text(), "/tmp/local.zs");
    EXPECT_FALSE(curlLibraryLoaded());

    EXPECT_EQ(parseTypedUrl("http://127.0.0.1/a%20b.zs").location.text(),
              "http://127.0.0.1/a b.zs");
    EXPECT_TRUE(curlLibraryLoaded());
    EXPECT_EQ(&curlLibrary("http://127.0.0.1/"), &curlLibrary("https://example.invalid/"));
}

TEST(CurlLibrary, FirstUseFromManyThreadsLoadsItOnce) {
    SKIP_IF_ALREADY_LOADED();
    std::vector<const CurlLibrary*> seen(8, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i) {
        threads.emplace_back([&seen, i] {
            const std::string url = "http://127.0.0.1/" + std::to_string(i) + ".zs";
            seen[i] = &curlLibrary(url);
            EXPECT_EQ(parseTypedUrl(url).location.text(), url);
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    EXPECT_TRUE(curlLibraryLoaded());
    for (const CurlLibrary* library : seen) {
        ASSERT_EQ(library, seen.front());
        EXPECT_NE(library->easyInit, nullptr);
        EXPECT_NE(library->urlStrerror, nullptr);
    }
}

}  // namespace
}  // namespace strata
