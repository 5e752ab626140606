// strata-cli zs info|dump|validate|make: ZS-specific commands with the output of the reference
// `zs` tool (info JSON, dump framing and selection, make's file layout), built on formats/zs.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <ctime>

#include "command_context.h"
#include "formats/common/checksums.h"
#include "formats/common/uleb128.h"
#include "formats/zs/zs_parallel_reader.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_validator.h"
#include "formats/zs/zs_writer.h"
#include "input_source.h"
#include "json_output.h"

namespace strata::cli {

namespace {

// Opens a ZS file for reading records; throws with the header's first fatal fault.
std::shared_ptr<zs::ZsFile> openReadable(const std::string& path) {
    auto file = zs::ZsFile::open(openInput(path));
    for (const auto& p : file->header().problems) {
        if (p.severity == Severity::Error) {
            throw std::runtime_error(path + ": " + p.code + ": " + p.message);
        }
    }
    return file;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Backslash escapes as the reference accepts them: \n \t \r \0 \\ \' \" \a \b \f \v, \xNN and
// octal \NNN. An unknown escape stays as written.
std::string unescape(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        const char c = text[++i];
        switch (c) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case 'a':
                out += '\a';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'v':
                out += '\v';
                break;
            case '\\':
                out += '\\';
                break;
            case '\'':
                out += '\'';
                break;
            case '"':
                out += '"';
                break;
            case 'x':
                if (i + 2 < text.size() && hexDigit(text[i + 1]) >= 0 &&
                    hexDigit(text[i + 2]) >= 0) {
                    out += static_cast<char>(hexDigit(text[i + 1]) * 16 + hexDigit(text[i + 2]));
                    i += 2;
                } else {
                    throw std::runtime_error("invalid \\x escape in \"" + text + "\"");
                }
                break;
            default:
                if (c >= '0' && c <= '7') {
                    int value = c - '0';
                    for (int k = 0;
                         k < 2 && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '7';
                         ++k) {
                        value = value * 8 + (text[++i] - '0');
                    }
                    out += static_cast<char>(value & 0xff);
                } else {
                    out += '\\';
                    out += c;
                }
        }
    }
    return out;
}

// `zs info`: the reference's JSON (4-space indent, ASCII only, metadata in stored key order).
int runInfo(const std::string& path, bool metadataOnly) {
    const auto file = openReadable(path);
    const zs::Header& h = file->header();
    const ByteView bytes = file->source().view(h.metadataRegion.offset, h.metadataLength);
    const Json metadata = Json::parse(bytes.bytes.begin(), bytes.bytes.end());
    if (metadataOnly) {
        std::cout << metadata.dump(4, ' ', true) << '\n';
        return kExitOk;
    }
    const auto& root = file->rootBlock();
    if (!root || !root->frame.usable() || !root->crc->ok()) {
        throw std::runtime_error(path + ": the root index block cannot be read");
    }
    Json out = Json::object();
    out["root_index_offset"] = h.rootIndexOffset;
    out["root_index_length"] = h.rootIndexLength;
    out["total_file_length"] = h.totalFileLength;
    out["codec"] = h.codecText;
    out["data_sha256"] = toHex(h.dataSha256);
    out["metadata"] = metadata;
    out["statistics"] = Json{{"root_index_level", root->frame.frame.level}};
    std::cout << out.dump(4, ' ', true) << '\n';
    return kExitOk;
}

struct DumpRequest {
    std::string path;
    std::optional<std::string> start, stop, prefix;
    std::optional<std::string> terminator;
    std::optional<std::string> lengthPrefixed;
    std::string output = "-";
    unsigned threads = 0;
};

// Each record as `zs dump` frames it: followed by the terminator, or after its length.
zs::RecordFormatter recordFormatter(const DumpRequest& request) {
    const auto append = [](std::string& out, std::span<const std::uint8_t> bytes) {
        out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    };
    if (request.lengthPrefixed == std::optional<std::string>("uleb128")) {
        return [append](std::span<const std::uint8_t> record, std::string& out) {
            std::uint8_t prefix[kUleb128MaxBytes];
            append(out, std::span(prefix, encodeUleb128(record.size(), prefix)));
            append(out, record);
        };
    }
    if (request.lengthPrefixed) {
        return [append](std::span<const std::uint8_t> record, std::string& out) {
            for (int i = 0; i < 8; ++i) {
                out += static_cast<char>((std::uint64_t{record.size()} >> (8 * i)) & 0xff);
            }
            append(out, record);
        };
    }
    const std::string terminator = request.terminator ? unescape(*request.terminator) : "\n";
    return [append, terminator](std::span<const std::uint8_t> record, std::string& out) {
        append(out, record);
        out += terminator;
    };
}

int runDump(const DumpRequest& request) {
    if (request.lengthPrefixed && *request.lengthPrefixed != "uleb128" &&
        *request.lengthPrefixed != "u64le") {
        std::cerr << "strata-cli: --length-prefixed must be uleb128 or u64le\n";
        return kExitFailure;
    }
    const auto file = openReadable(request.path);
    std::ofstream fileOut;
    if (request.output != "-") {
        fileOut.open(request.output, std::ios::binary | std::ios::trunc);
        if (!fileOut) {
            throw std::runtime_error("cannot write " + request.output);
        }
    }
    std::ostream& out = request.output == "-" ? std::cout : fileOut;
    zs::RecordQuery query;
    if (request.start)
        query.start = unescape(*request.start);
    if (request.stop)
        query.stop = unescape(*request.stop);
    if (request.prefix)
        query.prefix = unescape(*request.prefix);
    zs::ParallelReadOptions options;
    options.threads = request.threads;
    zs::formatRecords(*file, query, options, recordFormatter(request), [&](std::string_view text) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
    out.flush();
    return out ? kExitOk : kExitFailure;
}

int runValidate(const std::string& path, unsigned threads) {
    const auto file = zs::ZsFile::open(openInput(path));
    CollectingSink sink;
    ValidationOptions options;
    options.threads = threads;
    zs::ZsValidator(file).run(sink, options);
    for (const auto& d : sink.diagnostics()) {
        std::cout << severityName(d.severity) << ' ' << d.code;
        if (!d.regions.empty() && d.regions.front().valid()) {
            std::cout << " @" << d.regions.front().offset << '+' << d.regions.front().length;
        }
        std::cout << ": " << d.message;
        if (!d.nodePath.empty()) {
            std::cout << " [" << d.nodePath << ']';
        }
        std::cout << '\n';
    }
    if (sink.countOf(Severity::Error) > 0) {
        return kExitErrors;
    }
    std::cout << "looks good!\n";
    return kExitOk;
}

struct MakeRequest {
    std::string metadata;
    std::string input;
    std::string output;
    std::optional<std::string> terminator;
    std::optional<std::string> lengthPrefixed;
    unsigned threads = 0;
    std::uint64_t branchingFactor = 1024;
    std::uint64_t approxBlockSize = 393216;
    std::string codec = "lzma";
    std::optional<std::string> level;
    bool noDefaultMetadata = false;
};

// {"user", "host", "time", "version"}, as the reference adds unless told not to.
nlohmann::ordered_json buildInfo() {
    nlohmann::ordered_json info = nlohmann::ordered_json::object();
    const passwd* user = ::getpwuid(::getuid());
    info["user"] = user != nullptr ? user->pw_name : "";
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    info["host"] = host;
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
        1000000;
    std::tm utc{};
    ::gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<long long>(micros));
    info["time"] = text;
    info["version"] = "strata " STRATA_VERSION;
    return info;
}

zs::WriterOptions writerOptions(const MakeRequest& r) {
    zs::WriterOptions options;
    options.threads = r.threads;
    options.branchingFactor = r.branchingFactor;
    options.approxBlockSize = r.approxBlockSize;
    if (r.codec == "none") {
        options.codec = zs::Codec::None;
        if (r.level) {
            throw std::invalid_argument("-z does not apply to --codec=none");
        }
    } else if (r.codec == "deflate") {
        options.codec = zs::Codec::Deflate;
        options.deflateLevel = r.level ? std::stoi(*r.level) : 6;
        if (options.deflateLevel < 0 || options.deflateLevel > 9) {
            throw std::invalid_argument("deflate levels are 0 to 9");
        }
    } else if (r.codec == "lzma") {
        options.codec = zs::Codec::Lzma2;
        const std::string level = r.level.value_or("0e");
        if (level != "0" && level != "0e" && level != "1" && level != "1e") {
            throw std::invalid_argument("lzma levels are 0, 0e, 1 and 1e");
        }
        options.lzmaPreset = {static_cast<unsigned>(level[0] - '0'), level.size() == 2};
    } else {
        throw std::invalid_argument("unknown codec '" + r.codec +
                                    "' (should be one of: deflate, none, lzma)");
    }
    return options;
}

int runMake(const MakeRequest& r) {
    if (r.lengthPrefixed && *r.lengthPrefixed != "uleb128" && *r.lengthPrefixed != "u64le") {
        std::cerr << "strata-cli: --length-prefixed must be uleb128 or u64le\n";
        return kExitFailure;
    }
    nlohmann::ordered_json metadata;
    try {
        metadata = zs::parseMetadata(r.metadata);
    } catch (const zs::ZsWriteError& e) {
        std::cerr << "strata-cli: " << e.what() << '\n';
        return kExitFailure;
    }
    if (!r.noDefaultMetadata && !metadata.contains("build-info")) {
        metadata["build-info"] = buildInfo();
    }
    zs::WriterOptions options;
    try {
        options = writerOptions(r);
    } catch (const std::exception& e) {
        std::cerr << "strata-cli: " << e.what() << '\n';
        return kExitFailure;
    }
    std::ifstream file;
    if (r.input != "-") {
        file.open(r.input, std::ios::binary);
        if (!file) {
            std::cerr << "strata-cli: cannot read " << r.input << '\n';
            return kExitFailure;
        }
    }
    std::istream& in = r.input == "-" ? std::cin : file;
    try {
        zs::ZsWriter writer(r.output, metadata, options);
        if (r.lengthPrefixed) {
            zs::addLengthPrefixedRecords(writer, in, *r.lengthPrefixed == "uleb128",
                                         options.approxBlockSize);
        } else {
            zs::addTerminatedRecords(writer, in, unescape(r.terminator.value_or("\\n")),
                                     options.approxBlockSize);
        }
        writer.finish();
    } catch (const zs::ZsWriteError& e) {
        // As everywhere in strata-cli: 1 when the input has errors (records out of order, none,
        // cut short), 2 for what was asked (the metadata, the options) or the output file.
        std::cerr << "strata-cli: " << e.what() << '\n';
        return e.inRecords() ? kExitErrors : kExitFailure;
    }
    return kExitOk;
}

}  // namespace

// `-j N` or `-j guess` (one worker per core, the same as 0), as `zs` users write it.
CLI::Option* addParallelismOption(CLI::App* command, unsigned& threads, const std::string& what) {
    const CLI::Validator guessIsZero(
        [](std::string& value) {
            if (value == "guess") {
                value = "0";
            }
            return std::string();
        },
        "N|guess");
    return command->add_option("-j", threads, what)->transform(guessIsZero);
}

namespace {

// Run when the command line names the command (defineCommand).
void fillZsCommands(CLI::App* zs, CommandContext& context) {
    zs->require_subcommand(1);

    auto infoPath = std::make_shared<std::string>();
    auto metadataOnly = std::make_shared<bool>(false);
    CLI::App* info = zs->add_subcommand("info", "Header and metadata as JSON (like `zs info`)");
    info->add_flag("-m,--metadata-only", *metadataOnly, "Print only the metadata");
    info->add_option("file", *infoPath, "ZS file")->transform(inputArgument)->required();
    info->callback([&context, infoPath, metadataOnly] {
        runGuarded(context, [&] { return runInfo(*infoPath, *metadataOnly); });
    });

    auto dump = std::make_shared<DumpRequest>();
    CLI::App* dumpCmd = zs->add_subcommand("dump", "Records, selected and framed like `zs dump`");
    dumpCmd->add_option("--start", dump->start, "Only records >= START (escapes allowed)");
    dumpCmd->add_option("--stop", dump->stop, "Only records < STOP");
    dumpCmd->add_option("--prefix", dump->prefix, "Only records starting with PREFIX");
    auto* term = dumpCmd->add_option("--terminator", dump->terminator,
                                     "Written after every record (default \\n)");
    dumpCmd->add_option("--length-prefixed", dump->lengthPrefixed, "uleb128 or u64le")
        ->excludes(term);
    dumpCmd->add_option("-o,--output", dump->output, "Output file, - for stdout");
    addParallelismOption(dumpCmd, dump->threads, "Decoding threads (0 or guess = one per core)");
    dumpCmd->add_option("file", dump->path, "ZS file")->transform(inputArgument)->required();
    dumpCmd->callback([&context, dump] { runGuarded(context, [&] { return runDump(*dump); }); });

    auto validatePath = std::make_shared<std::string>();
    auto threads = std::make_shared<unsigned>(0);
    CLI::App* validate = zs->add_subcommand("validate", "Check every ZS rule (like `zs validate`)");
    addParallelismOption(validate, *threads, "Worker threads (0 or guess = one per core)");
    validate->add_option("file", *validatePath, "ZS file")->transform(inputArgument)->required();
    validate->callback([&context, validatePath, threads] {
        runGuarded(context, [&] { return runValidate(*validatePath, *threads); });
    });

    auto make = std::make_shared<MakeRequest>();
    CLI::App* makeCmd = zs->add_subcommand("make", "Build a ZS file from sorted records");
    auto* makeTerm = makeCmd->add_option("--terminator", make->terminator,
                                         "Record terminator (default \\n; escapes allowed)");
    makeCmd->add_option("--length-prefixed", make->lengthPrefixed, "uleb128 or u64le")
        ->excludes(makeTerm);
    addParallelismOption(makeCmd, make->threads, "Compression threads (0 or guess = one per core)");
    makeCmd->add_flag("--no-spinner")
        ->description("Accepted for compatibility; there is no spinner");
    makeCmd->add_option("--branching-factor", make->branchingFactor, "Entries per index block");
    makeCmd->add_option("--approx-block-size", make->approxBlockSize,
                        "Uncompressed bytes per data block");
    makeCmd->add_option("--codec", make->codec, "none, deflate or lzma (default)");
    makeCmd->add_option("-z,--compress-level", make->level, "deflate 0-9; lzma 0, 0e, 1, 1e");
    makeCmd->add_flag("--no-default-metadata", make->noDefaultMetadata,
                      "Do not add the build-info key");
    makeCmd->add_option("metadata", make->metadata, "JSON object stored as metadata")->required();
    makeCmd->add_option("input", make->input, "Sorted input records, - for stdin")->required();
    makeCmd->add_option("output", make->output, "New ZS file (must not exist)")->required();
    makeCmd->callback([&context, make] { runGuarded(context, [&] { return runMake(*make); }); });
}

}  // namespace

void registerZsCommands(CLI::App& app, CommandContext& context) {
    defineCommand(app, "zs", "ZS files: info, dump, validate, make", context, &fillZsCommands);
}

}  // namespace strata::cli
