#include "icu_library.h"

#include <unicode/uvernum.h>

#include <string>

#include "shared_library.h"

// The symbol a name stands for, as a string: "u_strToUpper_72" for u_strToUpper.
#define STRATA_ICU_SYMBOL_TEXT(name) #name
#define STRATA_ICU_SYMBOL(name) STRATA_ICU_SYMBOL_TEXT(name)

namespace strata {

namespace {

using Loaded = LoadedFunctions<IcuLibrary>;

Loaded load() {
    Loaded out;
    SharedLibrary library("libicuuc.so." U_ICU_VERSION_SHORT);
    IcuLibrary& f = out.functions;
    library.resolve(STRATA_ICU_SYMBOL(u_strFromUTF8), f.strFromUtf8);
    library.resolve(STRATA_ICU_SYMBOL(u_strToUTF8), f.strToUtf8);
    library.resolve(STRATA_ICU_SYMBOL(u_strToUpper), f.strToUpper);
    library.resolve(STRATA_ICU_SYMBOL(u_isdigit), f.isDigit);
    library.resolve(STRATA_ICU_SYMBOL(u_charDigitValue), f.charDigitValue);
    out.problem = library.problem();
    if (!out.problem.empty()) {
        out.problem += "; Strata needs ICU " U_ICU_VERSION_SHORT " for OZDF text";
    }
    return out;
}

}  // namespace

const IcuLibrary& icuLibrary() {
    static const Loaded loaded = load();  // made once, by the first thread to get here
    return loaded.orThrow();
}

}  // namespace strata
