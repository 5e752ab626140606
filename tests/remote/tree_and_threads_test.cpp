// The HTTP file tree on nginx, many threads reading one remote file at once, and the pieces
// that need no server (Content-Range parsing, the block cache, S3 listings).
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "formats/remote/block_cache.h"
#include "formats/remote/http_client.h"
#include "formats/remote/remote_session.h"
#include "formats/remote/s3_list.h"
#include "remote_test_env.h"

namespace strata {
namespace {

using test::WebSite;

std::string text(const ByteView& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

class HttpTree : public ::testing::Test {
protected:
    void SetUp() override { STRATA_REQUIRE_WEBSITE(); }
};

TEST_F(HttpTree, ListsJsonDirectoryListings) {
    const Location folder = Location::parse(WebSite::get().url("list"));
    const auto tree = fileTreeFor(folder, RemoteOptions{});
    EXPECT_TRUE(tree->remote());
    const auto entries = tree->list(folder);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].name, "a.bin");
    EXPECT_EQ(entries[0].size, 10u);
    EXPECT_FALSE(entries[0].isDirectory);
    EXPECT_EQ(entries[1].name, "b.txt");
    EXPECT_EQ(entries[2].name, "sub");
    EXPECT_TRUE(entries[2].isDirectory);
    bool truncated = false;
    EXPECT_EQ(tree->list(folder, 2, &truncated).size(), 2u);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(tree->list(folder.child("sub")).at(0).name, "c.bin");
    EXPECT_EQ(text(tree->open(folder.child("sub/c.bin"))->view(0, 10)), "c");
}

TEST_F(HttpTree, StatsFilesAndFolders) {
    const auto tree = fileTreeFor(Location::parse(WebSite::get().url("")), RemoteOptions{});
    const auto file = tree->stat(Location::parse(WebSite::get().url("list/a.bin")));
    ASSERT_TRUE(file);
    EXPECT_FALSE(file->isDirectory);
    EXPECT_EQ(file->size, 10u);
    EXPECT_EQ(file->name, "a.bin");
    const auto listed = tree->stat(Location::parse(WebSite::get().url("list/sub")));
    ASSERT_TRUE(listed);
    EXPECT_TRUE(listed->isDirectory);
    const auto unlisted = tree->stat(Location::parse(WebSite::get().url("nolist")));
    ASSERT_TRUE(unlisted);
    EXPECT_TRUE(unlisted->isDirectory);
    EXPECT_FALSE(tree->stat(Location::parse(WebSite::get().url("list/none.bin"))));
}

TEST_F(HttpTree, ServerWithoutListingsSaysSo) {
    const Location folder = Location::parse(WebSite::get().url("data"));
    try {
        fileTreeFor(folder, RemoteOptions{})->list(folder);
        FAIL() << "listed a folder nginx does not list";
    } catch (const SourceError& e) {
        EXPECT_NE(std::string(e.what()).find("this HTTP server does not list folders"),
                  std::string::npos)
            << e.what();
    }
}

// A missing folder on a server that lists folders is "not found", which readers of folder
// formats take as a folder that is not there (an index without workers/).
TEST_F(HttpTree, MissingFolderIsNotFound) {
    const Location folder = Location::parse(WebSite::get().url("list/no-such-folder"));
    try {
        fileTreeFor(folder, RemoteOptions{})->list(folder);
        FAIL() << "listed a folder that does not exist";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::NotFound) << e.what();
    }
}

TEST(FileTreeFor, LocalLocationsGetTheLocalTree) {
    EXPECT_EQ(fileTreeFor(Location::parse("/tmp"), RemoteOptions{}), localFileTree());
    EXPECT_FALSE(fileTreeFor(Location::parse("file:///tmp"), RemoteOptions{})->remote());
}

TEST_F(HttpTree, ManyThreadsReadCorrectBytesWithinTheCacheBound) {
    RemoteOptions o;
    o.blockSize = 64 * 1024;
    o.cacheBytes = 1024 * 1024;
    o.parallelRequests = 4;
    o.readAheadBytes = 256 * 1024;
    const auto session = makeRemoteSession(o);
    const std::string uri = "/big/scan.bin";
    const std::size_t logBefore = WebSite::get().requestsFor(uri).size();
    const auto source = session->open(Location::parse(WebSite::get().url("big/scan.bin")));
    const auto local = openMappedFile(WebSite::get().file("big/scan.bin"));
    std::atomic<int> wrong{0};
    std::atomic<std::size_t> peak{0};
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(t);
            for (int i = 0; i < 150; ++i) {
                const std::uint64_t offset = rng() % (local->size() + 1000);
                const std::uint64_t length = rng() % (i % 10 == 0 ? 600000 : 20000);
                try {
                    if (text(source->view(offset, length)) != text(local->view(offset, length))) {
                        ++wrong;
                    }
                } catch (const std::exception& e) {
                    ADD_FAILURE() << e.what();
                }
                std::size_t seen = peak.load();
                const std::size_t now = session->cachedBytes();
                while (now > seen && !peak.compare_exchange_weak(seen, now)) {
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_LE(peak.load(), o.cacheBytes);
    // Every request Strata counted reached nginx, and the bytes add up. Read-ahead may still
    // be finishing: wait for the counters to settle before comparing.
    RemoteCounters::Snapshot c;
    std::vector<test::AccessLogLine> log;
    for (int i = 0; i < 100; ++i) {
        c = session->counters();
        log = WebSite::get().requestsFor(uri);
        if (log.size() - logBefore == c.requests) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(log.size() - logBefore, c.requests);
    std::uint64_t bytes = 0;
    for (std::size_t i = logBefore; i < log.size(); ++i) {
        bytes += log[i].bytes;
        EXPECT_EQ(log[i].status, "206");
    }
    EXPECT_EQ(bytes, c.bytesFetched);
    EXPECT_GT(c.cacheHits + c.cacheMisses, 0u);
}

TEST(ContentRange, ParsesAndRefuses) {
    auto r = parseContentRange("bytes 0-99/1000");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->first, 0u);
    EXPECT_EQ(r->last, 99u);
    EXPECT_EQ(r->total, 1000u);
    r = parseContentRange("bytes 5-9/*");
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->total);
    r = parseContentRange("bytes */0");
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->unsatisfied);
    EXPECT_EQ(r->total, 0u);
    for (const char* bad :
         {"", "bytes", "bytes 9-5/10", "bytes 0-10/10", "items 0-1/2", "bytes 0-1/x", "bytes -1/2",
          "bytes 0-1/99999999999999999999999", "bytes */*"}) {
        EXPECT_FALSE(parseContentRange(bad)) << bad;
    }
}

TEST(UriEncode, KeepsUnreservedCharacters) {
    EXPECT_EQ(uriEncode("a-b_c.d~e/f g+h", true), "a-b_c.d~e/f%20g%2Bh");
    EXPECT_EQ(uriEncode("a/b", false), "a%2Fb");
}

TEST(BlockCacheTest, StaysWithinItsBoundLeastRecentlyUsedFirst) {
    BlockCache cache(3000);
    const auto block = [](std::size_t n) {
        return std::make_shared<const std::vector<std::uint8_t>>(n);
    };
    cache.insert(1, 0, block(1000));
    cache.insert(1, 1, block(1000));
    cache.insert(2, 0, block(1000));
    EXPECT_TRUE(cache.find(1, 0));  // now most recent
    cache.insert(2, 1, block(1000));
    EXPECT_EQ(cache.bytes(), 3000u);
    EXPECT_FALSE(cache.find(1, 1));  // the least recently used went
    EXPECT_TRUE(cache.find(1, 0));
    cache.insert(3, 0, block(5000));  // larger than the bound: not kept
    EXPECT_FALSE(cache.find(3, 0));
    cache.erase(1);
    EXPECT_FALSE(cache.find(1, 0));
    EXPECT_EQ(cache.bytes(), 2000u);
}

TEST(S3ListParsing, ReadsKeysPrefixesAndTokens) {
    const std::string xml =
        "<?xml version=\"1.0\"?><ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/"
        "2006-03-01/\"><Name>b</Name><IsTruncated>true</IsTruncated>"
        "<NextContinuationToken>tok+/=</NextContinuationToken>"
        "<Contents><Key>p/a &amp; b.zs</Key><Size>12</Size><ETag>&quot;9b2c&quot;</ETag>"
        "<LastModified>2026-11-28T10:00:00.000Z</LastModified></Contents>"
        "<CommonPrefixes><Prefix>p/sub/</Prefix></CommonPrefixes></ListBucketResult>";
    const S3Listing l = parseListObjectsV2(xml, "u");
    ASSERT_EQ(l.objects.size(), 1u);
    EXPECT_EQ(l.objects[0].key, "p/a & b.zs");
    EXPECT_EQ(l.objects[0].size, 12u);
    EXPECT_EQ(l.objects[0].etag, "\"9b2c\"");  // what a scan's results cache keys on
    EXPECT_EQ(l.objects[0].lastModified, "2026-11-28T10:00:00.000Z");
    EXPECT_EQ(l.commonPrefixes, std::vector<std::string>{"p/sub/"});
    EXPECT_TRUE(l.truncated);
    EXPECT_EQ(l.nextContinuationToken, "tok+/=");
    EXPECT_THROW(parseListObjectsV2("<Error/>", "u"), SourceError);
    EXPECT_THROW(parseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>-1</Size>"
                                    "</Contents></ListBucketResult>",
                                    "u"),
                 SourceError);
    EXPECT_THROW(parseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated>"
                                    "</ListBucketResult>",
                                    "u"),
                 SourceError);
}

// A folder's entries are its immediate children, however the server grouped the keys: a key
// past the delimiter (a server that ignored it) names its folder, once; the folder's own
// marker, keys outside the prefix and empty names are left out.
TEST(S3ListParsing, EntriesAreImmediateChildrenOnce) {
    S3Listing page;
    page.objects = {{"p/", 0, "", ""},       {"p/a.zs", 5, "\"e\"", "t"}, {"p/sub/x.zs", 3, "", ""},
                    {"p//twice", 1, "", ""}, {"q/other", 1, "", ""},      {"p/sub/y/z", 1, "", ""}};
    page.commonPrefixes = {"p/sub/", "p/more/deeper/", "p/"};
    std::vector<FileTreeEntry> entries;
    addS3Entries(page, "p/", entries);
    sortS3Entries(entries);
    std::vector<std::pair<std::string, bool>> names;
    for (const FileTreeEntry& e : entries) {
        names.emplace_back(e.name, e.isDirectory);
    }
    const std::vector<std::pair<std::string, bool>> expected{
        {"a.zs", false}, {"more", true}, {"sub", true}};
    EXPECT_EQ(names, expected);
    EXPECT_EQ(entries[0].size, 5u);
    EXPECT_EQ(entries[0].etag, "\"e\"");
}

}  // namespace
}  // namespace strata
