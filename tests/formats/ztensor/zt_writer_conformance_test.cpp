// Writer conformance: files Strata writes (import, convert, edits saved through the convert
// plan) are read back here by a reader written from the spec and the reference's recorded
// layout alone (its own CBOR decoder, zstd and CRC-32C applied directly), checked for every
// layout fact of the reference writer, and compared tensor by tensor with what went in.
// Converting reference files gives the reference's other files byte for byte.
#include <gtest/gtest.h>

#include <zstd.h>
#include "test_corpus.h"

#include <fstream>
#include <map>
#include <optional>

#include "formats/common/checksums.h"
#include "formats/ztensor/zt_convert.h"
#include "formats/ztensor/zt_import.h"
#include "formats/ztensor/zt_writer.h"
#include "zt_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// ---- an independent CBOR decoder: definite lengths, shortest heads, what a manifest uses ------

struct CborEntry;

struct Cbor {
    enum class Kind { Uint, Text, Array, Map, Other } kind = Kind::Other;
    std::uint64_t number = 0;
    std::string text;
    std::vector<Cbor> items;
    std::vector<CborEntry> entries;  // in file order (a pair of an incomplete type is not allowed)

    const Cbor* find(std::string_view key) const;
    std::vector<std::string> keys() const;
};

struct CborEntry {
    std::string key;
    Cbor value;
};

const Cbor* Cbor::find(std::string_view key) const {
    for (const auto& [k, v] : entries) {
        if (k == key) {
            return &v;
        }
    }
    return nullptr;
}

std::vector<std::string> Cbor::keys() const {
    std::vector<std::string> out;
    for (const auto& entry : entries) {
        out.push_back(entry.key);
    }
    return out;
}

// Well-formed UTF-8 sequences (lead byte and continuation bytes; enough for a layout check).
bool validUtf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        std::size_t extra = 0;
        if (b >= 0xF0 && b <= 0xF4) {
            extra = 3;
        } else if (b >= 0xE0 && b <= 0xEF) {
            extra = 2;
        } else if (b >= 0xC2 && b <= 0xDF) {
            extra = 1;
        } else if (b >= 0x80) {
            return false;
        }
        if (i + extra >= s.size() && extra > 0) {
            return false;
        }
        for (std::size_t k = 1; k <= extra; ++k) {
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
                return false;
            }
        }
        i += 1 + extra;
    }
    return true;
}

class CborReader {
public:
    explicit CborReader(std::string_view bytes) : bytes_(bytes) {}

    Cbor item(int depth = 0) {
        if (depth > 16) {
            return fail("nested too deep");
        }
        const auto [major, value] = head();
        Cbor out;
        switch (major) {
            case 0:
                out.kind = Cbor::Kind::Uint;
                out.number = value;
                return out;
            case 3:
                if (value > bytes_.size() - at_) {
                    return fail("text past the end");
                }
                out.kind = Cbor::Kind::Text;
                out.text = std::string(bytes_.substr(at_, value));
                at_ += value;
                if (!validUtf8(out.text)) {
                    problems.push_back("text is not UTF-8");
                }
                return out;
            case 4:
                out.kind = Cbor::Kind::Array;
                for (std::uint64_t i = 0; i < value && problems.empty(); ++i) {
                    out.items.push_back(item(depth + 1));
                }
                return out;
            case 5:
                out.kind = Cbor::Kind::Map;
                for (std::uint64_t i = 0; i < value && problems.empty(); ++i) {
                    Cbor key = item(depth + 1);
                    if (key.kind != Cbor::Kind::Text) {
                        return fail("map key is not text");
                    }
                    out.entries.push_back({key.text, item(depth + 1)});
                }
                return out;
            default:
                return fail("unexpected major type " + std::to_string(major));
        }
    }
    bool atEnd() const { return at_ == bytes_.size(); }
    std::vector<std::string> problems;

private:
    Cbor fail(const std::string& why) {
        problems.push_back(why);
        at_ = bytes_.size();
        return {};
    }
    std::pair<int, std::uint64_t> head() {
        if (at_ >= bytes_.size()) {
            fail("truncated");
            return {-1, 0};
        }
        const auto b = static_cast<unsigned char>(bytes_[at_++]);
        const int major = b >> 5;
        const int info = b & 31;
        if (info < 24) {
            return {major, static_cast<std::uint64_t>(info)};
        }
        if (info > 27) {
            fail("indefinite length or reserved head");
            return {-1, 0};
        }
        const std::size_t size = std::size_t{1} << (info - 24);
        if (size > bytes_.size() - at_) {
            fail("truncated head");
            return {-1, 0};
        }
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < size; ++i) {
            value = (value << 8) | static_cast<unsigned char>(bytes_[at_++]);
        }
        const std::uint64_t floor = size == 1 ? 24 : std::uint64_t{1} << (4 * size);
        if (value < floor) {
            problems.push_back("head not in its shortest form");
        }
        return {major, value};
    }
    std::string_view bytes_;
    std::size_t at_ = 0;
};

// ---- an independent reader of zTensor v1.0 files ---------------------------------------------

std::span<const std::uint8_t> asBytes(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

ztensor::ZtConvertOptions twoThreads() {
    ztensor::ZtConvertOptions options;
    options.threads = 2;
    return options;
}

std::uint32_t crc32cOf(std::string_view bytes) {
    std::uint32_t crc = ~0u;
    for (unsigned char b : bytes) {
        crc ^= b;
        for (int k = 0; k < 8; ++k) {
            crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        }
    }
    return ~crc;
}

std::string zstdDecode(std::string_view frame, std::string& problem) {
    // The reference writes frames without a content size (a 0 size only for empty input) and
    // without a checksum.
    if (frame.size() < 5) {
        problem = "zstd frame too short";
        return {};
    }
    const auto fhd = static_cast<unsigned char>(frame[4]);
    if ((fhd & 0x07) != 0 || ((fhd & 0xE0) != 0 && fhd != 0x20) ||
        (fhd == 0x20 && frame.size() != 9)) {
        problem = "zstd frame header differs from the reference's";
    }
    ZSTD_DStream* stream = ZSTD_createDStream();
    std::string out;
    ZSTD_inBuffer in{frame.data(), frame.size(), 0};
    char buffer[1 << 14];
    std::size_t rc = 1;
    while (rc != 0) {
        ZSTD_outBuffer o{buffer, sizeof buffer, 0};
        rc = ZSTD_decompressStream(stream, &o, &in);
        if (ZSTD_isError(rc) || (o.pos == 0 && in.pos == in.size && rc != 0)) {
            problem = "zstd data does not decode";
            break;
        }
        out.append(buffer, o.pos);
    }
    if (in.pos != in.size) {
        problem = "bytes after the zstd frame";
    }
    ZSTD_freeDStream(stream);
    return out;
}

const std::map<std::string, std::uint64_t> kDtypeSizes = {
    {"float64", 8}, {"float32", 4}, {"float16", 2}, {"bfloat16", 2}, {"int64", 8},
    {"int32", 4},   {"int16", 2},   {"int8", 1},    {"uint64", 8},   {"uint32", 4},
    {"uint16", 2},  {"uint8", 1},   {"bool", 1}};

struct ReadTensor {
    std::string dtype, format;
    std::vector<std::uint64_t> shape;
    std::map<std::string, std::string> decoded;  // role -> decoded bytes
    std::map<std::string, std::string> encoding, digest;
};

struct ReadFile {
    std::vector<std::string> problems;
    std::string version, generator;
    std::vector<std::pair<std::string, std::string>> attributes;
    std::map<std::string, ReadTensor> tensors;
};

ReadFile readZt(const std::string& file) {
    ReadFile r;
    auto fail = [&](const std::string& why) { r.problems.push_back(why); };
    if (file.size() < 16 || file.substr(0, 8) != "ZTEN1000") {
        fail("no ZTEN1000 magic");
        return r;
    }
    std::uint64_t size = 0;
    for (int i = 7; i >= 0; --i) {
        size = (size << 8) |
               static_cast<unsigned char>(file[file.size() - 8 + static_cast<std::size_t>(i)]);
    }
    if (size > file.size() - 16) {
        fail("manifest size too large");
        return r;
    }
    const std::size_t manifestAt = file.size() - 8 - size;
    CborReader cbor(std::string_view(file).substr(manifestAt, size));
    const Cbor root = cbor.item();
    for (const auto& p : cbor.problems) {
        fail("manifest: " + p);
    }
    if (!cbor.atEnd() || root.kind != Cbor::Kind::Map ||
        root.keys() != std::vector<std::string>{"version", "generator", "attributes", "tensors"}) {
        fail("manifest is not {version, generator, attributes, tensors} in that order");
        return r;
    }
    r.version = root.find("version")->text;
    r.generator = root.find("generator")->text;
    for (const auto& [key, value] : root.find("attributes")->entries) {
        if (value.kind != Cbor::Kind::Text) {
            fail("attribute " + key + " is not text");
        }
        r.attributes.emplace_back(key, value.text);
    }
    const std::vector<std::string> attributeKeys = root.find("attributes")->keys();
    if (!std::is_sorted(attributeKeys.begin(), attributeKeys.end())) {
        fail("attributes not sorted bytewise");
    }
    const std::vector<std::string> names = root.find("tensors")->keys();
    if (!std::is_sorted(names.begin(), names.end()) ||
        std::adjacent_find(names.begin(), names.end()) != names.end()) {
        fail("tensor names not sorted bytewise and unique");
    }
    // Every stored range, to check placement and padding afterwards.
    std::map<std::uint64_t, std::uint64_t> ranges;  // offset -> longest length there
    for (const auto& [name, t] : root.find("tensors")->entries) {
        if (t.keys() != std::vector<std::string>{"dtype", "shape", "format", "components"}) {
            fail(name + ": keys are not {dtype, shape, format, components}");
            continue;
        }
        ReadTensor out;
        out.dtype = t.find("dtype")->text;
        out.format = t.find("format")->text;
        if (!kDtypeSizes.contains(out.dtype)) {
            fail(name + ": unknown dtype " + out.dtype);
            continue;
        }
        for (const Cbor& d : t.find("shape")->items) {
            out.shape.push_back(d.number);
        }
        const std::vector<std::string> roles = t.find("components")->keys();
        if (!std::is_sorted(roles.begin(), roles.end())) {
            fail(name + ": roles not sorted bytewise");
        }
        for (const auto& [role, c] : t.find("components")->entries) {
            const std::vector<std::string> keys = c.keys();
            std::vector<std::string> expected{"offset", "length"};
            if (c.find("encoding") != nullptr) {
                expected.push_back("encoding");
            }
            if (c.find("digest") != nullptr) {
                expected.push_back("digest");
            }
            if (keys != expected) {
                fail(name + "/" + role + ": keys not {offset, length, [encoding], [digest]}");
                continue;
            }
            const std::uint64_t offset = c.find("offset")->number;
            const std::uint64_t length = c.find("length")->number;
            if (offset % 64 != 0 || offset < 64 || offset + length > manifestAt) {
                fail(name + "/" + role + ": misplaced component");
                continue;
            }
            ranges[offset] = std::max(ranges[offset], length);
            const std::string stored = file.substr(offset, length);
            if (const Cbor* digest = c.find("digest")) {
                char crc[24];
                std::snprintf(crc, sizeof crc, "crc32c:0x%08X", crc32cOf(stored));
                const std::string sha = "sha256:" + toHex(sha256(asBytes(stored)));
                if (digest->text != crc && digest->text != sha) {
                    fail(name + "/" + role + ": digest " + digest->text + " is wrong or not in " +
                         "the reference's form");
                }
                out.digest[role] = digest->text.substr(0, digest->text.find(':'));
            }
            std::string decoded = stored;
            if (const Cbor* encoding = c.find("encoding")) {
                out.encoding[role] = encoding->text;
                if (encoding->text != "zstd") {
                    fail(name + "/" + role + ": the reference writes only encoding zstd");
                }
                std::string problem;
                decoded = zstdDecode(stored, problem);
                if (!problem.empty()) {
                    fail(name + "/" + role + ": " + problem);
                }
            }
            out.decoded[role] = decoded;
        }
        if (out.format == "dense") {
            std::uint64_t bytes = kDtypeSizes.at(out.dtype);
            for (auto d : out.shape) {
                bytes *= d;
            }
            if (roles != std::vector<std::string>{"data"} || out.decoded["data"].size() != bytes) {
                fail(name + ": dense tensor without data of dtype × shape bytes");
            }
        }
        r.tensors[name] = std::move(out);
    }
    // Components back to back from offset 64, each at the next multiple of 64, zero padding
    // between them, the manifest right after the last one.
    std::uint64_t end = 8;
    for (const auto& [offset, length] : ranges) {
        if (length == 0) {
            continue;
        }
        if (offset != (end + 63) / 64 * 64) {
            fail("component at " + std::to_string(offset) + " is not where the reference puts it");
        }
        if (file.find_first_not_of('\0', end) < offset) {
            fail("non-zero padding before " + std::to_string(offset));
        }
        end = offset + length;
    }
    if (end != manifestAt) {
        fail("the manifest does not follow the last component");
    }
    return r;
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "strata-zt-conformance";
    fs::create_directories(dir);
    return dir / name;
}

// The decoded (logical) sha256 of every dense tensor the reference read from each corpus file.
std::map<std::string, std::string> logicalSha(const std::string& file) {
    std::map<std::string, std::string> out;
    std::ifstream in(test::ztCorpusDir() / "expected/logical.jsonl");
    for (std::string line; std::getline(in, line);) {
        const auto j = nlohmann::json::parse(line);
        if (j["file"] == file && j["format"] == "dense") {
            out[j["name"].get<std::string>()] = j["sha256"].get<std::string>();
        }
    }
    return out;
}

void expectDenseTensorsAsTheReferenceRead(const ReadFile& read, const std::string& corpusFile) {
    const auto expected = logicalSha(corpusFile);
    ASSERT_FALSE(expected.empty());
    for (const auto& [name, sha] : expected) {
        ASSERT_TRUE(read.tensors.contains(name)) << name;
        EXPECT_EQ(toHex(sha256(asBytes(read.tensors.at(name).decoded.at("data")))), sha) << name;
    }
}

TEST(ZtWriterConformance, ConvertingReferenceFilesGivesTheReferenceFiles) {
    STRATA_SKIP_WITHOUT_CORPUS();
    struct Case {
        const char* from;
        std::optional<ztensor::ZtEncoding> encoding;
        ztensor::ZtDigestChoice digest;
        const char* to;
    };
    const Case cases[] = {
        {"dense_raw.zt", ztensor::ZtEncoding::Zstd, ztensor::ZtDigestChoice::Keep, "dense_zstd.zt"},
        {"dense_zstd_crc32c.zt", ztensor::ZtEncoding::Raw, ztensor::ZtDigestChoice::Keep,
         "dense_raw_crc32c.zt"},
        {"dense_raw.zt", std::nullopt, ztensor::ZtDigestChoice::Crc32c, "dense_raw_crc32c.zt"},
        {"dense_zstd_crc32c.zt", std::nullopt, ztensor::ZtDigestChoice::None, "dense_zstd.zt"},
        {"sparse_raw.zt", ztensor::ZtEncoding::Zstd, ztensor::ZtDigestChoice::Crc32c,
         "sparse_zstd_crc32c.zt"},
        {"sparse_zstd_crc32c.zt", ztensor::ZtEncoding::Raw, ztensor::ZtDigestChoice::None,
         "sparse_raw.zt"},
        {"single_f32_raw.zt", std::nullopt, ztensor::ZtDigestChoice::Crc32c,
         "single_f32_raw_crc32c.zt"},
        {"single_f32_raw_crc32c.zt", ztensor::ZtEncoding::Raw, ztensor::ZtDigestChoice::None,
         "single_f32_raw.zt"},
        {"empty.zt", ztensor::ZtEncoding::Zstd, ztensor::ZtDigestChoice::Crc32c, "empty.zt"},
    };
    const fs::path dir = test::ztCorpusDir() / "valid";
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.from) + " -> " + c.to);
        const auto file = ztensor::ZtFile::open(openMappedFile(dir / c.from));
        ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
        ztensor::ztSetEncoding(plan, c.encoding);
        ztensor::ztSetDigest(plan, c.digest);
        const fs::path out = scratch(c.to);
        ASSERT_FALSE(ztensor::ztConvertFile(*file, plan, out, twoThreads()).cancelled);
        const std::string written = slurp(out);
        const ReadFile read = readZt(written);
        EXPECT_TRUE(read.problems.empty()) << nlohmann::json(read.problems).dump(1);
        EXPECT_TRUE(written == slurp(dir / c.to)) << "differs from the reference's file";
        if (std::string(c.to).starts_with("dense")) {
            expectDenseTensorsAsTheReferenceRead(read, c.to);
        }
        fs::remove(out);
    }
}

TEST(ZtWriterConformance, EditsSavedThroughTheWriterReadBackTensorByTensor) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path dir = test::ztCorpusDir() / "valid";
    const auto file = ztensor::ZtFile::open(openMappedFile(dir / "sparse_raw.zt"));
    const ReadFile before = readZt(slurp(dir / "sparse_raw.zt"));
    ASSERT_TRUE(before.problems.empty());
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    ASSERT_TRUE(ztensor::ztRenameTensor(plan, "csr_f32", "renamed/été"));
    ASSERT_TRUE(ztensor::ztRemoveTensor(plan, "dense_alongside"));
    plan.tensors.back().encoding = ztensor::ZtEncoding::Zstd;
    plan.tensors.front().digest = ztensor::ZtDigestChoice::Sha256;
    plan.attributes = {{"zeta", "last"}, {"alpha", "first"}, {"description", "ünïcode"}};
    const fs::path out = scratch("edited.zt");
    ztensor::ztConvertFile(*file, plan, out, twoThreads());
    const ReadFile after = readZt(slurp(out));
    EXPECT_TRUE(after.problems.empty()) << nlohmann::json(after.problems).dump(1);
    EXPECT_EQ(after.attributes,
              (std::vector<std::pair<std::string, std::string>>{
                  {"alpha", "first"}, {"description", "ünïcode"}, {"zeta", "last"}}));
    EXPECT_EQ(after.generator, "zTensor-Rust v0.1.0");
    EXPECT_EQ(after.tensors.size(), before.tensors.size() - 1);
    for (const auto& [name, tensor] : before.tensors) {
        if (name == "dense_alongside") {
            EXPECT_FALSE(after.tensors.contains(name));
            continue;
        }
        const std::string now = name == "csr_f32" ? "renamed/été" : name;
        ASSERT_TRUE(after.tensors.contains(now)) << now;
        const ReadTensor& t = after.tensors.at(now);
        EXPECT_EQ(t.dtype, tensor.dtype);
        EXPECT_EQ(t.shape, tensor.shape);
        EXPECT_EQ(t.format, tensor.format);
        EXPECT_EQ(t.decoded, tensor.decoded) << now;
    }
    fs::remove(out);
}

// .npy bytes: version 1.0 header padded with spaces to a multiple of 64, then the data.
std::string npy(const std::string& dict, const std::string& data) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0) {
        header += ' ';
    }
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + data;
}

std::string le(std::initializer_list<std::uint64_t> values, int width) {
    std::string out;
    for (auto v : values) {
        for (int i = 0; i < width; ++i) {
            out += static_cast<char>((v >> (8 * i)) & 0xff);
        }
    }
    return out;
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

TEST(ZtWriterConformance, ImportedArraysReadBackTensorByTensor) {
    // A big-endian, Fortran-ordered 2×3 int32 array: stored column by column.
    const fs::path npyPath = scratch("fortran.npy");
    std::string bigEndian;
    for (std::uint32_t v : {1u, 4u, 2u, 5u, 3u, 6u}) {
        for (int i = 3; i >= 0; --i) {
            bigEndian += static_cast<char>((v >> (8 * i)) & 0xff);
        }
    }
    writeBytes(npyPath,
               npy("{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }", bigEndian));
    // safetensors with several dtypes and metadata.
    const fs::path stPath = scratch("model.safetensors");
    const std::string data = le({0x3f80, 0xbf80}, 2) + le({1, 0, 1}, 1) + le({~0ull, 7}, 8);
    const std::string json = R"({"b":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]},)"
                             R"("a":{"dtype":"BOOL","shape":[3],"data_offsets":[4,7]},)"
                             R"("z":{"dtype":"U64","shape":[1,2],"data_offsets":[7,23]},)"
                             R"("__metadata__":{"format":"pt","b":"2"}})";
    writeBytes(stPath, le({json.size()}, 8) + json + data);

    const std::map<std::string, std::map<std::string, std::string>> expected = {
        {"fortran.npy", {{"fortran", le({1, 2, 3, 4, 5, 6}, 4)}}},
        {"model.safetensors",
         {{"b", le({0x3f80, 0xbf80}, 2)}, {"a", le({1, 0, 1}, 1)}, {"z", le({~0ull, 7}, 8)}}}};
    for (const auto& [input, tensors] : expected) {
        for (ztensor::ZtEncoding encoding : {ztensor::ZtEncoding::Raw, ztensor::ZtEncoding::Zstd}) {
            for (auto digest : {std::optional<ztensor::ZtDigestAlgorithm>{},
                                std::optional(ztensor::ZtDigestAlgorithm::Crc32c),
                                std::optional(ztensor::ZtDigestAlgorithm::Sha256)}) {
                SCOPED_TRACE(input + (encoding == ztensor::ZtEncoding::Zstd ? " zstd" : " raw"));
                const fs::path out = scratch("imported.zt");
                ztensor::ZtImportOptions options;
                options.encoding = encoding;
                options.digest = digest;
                options.threads = 2;
                ztensor::ztWriteImport(ztensor::ztReadImport(scratch(input)), out, options);
                const ReadFile read = readZt(slurp(out));
                EXPECT_TRUE(read.problems.empty()) << nlohmann::json(read.problems).dump(1);
                EXPECT_EQ(read.version, "1.0");
                ASSERT_EQ(read.tensors.size(), tensors.size());
                for (const auto& [name, bytes] : tensors) {
                    ASSERT_TRUE(read.tensors.contains(name)) << name;
                    const ReadTensor& t = read.tensors.at(name);
                    EXPECT_EQ(t.format, "dense");
                    EXPECT_EQ(t.decoded.at("data"), bytes) << name;
                    EXPECT_EQ(t.encoding.contains("data"), encoding == ztensor::ZtEncoding::Zstd);
                    EXPECT_EQ(t.digest.contains("data"), digest.has_value());
                }
                fs::remove(out);
            }
        }
    }
    const ReadFile st = [&] {
        const fs::path out = scratch("imported.zt");
        ztensor::ztWriteImport(ztensor::ztReadImport(stPath), out, {});
        return readZt(slurp(out));
    }();
    EXPECT_EQ(st.attributes,
              (std::vector<std::pair<std::string, std::string>>{{"b", "2"}, {"format", "pt"}}));
    EXPECT_EQ(st.tensors.at("z").shape, (std::vector<std::uint64_t>{1, 2}));
    EXPECT_EQ(st.tensors.at("b").dtype, "bfloat16");
    EXPECT_EQ(st.tensors.at("a").dtype, "bool");
    EXPECT_EQ(st.tensors.at("z").dtype, "uint64");
    fs::remove_all(scratch("x").parent_path());
}

// A name or attribute that is not UTF-8 would make the reference refuse the whole manifest.
TEST(ZtWriterConformance, TextThatIsNotUtf8IsRefused) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto values = test::f32Bytes({1});
    const std::string bad = "caf\xe9";
    EXPECT_THROW(
        ztensor::ztWriteToBuffer({{bad,
                                   ztensor::ZtDType::Float32,
                                   {1},
                                   "dense",
                                   {{"data", values, ztensor::ZtEncoding::Raw, std::nullopt}}}}),
        std::invalid_argument);
    ztensor::ZtWriterOptions options;
    options.attributes = {{"k", bad}};
    EXPECT_THROW(ztensor::ztWriteToBuffer({}, options), std::invalid_argument);

    const auto file =
        ztensor::ZtFile::open(openMappedFile(test::ztCorpusDir() / "valid/single_f32_raw.zt"));
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    plan.tensors.front().name = bad;
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
    plan = ztensor::ztPlanFor(*file);
    plan.attributes = {{bad, "v"}};
    EXPECT_THROW(ztensor::ztCheckPlan(*file, plan), ztensor::ZtConvertError);
}

}  // namespace
}  // namespace strata
