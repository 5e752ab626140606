// Writer conformance: files made by Strata's ZS writer (through the same calls `strata-cli zs
// make` and the New ZS File job use) are read back here by a small reader written from the
// spec and REFERENCE.md alone (header, CRC-64-xz, blocks, raw deflate / raw LZMA2 through zlib
// and liblzma directly, index rules of the reference's validate), and compared record by record
// with the input, and block by block with the files the reference made from the same input.
#include <gtest/gtest.h>

#include <lzma.h>
#include <unistd.h>
#include <zlib.h>
#include "test_corpus.h"

#include <array>
#include <map>
#include <optional>
#include <set>

#include "formats/common/checksums.h"
#include "formats/zs/zs_writer.h"
#include "zs_test_support.h"

namespace strata::zs {
namespace {

using namespace testing;
namespace fs = std::filesystem;

// ---- an independent reader -------------------------------------------------------------------

std::uint64_t crc64xz(std::string_view bytes) {
    static const std::array<std::uint64_t, 256> table = [] {
        std::array<std::uint64_t, 256> t{};
        for (std::uint64_t i = 0; i < 256; ++i) {
            std::uint64_t c = i;
            for (int k = 0; k < 8; ++k) {
                c = (c & 1) != 0 ? (c >> 1) ^ 0xc96c5795d7870f42ull : c >> 1;
            }
            t[i] = c;
        }
        return t;
    }();
    std::uint64_t crc = ~0ull;
    for (unsigned char b : bytes) {
        crc = table[(crc ^ b) & 0xff] ^ (crc >> 8);
    }
    return ~crc;
}

std::uint64_t le64(std::string_view bytes, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) {
        v = (v << 8) | static_cast<unsigned char>(bytes.at(at + static_cast<std::size_t>(i)));
    }
    return v;
}

// A uleb128 in shortest form, at most 9 bytes (the reference's limit).
std::optional<std::uint64_t> uleb(std::string_view bytes, std::size_t& at) {
    std::uint64_t value = 0;
    for (int i = 0; i < 9 && at < bytes.size(); ++i) {
        const auto b = static_cast<unsigned char>(bytes[at++]);
        value |= std::uint64_t{b & 0x7fu} << (7 * i);
        if ((b & 0x80) == 0) {
            if (b == 0 && i > 0) {
                return std::nullopt;
            }
            return value;
        }
    }
    return std::nullopt;
}

std::optional<std::string> inflateRaw(std::string_view in) {
    z_stream z{};
    if (inflateInit2(&z, -15) != Z_OK) {
        return std::nullopt;
    }
    std::string out;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    int rc = Z_OK;
    char buffer[1 << 14];
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    }
    const bool whole = rc == Z_STREAM_END && z.avail_in == 0;
    inflateEnd(&z);
    return whole ? std::optional(out) : std::nullopt;
}

std::optional<std::string> unlzma2(std::string_view in) {
    lzma_options_lzma options{};
    options.dict_size = 1u << 20;
    lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    lzma_stream s = LZMA_STREAM_INIT;
    if (lzma_raw_decoder(&s, filters) != LZMA_OK) {
        return std::nullopt;
    }
    std::string out;
    s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
    s.avail_in = in.size();
    lzma_ret rc = LZMA_OK;
    std::uint8_t buffer[1 << 14];
    while (rc == LZMA_OK) {
        s.next_out = buffer;
        s.avail_out = sizeof buffer;
        rc = lzma_code(&s, LZMA_FINISH);
        out.append(reinterpret_cast<const char*>(buffer), sizeof buffer - s.avail_out);
    }
    const bool whole = rc == LZMA_STREAM_END && s.avail_in == 0;
    lzma_end(&s);
    return whole ? std::optional(out) : std::nullopt;
}

struct Block {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;  // uleb prefix + level + payload + CRC
    int level = 0;
    std::vector<std::string> records;  // data blocks: records; index blocks: keys
    std::vector<std::pair<std::uint64_t, std::uint64_t>> children;  // offset, length
};

struct Read {
    std::vector<std::string> problems;
    std::uint64_t rootOffset = 0, rootLength = 0;
    std::string codec;
    nlohmann::json metadata;
    std::string dataSha;
    std::vector<Block> blocks;
    std::vector<std::string> records;
};

Read readZs(const std::string& file) {
    Read r;
    auto fail = [&](const std::string& what) { r.problems.push_back(what); };
    if (file.size() < 16 || file.substr(0, 8) != std::string("\xabZSfiLe\x01", 8)) {
        fail("bad magic");
        return r;
    }
    const std::uint64_t h = le64(file, 8);
    if (h < 80 || 24 + h > file.size()) {
        fail("bad header length");
        return r;
    }
    const std::string_view header(file.data() + 16, h);
    if (crc64xz(header) != le64(file, 16 + h)) {
        fail("header CRC");
    }
    r.rootOffset = le64(file, 16);
    r.rootLength = le64(file, 24);
    if (le64(file, 32) != file.size()) {
        fail("total file length");
    }
    const std::string sha(header.substr(24, 32));
    r.codec = std::string(header.substr(56, 16));
    r.codec.erase(r.codec.find_last_not_of('\0') + 1);
    const std::uint64_t m = le64(file, 88);
    if (80 + m != h) {
        fail("the reference writes no header extension bytes");
    }
    r.metadata = nlohmann::json::parse(header.substr(80, m), nullptr, false);
    if (!r.metadata.is_object()) {
        fail("metadata is not a JSON object");
    }
    Sha256 hash;
    std::map<std::uint64_t, std::size_t> unreferenced;  // offset -> block index
    std::size_t at = 24 + h;
    while (at < file.size()) {
        Block b;
        b.offset = at;
        const auto l = uleb(file, at);
        if (!l || *l == 0 || at + *l + 8 > file.size()) {
            fail("block at " + std::to_string(b.offset) + ": bad length");
            return r;
        }
        const std::string_view body(file.data() + at, *l);
        if (crc64xz(body) != le64(file, at + *l)) {
            fail("block at " + std::to_string(b.offset) + ": CRC");
        }
        at += *l + 8;
        b.length = at - b.offset;
        b.level = static_cast<unsigned char>(body[0]);
        const std::string_view stored = body.substr(1);
        std::optional<std::string> payload;
        if (r.codec == "none") {
            payload = std::string(stored);
        } else if (r.codec == "deflate") {
            payload = inflateRaw(stored);
        } else if (r.codec == "lzma2;dsize=2^20") {
            payload = unlzma2(stored);
        }
        if (!payload || payload->empty()) {
            fail("block at " + std::to_string(b.offset) + ": undecodable or empty payload");
            return r;
        }
        if (b.level == 0) {
            hash.update(asBytes(*payload));
        }
        for (std::size_t p = 0; p < payload->size();) {
            const auto n = uleb(*payload, p);
            if (!n || p + *n > payload->size()) {
                fail("block at " + std::to_string(b.offset) + ": bad record");
                return r;
            }
            b.records.emplace_back(payload->substr(p, *n));
            p += *n;
            if (b.level > 0) {
                const auto offset = uleb(*payload, p);
                const auto length = uleb(*payload, p);
                if (!offset || !length) {
                    fail("block at " + std::to_string(b.offset) + ": bad index entry");
                    return r;
                }
                b.children.emplace_back(*offset, *length);
            }
        }
        if (!std::is_sorted(b.records.begin(), b.records.end())) {
            fail("block at " + std::to_string(b.offset) + ": unsorted");
        }
        for (std::size_t i = 0; i < b.children.size(); ++i) {
            const auto [offset, length] = b.children[i];
            const auto child = unreferenced.find(offset);
            if (child == unreferenced.end()) {
                fail("block at " + std::to_string(b.offset) + ": dangling or double reference");
                continue;
            }
            const Block& c = r.blocks[child->second];
            unreferenced.erase(child);
            if (c.level != b.level - 1 || c.length != length || c.records.front() != b.records[i]) {
                fail("block at " + std::to_string(b.offset) + ": entry " + std::to_string(i) +
                     " does not describe its child");
            }
        }
        if (b.level == 0) {
            r.records.insert(r.records.end(), b.records.begin(), b.records.end());
        }
        unreferenced[b.offset] = r.blocks.size();
        r.blocks.push_back(std::move(b));
    }
    const auto root = unreferenced.find(r.rootOffset);
    if (unreferenced.size() != 1 || root == unreferenced.end() ||
        r.blocks[root->second].level < 1 || r.blocks[root->second].length != r.rootLength) {
        fail("the root is not the one unreferenced index block the header names");
    }
    if (!std::is_sorted(r.records.begin(), r.records.end())) {
        fail("records unsorted across blocks");
    }
    const Sha256Digest digest = hash.finish();
    r.dataSha = toHex(digest);
    if (sha != std::string(reinterpret_cast<const char*>(digest.data()), digest.size())) {
        fail("data SHA-256");
    }
    return r;
}

// ---- the inputs and the writer, as `zs make` drives it ---------------------------------------

std::vector<std::string> splitRecords(const std::string& input, const std::string& terminator) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < input.size()) {
        const std::size_t end = input.find(terminator, at);
        out.push_back(input.substr(at, end - at));
        at = end + terminator.size();
    }
    return out;
}

std::vector<std::string> splitPrefixed(const std::string& input, bool uleb128) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < input.size()) {
        std::uint64_t n = 0;
        if (uleb128) {
            n = *uleb(input, at);
        } else {
            n = le64(input, at);
            at += 8;
        }
        out.push_back(input.substr(at, n));
        at += n;
    }
    return out;
}

struct Make {
    WriterOptions options;
    std::string terminator = "\n";
    std::string lengthPrefixed;
    std::string metadata;
};

Make makeOf(const nlohmann::json& args) {
    Make out;
    std::string level;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string a = args[i].get<std::string>();
        const auto after = [&](std::string_view p) { return a.substr(p.size()); };
        if (a.starts_with("--codec=")) {
            out.options.codec = after("--codec=") == "none"      ? Codec::None
                                : after("--codec=") == "deflate" ? Codec::Deflate
                                                                 : Codec::Lzma2;
        } else if (a == "-z") {
            level = args[++i].get<std::string>();
        } else if (a.starts_with("--approx-block-size=")) {
            out.options.approxBlockSize = std::stoull(after("--approx-block-size="));
        } else if (a.starts_with("--branching-factor=")) {
            out.options.branchingFactor = std::stoull(after("--branching-factor="));
        } else if (a.starts_with("--terminator=")) {
            const std::string t = after("--terminator=");
            out.terminator = t == "\\x00" ? std::string(1, '\0') : t == "\\r\\n" ? "\r\n" : t;
        } else if (a.starts_with("--length-prefixed=")) {
            out.lengthPrefixed = after("--length-prefixed=");
        } else if (!a.starts_with("--")) {
            out.metadata = a;
        }
    }
    if (out.options.codec == Codec::Deflate && !level.empty()) {
        out.options.deflateLevel = std::stoi(level);
    } else if (!level.empty()) {
        out.options.lzmaPreset = {static_cast<unsigned>(level[0] - '0'), level.size() > 1};
    }
    out.options.threads = 2;
    return out;
}

fs::path scratchPath(const std::string& name) {
    const fs::path path =
        fs::temp_directory_path() / ("strata-zs-conf-" + std::to_string(::getpid()) + "-" + name);
    fs::remove(path);
    return path;
}

std::string make(const Make& m, const std::string& input, const std::string& name) {
    const fs::path path = scratchPath(name);
    {
        ZsWriter writer(path, parseMetadata(m.metadata), m.options);
        std::istringstream in(input);
        if (m.lengthPrefixed.empty()) {
            addTerminatedRecords(writer, in, m.terminator, m.options.approxBlockSize);
        } else {
            addLengthPrefixedRecords(writer, in, m.lengthPrefixed == "uleb128",
                                     m.options.approxBlockSize);
        }
        writer.finish();
    }
    std::string bytes = readText(path);
    fs::remove(path);
    return bytes;
}

TEST(ZsWriterConformance, CorpusInputsReadBackRecordByRecordWithTheReferenceLayout) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto manifest = readJson(zsCorpus() / "manifest.json");
    int checked = 0;
    for (const auto& entry : manifest["files"]) {
        const std::string name = entry["file"].get<std::string>();
        SCOPED_TRACE(name);
        // The 1M-record file takes half a minute (longer under sanitizers): only when asked.
        if (entry["records"].get<std::size_t>() > 100000 &&
            std::getenv("STRATA_ZS_LONG_TESTS") == nullptr) {
            continue;
        }
        const Make m = makeOf(entry["make_args"]);
        // The big file's dump is not stored: its records come from the reference's own file.
        std::string dump;
        if (entry.contains("dump_file")) {
            dump = readText(zsCorpus() / entry["dump_file"].get<std::string>());
        } else {
            const Read reference = readZs(readText(zsCorpus() / name));
            ASSERT_TRUE(reference.problems.empty());
            for (const std::string& r : reference.records) {
                dump += r + "\n";
            }
            EXPECT_EQ(toHex(sha256(asBytes(dump))), entry["dump_sha256"].get<std::string>());
        }
        // The dump is the input, except for \r\n input, which the reference dumps with \n.
        const bool crlf = m.terminator == "\r\n";
        const std::vector<std::string> records =
            !m.lengthPrefixed.empty() ? splitPrefixed(dump, m.lengthPrefixed == "uleb128")
                                      : splitRecords(dump, crlf ? "\n" : m.terminator);
        std::string input = dump;
        if (crlf) {
            input.clear();
            for (const std::string& r : records) {
                input += r + "\r\n";
            }
        }
        ASSERT_EQ(records.size(), entry["records"].get<std::size_t>());
        const std::string bytes = make(m, input, fs::path(name).filename().string());
        const Read read = readZs(bytes);
        EXPECT_TRUE(read.problems.empty()) << nlohmann::json(read.problems).dump(1);
        EXPECT_TRUE(read.records == records) << "records differ from the input";
        const auto& info = entry["info"];
        EXPECT_EQ(read.codec, info["codec"].get<std::string>());
        EXPECT_EQ(read.dataSha, info["data_sha256"].get<std::string>());
        const auto& args = entry["make_args"];
        const bool buildInfo =
            std::find(args.begin(), args.end(), "--no-default-metadata") == args.end();
        if (buildInfo) {
            EXPECT_EQ(read.metadata["k"], "v");  // build-info is added by the CLI, not the writer
            continue;
        }
        EXPECT_EQ(read.metadata, info["metadata"]);
        EXPECT_EQ(read.rootOffset, info["root_index_offset"].get<std::uint64_t>());
        EXPECT_EQ(read.rootLength, info["root_index_length"].get<std::uint64_t>());
        // The recorded structure: blocks per level always, each block's place when listed.
        const auto& structure = entry["structure"];
        ASSERT_EQ(read.blocks.size(), structure["n_blocks"].get<std::size_t>());
        std::map<std::string, std::size_t> perLevel;
        for (const Block& b : read.blocks) {
            ++perLevel[std::to_string(b.level)];
        }
        EXPECT_EQ(nlohmann::json(perLevel), structure["blocks_per_level"]);
        EXPECT_EQ(24 + le64(bytes, 8), structure["first_block_offset"].get<std::uint64_t>());
        if (structure.contains("blocks")) {
            const auto& expected = structure["blocks"];
            for (std::size_t i = 0; i < read.blocks.size(); ++i) {
                EXPECT_EQ(read.blocks[i].offset, expected[i]["offset"].get<std::uint64_t>());
                EXPECT_EQ(read.blocks[i].length, expected[i]["total_length"].get<std::uint64_t>());
                EXPECT_EQ(read.blocks[i].level, expected[i]["level"].get<int>()) << i;
            }
        }
        EXPECT_EQ(toHex(sha256(asBytes(bytes))), entry["file_sha256"].get<std::string>());
        ++checked;
    }
    EXPECT_GE(checked, 18);
}

// A terminator that can overlap itself ("\n\n" in "a\n\n\n") is split as Python's bytes.split
// does, chunk by chunk; this used to loop forever.
TEST(ZsWriterConformance, SelfOverlappingTerminatorSplitsLikeTheReference) {
    const std::map<std::uint64_t, std::optional<std::vector<std::string>>> expected = {
        {1, std::nullopt},
        {2, std::vector<std::string>{"a\n"}},
        {3, std::nullopt},
        {100, std::vector<std::string>{"a\n"}}};
    for (const auto& [blockSize, records] : expected) {
        SCOPED_TRACE(blockSize);
        Make m;
        m.terminator = "\n\n";
        m.metadata = "{}";
        m.options.approxBlockSize = blockSize;
        m.options.codec = Codec::None;
        if (!records) {
            EXPECT_THROW(make(m, "a\n\n\n", "overlap"), ZsWriteError);
            continue;
        }
        const Read read = readZs(make(m, "a\n\n\n", "overlap"));
        EXPECT_TRUE(read.problems.empty());
        EXPECT_EQ(read.records, *records);
    }
    Make m;
    m.terminator = "bb";
    m.metadata = "{}";
    m.options.codec = Codec::None;
    EXPECT_EQ(readZs(make(m, "abbbcbb", "overlap2")).records,
              (std::vector<std::string>{"a", "bc"}));
}

TEST(ZsWriterConformance, MetadataNumbersAreWrittenAsPythonWritesThem) {
    const auto metadata = parseMetadata(
        R"({"a": 1e15, "b": 1e16, "c": 1e-5, "d": 0.0001, "e": -0.0, "f": 123456789012345680000.0,)"
        R"( "g": 1.5e300, "h": 0.1, "i": 5e-324, "k": 2.5, "l": 100.0, "m": 9999999999999998.0,)"
        R"( "n": 18446744073709551615, "o": -9223372036854775808, "p": -0,)"
        R"( "s": "\u007f\u0001\b/\u2028\ud83d\ude00"})");
    EXPECT_EQ(encodeMetadata(metadata),
              R"({"a": 1000000000000000.0, "b": 1e+16, "c": 1e-05, "d": 0.0001, "e": -0.0,)"
              R"( "f": 1.2345678901234568e+20, "g": 1.5e+300, "h": 0.1, "i": 5e-324, "k": 2.5,)"
              R"( "l": 100.0, "m": 9999999999999998.0, "n": 18446744073709551615,)"
              R"( "o": -9223372036854775808, "p": 0, "s": "\u007f\u0001\b/\u2028\ud83d\ude00"})");
    // Python keeps this integer exact; stored as a double it would change, so it is refused.
    EXPECT_THROW(parseMetadata(R"({"n": 18446744073709551616})"), ZsWriteError);
    EXPECT_THROW(parseMetadata(R"([1])"), ZsWriteError);
    EXPECT_THROW(parseMetadata(R"({"a": )"), ZsWriteError);
}

}  // namespace
}  // namespace strata::zs
