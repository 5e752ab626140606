// Fuzzes the ZDS readers. The input is split into a ZDX index and a JSONL data file (the first
// four bytes, little-endian, give the index length); both are checked through the in-memory
// readers, then written as a one-collection dataset and run through the dataset reader, the
// lazy tree and the validator. An input that starts with "PK" is also opened as a .zds archive.
// Nothing may crash, throw, hang or allocate what a hostile header claims.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/zds/zds_json_line.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_tree.h"
#include "formats/zds/zds_validator.h"

namespace {

namespace fs = std::filesystem;

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

// A scratch folder per process, removed when the fuzzer exits.
struct WorkDir {
    fs::path path = fs::temp_directory_path() / ("strata_fuzz_zdx_" + std::to_string(::getpid()));
    ~WorkDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const fs::path& workDir() {
    static const WorkDir dir;
    return dir.path;
}

void writeFile(const fs::path& path, const std::uint8_t* data, std::size_t size) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

void walk(const strata::Node& node, int depth) {
    (void)node.fields();
    if (depth == 0) {
        return;
    }
    const std::uint64_t n = node.childCount();
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i == 4 && n > 8) {
            i = n - 4;
        }
        walk(*node.child(i), depth - 1);
    }
}

void validate(const fs::path& path) {
    strata::CollectingSink sink;
    strata::ValidationOptions options;
    options.maxPerCode = 8;
    strata::zds::makeZdsValidator(path)->run(sink, options);
    try {
        const auto ds = strata::zds::ZdsDataset::open(path);
        walk(*strata::zds::buildZdsTree(ds), 4);
        for (const auto& c : ds->collections) {
            const std::uint64_t n = std::min<std::uint64_t>(c->documentCount(), 16);
            for (std::uint64_t i = 0; i < n; ++i) {
                const strata::zds::ZdsDocument doc = c->document(i);
                const strata::ByteView bytes = c->documentBytes(i);
                check(bytes.size() <= doc.region.length);
            }
        }
    } catch (const strata::SourceError&) {
        // Not a readable archive: the validator has said so.
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::uint32_t split = 0;
    if (size >= 4) {
        split = static_cast<std::uint32_t>(data[0]) | static_cast<std::uint32_t>(data[1]) << 8 |
                static_cast<std::uint32_t>(data[2]) << 16 |
                static_cast<std::uint32_t>(data[3]) << 24;
    }
    const std::uint8_t* rest = size >= 4 ? data + 4 : data;
    const std::size_t restSize = size >= 4 ? size - 4 : 0;
    const std::size_t indexSize = std::min<std::size_t>(split, restSize);

    auto index = strata::makeBufferSource(std::vector<std::uint8_t>(rest, rest + indexSize));
    const strata::zds::ZdxIndex zdx(index);
    const std::uint64_t entries = zdx.entryCount();
    check(entries <= index->size() / strata::zds::kZdxEntryFixedSize + 1 ||
          zdx.layout() == strata::zds::ZdxLayout::Text);
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(entries, 64); ++i) {
        const strata::zds::ZdxEntry e = zdx.entry(i);
        check(e.entry.end() <= index->size());
    }
    const std::span<const std::uint8_t> jsonl(rest + indexSize, restSize - indexSize);
    // The writer's fast check accepts only what the full check accepts, with the same id.
    const strata::zds::JsonLineFacts facts = strata::zds::analyzeJsonLine(jsonl);
    if (const auto proven = strata::zds::provenDocumentId(jsonl)) {
        check(facts.valid && facts.isObject && facts.idIsString && facts.id == *proven);
    }
    (void)strata::zds::referenceScanId(jsonl);

    const fs::path root = workDir() / "dataset";
    const fs::path meta = root / "collections" / "c" / "meta";
    writeFile(meta / "index.bin", rest, indexSize);
    writeFile(meta / "data.jsonl", jsonl.data(), jsonl.size());
    validate(root);

    if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
        const fs::path zip = workDir() / "input.zds";
        writeFile(zip, data, size);
        validate(zip);
    }
    return 0;
}
