#include "formats/common/byte_source.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "formats/common/bounds.h"
#include "formats/common/le_reader.h"
#include "process_resources.h"

namespace strata {
namespace {

using test::mappingCount;

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::filesystem::path writeTemp(std::string_view name, std::string_view contents) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary)
        .write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return path;
}

TEST(Bounds, RangeFitsRejectsWrapAround) {
    EXPECT_TRUE(rangeFits(0, 10, 10));
    EXPECT_TRUE(rangeFits(10, 0, 10));
    EXPECT_FALSE(rangeFits(11, 0, 10));
    EXPECT_FALSE(rangeFits(5, 6, 10));
    EXPECT_FALSE(rangeFits(1, kMax, 10));
    EXPECT_FALSE(rangeFits(kMax, 2, kMax));
}

TEST(Bounds, CheckedArithmetic) {
    EXPECT_EQ(checkedAdd(1, 2), 3u);
    EXPECT_FALSE(checkedAdd(kMax, 1));
    EXPECT_EQ(checkedMul(1u << 20, 1u << 20), std::uint64_t{1} << 40);
    EXPECT_FALSE(checkedMul(std::uint64_t{1} << 32, std::uint64_t{1} << 32));
    EXPECT_EQ(saturatingEnd(kMax - 1, 5), kMax);
}

TEST(ByteSource, BufferViewsClipAtEnd) {
    const auto source = makeBufferSource(std::string_view("hello world"), "greeting");
    EXPECT_EQ(source->name(), "greeting");
    EXPECT_EQ(source->size(), 11u);
    const ByteView v = source->view(6, 100);
    ASSERT_EQ(v.size(), 5u);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(v.data()), v.size()), "world");
    EXPECT_TRUE(source->view(11, 1).empty());
    EXPECT_TRUE(source->view(kMax, kMax).empty());
}

TEST(ByteSource, MappedFileReadsBytesAndEmptyFiles) {
    const auto path = writeTemp("strata_byte_source_test.bin", "\x01\x02\x03\x04\x05");
    const auto source = openMappedFile(path);
    EXPECT_EQ(source->size(), 5u);
    EXPECT_EQ(readLe<std::uint32_t>(*source, 1), 0x05040302u);
    EXPECT_FALSE(readLe<std::uint32_t>(*source, 2));

    const auto empty = writeTemp("strata_byte_source_empty.bin", "");
    const auto emptySource = openMappedFile(empty);
    EXPECT_EQ(emptySource->size(), 0u);
    EXPECT_TRUE(emptySource->view(0, 10).empty());
    std::filesystem::remove(path);
    std::filesystem::remove(empty);
}

// Small files copy from the mapping, large ones with pread(): both give the view's bytes.
TEST(ByteSource, ReadCopiesWhatViewsShowForSmallAndLargeFiles) {
    for (const std::size_t size : {std::size_t{5000}, std::size_t{17} << 20}) {
        SCOPED_TRACE(size);
        std::string contents(size, '\0');
        for (std::size_t i = 0; i < size; ++i) {
            contents[i] = static_cast<char>((i * 2654435761u) >> 13);
        }
        const auto path = writeTemp("strata_byte_source_read.bin", contents);
        const auto source = openMappedFile(path);
        for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{4095}, size - 100}) {
            std::vector<std::uint8_t> buffer(4096, 0xEE);
            const std::size_t got = source->read(offset, buffer);
            const ByteView view = source->view(offset, buffer.size());
            ASSERT_EQ(got, view.size());
            EXPECT_TRUE(std::equal(view.bytes.begin(), view.bytes.end(), buffer.begin()));
        }
        std::vector<std::uint8_t> past(16);
        EXPECT_EQ(source->read(size, past), 0u);
        EXPECT_EQ(source->read(kMax, past), 0u);
        std::filesystem::remove(path);
    }
}

TEST(ByteSource, MissingFileNamesThePath) {
    try {
        openMappedFile("/nonexistent/strata/file.zs");
        FAIL() << "expected SourceError";
    } catch (const SourceError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/strata/file.zs"), std::string::npos);
    }
}

TEST(ByteSource, DirectoryIsRefused) {
    EXPECT_THROW(openMappedFile(std::filesystem::temp_directory_path()), SourceError);
}

TEST(ByteSource, OnDemandFilesHoldNoMappingAndReadWhatIsThere) {
    const auto path = writeTemp("strata_on_demand.bin", "0123456789");
    std::vector<ByteSourcePtr> open;
    const std::size_t before = mappingCount();
    for (int i = 0; i < 500; ++i) {
        open.push_back(openFileOnDemand(path));
    }
    // Mapped, these 500 would be 500 more mappings (the kernel allows about 65,000).
    EXPECT_LT(mappingCount(), before + 50);
    const ByteSourcePtr& source = open.front();
    EXPECT_EQ(source->name(), path.string());
    EXPECT_EQ(source->size(), 10u);
    const ByteView v = source->view(2, 3);
    EXPECT_EQ(std::string(v.bytes.begin(), v.bytes.end()), "234");
    EXPECT_EQ(source->view(8, 100).size(), 2u);
    EXPECT_TRUE(source->view(10, 1).empty());
    std::vector<std::uint8_t> out(4);
    EXPECT_EQ(source->read(6, out), 4u);
    EXPECT_EQ(std::string(out.begin(), out.end()), "6789");
    // The file shrinks after the open: fewer bytes, never a failure.
    writeTemp("strata_on_demand.bin", "01234");
    EXPECT_EQ(source->view(0, 10).size(), 5u);
    std::filesystem::remove(path);
    EXPECT_TRUE(source->view(0, 10).empty());
    EXPECT_THROW(openFileOnDemand(path), SourceError);
    EXPECT_THROW(openFileOnDemand(std::filesystem::temp_directory_path()), SourceError);
}

// A scan of a whole file read on demand maps it for the pass: the same bytes, nothing copied.
TEST(ByteSource, MappedForScanMapsFilesReadOnDemandOnly) {
    const auto path = writeTemp("strata_scan.bin", "0123456789");
    const ByteSourcePtr onDemand = openFileOnDemand(path);
    const ByteSourcePtr mapped = mappedForScan(*onDemand);
    ASSERT_NE(mapped, nullptr);
    EXPECT_TRUE(sameBytes(*mapped, *onDemand));
    EXPECT_EQ(mappedForScan(*mapped), nullptr);  // its own views borrow the mapping
    EXPECT_EQ(mappedForScan(*makeBufferSource(std::string_view("x"))), nullptr);
    // Offsets found in a file that changed size would not be the source's.
    writeTemp("strata_scan.bin", "0123");
    EXPECT_THROW(mappedForScan(*onDemand), SourceError);
    std::filesystem::remove(path);
    EXPECT_THROW(mappedForScan(*onDemand), SourceError);
}

// A FIFO is refused at once: opening it for reading would wait for a writer.
TEST(ByteSource, AFifoIsRefusedWithoutWaiting) {
    const auto path = std::filesystem::temp_directory_path() / "strata_byte_source.fifo";
    std::filesystem::remove(path);
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    EXPECT_THROW(openFileOnDemand(path), SourceError);
    EXPECT_THROW(openMappedFile(path), SourceError);
    std::filesystem::remove(path);
}

TEST(LeReader, DecodesLittleAndBigEndian) {
    const std::uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    EXPECT_EQ(readLe<std::uint64_t>(bytes, 0), 0x0807060504030201u);
    EXPECT_EQ(readLe<std::uint16_t>(bytes, 6), 0x0807u);
    EXPECT_FALSE(readLe<std::uint16_t>(bytes, 7));
    EXPECT_FALSE(readLe<std::uint16_t>(bytes, kMax));
    EXPECT_EQ(decodeBe<std::uint32_t>(bytes), 0x01020304u);
}

TEST(LeReader, CursorStopsAtEnd) {
    const std::uint8_t bytes[] = {0xff, 0x01, 0x00, 0x00, 0x00, 0xaa};
    LeCursor cursor(bytes);
    EXPECT_EQ(cursor.u8(), 0xffu);
    EXPECT_EQ(cursor.u32(), 1u);
    EXPECT_TRUE(cursor.ok());
    EXPECT_EQ(cursor.remaining(), 1u);
    EXPECT_EQ(cursor.u16(), 0u);
    EXPECT_FALSE(cursor.ok());
    EXPECT_TRUE(cursor.bytes(1).empty());
}

}  // namespace
}  // namespace strata
