#include "input_source.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "cli_app.h"
#include "formats/common/location.h"
#include "formats/remote/remote_session.h"
#include "formats/remote/remote_url.h"

namespace strata::cli {

namespace {

struct RemoteCliOptions {
    std::string cacheDir;
    bool verbose = false;
    std::string endpoint, profile;
    bool anonymous = false;
    unsigned timeoutSeconds = 0;  // 0: RemoteOptions' default
    std::string caFile;
    // URLs given as inputs, as typed: their passwords and query strings go to the session.
    std::vector<std::string> typedUrls;
};

RemoteCliOptions& cliOptions() {
    static RemoteCliOptions options;
    return options;
}

// One line per HTTP attempt on stderr, so stdout stays byte-identical to a local run.
void printRequest(const RemoteRequestLogEntry& e) {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::cerr << "strata-cli: " << e.method << ' ' << e.url;
    if (!e.range.empty()) {
        std::cerr << ' ' << e.range;
    }
    if (e.status != 0) {
        std::cerr << " -> " << e.status << ", " << e.bytes << " bytes";
    }
    if (e.attempt > 1) {
        std::cerr << " (attempt " << e.attempt << ')';
    }
    if (!e.error.empty()) {
        std::cerr << " (" << e.error << ')';
    }
    std::cerr << '\n';
}

const RemoteSessionPtr& session() {
    static const RemoteSessionPtr made = [] {
        RemoteOptions options;
        options.cacheDir = cliOptions().cacheDir;
        options.endpoint = cliOptions().endpoint;
        options.profile = cliOptions().profile;
        options.anonymous = cliOptions().anonymous;
        options.caFile = cliOptions().caFile;
        if (cliOptions().timeoutSeconds != 0) {
            options.operationTimeout = std::chrono::seconds(cliOptions().timeoutSeconds);
        }
        if (cliOptions().verbose) {
            options.requestLog = &printRequest;
        }
        RemoteSessionPtr session = makeRemoteSession(options);
        for (const std::string& typed : cliOptions().typedUrls) {
            session->locate(typed);
        }
        return session;
    }();
    return made;
}

// "ftp://...", "gopher://...": a scheme Strata does not fetch, rather than a local path. The
// scheme is RFC 3986's: a letter, then letters, digits, '+', '-' or '.'. (Checked by hand: a
// std::regex was compiled by every command on a local file.)
bool hasOtherScheme(const std::string& text) {
    const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
    const auto end = text.find("://");
    if (end == std::string::npos || end == 0 || !letter(text[0])) {
        return false;
    }
    for (std::size_t i = 1; i < end; ++i) {
        const char c = text[i];
        if (!letter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
            return false;
        }
    }
    return !text.starts_with("file://");
}

// A local path for the registry, which also opens folders; other schemes are refused.
// `location`: `text` parsed (each input is parsed once per use).
std::filesystem::path openInputPath(const std::string& text, const Location& location) {
    if (hasOtherScheme(text)) {
        throw SourceError(redactCredentials(text) +
                          ": Strata opens http://, https:// and s3:// URLs and local "
                          "files; this scheme is refused");
    }
    return location.localPath();
}

}  // namespace

void registerRemoteOptions(CLI::App& app) {
    app.add_option("--cache-dir", cliOptions().cacheDir,
                   "Keep blocks of remote files in DIR between runs (http, https, s3)")
        ->option_text("DIR");
    app.add_flag("-v,--verbose", cliOptions().verbose,
                 "Print each request made for a remote file on stderr");
    app.add_option("--endpoint-url", cliOptions().endpoint,
                   "S3-compatible endpoint for s3:// URLs (default: AWS_ENDPOINT_URL, the "
                   "profile's endpoint_url, or AWS)")
        ->option_text("URL");
    app.add_option("--profile", cliOptions().profile,
                   "Credentials profile for s3:// URLs (default: AWS_PROFILE or default)")
        ->option_text("NAME");
    app.add_flag("--no-sign-request", cliOptions().anonymous,
                 "Read s3:// URLs anonymously (public buckets)");
    app.add_option("--timeout", cliOptions().timeoutSeconds,
                   "Give up on a remote operation (opening, listing or one read, its retries "
                   "included) after SECONDS (default 300)")
        ->option_text("SECONDS")
        ->check(CLI::Range(1u, 86400u));
    app.add_option("--ca-file", cliOptions().caFile,
                   "Check HTTPS servers against the certificate authorities in FILE (default: "
                   "CURL_CA_BUNDLE, SSL_CERT_FILE, or the system's)")
        ->option_text("FILE")
        ->check(CLI::ExistingFile);
    app.fallthrough();
}

std::string inputArgument(const std::string& text) {
    if (!isUrl(text)) {
        return text;
    }
    try {
        const TypedUrl typed = parseTypedUrl(text);
        cliOptions().typedUrls.push_back(text);
        return typed.location.text();
    } catch (const std::invalid_argument& e) {
        throw CLI::ValidationError(e.what());
    } catch (const SourceError& e) {
        throw CLI::ValidationError(e.what());  // libcurl cannot be loaded (RemoteError)
    }
}

bool isUrl(const std::string& text) {
    return Location::parse(text).isRemote();
}

ByteSourcePtr openInput(const std::string& text) {
    const Location location = Location::parse(text);
    if (location.isRemote()) {
        return session()->open(location);
    }
    return openMappedFile(openInputPath(text, location));
}

FileTreePtr inputTree(const std::string& text) {
    return fileTreeFor(Location::parse(text), session());
}

Detection detectInput(const std::string& text) {
    const Location location = Location::parse(text);
    if (location.isRemote()) {
        return cliFormats().detect(fileTreeFor(location, session()), location);
    }
    return cliFormats().detect(openInputPath(text, location));
}

std::unique_ptr<OpenedDocument> openDocument(const std::string& text) {
    const Location location = Location::parse(text);
    if (location.isRemote()) {
        return cliFormats().open(fileTreeFor(location, session()), location);
    }
    return cliFormats().open(openInputPath(text, location));
}

}  // namespace strata::cli
