// ICU's libicuuc, opened when OZDF text is first upper-cased or its digits read rather than
// linked (see shared_library.h): only OZDF needs it, and it maps ICU's 30 MB data library too.
// The ICU headers still give the types; every call goes through the pointers below.
#pragma once

#include <unicode/uchar.h>
#include <unicode/ustring.h>

namespace strata {

// (u_strToUpper and the others are macros naming the versioned symbols, u_strToUpper_72.)
struct IcuLibrary {
    decltype(&::u_strFromUTF8) strFromUtf8 = nullptr;
    decltype(&::u_strToUTF8) strToUtf8 = nullptr;
    decltype(&::u_strToUpper) strToUpper = nullptr;
    decltype(&::u_isdigit) isDigit = nullptr;
    decltype(&::u_charDigitValue) charDigitValue = nullptr;
};

// libicuuc.so.<the headers' major version>, loaded on the first call from any thread. Throws
// std::runtime_error naming the library when it cannot be loaded or lacks a function; every
// later call throws again.
const IcuLibrary& icuLibrary();

}  // namespace strata
