#include "curl_library.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "remote_error.h"

namespace strata {

namespace {

// The soname a binary linked with -lcurl would ask for: the ABI <curl/curl.h> describes.
constexpr const char* kSoname = "libcurl.so.4";

struct Loaded {
    CurlLibrary functions;
    std::string problem;  // why libcurl cannot be used; empty when it can
};

std::atomic<bool> loadedFlag{false};

template <typename Function>
void resolve(void* library, const char* name, Function& to, std::string& missing) {
    void* symbol = ::dlsym(library, name);
    if (symbol == nullptr) {
        missing += missing.empty() ? name : std::string(", ") + name;
        return;
    }
    // POSIX guarantees that dlsym's result converts to a function pointer.
    to = reinterpret_cast<Function>(symbol);
}

Loaded load() {
    Loaded out;
    // RTLD_NOW: a libcurl missing a dependency fails here, with dlerror's reason, not at a
    // first call deep inside a transfer. Never closed: handles live until the process ends.
    void* library = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* why = ::dlerror();
        out.problem = std::string("cannot load ") + kSoname +
                      ", which Strata needs for http://, https:// and s3:// files (" +
                      (why != nullptr ? why : "not found") + "); install libcurl (libcurl4)";
        return out;
    }
    CurlLibrary& f = out.functions;
    decltype(&::curl_global_init) globalInit = nullptr;
    std::string missing;
    resolve(library, "curl_global_init", globalInit, missing);
    resolve(library, "curl_easy_init", f.easyInit, missing);
    resolve(library, "curl_easy_setopt", f.easySetopt, missing);
    resolve(library, "curl_easy_perform", f.easyPerform, missing);
    resolve(library, "curl_easy_getinfo", f.easyGetinfo, missing);
    resolve(library, "curl_easy_reset", f.easyReset, missing);
    resolve(library, "curl_easy_cleanup", f.easyCleanup, missing);
    resolve(library, "curl_easy_strerror", f.easyStrerror, missing);
    resolve(library, "curl_slist_append", f.slistAppend, missing);
    resolve(library, "curl_slist_free_all", f.slistFreeAll, missing);
    resolve(library, "curl_share_init", f.shareInit, missing);
    resolve(library, "curl_share_setopt", f.shareSetopt, missing);
    resolve(library, "curl_share_cleanup", f.shareCleanup, missing);
    resolve(library, "curl_url", f.url, missing);
    resolve(library, "curl_url_set", f.urlSet, missing);
    resolve(library, "curl_url_get", f.urlGet, missing);
    resolve(library, "curl_url_cleanup", f.urlCleanup, missing);
    resolve(library, "curl_url_strerror", f.urlStrerror, missing);
    resolve(library, "curl_free", f.free, missing);
    if (!missing.empty()) {
        out.problem = std::string(kSoname) + " is too old for Strata (it lacks " + missing +
                      "); install libcurl 7.85 or newer";
        return out;
    }
    // Once per process, before any other call and while no other thread uses libcurl.
    if (const CURLcode rc = globalInit(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
        out.problem =
            std::string(kSoname) + " could not be initialised (" + f.easyStrerror(rc) + ")";
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
