#include "remote_url.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>
#include <stdexcept>

#include "curl_library.h"
#include "http_client.h"

namespace strata {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

struct CurlUrl {
    const CurlLibrary& curl;
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle{curl.url(), curl.urlCleanup};

    // The part, percent-decoded when asked; empty when the URL has none.
    std::string part(CURLUPart which, bool decode) const {
        char* value = nullptr;
        const CURLUcode rc = curl.urlGet(handle.get(), which, &value, decode ? CURLU_URLDECODE : 0);
        if (rc == CURLUE_URLDECODE) {
            throw std::invalid_argument("it holds a percent-encoded control character");
        }
        std::string out = rc == CURLUE_OK && value != nullptr ? value : "";
        curl.free(value);
        return out;
    }
};

TypedUrl parseHttpUrl(std::string_view text) {
    const std::string copy(text);
    CurlUrl url{curlLibrary(copy)};
    const CURLUcode rc = url.curl.urlSet(url.handle.get(), CURLUPART_URL, copy.c_str(),
                                         CURLU_ALLOW_SPACE | CURLU_NON_SUPPORT_SCHEME);
    if (rc != CURLUE_OK) {
        throw std::invalid_argument(std::string(url.curl.urlStrerror(rc)));
    }
    TypedUrl out;
    out.user = url.part(CURLUPART_USER, true);
    out.password = url.part(CURLUPART_PASSWORD, true);
    out.query = url.part(CURLUPART_QUERY, false);
    const std::string port = url.part(CURLUPART_PORT, false);
    std::string canonical = url.part(CURLUPART_SCHEME, false) + "://";
    if (!out.user.empty()) {
        canonical += uriEncode(out.user, false) + "@";
    }
    canonical += url.part(CURLUPART_HOST, false);
    if (!port.empty()) {
        canonical += ":" + port;
    }
    canonical += url.part(CURLUPART_PATH, true);
    out.location = Location::parse(canonical);
    return out;
}

// "scheme://authority" and where the path starts in a location's text.
std::size_t pathStart(const std::string& text) {
    const auto scheme = text.find("://");
    if (scheme == std::string::npos) {
        return 0;
    }
    const auto slash = text.find('/', scheme + 3);
    return slash == std::string::npos ? text.size() : slash;
}

// The authority of a location's text without its "user@".
std::string hostPart(const std::string& text) {
    const auto scheme = text.find("://");
    const std::string authority = text.substr(scheme + 3, pathStart(text) - scheme - 3);
    const auto at = authority.rfind('@');
    return at == std::string::npos ? authority : authority.substr(at + 1);
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string percentDecoded(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
            hexValue(text[i + 2]) >= 0) {
            out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// Query parameters that name what is asked for, never who may ask.
bool harmlessParameter(std::string_view name) {
    static constexpr std::array<std::string_view, 16> kHarmless = {
        "x-amz-algorithm",  "x-amz-date",    "x-amz-expires",  "x-amz-signedheaders",
        "x-goog-algorithm", "x-goog-date",   "x-goog-expires", "x-goog-signedheaders",
        "list-type",        "prefix",        "delimiter",      "max-keys",
        "start-after",      "encoding-type", "versionid",      "partnumber"};
    const std::string key = lower(percentDecoded(name));
    return std::find(kHarmless.begin(), kHarmless.end(), key) != kHarmless.end();
}

std::string redactedQuery(std::string_view query) {
    std::string out;
    std::size_t start = 0;
    while (start <= query.size()) {
        const auto amp = query.find('&', start);
        const std::string_view item =
            query.substr(start, amp == std::string_view::npos ? query.npos : amp - start);
        const auto eq = item.find('=');
        if (!item.empty()) {
            if (eq == std::string_view::npos) {
                out += "***";
            } else if (harmlessParameter(item.substr(0, eq))) {
                out += item;
            } else {
                out += std::string(item.substr(0, eq)) + "=***";
            }
        }
        if (amp == std::string_view::npos) {
            break;
        }
        out += '&';
        start = amp + 1;
    }
    return out;
}

// One URL as it appears in a text: its password and query values replaced.
std::string redactedUrl(std::string_view url) {
    const auto scheme = url.find("://");
    const auto authorityEnd = url.find_first_of("/?#", scheme + 3);
    const std::string_view authority = url.substr(
        scheme + 3, authorityEnd == std::string_view::npos ? url.npos : authorityEnd - scheme - 3);
    std::string out(url.substr(0, scheme + 3));
    const auto at = authority.rfind('@');
    const auto colon = at == std::string_view::npos ? at : authority.substr(0, at).find(':');
    if (colon != std::string_view::npos) {
        out += std::string(authority.substr(0, colon)) + ":***" + std::string(authority.substr(at));
    } else {
        out += authority;
    }
    if (authorityEnd == std::string_view::npos) {
        return out;
    }
    const std::string_view rest = url.substr(authorityEnd);
    const auto question = rest.find('?');
    if (question == std::string_view::npos) {
        return out + std::string(rest);
    }
    const auto hash = rest.find('#', question);
    const std::string_view query =
        rest.substr(question + 1, hash == std::string_view::npos ? rest.npos : hash - question - 1);
    out += std::string(rest.substr(0, question + 1)) + redactedQuery(query);
    if (hash != std::string_view::npos) {
        out += rest.substr(hash);
    }
    return out;
}

bool endsUrl(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '<' ||
           c == '>' || c == '`';
}

}  // namespace

TypedUrl parseTypedUrl(std::string_view text) {
    const Location plain = Location::parse(text);
    if (plain.scheme() != Location::Scheme::Http && plain.scheme() != Location::Scheme::Https) {
        return {plain, {}, {}, {}};
    }
    try {
        return parseHttpUrl(text);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(redactCredentials(text) + ": not a valid URL (" + e.what() +
                                    ")");
    }
}

std::string requestUrlOf(const Location& location) {
    const std::string& text = location.text();
    const auto scheme = text.find("://");
    const std::string path = text.substr(pathStart(text));
    return lower(text.substr(0, scheme)) + "://" + hostPart(text) +
           (path.empty() ? "/" : uriEncode(path, true));
}

std::string userOf(const Location& location) {
    const std::string& text = location.text();
    const auto scheme = text.find("://");
    if (scheme == std::string::npos) {
        return {};
    }
    const std::string authority = text.substr(scheme + 3, pathStart(text) - scheme - 3);
    const auto at = authority.rfind('@');
    return at == std::string::npos ? std::string() : percentDecoded(authority.substr(0, at));
}

std::string originOf(const Location& location) {
    const std::string& text = location.text();
    const auto scheme = text.find("://");
    if (scheme == std::string::npos) {
        return {};
    }
    const std::string user = userOf(location);
    return lower(text.substr(0, scheme)) + "://" + (user.empty() ? "" : user + "@") +
           lower(hostPart(text));
}

std::string redactCredentials(std::string_view text) {
    std::string out;
    std::size_t done = 0;
    for (auto found = text.find("://"); found != std::string_view::npos;
         found = text.find("://", found + 3)) {
        std::size_t start = found;
        while (start > done &&
               (std::isalnum(static_cast<unsigned char>(text[start - 1])) ||
                text[start - 1] == '+' || text[start - 1] == '-' || text[start - 1] == '.')) {
            --start;
        }
        if (start == found) {
            continue;  // no scheme before "://"
        }
        std::size_t end = found + 3;
        while (end < text.size() && !endsUrl(text[end])) {
            ++end;
        }
        // Punctuation closing a sentence ("…/x.zs: the server answered") is not the URL's.
        while (end > found + 3 &&
               std::string_view(":,;.)]").find(text[end - 1]) != std::string_view::npos) {
            --end;
        }
        out += text.substr(done, start - done);
        out += redactedUrl(text.substr(start, end - start));
        done = end;
        found = std::max(found, end > 3 ? end - 3 : 0);
    }
    out += text.substr(done);
    return out;
}

}  // namespace strata
