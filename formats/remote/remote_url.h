// URLs as users type them and as requests send them, and the one function that keeps secrets
// out of everything Strata shows.
//
// A Location (formats/common/location.h) holds a remote path as names are written: a listing's
// "my file #1.zs" joins onto it as it is, and the location prints like a local path does. Only
// here does it become a URL: every name is percent-encoded once, when a request is built. What
// the user typed is the other way round: its path is percent-decoded once into a location, and
// its password and query string are taken out of it (the session adds them back to the requests
// it makes), so a location never carries a secret into a message.
#pragma once

#include <string>
#include <string_view>

#include "formats/common/location.h"

namespace strata {

struct TypedUrl {
    Location location;     // no password, no query, the path decoded
    std::string user;      // decoded; empty when the URL names none
    std::string password;  // decoded
    std::string query;     // as typed, without the '?'
};

// http:// and https://: the path is percent-decoded, the fragment dropped, the user, password
// and query split off. s3://bucket/key is taken literally (as the AWS tools do: a key may hold
// '%', '?' and '#'). Anything else is a local path (Location::parse). Throws
// std::invalid_argument naming what is wrong with a malformed http(s) URL.
TypedUrl parseTypedUrl(std::string_view text);

// What a request for an http(s) location asks for: "scheme://host[:port]" and the path with
// every byte but unreserved characters and '/' percent-encoded. No user, password or query.
std::string requestUrlOf(const Location& location);
// The user a location's text names ("scheme://user@host/..."), decoded; empty when none.
std::string userOf(const Location& location);
// "scheme://user@host:port" of an http(s) location (lower-case scheme and host): what a
// password belongs to.
std::string originOf(const Location& location);

// `text` with every URL in it made safe to show: a password in its user part and the values of
// its query parameters become "***", except parameters known to carry no secret (the S3
// listing's prefix and delimiter, a presigned URL's algorithm, date and expiry...). Used for
// every message, log line and title that shows a URL; a text without URLs comes back as it is.
std::string redactCredentials(std::string_view text);

}  // namespace strata
