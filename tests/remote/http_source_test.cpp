// RemoteByteSource against a real nginx on 127.0.0.1: ranges, cache, read-ahead, redirects,
// errors, a changed object and the disk cache.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <span>
#include <string>

#include "formats/common/byte_source.h"
#include "formats/remote/remote_session.h"
#include "remote_test_env.h"

namespace strata {
namespace {

using test::WebSite;

std::string text(const ByteView& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

std::string localBytes(const std::filesystem::path& path, std::uint64_t offset, std::uint64_t n) {
    const auto source = openMappedFile(path);
    return text(source->view(offset, n));
}

class HttpSource : public ::testing::Test {
protected:
    void SetUp() override { STRATA_REQUIRE_WEBSITE(); }
    WebSite& site() { return WebSite::get(); }
    static RemoteOptions small() {
        RemoteOptions o;
        o.blockSize = 64 * 1024;
        o.cacheBytes = 4 * 1024 * 1024;
        o.retries = 1;
        o.retryBackoff = std::chrono::milliseconds(10);
        return o;
    }
    RemoteError expectError(const std::string& path, RemoteOptions options = small()) {
        const auto session = makeRemoteSession(options);
        try {
            session->open(Location::parse(site().url(path)));
        } catch (const RemoteError& e) {
            return e;
        }
        ADD_FAILURE() << "opening " << path << " did not fail";
        return RemoteError(RemoteError::Kind::Network, "", 0, "");
    }
};

TEST_F(HttpSource, ReadsTheSameBytesAsTheLocalFile) {
    const auto session = makeRemoteSession(small());
    const auto source = session->open(Location::parse(site().url("data/file.bin")));
    const auto path = site().file("data/file.bin");
    ASSERT_EQ(source->size(), std::filesystem::file_size(path));
    EXPECT_EQ(source->name(), site().url("data/file.bin"));
    const std::uint64_t size = source->size();
    for (const auto& [offset, length] :
         std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 10},
                                                              {65530, 20},
                                                              {100000, 700000},
                                                              {size - 5, 100},
                                                              {size, 10},
                                                              {size + 9, 1},
                                                              {0, size},
                                                              {3 * 65536, 65536}}) {
        EXPECT_EQ(text(source->view(offset, length)), localBytes(path, offset, length))
            << offset << "+" << length;
    }
    // A view stays valid after the cache has moved on.
    const ByteView kept = source->view(7, 3);
    const std::string before = text(kept);
    source->view(0, size);
    EXPECT_EQ(text(kept), before);
}

TEST_F(HttpSource, FetchesNeighbouringBlocksInOneRequest) {
    RemoteOptions o = small();
    o.parallelRequests = 1;
    o.readAheadBytes = 0;
    const auto session = makeRemoteSession(o);
    const std::size_t before = site().requestsFor("/data/file.bin").size();
    const auto source = session->open(Location::parse(site().url("data/file.bin")));
    source->view(0, 16 * 65536);  // block 0 came with the open; 1..15 are missing
    const auto log = site().requestsFor("/data/file.bin", before + 2);
    ASSERT_EQ(log.size() - before, 2u);
    EXPECT_EQ(log[before].range, "bytes=0-65535");
    EXPECT_EQ(log[before + 1].range, "bytes=65536-1048575");
    EXPECT_EQ(log[before + 1].status, "206");
    EXPECT_FALSE(log[before + 1].ifMatch.empty());  // later reads ask nginx to check the ETag
    EXPECT_EQ(session->counters().requests, 2u);
    EXPECT_EQ(session->counters().bytesFetched, 16u * 65536);
}

TEST_F(HttpSource, CachedBlocksCostNoRequest) {
    const auto session = makeRemoteSession(small());
    const auto source = session->open(Location::parse(site().url("data/file.bin")));
    source->view(200000, 300000);
    const auto after = session->counters();
    EXPECT_EQ(text(source->view(200000, 300000)),
              localBytes(site().file("data/file.bin"), 200000, 300000));
    EXPECT_EQ(session->counters().requests, after.requests);
    EXPECT_GT(session->counters().cacheHits, after.cacheHits);
    // Another source on the same unchanged object shares the session's cache.
    const auto again = session->open(Location::parse(site().url("data/file.bin")));
    const auto reopened = session->counters();
    again->view(200000, 300000);
    EXPECT_EQ(session->counters().requests, reopened.requests);
}

TEST_F(HttpSource, SequentialReadsArePrefetched) {
    RemoteOptions o = small();
    o.readAheadBytes = 1024 * 1024;
    const auto session = makeRemoteSession(o);
    const auto source = session->open(Location::parse(site().url("data/file.bin")));
    const auto path = site().file("data/file.bin");
    std::uint64_t views = 0;
    for (std::uint64_t at = 0; at < source->size(); at += 32 * 1024, ++views) {
        ASSERT_EQ(text(source->view(at, 32 * 1024)), localBytes(path, at, 32 * 1024));
    }
    const auto c = session->counters();
    EXPECT_GT(c.prefetchedBlocks, 0u);
    // 50 blocks read through far fewer, larger requests.
    EXPECT_LT(c.requests, source->size() / o.blockSize / 2);
}

// Two readers taking turns, each scanning its own half (a validator's threads on two tensors):
// each is followed and read ahead on its own, so neither breaks the other's run of requests.
// They read with read(), which copies across block boundaries straight from the blocks.
TEST_F(HttpSource, TwoInterleavedScansAreEachPrefetched) {
    RemoteOptions o = small();
    o.readAheadBytes = 1024 * 1024;
    const auto session = makeRemoteSession(o);
    const auto source = session->open(Location::parse(site().url("data/file.bin")));
    const auto path = site().file("data/file.bin");
    const std::uint64_t half = source->size() / 2;
    const std::uint64_t step = 40 * 1024;  // not a divisor of the block size: reads straddle blocks
    std::vector<std::uint8_t> buffer(step);
    for (std::uint64_t at = 0; at < half; at += step) {
        for (const std::uint64_t start : {std::uint64_t{0}, half}) {
            const std::uint64_t want = std::min(step, half - at);
            ASSERT_EQ(source->read(start + at, std::span(buffer.data(), want)), want);
            ASSERT_EQ(std::string(reinterpret_cast<const char*>(buffer.data()), want),
                      localBytes(path, start + at, want))
                << start + at;
        }
    }
    // Followed as one reader, the turns looked like random reads: about a request per block.
    const auto c = session->counters();
    EXPECT_GT(c.prefetchedBlocks, 0u);
    EXPECT_LT(c.requests, source->size() / o.blockSize * 2 / 3);
    EXPECT_EQ(c.bytesFetched, source->size());  // each byte once
}

TEST_F(HttpSource, SmallAndEmptyFiles) {
    const auto session = makeRemoteSession(small());
    const auto tiny = session->open(Location::parse(site().url("data/small.bin")));
    EXPECT_EQ(tiny->size(), 1000u);
    EXPECT_EQ(text(tiny->view(0, 5000)), localBytes(site().file("data/small.bin"), 0, 1000));
    const auto empty = session->open(Location::parse(site().url("data/empty.bin")));
    EXPECT_EQ(empty->size(), 0u);
    EXPECT_TRUE(empty->view(0, 10).empty());
}

TEST_F(HttpSource, MissingFileIs404NamingTheUrl) {
    const RemoteError e = expectError("data/no-such-file.bin");
    EXPECT_EQ(e.kind(), RemoteError::Kind::NotFound);
    EXPECT_EQ(e.httpStatus(), 404);
    EXPECT_NE(std::string(e.what()).find(site().url("data/no-such-file.bin")), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("404 Not Found"), std::string::npos) << e.what();
}

TEST_F(HttpSource, DeniedFileIs403) {
    const RemoteError e = expectError("forbidden/secret.bin");
    EXPECT_EQ(e.kind(), RemoteError::Kind::Forbidden);
    EXPECT_NE(std::string(e.what()).find("403 Forbidden"), std::string::npos) << e.what();
}

TEST_F(HttpSource, FollowsASameHostRedirect) {
    const auto session = makeRemoteSession(small());
    const auto source = session->open(Location::parse(site().url("moved/file.bin")));
    EXPECT_EQ(text(source->view(1000, 100)), localBytes(site().file("data/file.bin"), 1000, 100));
    EXPECT_EQ(source->name(), site().url("moved/file.bin"));
}

TEST_F(HttpSource, RedirectLoopIsNamed) {
    const RemoteError e = expectError("loop/a");
    EXPECT_EQ(e.kind(), RemoteError::Kind::Redirect);
    EXPECT_NE(std::string(e.what()).find("redirect loop"), std::string::npos) << e.what();
}

TEST_F(HttpSource, RedirectToAnotherHostIsRefused) {
    const RemoteError e = expectError("away/file.bin");
    EXPECT_EQ(e.kind(), RemoteError::Kind::Redirect);
    EXPECT_NE(std::string(e.what()).find("another host"), std::string::npos) << e.what();
}

TEST_F(HttpSource, RedirectToAnotherSchemeIsRefused) {
    const RemoteError e = expectError("ftp/file.bin");
    EXPECT_EQ(e.kind(), RemoteError::Kind::Refused);
    EXPECT_NE(std::string(e.what()).find("ftp://"), std::string::npos) << e.what();
}

TEST_F(HttpSource, LocalLocationsAreNotRemote) {
    const auto session = makeRemoteSession(small());
    EXPECT_THROW(session->open(Location::parse("file:///etc/hostname")), RemoteError);
}

// Rewrites a file with new bytes of the same length and a new modification time, so nginx
// gives it a new ETag.
void replaceContent(const std::filesystem::path& path, std::uint32_t seed) {
    const auto size = std::filesystem::file_size(path);
    const auto time = std::filesystem::last_write_time(path);
    test::writeFile(path, test::patternBytes(size, seed));
    std::filesystem::last_write_time(path, time + std::chrono::seconds(10));
}

TEST_F(HttpSource, AChangedObjectFailsEveryLaterRead) {
    const auto path = site().file("changing/etag.bin");
    test::writeFile(path, test::patternBytes(1024 * 1024, 5));
    const std::string original = localBytes(path, 0, 1024 * 1024);
    RemoteOptions o = small();
    o.readAheadBytes = 0;
    const auto session = makeRemoteSession(o);
    const auto source = session->open(Location::parse(site().url("changing/etag.bin")));
    EXPECT_EQ(text(source->view(0, 1000)), original.substr(0, 1000));
    replaceContent(path, 6);
    try {
        source->view(512 * 1024, 1000);
        FAIL() << "read a changed object";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Changed);
        EXPECT_NE(std::string(e.what()).find("the remote file changed while it was open"),
                  std::string::npos)
            << e.what();
    }
    // Even bytes still cached from the old version are refused now.
    EXPECT_THROW(source->view(0, 1000), RemoteError);
    // Reopening reads the new version.
    const auto fresh = session->open(Location::parse(site().url("changing/etag.bin")));
    EXPECT_EQ(text(fresh->view(512 * 1024, 1000)), localBytes(path, 512 * 1024, 1000));
}

TEST_F(HttpSource, AGrownObjectIsAChange) {
    const auto path = site().file("changing/grow.bin");
    test::writeFile(path, test::patternBytes(300 * 1024, 7));
    RemoteOptions o = small();
    o.readAheadBytes = 0;
    const auto session = makeRemoteSession(o);
    const auto source = session->open(Location::parse(site().url("changing/grow.bin")));
    test::writeFile(path, test::patternBytes(400 * 1024, 7));
    try {
        source->view(200 * 1024, 10);
        FAIL() << "read a changed object";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Changed) << e.what();
    }
}

TEST_F(HttpSource, DiskCacheServesALaterRunAndNeverAStaleObject) {
    test::TempDir cacheDir("strata-remote-cache");
    const auto path = site().file("changing/disk.bin");
    test::writeFile(path, test::patternBytes(700 * 1024, 8));
    RemoteOptions o = small();
    o.cacheDir = cacheDir.path();
    {
        const auto first = makeRemoteSession(o);
        first->open(Location::parse(site().url("changing/disk.bin")))->view(0, 700 * 1024);
    }
    const auto second = makeRemoteSession(o);
    const auto source = second->open(Location::parse(site().url("changing/disk.bin")));
    EXPECT_EQ(text(source->view(0, 700 * 1024)), localBytes(path, 0, 700 * 1024));
    EXPECT_EQ(second->counters().requests, 1u);  // the open; every other block from disk

    replaceContent(path, 9);
    const auto third = makeRemoteSession(o);
    const auto changed = third->open(Location::parse(site().url("changing/disk.bin")));
    EXPECT_EQ(text(changed->view(0, 700 * 1024)), localBytes(path, 0, 700 * 1024));
    EXPECT_GT(third->counters().requests, 1u);
}

TEST_F(HttpSource, RequestLogSeesEveryRequest) {
    std::mutex mutex;
    std::vector<RemoteRequestLogEntry> entries;
    RemoteOptions o = small();
    o.readAheadBytes = 0;
    o.requestLog = [&](const RemoteRequestLogEntry& e) {
        std::lock_guard lock(mutex);
        entries.push_back(e);
    };
    const auto session = makeRemoteSession(o);
    session->open(Location::parse(site().url("data/file.bin")))->view(65536, 10);
    std::lock_guard lock(mutex);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].method, "GET");
    EXPECT_EQ(entries[0].url, site().url("data/file.bin"));
    EXPECT_EQ(entries[0].range, "bytes=0-65535");
    EXPECT_EQ(entries[0].status, 206);
    EXPECT_EQ(entries[1].range, "bytes=65536-131071");
    EXPECT_EQ(entries[1].bytes, 65536u);
}

}  // namespace
}  // namespace strata
