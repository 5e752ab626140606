// SharedLibrary: what the loaders of libcurl, libcrypto, libzip and ICU are built on.
#include "formats/common/shared_library.h"

#include <gtest/gtest.h>

#include <cstring>

namespace strata {
namespace {

TEST(SharedLibrary, ResolvesFunctionsTypedAsDeclared) {
    SharedLibrary library("libc.so.6");
    decltype(&::strlen) length = nullptr;
    library.resolve("strlen", length);
    ASSERT_NE(length, nullptr);
    EXPECT_EQ(length("strata"), 6u);
    EXPECT_EQ(library.problem(), "");
}

TEST(SharedLibrary, AMissingLibraryIsNamedWithTheLoadersReason) {
    SharedLibrary library("libstrata-no-such-library.so.0");
    decltype(&::strlen) length = nullptr;
    library.resolve("strlen", length);
    EXPECT_EQ(length, nullptr);
    EXPECT_EQ(library.problem().rfind("cannot load libstrata-no-such-library.so.0 (", 0), 0u)
        << library.problem();
}

TEST(SharedLibrary, MissingFunctionsAreListed) {
    SharedLibrary library("libc.so.6");
    decltype(&::strlen) a = nullptr;
    decltype(&::strlen) b = nullptr;
    decltype(&::strlen) c = nullptr;
    library.resolve("strata_no_such_function", a);
    library.resolve("strlen", b);
    library.resolve("strata_nor_this_one", c);
    EXPECT_EQ(a, nullptr);
    EXPECT_NE(b, nullptr);
    EXPECT_EQ(library.problem(),
              "libc.so.6 is too old: it lacks strata_no_such_function, strata_nor_this_one");
}

}  // namespace
}  // namespace strata
