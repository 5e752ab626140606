#include "formats/common/counted.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(Counted, OneTakesTheSingular) {
    EXPECT_EQ(counted(1, "tensor"), "1 tensor");
    EXPECT_EQ(counted(1, "byte"), "1 byte");
    EXPECT_EQ(counted(1, "loss"), "1 loss");
    EXPECT_EQ(counted(1, "field was", "fields were"), "1 field was");
}

TEST(Counted, OtherCountsTakeThePlural) {
    EXPECT_EQ(counted(0, "tensor"), "0 tensors");
    EXPECT_EQ(counted(2, "tensor"), "2 tensors");
    EXPECT_EQ(counted(134, "byte"), "134 bytes");
    EXPECT_EQ(counted(2, "field was", "fields were"), "2 fields were");
}

TEST(Counted, RegularPluralsOfEnglishNouns) {
    EXPECT_EQ(counted(2, "loss"), "2 losses");
    EXPECT_EQ(counted(3, "match"), "3 matches");
    EXPECT_EQ(counted(2, "damaged stretch"), "2 damaged stretches");
    EXPECT_EQ(counted(2, "box"), "2 boxes");
    EXPECT_EQ(counted(2, "entry"), "2 entries");
    EXPECT_EQ(counted(2, "key"), "2 keys");
    EXPECT_EQ(counted(2, "leftover"), "2 leftovers");
    EXPECT_EQ(nounFor(5, "document"), "documents");
    EXPECT_EQ(nounFor(1, "document"), "document");
}

TEST(Counted, LargeCounts) {
    EXPECT_EQ(counted(18446744073709551615ull, "record"), "18446744073709551615 records");
}

}  // namespace
}  // namespace strata
