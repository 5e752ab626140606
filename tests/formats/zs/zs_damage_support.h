// Generated ZS files with known blocks, ways to damage them, and what a reader and the validator
// make of the result: shared by the repair, salvage and block finder tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_validator.h"
#include "formats/zs/zs_writer.h"

namespace strata::zs::testing {

namespace fs = std::filesystem;

// "key000123" for i = 123: sorted as numbers, unique.
inline std::string key(int i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "key%06d", i);
    return buffer;
}

inline std::vector<std::string> keys(int first, int count) {
    std::vector<std::string> out;
    for (int i = first; i < first + count; ++i) {
        out.push_back(key(i));
    }
    return out;
}

// Every block's frame, in file order, optionally only those of one kind.
inline std::vector<BlockFrame> frames(const fs::path& path) {
    auto file = ZsFile::open(openMappedFile(path));
    std::vector<BlockFrame> out;
    for (std::uint64_t at = file->blocksBegin(); at < file->blocksEnd();) {
        const FrameRead frame = readFrame(file->source(), at, file->blocksEnd());
        out.push_back(frame.frame);
        at = frame.frame.end();
    }
    return out;
}

inline std::vector<BlockFrame> frames(const fs::path& path, BlockKind kind) {
    std::vector<BlockFrame> out;
    for (const BlockFrame& f : frames(path)) {
        if (f.kind() == kind) {
            out.push_back(f);
        }
    }
    return out;
}

// A generated file: `blocks` data blocks of `perBlock` records each ("key%06d" and, with
// `padding`, that many pseudo-random letters after a space, so compressed blocks stay large).
struct Generated {
    std::vector<BlockFrame> data;                   // the data blocks' frames, in order
    std::vector<std::vector<std::string>> records;  // each data block's records
};

inline Generated generate(const fs::path& path, int blocks, int perBlock, Codec codec,
                          std::size_t padding = 0, std::uint64_t branching = 1024) {
    WriterOptions options;
    options.codec = codec;
    options.threads = 1;
    options.branchingFactor = branching;
    ZsWriter writer(path, {{"name", "generated"}}, options);
    Generated out;
    std::mt19937 rng(static_cast<unsigned>(blocks * 7919 + perBlock));
    for (int b = 0; b < blocks; ++b) {
        std::vector<std::string> block;
        for (int i = 0; i < perBlock; ++i) {
            std::string r = key(b * perBlock + i);
            if (padding > 0) {
                r += ' ';
                for (std::size_t c = 0; c < padding; ++c) {
                    r += static_cast<char>('a' + rng() % 26);
                }
            }
            block.push_back(std::move(r));
        }
        writer.addBlock(block);
        out.records.push_back(std::move(block));
    }
    writer.finish();
    out.data = frames(path, BlockKind::Data);
    return out;
}

inline std::vector<std::uint8_t> fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeFileBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline void flipByte(const fs::path& path, std::uint64_t at) {
    auto bytes = fileBytes(path);
    bytes.at(at) ^= 0x5A;
    writeFileBytes(path, bytes);
}

// Sets [from, from + length) (clipped to the file) to `value`, or to pseudo-random bytes when
// `rng` is given.
inline void overwrite(const fs::path& path, std::uint64_t from, std::uint64_t length,
                      std::uint8_t value = 0, std::mt19937* rng = nullptr) {
    auto bytes = fileBytes(path);
    for (std::uint64_t i = from; i < from + length && i < bytes.size(); ++i) {
        bytes[i] = rng != nullptr ? static_cast<std::uint8_t>((*rng)()) : value;
    }
    writeFileBytes(path, bytes);
}

inline std::vector<std::string> readAllRecords(const fs::path& path) {
    std::vector<std::string> out;
    ZsRecordIterator it(ZsFile::open(openMappedFile(path)));
    while (auto r = it.next()) {
        out.emplace_back(reinterpret_cast<const char*>(r->data()), r->size());
    }
    return out;
}

inline bool validatesCleanly(const fs::path& path) {
    CollectingSink sink;
    ZsValidator(ZsFile::open(openMappedFile(path))).run(sink, ValidationOptions{});
    return sink.countOf(Severity::Error) == 0;
}

}  // namespace strata::zs::testing
