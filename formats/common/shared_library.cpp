#include "shared_library.h"

#include <dlfcn.h>

namespace strata {

SharedLibrary::SharedLibrary(const char* soname) : soname_(soname) {
    handle_ = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
        const char* why = ::dlerror();
        loadError_ = why != nullptr ? why : "not found";
    }
}

void* SharedLibrary::find(const char* name) {
    if (handle_ == nullptr) {
        return nullptr;
    }
    void* symbol = ::dlsym(handle_, name);
    if (symbol == nullptr) {
        missing_ += (missing_.empty() ? "" : ", ") + std::string(name);
    }
    return symbol;
}

std::string SharedLibrary::problem() const {
    if (handle_ == nullptr) {
        return "cannot load " + soname_ + " (" + loadError_ + ")";
    }
    if (!missing_.empty()) {
        return soname_ + " is too old: it lacks " + missing_;
    }
    return {};
}

}  // namespace strata
