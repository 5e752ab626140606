// Checks a ZDS dataset (folder or `.zds` archive) against the format's rules; every code is
// listed with its meaning and severity in docs/formats-zds.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/common/validator.h"

namespace strata::zds {

class ZdsDataset;

// Checks `dataset` when given (diagnostic regions then point into its sources, which the opened
// document keeps alive); otherwise opens the dataset itself, and its regions stay valid while
// the validator lives. ZIP archives are also opened with libzip's consistency checks, so
// archives that cannot be opened at all are reported too; `rawFile`, when given, is the mapped
// file such diagnostics point into. `tree`, when given and remote, is where `path` (then a
// URL's text) is read from; the temporary files of killed writes are only looked for on disk.
std::unique_ptr<Validator> makeZdsValidator(const std::filesystem::path& path,
                                            std::shared_ptr<ZdsDataset> dataset = nullptr,
                                            ByteSourcePtr rawFile = nullptr,
                                            FileTreePtr tree = nullptr);

// What a repair copied into one JSONL collection of its output, in the order written: line n
// of data.jsonl must be `bytes` followed by '\n', and, when `listed`, the next index entry must
// list it under `key` (a line kept as history has no entry). The bytes are those of an input
// line the repair already found to be one JSON object in valid UTF-8 with a usable `_id`, and
// the keys are unique (the writer refuses an id twice).
struct ZdsCopiedLine {
    ByteView bytes;
    std::string key;
    bool listed = true;
};

class ZdsCopiedLines {
public:
    virtual ~ZdsCopiedLines() = default;
    virtual std::uint64_t count() const = 0;
    virtual std::uint64_t listedCount() const = 0;  // the index entries: the live documents
    virtual ZdsCopiedLine line(std::uint64_t n) const = 0;
};

// The collections of a repair's output whose lines are all copies, by name.
struct ZdsCopiedData {
    std::map<std::string, const ZdsCopiedLines*, std::less<>> collections;
};

// The final check of a repair's output: the validator in full, except that the lines and index
// entries of each collection in `copied` are compared with what was copied (byte for byte, key
// for key, each entry naming its own line) instead of being parsed again; any difference is an
// error, ZDS-COPY-MISMATCH. Such a collection's live documents are its entries.
std::unique_ptr<Validator> makeZdsCopyCheck(const std::filesystem::path& path,
                                            const ZdsCopiedData* copied);

// The id rules: non-empty, at most 255 bytes, only [A-Za-z0-9_.-].
bool zdsIdCharsOk(std::string_view id);

// Offset of the first byte that is not part of valid UTF-8, or npos.
std::size_t firstInvalidUtf8(std::span<const std::uint8_t> bytes);

}  // namespace strata::zds
