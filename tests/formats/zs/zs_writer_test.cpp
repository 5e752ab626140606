// The ZS writer: rebuilding every valid corpus file from its records and `zs make` arguments
// must give the reference's bytes exactly.
#include <gtest/gtest.h>
#include <unistd.h>

#include "formats/common/checksums.h"
#include "formats/zs/zs_writer.h"
#include "zs_test_support.h"

namespace strata::zs {
namespace {

using namespace testing;
namespace fs = std::filesystem;

class ScratchFile {
public:
    explicit ScratchFile(const std::string& name)
        : path_(fs::temp_directory_path() /
                ("strata-zs-" + std::to_string(::getpid()) + "-" + name)) {
        fs::remove(path_);
    }
    ~ScratchFile() { fs::remove(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// Parses `zs make` arguments into writer options, the input framing and the metadata.
struct MakeArgs {
    WriterOptions options;
    std::string terminator = "\n";
    std::string lengthPrefixed;
    std::string metadata;
};

std::string unescapeTerminator(const std::string& t) {
    if (t == "\\x00")
        return std::string(1, '\0');
    if (t == "\\r\\n")
        return "\r\n";
    return t;
}

MakeArgs parseMakeArgs(const nlohmann::json& args) {
    MakeArgs out;
    std::string level;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string a = args[i].get<std::string>();
        const auto value = [&](const std::string& prefix) { return a.substr(prefix.size()); };
        if (a.starts_with("--codec=")) {
            const std::string c = value("--codec=");
            out.options.codec = c == "none"      ? Codec::None
                                : c == "deflate" ? Codec::Deflate
                                                 : Codec::Lzma2;
        } else if (a == "-z") {
            level = args[++i].get<std::string>();
        } else if (a.starts_with("--approx-block-size=")) {
            out.options.approxBlockSize = std::stoull(value("--approx-block-size="));
        } else if (a.starts_with("--branching-factor=")) {
            out.options.branchingFactor = std::stoull(value("--branching-factor="));
        } else if (a.starts_with("--terminator=")) {
            out.terminator = unescapeTerminator(value("--terminator="));
        } else if (a.starts_with("--length-prefixed=")) {
            out.lengthPrefixed = value("--length-prefixed=");
        } else if (!a.starts_with("--")) {
            out.metadata = a;
        }
    }
    if (!level.empty()) {
        if (out.options.codec == Codec::Deflate) {
            out.options.deflateLevel = std::stoi(level);
        } else {
            out.options.lzmaPreset = {static_cast<unsigned>(level[0] - '0'), level.size() > 1};
        }
    }
    return out;
}

TEST(ZsWriter, RebuildsEveryValidCorpusFileByteForByte) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto manifest = readJson(zsCorpus() / "manifest.json");
    int checked = 0;
    for (const auto& entry : manifest["files"]) {
        const std::string name = entry["file"].get<std::string>();
        const MakeArgs make = parseMakeArgs(entry["make_args"]);
        const bool defaultMetadata = std::find(entry["make_args"].begin(), entry["make_args"].end(),
                                               "--no-default-metadata") == entry["make_args"].end();
        if (defaultMetadata || entry["records"].get<std::size_t>() > 100000) {
            continue;  // build-info holds a time stamp; the big file takes long in debug builds
        }
        SCOPED_TRACE(name);
        const auto records = allRecords(openZs(zsCorpus() / name));
        const std::string input = make.lengthPrefixed.empty()
                                      ? dumpRecords(records, "terminator", make.terminator)
                                      : dumpRecords(records, make.lengthPrefixed);
        ScratchFile out(fs::path(name).filename().string());
        {
            ZsWriter writer(out.path(), nlohmann::ordered_json::parse(make.metadata), make.options);
            std::istringstream in(input);
            if (make.lengthPrefixed.empty()) {
                addTerminatedRecords(writer, in, make.terminator, make.options.approxBlockSize);
            } else {
                addLengthPrefixedRecords(writer, in, make.lengthPrefixed == "uleb128",
                                         make.options.approxBlockSize);
            }
            writer.finish();
        }
        const std::string bytes = readText(out.path());
        EXPECT_EQ(toHex(sha256(asBytes(bytes))), entry["file_sha256"].get<std::string>());
        ++checked;
    }
    EXPECT_GE(checked, 18);
}

TEST(ZsWriter, RefusesUnsortedEmptyAndExistingOutput) {
    ScratchFile out("unsorted.zs");
    {
        ZsWriter writer(out.path(), nlohmann::ordered_json::object(), {});
        std::istringstream in("a\nz\nb\n");
        EXPECT_THROW(addTerminatedRecords(writer, in, "\n", 4), ZsWriteError);
    }
    EXPECT_FALSE(fs::exists(out.path()));  // an unfinished file is removed
    {
        ZsWriter writer(out.path(), nlohmann::ordered_json::object(), {});
        EXPECT_THROW(writer.finish(), ZsWriteError);
    }
    {
        ZsWriter writer(out.path(), nlohmann::ordered_json::object(), {});
        writer.addBlock({"x"});
        writer.finish();
    }
    EXPECT_THROW(ZsWriter(out.path(), nlohmann::ordered_json::object(), {}), ZsWriteError);
    const auto sink = validate(openZs(out.path()));
    EXPECT_EQ(sink->countOf(Severity::Error), 0u) << describe(*sink);
}

TEST(ZsWriter, MetadataIsEncodedLikeTheReference) {
    const auto metadata = nlohmann::ordered_json::parse(
        R"({"b": [1, 2.5, null, true], "a": {"x": "caf\u00e9 \ud83d\ude00"}, "e": {}})");
    EXPECT_EQ(encodeMetadata(metadata),
              R"({"b": [1, 2.5, null, true], "a": {"x": "caf\u00e9 \ud83d\ude00"}, "e": {}})");
}

}  // namespace
}  // namespace strata::zs
