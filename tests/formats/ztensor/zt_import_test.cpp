// Importing NumPy .npy/.npz and safetensors files: fixtures are written byte by byte here, read
// back as tensors, written as zTensor files; hostile headers get clear errors, never a crash.
#include <gtest/gtest.h>

#include <zip.h>

#include <cstring>
#include <fstream>

#include "formats/ztensor/npy_reader.h"
#include "formats/ztensor/safetensors_reader.h"
#include "formats/ztensor/zt_import.h"
#include "formats/ztensor/zt_logical.h"
#include "zt_test_support.h"

namespace strata {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes npy(const std::string& descr, bool fortran, const std::string& shape, const Bytes& data,
          int major = 1) {
    std::string dict = "{'descr': '" + descr +
                       "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
    const std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + dict.size() + 1) % 64 != 0) {
        dict += ' ';
    }
    dict += '\n';
    Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<std::uint8_t>(major), 0};
    const std::size_t length = dict.size();
    for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) {
        out.push_back(static_cast<std::uint8_t>(length >> (8 * i)));
    }
    out.insert(out.end(), dict.begin(), dict.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

template <class T>
Bytes le(std::initializer_list<T> values) {
    Bytes out;
    for (T v : values) {
        std::uint8_t raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof(T));
        out.insert(out.end(), raw, raw + sizeof(T));
    }
    return out;
}

template <class T>
Bytes be(std::initializer_list<T> values) {
    Bytes out;
    for (T v : values) {
        std::uint8_t raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof(T));
        out.insert(out.end(), std::make_reverse_iterator(raw + sizeof(T)),
                   std::make_reverse_iterator(raw));
    }
    return out;
}

Bytes safetensors(const std::string& header, const Bytes& data) {
    Bytes out;
    for (int i = 0; i < 8; ++i) {
        out.push_back(
            static_cast<std::uint8_t>(static_cast<std::uint64_t>(header.size()) >> (8 * i)));
    }
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

ByteSourcePtr source(Bytes bytes, const char* name = "input") {
    return makeBufferSource(std::move(bytes), name);
}

Bytes tensorBytes(const ztensor::ZtImportTensor& t) {
    return {t.data.bytes.begin(), t.data.bytes.end()};
}

class TempDir {
public:
    TempDir() : path_(std::filesystem::temp_directory_path() / "strata-zt-import-test") {
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    std::filesystem::path file(const std::string& name, const Bytes& bytes) const {
        std::ofstream(path_ / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
        return path_ / name;
    }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

TEST(NpyReader, EveryDtype) {
    const std::vector<std::pair<std::string, ztensor::ZtDType>> types = {
        {"<f8", ztensor::ZtDType::Float64}, {"<f4", ztensor::ZtDType::Float32},
        {"<f2", ztensor::ZtDType::Float16}, {"<i8", ztensor::ZtDType::Int64},
        {"<i4", ztensor::ZtDType::Int32},   {"<i2", ztensor::ZtDType::Int16},
        {"|i1", ztensor::ZtDType::Int8},    {"<u8", ztensor::ZtDType::UInt64},
        {"<u4", ztensor::ZtDType::UInt32},  {"<u2", ztensor::ZtDType::UInt16},
        {"|u1", ztensor::ZtDType::UInt8},   {"|b1", ztensor::ZtDType::Bool}};
    for (const auto& [descr, dtype] : types) {
        Bytes data(3 * ztensor::ztDTypeSize(dtype));
        for (std::size_t i = 0; i < data.size(); ++i) {
            data[i] = static_cast<std::uint8_t>(i + 1);
        }
        const auto t = ztensor::readNpy(source(npy(descr, false, "(3,)", data)), "t");
        EXPECT_EQ(t.dtype, dtype) << descr;
        EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{3}));
        EXPECT_EQ(tensorBytes(t), data) << descr;
    }
}

TEST(NpyReader, ScalarsEmptyAndVersion2) {
    auto t = ztensor::readNpy(source(npy("<f4", false, "()", le<float>({2.5f}))), "s");
    EXPECT_TRUE(t.shape.empty());
    EXPECT_EQ(tensorBytes(t), le<float>({2.5f}));
    t = ztensor::readNpy(source(npy("<i4", false, "(0, 4)", {}, 2)), "e");
    EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{0, 4}));
    EXPECT_TRUE(t.data.empty());
}

TEST(NpyReader, BigEndianAndFortranOrderBecomeLittleEndianRowMajor) {
    // Logical [[1, 2, 3], [4, 5, 6]] stored column-major, big-endian.
    const auto t = ztensor::readNpy(
        source(npy(">i4", true, "(2, 3)", be<std::int32_t>({1, 4, 2, 5, 3, 6}))), "m");
    EXPECT_EQ(tensorBytes(t), le<std::int32_t>({1, 2, 3, 4, 5, 6}));
    const auto f = ztensor::readNpy(
        source(npy("<f8", true, "(2, 2, 2)", le<double>({0, 4, 2, 6, 1, 5, 3, 7}))), "f");
    EXPECT_EQ(tensorBytes(f), le<double>({0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(NpyReader, HostileHeaders) {
    const Bytes f4 = le<float>({1, 2});
    const std::vector<Bytes> bad = {
        Bytes{0x93, 'N', 'U', 'M'},                           // cut magic
        npy("<f4", false, "(2,)", f4, 9),                     // unknown version
        npy("<c8", false, "(1,)", le<float>({1, 2})),         // complex
        npy("|O", false, "(1,)", Bytes(8)),                   // objects
        npy("<f4", false, "(3,)", f4),                        // data too short
        npy("<f4", false, "(18446744073709551615, 2)", f4),   // shape product overflows
        npy("<f4", false, "(99999999999999999999999,)", f4),  // entry overflows
        npy("<f4", false, "(-2,)", f4),                       // negative
        npy("<f4", false, "[2]", f4),                         // not a tuple
        npy("|f4", false, "(2,)", f4),                        // '|' on a multi-byte type
    };
    for (const auto& bytes : bad) {
        EXPECT_THROW(ztensor::readNpy(source(bytes), "x"), ztensor::ZtImportError);
    }
    // A header length pointing past the end, and an unterminated dict.
    Bytes longHeader = npy("<f4", false, "(2,)", f4);
    longHeader[8] = 0xFF;
    longHeader[9] = 0xFF;
    EXPECT_THROW(ztensor::readNpy(source(longHeader), "x"), ztensor::ZtImportError);
    Bytes open = npy("<f4", false, "(2,)", f4);
    std::replace(open.begin(), open.end(), static_cast<std::uint8_t>('}'),
                 static_cast<std::uint8_t>(' '));
    EXPECT_THROW(ztensor::readNpy(source(open), "x"), ztensor::ZtImportError);
    // Extra keys and missing keys.
    const std::string extra = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}";
    Bytes withExtra = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(extra.size()),
                       0};
    withExtra.insert(withExtra.end(), extra.begin(), extra.end());
    withExtra.insert(withExtra.end(), f4.begin(), f4.end());
    EXPECT_THROW(ztensor::readNpy(source(withExtra), "x"), ztensor::ZtImportError);
}

// Past the 128-byte header, hands out at most 7 bytes per view, as a streamed archive member
// does for requests over its view limit.
class StingySource final : public ByteSource {
public:
    explicit StingySource(Bytes bytes) : bytes_(std::move(bytes)) {}
    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return bytes_.size(); }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        if (offset >= bytes_.size()) {
            return {};
        }
        const std::uint64_t limit = offset < 128 ? length : 7;
        const auto n = std::min<std::uint64_t>({length, limit, bytes_.size() - offset});
        return {{bytes_.data() + offset, static_cast<std::size_t>(n)}, {}};
    }

private:
    Bytes bytes_;
    std::string name_ = "stingy";
};

TEST(NpyReader, SourcesWithShortViewsAreReadInPieces) {
    const Bytes values = le<std::int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9});
    const auto t =
        ztensor::readNpy(std::make_shared<StingySource>(npy("<i4", false, "(9,)", values)), "s");
    EXPECT_EQ(tensorBytes(t), values);
}

void addZipMember(zip_t* archive, const std::string& name, const Bytes& bytes, bool deflate) {
    zip_source_t* src = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
    ASSERT_NE(src, nullptr);
    const zip_int64_t index = zip_file_add(archive, name.c_str(), src, ZIP_FL_OVERWRITE);
    ASSERT_GE(index, 0);
    zip_set_file_compression(archive, static_cast<zip_uint64_t>(index),
                             deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
}

TEST(NpzReader, StoredAndDeflatedMembers) {
    TempDir dir;
    const Bytes a = npy("<f4", false, "(2, 2)", le<float>({1, 2, 3, 4}));
    const Bytes b = npy("<i8", false, "(3,)", le<std::int64_t>({-1, 0, 7}));
    const Bytes text = {'h', 'i'};
    int error = 0;
    const auto path = dir / "arrays.npz";
    zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    ASSERT_NE(archive, nullptr);
    addZipMember(archive, "a.npy", a, false);
    addZipMember(archive, "sub/b.npy", b, true);
    addZipMember(archive, "notes.txt", text, true);
    ASSERT_EQ(zip_close(archive), 0);

    const ztensor::ZtImportSet set = ztensor::ztReadImport(path);
    EXPECT_EQ(set.kind, "npz");
    ASSERT_EQ(set.tensors.size(), 2u);
    EXPECT_EQ(set.tensors[0].name, "a");
    EXPECT_EQ(tensorBytes(set.tensors[0]), le<float>({1, 2, 3, 4}));
    EXPECT_EQ(set.tensors[1].name, "sub/b");
    EXPECT_EQ(tensorBytes(set.tensors[1]), le<std::int64_t>({-1, 0, 7}));
    ASSERT_EQ(set.notes.size(), 1u);
    EXPECT_NE(set.notes[0].find("notes.txt"), std::string::npos);
}

TEST(NpzReader, DamagedArchives) {
    TempDir dir;
    const auto notZip = dir.file("bad.npz", Bytes{'P', 'K', 3, 4, 0, 0, 0});
    EXPECT_THROW(ztensor::ztReadImport(notZip), ztensor::ZtImportError);
    const auto junk = dir.file("junk.bin", Bytes{1, 2, 3});
    EXPECT_THROW(ztensor::ztReadImport(junk), ztensor::ZtImportError);
}

TEST(SafetensorsReader, TensorsAndMetadata) {
    const Bytes data = [] {
        Bytes d = le<std::uint16_t>({0x3C00, 0xC000});  // f16 1, -2
        const Bytes i = le<std::int32_t>({7, -8, 9});
        d.insert(d.end(), i.begin(), i.end());
        return d;
    }();
    const std::string header = R"({"b":{"dtype":"I32","shape":[3],"data_offsets":[4,16]},)"
                               R"("a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},)"
                               R"("__metadata__":{"format":"pt"}})";
    const ztensor::ZtImportSet set = ztensor::readSafetensors(source(safetensors(header, data)));
    ASSERT_EQ(set.tensors.size(), 2u);
    EXPECT_EQ(set.tensors[0].name, "a");  // in data order
    EXPECT_EQ(set.tensors[0].dtype, ztensor::ZtDType::Float16);
    EXPECT_EQ(set.tensors[1].name, "b");
    EXPECT_EQ(tensorBytes(set.tensors[1]), le<std::int32_t>({7, -8, 9}));
    const std::vector<std::pair<std::string, std::string>> meta = {{"format", "pt"}};
    EXPECT_EQ(set.attributes, meta);
}

TEST(SafetensorsReader, EveryDtype) {
    const std::vector<std::pair<std::string, ztensor::ZtDType>> types = {
        {"F64", ztensor::ZtDType::Float64}, {"F32", ztensor::ZtDType::Float32},
        {"F16", ztensor::ZtDType::Float16}, {"BF16", ztensor::ZtDType::BFloat16},
        {"I64", ztensor::ZtDType::Int64},   {"I32", ztensor::ZtDType::Int32},
        {"I16", ztensor::ZtDType::Int16},   {"I8", ztensor::ZtDType::Int8},
        {"U64", ztensor::ZtDType::UInt64},  {"U32", ztensor::ZtDType::UInt32},
        {"U16", ztensor::ZtDType::UInt16},  {"U8", ztensor::ZtDType::UInt8},
        {"BOOL", ztensor::ZtDType::Bool}};
    for (const auto& [name, dtype] : types) {
        const unsigned size = ztensor::ztDTypeSize(dtype);
        const std::string header = R"({"t":{"dtype":")" + name +
                                   R"(","shape":[2],"data_offsets":[0,)" +
                                   std::to_string(2 * size) + "]}}";
        const auto set = ztensor::readSafetensors(source(safetensors(header, Bytes(2 * size, 1))));
        ASSERT_EQ(set.tensors.size(), 1u);
        EXPECT_EQ(set.tensors[0].dtype, dtype) << name;
    }
}

TEST(SafetensorsReader, HostileHeaders) {
    const Bytes data(8);
    const std::vector<std::string> headers = {
        "[1, 2]",
        "{not json",
        R"({"t":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}})",
        R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,12]}})",
        R"({"t":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
        R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})",
        R"({"t":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})",
        R"({"t":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}})",
        R"({"t":{"dtype":"F32","shape":[2]}})",
        R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"__metadata__":{"k":1}})",
        std::string(10000, '[') + std::string(10000, ']'),
    };
    for (const auto& header : headers) {
        EXPECT_THROW(ztensor::readSafetensors(source(safetensors(header, data))),
                     ztensor::ZtImportError)
            << header.substr(0, 80);
    }
    Bytes huge = safetensors("{}", data);
    huge[7] = 0x7F;  // header size ~2^62
    EXPECT_THROW(ztensor::readSafetensors(source(huge)), ztensor::ZtImportError);
    EXPECT_THROW(ztensor::readSafetensors(source(Bytes{1, 2, 3})), ztensor::ZtImportError);
}

TEST(ZtImport, WritesReadableZtFiles) {
    TempDir dir;
    const auto in = dir.file(
        "m.npy", npy("<f2", false, "(2, 2)", le<std::uint16_t>({0x3C00, 0x4000, 0x0000, 0xBC00})));
    EXPECT_EQ(ztensor::ztImportKind(in), "npy");
    const ztensor::ZtImportSet set = ztensor::ztReadImport(in);
    ASSERT_EQ(set.tensors.size(), 1u);
    EXPECT_EQ(set.tensors[0].name, "m");
    for (auto encoding : {ztensor::ZtEncoding::Raw, ztensor::ZtEncoding::Zstd}) {
        ztensor::ZtImportOptions options;
        options.encoding = encoding;
        options.digest = ztensor::ZtDigestAlgorithm::Sha256;
        options.threads = 2;
        const auto out = dir / "m.zt";
        const auto result = ztensor::ztWriteImport(set, out, options);
        EXPECT_EQ(result.tensors, 1u);
        const auto validation = test::ztValidate(openMappedFile(out));
        EXPECT_EQ(validation.errors(), 0u) << validation.describe();
        const ztensor::ZtTensor* t = validation.file->findTensor("m");
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->dtype, ztensor::ZtDType::Float16);
        const auto stats = ztensor::ztTensorStats(*validation.file, *t);
        ASSERT_TRUE(stats.ok) << stats.error;
        EXPECT_EQ(*stats.stats.min, -1.0);
        EXPECT_EQ(*stats.stats.max, 2.0);
        EXPECT_EQ(stats.stats.zeros, 1u);
    }
}

TEST(ZtImport, DuplicateNamesAreRefused) {
    TempDir dir;
    ztensor::ZtImportSet set;
    set.tensors.push_back({"x", ztensor::ZtDType::UInt8, {1}, {}});
    set.tensors.push_back({"x", ztensor::ZtDType::UInt8, {1}, {}});
    EXPECT_THROW(ztensor::ztWriteImport(set, dir / "d.zt"), ztensor::ZtImportError);
    EXPECT_FALSE(std::filesystem::exists(dir / "d.zt"));
}

}  // namespace
}  // namespace strata
