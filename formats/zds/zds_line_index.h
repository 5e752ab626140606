// Indexing a collection's JSONL data: which line holds which `_id`, the ZDX bytes that describe
// it (meta/index.bin), and looking ids up through an index.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/validator.h"

namespace strata::zds {

class ZdxIndex;

struct ZdsLineEntry {
    std::string id;            // decoded `_id`; empty when the line has no string `_id`
    std::uint64_t offset = 0;  // of the line in data.jsonl
    std::uint64_t length = 0;  // including the line's '\n' (the last line may lack one)
    bool hasId = false;
};

struct ZdsIndexOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    unsigned threads = 0;  // 0 = one per core

    bool cancelled() const { return cancel != nullptr && cancel->cancelled(); }
    void reportProgress(double fraction, const std::string& text) const {
        if (progress) {
            progress(fraction, text);
        }
    }
};

// Just past the '\n' that ends the line holding `from`, or the end of `data`. Looks a few KiB
// ahead first and widens only for a long line, so a remote source answers from the block it
// already holds instead of fetching and joining megabytes for every short line.
std::uint64_t jsonLineEnd(const ByteSource& data, std::uint64_t from);

// Every non-blank line of `data` in file order, with its `_id`. A line that starts with
// `{"_id":"` and whose id holds no escape is read without parsing; any other line is parsed
// (simdjson) so the id is the top-level one, escapes decoded. Chunks are indexed in parallel.
// Nothing when cancelled.
std::optional<std::vector<ZdsLineEntry>> indexJsonLines(const ByteSource& data,
                                                        const ZdsIndexOptions& options = {});

// ZDX bytes straight from data.jsonl, without keeping an entry per line: the header, then the
// entries of each line-aligned slice in file order (write the parts one after another).
struct ZdxBuild {
    std::vector<std::string> parts;
    std::uint64_t lines = 0;       // non-blank lines
    std::uint64_t indexed = 0;     // entries written
    std::uint64_t withoutId = 0;   // non-blank lines without a string `_id`
    std::uint64_t superseded = 0;  // buildLiveZdx: lines whose id a later line repeats
    // False when a line's id is longer than 65535 bytes or the line longer than 4 GiB - 1: ZDX
    // cannot describe it, and buildLiveZdx leaves `parts` empty.
    bool complete = true;
    std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const auto& p : parts) {
            n += p.size();
        }
        return n;
    }
};
// Every line with a string `_id` gets an entry, duplicates included; lines ZDX cannot describe
// are left out. Nothing when cancelled.
std::optional<ZdxBuild> buildZdxFromJsonl(const ByteSource& data,
                                          const ZdsIndexOptions& options = {});
// The index of the live documents: for each id only its last line, in file order, the same
// bytes as encodeZdx(liveLines(*indexJsonLines(data))) without a line table. Ids are told apart
// by hashes, collisions by comparing the ids. Nothing when cancelled.
std::optional<ZdxBuild> buildLiveZdx(const ByteSource& data, const ZdsIndexOptions& options = {});
// The entries of a build (after the header) in order.
void forEachZdxEntry(
    const ZdxBuild& build,
    const std::function<void(std::string_view id, std::uint64_t offset, std::uint64_t length)>& on);

// The lines of a line table that are live: for each id its last line, in file order.
std::vector<ZdsLineEntry> liveLines(const std::vector<ZdsLineEntry>& lines);

// The `_id` of one JSON line (without its line ending) as indexJsonLines reads it: without a
// parse when the line starts with `{"_id":"` and the id holds no escape, else through simdjson.
std::optional<std::string> jsonLineId(std::span<const std::uint8_t> line);
// The same through simdjson always (the slow path, for comparison).
std::optional<std::string> parsedJsonLineId(std::span<const std::uint8_t> line);

// ZDX encoding: the 16-byte header and one entry. Throws std::length_error for an id longer
// than 65535 bytes or a line longer than 2^32 - 1 bytes (the format cannot say so).
std::string encodeZdxHeader(std::uint64_t count);
void appendZdxEntry(std::string& out, std::string_view id, std::uint64_t offset,
                    std::uint64_t length);
// A whole index for the entries that have an id, in the order given.
std::string encodeZdx(const std::vector<ZdsLineEntry>& entries);

// Id → line through an index: the map is built once (one pass over the entries, no JSON), a
// lookup is then one hash probe. A later entry with the same id wins, as in the reference.
class ZdsIdMap {
public:
    explicit ZdsIdMap(const ZdxIndex& index);
    explicit ZdsIdMap(const std::vector<ZdsLineEntry>& entries);

    struct Hit {
        std::uint64_t entry = 0;  // index of the ZDX entry or line entry
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
    };
    std::optional<Hit> find(std::string_view id) const;
    std::size_t size() const { return map_.size(); }

private:
    std::unordered_map<std::string, Hit> map_;
};

// One id looked up by walking the index once, without building a map (a single `get`).
std::optional<ZdsIdMap::Hit> findIdInZdx(const ZdxIndex& index, std::string_view id);

}  // namespace strata::zds
