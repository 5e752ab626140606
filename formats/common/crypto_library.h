// OpenSSL's libcrypto, opened when a SHA-256 digest or base64 text is first needed rather than
// linked (see shared_library.h): most commands never need it, and it is among the largest
// libraries to relocate at start. <openssl/evp.h> still gives the types; every call goes
// through the pointers below.
#pragma once

#include <openssl/evp.h>

namespace strata {

struct CryptoLibrary {
    decltype(&::EVP_MD_CTX_new) mdCtxNew = nullptr;
    decltype(&::EVP_MD_CTX_free) mdCtxFree = nullptr;
    decltype(&::EVP_sha256) sha256 = nullptr;
    decltype(&::EVP_DigestInit_ex) digestInit = nullptr;
    decltype(&::EVP_DigestUpdate) digestUpdate = nullptr;
    decltype(&::EVP_DigestFinal_ex) digestFinal = nullptr;
    decltype(&::EVP_EncodeBlock) encodeBlock = nullptr;
};

// libcrypto.so.3, loaded on the first call from any thread. Throws std::runtime_error naming
// the library when it cannot be loaded or lacks a function; every later call throws again.
const CryptoLibrary& cryptoLibrary();

}  // namespace strata
