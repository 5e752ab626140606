// libcurl, loaded when a remote file first needs it rather than linked. Linked, libcurl and the
// ~30 libraries it pulls in (TLS, Kerberos, LDAP, HTTP/2...) were loaded and relocated at every
// start of every program, which cost strata-cli most of its start-up time though most commands
// never touch the network. <curl/curl.h> still gives the types and constants; every call goes
// through the pointers below.
#pragma once

#include <curl/curl.h>

#include <string>

namespace strata {

// The functions Strata calls, typed as <curl/curl.h> declares them (curl_easy_setopt,
// curl_easy_getinfo and curl_share_setopt are variadic: their pointers are too).
struct CurlLibrary {
    decltype(&::curl_easy_init) easyInit = nullptr;
    decltype(&::curl_easy_setopt) easySetopt = nullptr;
    decltype(&::curl_easy_perform) easyPerform = nullptr;
    decltype(&::curl_easy_getinfo) easyGetinfo = nullptr;
    decltype(&::curl_easy_reset) easyReset = nullptr;
    decltype(&::curl_easy_cleanup) easyCleanup = nullptr;
    decltype(&::curl_easy_strerror) easyStrerror = nullptr;
    decltype(&::curl_slist_append) slistAppend = nullptr;
    decltype(&::curl_slist_free_all) slistFreeAll = nullptr;
    decltype(&::curl_share_init) shareInit = nullptr;
    decltype(&::curl_share_setopt) shareSetopt = nullptr;
    decltype(&::curl_share_cleanup) shareCleanup = nullptr;
    decltype(&::curl_url) url = nullptr;
    decltype(&::curl_url_set) urlSet = nullptr;
    decltype(&::curl_url_get) urlGet = nullptr;
    decltype(&::curl_url_cleanup) urlCleanup = nullptr;
    decltype(&::curl_url_strerror) urlStrerror = nullptr;
    decltype(&::curl_free) free = nullptr;
};

// libcurl.so.4, loaded and initialised (curl_global_init) on the first call, from any thread.
// Throws RemoteError (Kind::Unavailable) naming `url`, the file that needs it, when the library
// cannot be loaded or lacks a function; every later call throws the same again.
const CurlLibrary& curlLibrary(const std::string& url);

// Whether libcurl has been loaded in this process by curlLibrary() (for tests: it must not be
// loaded before a remote file is used).
bool curlLibraryLoaded();

}  // namespace strata
