#include "curl_library.h"

#include <atomic>
#include <mutex>

#include "formats/common/shared_library.h"
#include "remote_error.h"

namespace strata {

namespace {

using Loaded = LoadedFunctions<CurlLibrary>;

std::atomic<bool> loadedFlag{false};

Loaded load() {
    Loaded out;
    // The soname a program linked with -lcurl would ask for: the ABI <curl/curl.h> describes.
    SharedLibrary library("libcurl.so.4");
    CurlLibrary& f = out.functions;
    decltype(&::curl_global_init) globalInit = nullptr;
    library.resolve("curl_global_init", globalInit);
    library.resolve("curl_easy_init", f.easyInit);
    library.resolve("curl_easy_setopt", f.easySetopt);
    library.resolve("curl_easy_perform", f.easyPerform);
    library.resolve("curl_easy_getinfo", f.easyGetinfo);
    library.resolve("curl_easy_reset", f.easyReset);
    library.resolve("curl_easy_cleanup", f.easyCleanup);
    library.resolve("curl_easy_strerror", f.easyStrerror);
    library.resolve("curl_slist_append", f.slistAppend);
    library.resolve("curl_slist_free_all", f.slistFreeAll);
    library.resolve("curl_share_init", f.shareInit);
    library.resolve("curl_share_setopt", f.shareSetopt);
    library.resolve("curl_share_cleanup", f.shareCleanup);
    library.resolve("curl_url", f.url);
    library.resolve("curl_url_set", f.urlSet);
    library.resolve("curl_url_get", f.urlGet);
    library.resolve("curl_url_cleanup", f.urlCleanup);
    library.resolve("curl_url_strerror", f.urlStrerror);
    library.resolve("curl_free", f.free);
    out.problem = library.problem();
    if (!out.problem.empty()) {
        out.problem += "; Strata needs libcurl 7.85 or newer for http://, https:// and s3:// files";
        return out;
    }
    // Once per process, before any other call and while no other thread uses libcurl.
    if (const CURLcode rc = globalInit(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
        out.problem =
            std::string("libcurl.so.4 could not be initialised (") + f.easyStrerror(rc) + ")";
        return out;
    }
    loadedFlag.store(true, std::memory_order_release);
    return out;
}

}  // namespace

const CurlLibrary& curlLibrary(const std::string& url) {
    static std::once_flag once;
    static Loaded loaded;
    std::call_once(once, [] { loaded = load(); });
    if (!loaded.problem.empty()) {
        throw RemoteError(RemoteError::Kind::Unavailable, url, 0, loaded.problem);
    }
    return loaded.functions;
}

bool curlLibraryLoaded() {
    return loadedFlag.load(std::memory_order_acquire);
}

}  // namespace strata
