// S3 through a real s3rver on 127.0.0.1. s3rver checks that a signed request names a known
// access key but does not verify V4 signatures, so the signed tests go through the test proxy
// (fault_proxy.py --sigv4), which recomputes each signature from the secret as S3 does.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>

#include "formats/remote/remote_session.h"
#include "formats/remote/s3_config.h"
#include "remote_test_env.h"

namespace strata {
namespace {

std::string text(const ByteView& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

// Sets environment variables for one test and restores them after.
class EnvGuard {
public:
    void set(const std::string& name, const std::string& value) {
        const char* old = std::getenv(name.c_str());
        saved_.emplace_back(
            name, old == nullptr ? std::optional<std::string>() : std::optional<std::string>(old));
        ::setenv(name.c_str(), value.c_str(), 1);
    }
    ~EnvGuard() {
        for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
            if (it->second) {
                ::setenv(it->first.c_str(), it->second->c_str(), 1);
            } else {
                ::unsetenv(it->first.c_str());
            }
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

class S3 : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!test::s3rverMissing().empty() || !test::proxyMissing().empty() || server_) {
            return;
        }
        try {
            startServers();
        } catch (const std::exception& e) {
            startError_ = e.what();
        }
    }
    static void startServers() {
        server_ =
            std::make_unique<test::S3Server>(std::vector<std::string>{"strata", "public", "names"});
        proxy_ = std::make_unique<test::FaultProxy>(server_->port(),
                                                    std::vector<std::string>{"S3RVER:S3RVER"});
        server_->put("strata", "dir/object.bin", object());
        server_->put("strata", "dir/small.txt", "hello");
        for (int i = 0; i < 25; ++i) {
            server_->put("strata",
                         "many/key-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".bin",
                         std::string(static_cast<std::size_t>(i), 'k'));
        }
        server_->put("strata", "many/sub/deeper.bin", "d");
        server_->put("public", "open.bin", "public bytes");
        server_->put("names", "empty.bin", "");
        for (const char* name : test::kOddNames) {
            server_->put("names", std::string("odd/") + name, name);
        }
    }
    static void TearDownTestSuite() {
        proxy_.reset();
        server_.reset();
    }
    void SetUp() override {
        STRATA_REQUIRE_SERVER(test::s3rverMissing());
        STRATA_REQUIRE_SERVER(test::proxyMissing());
        STRATA_REQUIRE_STARTED(startError_);
        env_.set("AWS_ACCESS_KEY_ID", "S3RVER");
        env_.set("AWS_SECRET_ACCESS_KEY", "S3RVER");
        env_.set("AWS_REGION", "us-east-1");
        env_.set("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        env_.set("AWS_CONFIG_FILE", "/nonexistent");
    }
    static const std::string& object() {
        static const std::string bytes = test::patternBytes(1024 * 1024 + 7, 11);
        return bytes;
    }
    static RemoteOptions options() {
        RemoteOptions o;
        o.endpoint = "http://127.0.0.1:" + std::to_string(proxy_->port());
        o.blockSize = 64 * 1024;
        o.retries = 0;
        return o;
    }

    EnvGuard env_;
    static inline std::unique_ptr<test::S3Server> server_;
    static inline std::unique_ptr<test::FaultProxy> proxy_;
    static inline std::string startError_;
};

TEST_F(S3, SignedRangedReads) {
    std::vector<RemoteRequestLogEntry> log;
    RemoteOptions o = options();
    o.readAheadBytes = 0;
    o.requestLog = [&](const RemoteRequestLogEntry& e) { log.push_back(e); };
    const auto session = makeRemoteSession(o);
    const auto source = session->open(Location::parse("s3://strata/dir/object.bin"));
    ASSERT_EQ(source->size(), object().size());
    EXPECT_EQ(text(source->view(0, 10)), object().substr(0, 10));
    EXPECT_EQ(text(source->view(300000, 400000)), object().substr(300000, 400000));
    EXPECT_EQ(text(source->view(object().size() - 3, 10)), object().substr(object().size() - 3));
    ASSERT_GE(log.size(), 2u);
    EXPECT_EQ(log[0].url, o.endpoint + "/strata/dir/object.bin");
    EXPECT_EQ(log[0].status, 206);
}

TEST_F(S3, WrongSecretIsRefusedWithTheServersReason) {
    env_.set("AWS_SECRET_ACCESS_KEY", "not-the-secret");
    const auto session = makeRemoteSession(options());
    try {
        session->open(Location::parse("s3://strata/dir/object.bin"));
        FAIL() << "opened with a wrong secret";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Forbidden);
        EXPECT_NE(std::string(e.what()).find("SignatureDoesNotMatch"), std::string::npos)
            << e.what();
        EXPECT_EQ(e.url(), "s3://strata/dir/object.bin");
    }
}

TEST_F(S3, UnknownAccessKeyIsRefused) {
    env_.set("AWS_ACCESS_KEY_ID", "NOBODY");
    RemoteOptions o = options();
    o.endpoint = server_->endpoint();  // s3rver itself checks the key
    const auto session = makeRemoteSession(o);
    try {
        session->open(Location::parse("s3://strata/dir/object.bin"));
        FAIL() << "opened with an unknown key";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Forbidden);
        EXPECT_NE(std::string(e.what()).find("InvalidAccessKeyId"), std::string::npos) << e.what();
    }
}

TEST_F(S3, AnonymousRequestsAreUnsigned) {
    // Wrong keys in the environment would be refused if they were used.
    env_.set("AWS_SECRET_ACCESS_KEY", "not-the-secret");
    RemoteOptions o = options();
    o.anonymous = true;
    const auto session = makeRemoteSession(o);
    EXPECT_EQ(text(session->open(Location::parse("s3://public/open.bin"))->view(0, 100)),
              "public bytes");
}

TEST_F(S3, ProfileFromTheCredentialsFile) {
    test::TempDir home("strata-aws");
    test::writeFile(home.path() / "credentials",
                    "[default]\naws_access_key_id = NOBODY\naws_secret_access_key = x\n"
                    "[tests]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n");
    env_.set("AWS_SHARED_CREDENTIALS_FILE", (home.path() / "credentials").string());
    env_.set("AWS_SECRET_ACCESS_KEY", "not-the-secret");  // the named profile wins
    RemoteOptions o = options();
    o.profile = "tests";
    const auto session = makeRemoteSession(o);
    EXPECT_EQ(text(session->open(Location::parse("s3://strata/dir/small.txt"))->view(0, 100)),
              "hello");
}

TEST_F(S3, MissingKeyIs404) {
    const auto session = makeRemoteSession(options());
    try {
        session->open(Location::parse("s3://strata/dir/none.bin"));
        FAIL() << "opened a missing key";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::NotFound);
        EXPECT_NE(std::string(e.what()).find("NoSuchKey"), std::string::npos) << e.what();
        // The error names the object, not the endpoint it was asked from.
        EXPECT_EQ(e.url(), "s3://strata/dir/none.bin");
        EXPECT_TRUE(std::string(e.what()).starts_with("s3://strata/dir/none.bin: ")) << e.what();
        EXPECT_EQ(std::string(e.what()).find(options().endpoint), std::string::npos) << e.what();
    }
}

TEST_F(S3, ListingFollowsContinuationTokens) {
    RemoteOptions o = options();
    o.listPageSize = 7;
    std::size_t lists = 0;
    o.requestLog = [&](const RemoteRequestLogEntry& e) {
        lists += e.url.find("list-type=2") != std::string::npos ? 1 : 0;
    };
    const auto tree = fileTreeFor(Location::parse("s3://strata/many"), o);
    EXPECT_TRUE(tree->remote());
    const auto entries = tree->list(Location::parse("s3://strata/many"));
    ASSERT_EQ(entries.size(), 26u);
    EXPECT_EQ(entries[0].name, "key-00.bin");
    EXPECT_EQ(entries[0].size, 0u);
    EXPECT_EQ(entries[24].name, "key-24.bin");
    EXPECT_EQ(entries[24].size, 24u);
    EXPECT_EQ(entries[25].name, "sub");
    EXPECT_TRUE(entries[25].isDirectory);
    EXPECT_GE(lists, 4u);  // 26 entries, 7 a page

    bool truncated = false;
    const auto first = tree->list(Location::parse("s3://strata/many"), 10, &truncated);
    EXPECT_EQ(first.size(), 10u);
    EXPECT_TRUE(truncated);
}

TEST_F(S3, StatFilesFoldersAndNothing) {
    const auto tree = fileTreeFor(Location::parse("s3://strata"), options());
    const auto file = tree->stat(Location::parse("s3://strata/dir/small.txt"));
    ASSERT_TRUE(file);
    EXPECT_FALSE(file->isDirectory);
    EXPECT_EQ(file->size, 5u);
    EXPECT_EQ(file->name, "small.txt");
    const auto folder = tree->stat(Location::parse("s3://strata/many/sub"));
    ASSERT_TRUE(folder);
    EXPECT_TRUE(folder->isDirectory);
    EXPECT_FALSE(tree->stat(Location::parse("s3://strata/nothing/here")));
    const auto root = tree->list(Location::parse("s3://strata"));
    ASSERT_EQ(root.size(), 2u);
    EXPECT_EQ(root[0].name, "dir");
    EXPECT_EQ(root[1].name, "many");
    const auto opened = tree->open(Location::parse("s3://strata/dir/small.txt"));
    EXPECT_EQ(text(opened->view(1, 3)), "ell");
}

TEST(S3Settings, ResolvedLikeTheAwsTools) {
    test::TempDir home("strata-aws-home");
    test::writeFile(home.path() / ".aws/credentials",
                    "# comment\n[default]\naws_access_key_id = DEF\naws_secret_access_key = ds\n"
                    "[work]\naws_access_key_id = WORK\naws_secret_access_key = ws\n"
                    "aws_session_token = tok\n");
    test::writeFile(home.path() / ".aws/config",
                    "[default]\nregion = eu-west-1\n[profile work]\nregion = ap-south-1\n"
                    "endpoint_url = http://127.0.0.1:9/\ns3 =\n  addressing_style = path\n");
    std::map<std::string, std::string> vars{{"HOME", home.path().string()}};
    const EnvLookup env = [&](const std::string& name) {
        const auto it = vars.find(name);
        return it == vars.end() ? std::string() : it->second;
    };
    RemoteOptions o;
    S3Settings s = resolveS3Settings(o, env);
    EXPECT_EQ(s.signing->accessKey, "DEF");
    EXPECT_EQ(s.region, "eu-west-1");
    EXPECT_EQ(s.endpoint, "");
    EXPECT_EQ(s.objectUrl("bucket", "a b/c.zs"),
              "https://bucket.s3.eu-west-1.amazonaws.com/a%20b/c.zs");

    vars["AWS_PROFILE"] = "work";
    s = resolveS3Settings(o, env);
    EXPECT_EQ(s.signing->accessKey, "WORK");
    EXPECT_EQ(s.signing->sessionToken, "tok");
    EXPECT_EQ(s.region, "ap-south-1");
    EXPECT_EQ(s.objectUrl("bucket", "k"), "http://127.0.0.1:9/bucket/k");
    EXPECT_EQ(s.listUrl("bucket", "list-type=2"), "http://127.0.0.1:9/bucket?list-type=2");

    vars["AWS_ACCESS_KEY_ID"] = "ENV";
    vars["AWS_SECRET_ACCESS_KEY"] = "es";
    vars["AWS_REGION"] = "us-west-2";
    vars["AWS_ENDPOINT_URL"] = "http://127.0.0.1:8";
    s = resolveS3Settings(o, env);
    EXPECT_EQ(s.signing->accessKey, "ENV");
    EXPECT_EQ(s.credentialSource, "environment");
    EXPECT_EQ(s.region, "us-west-2");
    EXPECT_EQ(s.endpoint, "http://127.0.0.1:8");

    o.profile = "default";  // an explicit profile wins over the environment's keys
    s = resolveS3Settings(o, env);
    EXPECT_EQ(s.signing->accessKey, "DEF");
    o.anonymous = true;
    EXPECT_FALSE(resolveS3Settings(o, env).signing);
}

// Keys holding a space, '#', '?', '%' or non-ASCII are listed, signed and fetched as they are:
// encoded once in the URL and in the signature (the proxy checks each one).
TEST_F(S3, KeysWithCharactersThatMeanSomethingInUrls) {
    const auto session = makeRemoteSession(options());
    const Location folder = session->locate("s3://names/odd");
    const FileTreePtr tree = fileTreeFor(folder, session);
    EXPECT_EQ(tree->list(folder).size(), 7u);
    for (const char* name : test::kOddNames) {
        const Location file = folder.child(name);
        EXPECT_EQ(file.extension(), ".bin");
        EXPECT_EQ(text(tree->open(file)->view(0, 100)), name);
        ASSERT_TRUE(tree->stat(file)) << name;
        EXPECT_EQ(tree->stat(file)->size, std::string(name).size()) << name;
    }
}

// s3rver answers a range of an empty object with "Content-Range: bytes 0-0/0" and a
// Content-Length of 1 it never sends: an empty object, known at once from the headers.
TEST_F(S3, EmptyObjectOpensAtOnce) {
    RemoteOptions o = options();
    o.endpoint = server_->endpoint();  // s3rver itself: the proxy waits for the missing byte
    o.retries = 4;
    const auto session = makeRemoteSession(o);
    const auto start = std::chrono::steady_clock::now();
    const ByteSourcePtr empty = session->open(Location::parse("s3://names/empty.bin"));
    EXPECT_EQ(empty->size(), 0u);
    EXPECT_EQ(empty->view(0, 10).size(), 0u);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 3.0);
    EXPECT_EQ(session->counters().requests, 1u);
}

}  // namespace
}  // namespace strata
