// Typed URLs, request URLs and redaction (no server needed): names are percent-encoded exactly
// once between a location and a request, and no secret of a URL reaches what Strata shows.
#include <gtest/gtest.h>

#include <stdexcept>

#include "formats/remote/remote_byte_source.h"
#include "formats/remote/remote_error.h"
#include "formats/remote/remote_session.h"
#include "formats/remote/remote_url.h"

namespace strata {
namespace {

TEST(TypedUrl, PathIsDecodedOnceAndSecretsAreTakenOut) {
    const TypedUrl typed = parseTypedUrl(
        "http://reader:pa%3Ass%40w%23rd@127.0.0.1:8080/my%20dir/a%23b%3F%25%41.zs/"
        "?X-Amz-Signature=abc&x=1#fragment");
    EXPECT_EQ(typed.location.text(), "http://reader@127.0.0.1:8080/my dir/a#b?%A.zs");
    EXPECT_EQ(typed.user, "reader");
    EXPECT_EQ(typed.password, "pa:ss@w#rd");
    EXPECT_EQ(typed.query, "X-Amz-Signature=abc&x=1");
    EXPECT_EQ(typed.location.fileName(), "a#b?%A.zs");
    EXPECT_EQ(typed.location.extension(), ".zs");
}

TEST(TypedUrl, SpacesAndNonAsciiAsTypedAreNames) {
    EXPECT_EQ(parseTypedUrl("https://h/a b/\xC3\xBC.zt").location.text(),
              "https://h/a b/\xC3\xBC.zt");
    EXPECT_EQ(parseTypedUrl("http://h/100%.zs").location.text(), "http://h/100%.zs");
}

TEST(TypedUrl, S3KeysAndLocalPathsAreTakenLiterally) {
    const TypedUrl s3 = parseTypedUrl("s3://bucket/a%20b/what?.zs");
    EXPECT_EQ(s3.location.key(), "a%20b/what?.zs");
    EXPECT_TRUE(s3.query.empty());
    EXPECT_EQ(parseTypedUrl("/tmp/a%20b?.zs").location.text(), "/tmp/a%20b?.zs");
}

TEST(TypedUrl, MalformedUrlIsRefusedWithoutItsPassword) {
    try {
        parseTypedUrl("http://user:secret@[::1/x");
        FAIL() << "accepted a malformed URL";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
    }
}

TEST(RequestUrl, NamesAreEncodedOnceAndTheUserLeftOut) {
    const Location folder = parseTypedUrl("http://reader:pw@h:81/my%20dir").location;
    EXPECT_EQ(requestUrlOf(folder.child("a#b?%41 \xC3\xBC.zs")),
              "http://h:81/my%20dir/a%23b%3F%2541%20%C3%BC.zs");
    EXPECT_EQ(userOf(folder), "reader");
    EXPECT_EQ(originOf(folder), "http://reader@h:81");
    EXPECT_EQ(requestUrlOf(Location::parse("https://h")), "https://h/");
}

TEST(Redaction, PasswordsAndQueryValuesBecomeStars) {
    EXPECT_EQ(redactCredentials("http://u:secret@h/x.zs"), "http://u:***@h/x.zs");
    EXPECT_EQ(redactCredentials("GET https://b.s3.amazonaws.com/k.zt?X-Amz-Algorithm=AWS4-HMAC-"
                                "SHA256&X-Amz-Credential=AKIA%2F&X-Amz-Signature=f00d&X-Amz-"
                                "Security-Token=tok bytes=0-1"),
              "GET https://b.s3.amazonaws.com/k.zt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-"
              "Credential=***&X-Amz-Signature=***&X-Amz-Security-Token=*** bytes=0-1");
    EXPECT_EQ(redactCredentials("http://h/x.zs?token=abc: the server answered 404"),
              "http://h/x.zs?token=***: the server answered 404");
    EXPECT_EQ(redactCredentials("http://h/b?list-type=2&prefix=a%2F&continuation-token=zz"),
              "http://h/b?list-type=2&prefix=a%2F&continuation-token=***");
    EXPECT_EQ(redactCredentials("a -> http://u:p@h/1?sig -> http://h/2"),
              "a -> http://u:***@h/1?*** -> http://h/2");
    EXPECT_EQ(redactCredentials("no URL: a path /x?y=1"), "no URL: a path /x?y=1");
}

TEST(Redaction, RemoteErrorsAreRedacted) {
    const RemoteError e(RemoteError::Kind::NotFound, "https://u:hunter2@h/x.zs?token=t0k", 404,
                        "redirected to http://h/y?sig=s1g");
    const std::string what = e.what();
    for (const char* secret : {"hunter2", "t0k", "s1g"}) {
        EXPECT_EQ(what.find(secret), std::string::npos) << what;
    }
    EXPECT_EQ(e.url(), "https://u:***@h/x.zs?token=***");
    EXPECT_EQ(e.detail(), "redirected to http://h/y?sig=***");
}

HttpResponse answer(long status, const std::string& url, const std::string& type,
                    const std::string& body) {
    HttpResponse response;
    response.status = status;
    response.url = url;
    response.headers["content-type"] = type;
    response.body.assign(body.begin(), body.end());
    return response;
}

// A folder is known by its answer, not by how the answer is framed: redirected to its '/' form,
// or a whole JSON listing (a server that lists a folder at its own URL).
// An S3 object that cannot be fetched is named as the user wrote it (s3://bucket/key), not by
// the endpoint's URL the request went to. Nothing listens on port 9: the connection is refused.
TEST(S3Errors, NameTheObjectNotTheEndpoint) {
    RemoteOptions o;
    o.endpoint = "http://127.0.0.1:9";
    o.anonymous = true;
    o.retries = 0;
    const auto session = makeRemoteSession(o);
    try {
        session->open(Location::parse("s3://bucket/dir/key.zs"));
        FAIL() << "opened an object nobody serves";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.url(), "s3://bucket/dir/key.zs");
        EXPECT_TRUE(std::string(e.what()).starts_with("s3://bucket/dir/key.zs: ")) << e.what();
        EXPECT_EQ(std::string(e.what()).find("127.0.0.1"), std::string::npos) << e.what();
    }
}

TEST(FolderAnswer, RecognisedByItsFormAndShape) {
    const std::string listing = R"([{"name": "a b.zs", "type": "file", "size": 3}])";
    EXPECT_TRUE(answersAsFolder(answer(200, "http://h/d/", "text/html", "<html>")));
    EXPECT_TRUE(answersAsFolder(answer(206, "http://h/d/?t=1", "application/json", "[")));
    EXPECT_TRUE(answersAsFolder(answer(200, "http://h/d", "application/json", listing)));
    EXPECT_FALSE(answersAsFolder(answer(206, "http://h/d", "application/json", listing)));
    EXPECT_FALSE(answersAsFolder(answer(200, "http://h/d", "text/plain", listing)));
    EXPECT_FALSE(answersAsFolder(answer(200, "http://h/x.json", "application/json", "[]")));
    EXPECT_FALSE(
        answersAsFolder(answer(200, "http://h/x.json", "application/json", R"([{"name": 1}])")));
    EXPECT_FALSE(answersAsFolder(answer(200, "http://h/x.json", "application/json", "{}")));
}

}  // namespace
}  // namespace strata
