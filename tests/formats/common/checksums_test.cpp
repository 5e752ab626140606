#include "formats/common/checksums.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include "test_bytes.h"

namespace strata {
namespace {

using test::bytesOf;

constexpr std::string_view kCheck = "123456789";

// Bit-at-a-time CRC-32C straight from the definition, to check the fast versions against.
std::uint32_t crc32cBitwise(std::span<const std::uint8_t> data) {
    std::uint32_t crc = 0xffffffffu;
    for (const std::uint8_t b : data) {
        crc ^= b;
        for (int i = 0; i < 8; ++i) {
            crc = (crc >> 1) ^ ((crc & 1u) != 0 ? 0x82f63b78u : 0u);
        }
    }
    return ~crc;
}

TEST(Crc64Xz, CheckValue) {
    EXPECT_EQ(crc64xz(bytesOf(kCheck)), 0x995DC9BBDF1939FAull);
    EXPECT_EQ(crc64xz({}), 0u);
}

TEST(Crc64Xz, ChainsAcrossPieces) {
    EXPECT_EQ(crc64xz(bytesOf("6789"), crc64xz(bytesOf("12345"))), 0x995DC9BBDF1939FAull);
}

// The CRC of a range from the CRCs of its two parts, for every split of a few lengths (and an
// empty part on either side), equals the CRC of the whole.
TEST(Crc64Xz, CombineMatchesTheWholeForEverySplit) {
    std::vector<std::uint8_t> bytes(3000);
    std::uint32_t state = 12345;
    for (auto& b : bytes) {
        state = state * 1103515245u + 12345u;
        b = static_cast<std::uint8_t>(state >> 16);
    }
    for (const std::size_t length :
         {std::size_t{0}, std::size_t{1}, std::size_t{9}, bytes.size()}) {
        const std::span<const std::uint8_t> whole(bytes.data(), length);
        for (std::size_t split = 0; split <= length;
             split += std::max<std::size_t>(1, length / 97)) {
            EXPECT_EQ(crc64xzCombine(crc64xz(whole.first(split)), crc64xz(whole.subspan(split)),
                                     length - split),
                      crc64xz(whole))
                << length << " split at " << split;
        }
    }
    EXPECT_EQ(crc64xzCombine(crc64xz(bytesOf("12345")), crc64xz(bytesOf("6789")), 4),
              0x995DC9BBDF1939FAull);
}

TEST(Crc32c, CheckValueBothImplementations) {
    EXPECT_EQ(crc32cTable(bytesOf(kCheck)), 0xE3069283u);
    EXPECT_EQ(crc32c(bytesOf(kCheck)), 0xE3069283u);
}

TEST(Crc32c, KnownVectors) {
    // RFC 3720 (iSCSI) test patterns.
    const std::vector<std::uint8_t> zeros(32, 0x00);
    const std::vector<std::uint8_t> ones(32, 0xff);
    std::vector<std::uint8_t> ascending(32);
    for (std::size_t i = 0; i < ascending.size(); ++i) {
        ascending[i] = static_cast<std::uint8_t>(i);
    }
    EXPECT_EQ(crc32cTable(zeros), 0x8A9136AAu);
    EXPECT_EQ(crc32cTable(ones), 0x62A8AB43u);
    EXPECT_EQ(crc32cTable(ascending), 0x46DD794Eu);
    EXPECT_EQ(crc32c(zeros), 0x8A9136AAu);
    EXPECT_EQ(crc32c(ones), 0x62A8AB43u);
    EXPECT_EQ(crc32c(ascending), 0x46DD794Eu);
}

TEST(Crc32c, TableAndLibraryAgreeOnEveryLengthAndAlignment) {
    const auto data = test::randomBytes(300, 7);
    for (std::size_t offset = 0; offset < 9; ++offset) {
        for (std::size_t length = 0; offset + length <= data.size(); length += 13) {
            const auto piece = std::span(data).subspan(offset, length);
            const std::uint32_t expected = crc32cBitwise(piece);
            ASSERT_EQ(crc32cTable(piece), expected) << offset << "+" << length;
            ASSERT_EQ(crc32c(piece), expected) << offset << "+" << length;
        }
    }
}

// The library's vector kernels fold 64 to 256 bytes at a time and finish with smaller folds and
// a byte tail; lengths around those sizes and the validator's 96 KiB step reach each of them.
TEST(Crc32c, VectorKernelsMatchTheTableAroundEveryFoldSize) {
    const auto data = test::randomBytes(200000, 11);
    const std::size_t lengths[] = {15,    16,    17,    63,    64,    65,     127,   128,
                                   129,   255,   256,   257,   767,   1024,   1543,  24576,
                                   25351, 50000, 98303, 98304, 98305, 199999, 200000};
    for (const std::size_t length : lengths) {
        for (const std::size_t offset : {std::size_t{0}, std::size_t{3}}) {
            if (offset + length > data.size()) {
                continue;
            }
            const auto piece = std::span(data).subspan(offset, length);
            const std::uint32_t expected = crc32cTable(piece, 0x12345678u);
            ASSERT_EQ(crc32c(piece, 0x12345678u), expected) << offset << "+" << length;
        }
    }
    const auto all = std::span(data);
    EXPECT_EQ(crc32c(all.subspan(30000), crc32c(all.first(30000))), crc32cTable(all));
}

TEST(Crc32c, ChainsAcrossPieces) {
    const auto data = test::randomBytes(1000, 3);
    const auto whole = crc32cBitwise(data);
    const auto head = std::span(data).first(333);
    const auto tail = std::span(data).subspan(333);
    EXPECT_EQ(crc32cTable(tail, crc32cTable(head)), whole);
    EXPECT_EQ(crc32c(tail, crc32c(head)), whole);
}

// The library takes an int length, so ranges past 2 GiB go in pieces. Untouched anonymous pages
// all map the kernel's zero page: 2 GiB of zeros cost address space, not memory.
TEST(Crc32c, RangesPastTwoGibGoInPiecesThatChain) {
    const std::size_t size = (std::size_t{1} << 31) + 100;
    // Populated up front: a fault per page from user space costs seconds on some VMs.
    void* mapping = ::mmap(nullptr, size, PROT_READ,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);
    ASSERT_NE(mapping, MAP_FAILED);
    const std::span zeros(static_cast<const std::uint8_t*>(mapping), size);
    const std::size_t split = (std::size_t{1} << 30) + 7;
    const std::uint32_t whole = crc32c(zeros);
    EXPECT_EQ(whole, crc32c(zeros.subspan(split), crc32c(zeros.first(split))));
    EXPECT_NE(whole, crc32c(zeros.first(size - 1)));
    ::munmap(mapping, size);
}

TEST(Sha256, KnownDigests) {
    EXPECT_EQ(toHex(sha256(bytesOf("abc"))),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(toHex(sha256({})),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, IncrementalMatchesOneShotAndRestarts) {
    const auto data = test::randomBytes(10000, 5);
    Sha256 hash;
    hash.update(std::span(data).first(1));
    hash.update(std::span(data).subspan(1, 4000));
    hash.update(std::span(data).subspan(4001));
    EXPECT_EQ(hash.finish(), sha256(data));
    hash.update(bytesOf("abc"));
    EXPECT_EQ(toHex(hash.finish()),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ToHex, LowerCaseTwoDigitsPerByte) {
    const std::uint8_t bytes[] = {0x00, 0x0f, 0xa0, 0xff};
    EXPECT_EQ(toHex(bytes), "000fa0ff");
    EXPECT_EQ(toHex({}), "");
}

TEST(Fnv1a, PublishedValues) {
    EXPECT_EQ(fnv1a64({}), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64(bytesOf("a")), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(fnv1a64(bytesOf("foobar")), 0x85944171f73967e8ull);
    EXPECT_EQ(fnv1a32({}), 0x811c9dc5u);
    EXPECT_EQ(fnv1a32(bytesOf("a")), 0xe40c292cu);
    EXPECT_EQ(fnv1a32(bytesOf("foobar")), 0xbf9cf968u);
}

TEST(Fnv1a, IncrementalMatchesOneShot) {
    Fnv1a64 h64;
    Fnv1a32 h32;
    h64.update(bytesOf("foo"));
    h64.update(bytesOf("bar"));
    h32.update(bytesOf("foo"));
    h32.update(bytesOf("bar"));
    EXPECT_EQ(h64.value(), fnv1a64(bytesOf("foobar")));
    EXPECT_EQ(h32.value(), fnv1a32(bytesOf("foobar")));
}

}  // namespace
}  // namespace strata
