// A shared library opened with dlopen() when first needed rather than linked. A linked library
// is mapped and relocated at every start of every program, which is most of strata-cli's
// start-up time; libraries only some commands use (libcurl, libcrypto, libzip, ICU) are opened
// by the first call that needs them instead. Their headers still give the types and constants.
//
// Each user keeps one instance in a function-local static, made once by whichever thread asks
// first, and never closes it: the pointers it resolved stay valid until the process ends.
#pragma once

#include <stdexcept>
#include <string>

namespace strata {

class SharedLibrary {
public:
    // dlopen(soname, RTLD_NOW | RTLD_LOCAL): a library missing a dependency fails here, with
    // dlerror's reason, rather than at a first call deep inside a command.
    explicit SharedLibrary(const char* soname);
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    // Sets `to` to the function `name` (the pointer typed as its header declares it:
    // decltype(&::name)), or notes it as missing.
    template <typename Function>
    void resolve(const char* name, Function& to) {
        if (void* symbol = find(name); symbol != nullptr) {
            // POSIX guarantees that dlsym's result converts to a function pointer.
            to = reinterpret_cast<Function>(symbol);
        }
    }

    // Why the library cannot be used, naming it: it cannot be loaded (dlerror's reason) or
    // lacks functions resolve() asked for. Empty when it can.
    std::string problem() const;

private:
    void* find(const char* name);

    std::string soname_;
    void* handle_ = nullptr;
    std::string loadError_;
    std::string missing_;
};

// A library's resolved function table and why it cannot be used (empty when it can), kept in
// the function-local static described above.
template <typename Functions>
struct LoadedFunctions {
    Functions functions;
    std::string problem;

    // The table, or the problem thrown again at every call.
    const Functions& orThrow() const {
        if (!problem.empty()) {
            throw std::runtime_error(problem);
        }
        return functions;
    }
};

}  // namespace strata
