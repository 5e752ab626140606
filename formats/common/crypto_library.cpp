#include "crypto_library.h"

#include <openssl/opensslv.h>

#include <string>

#include "shared_library.h"

namespace strata {

static_assert(OPENSSL_VERSION_MAJOR == 3, "the soname below is OpenSSL 3's");

namespace {

using Loaded = LoadedFunctions<CryptoLibrary>;

Loaded load() {
    Loaded out;
    SharedLibrary library("libcrypto.so.3");
    CryptoLibrary& f = out.functions;
    library.resolve("EVP_MD_CTX_new", f.mdCtxNew);
    library.resolve("EVP_MD_CTX_free", f.mdCtxFree);
    library.resolve("EVP_sha256", f.sha256);
    library.resolve("EVP_DigestInit_ex", f.digestInit);
    library.resolve("EVP_DigestUpdate", f.digestUpdate);
    library.resolve("EVP_DigestFinal_ex", f.digestFinal);
    library.resolve("EVP_EncodeBlock", f.encodeBlock);
    out.problem = library.problem();
    if (!out.problem.empty()) {
        out.problem += "; Strata needs OpenSSL 3's libcrypto for SHA-256 digests and base64";
    }
    return out;
}

}  // namespace

const CryptoLibrary& cryptoLibrary() {
    static const Loaded loaded = load();  // made once, by the first thread to get here
    return loaded.orThrow();
}

}  // namespace strata
