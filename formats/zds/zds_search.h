// Searching a ZDS collection: by id (through the ZDX index when there is one), by the value at a
// JSON pointer (=, <, >, contains, regex) parsed with simdjson, or through the raw line text.
// Matches stream through a callback in stored order; progress and cancel as for every job.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "formats/common/region.h"
#include "formats/common/validator.h"

namespace strata::zds {

class ZdsCollection;

struct ZdsQuery {
    enum class Target { Id, Field, Text };
    enum class Op { Equals, Less, Greater, Contains, Regex };
    Target target = Target::Id;
    Op op = Op::Equals;
    // Field: a JSON pointer ("/meta/lang"); without a leading '/', one top-level key.
    std::string pointer;
    // Equals / Less / Greater on a field: JSON text ("3", "\"en\"", "true"), or, when it is
    // not JSON, a plain string. Contains: a substring. Regex: an ECMAScript pattern.
    std::string value;
    bool ignoreCase = false;
};

// std::regex recurses per character and can backtrack quadratically, so a regex sees each
// document through windows of kZdsRegexWindow bytes overlapping by half, and only its first
// kZdsRegexScanLimit bytes: a 16 MB line can neither exhaust the stack nor hang a search.
// Matches longer than half a window, or past the scan limit, are not found.
inline constexpr std::size_t kZdsRegexWindow = 4096;
inline constexpr std::size_t kZdsRegexScanLimit = 32768;

// A compiled query, reusable across threads.
class ZdsMatcher {
public:
    // Nothing (and *error set) for a bad regex, an empty pointer or a bad comparison value.
    static std::optional<ZdsMatcher> compile(const ZdsQuery& query, std::string* error);

    const ZdsQuery& query() const { return query_; }
    // One document: its id and its JSON text (a JSONL line without its line ending or a docs/
    // file). `snippet`, when given, gets what matched (the field's JSON or the text around it).
    bool matches(std::string_view id, std::span<const std::uint8_t> json,
                 std::string* snippet = nullptr) const;

private:
    struct Impl;
    explicit ZdsMatcher(const ZdsQuery& query);
    ZdsQuery query_;
    std::shared_ptr<const Impl> impl_;
};

struct ZdsSearchHit {
    std::uint64_t document = 0;  // ZdsCollection::document index
    std::uint64_t position = 0;  // in stored order
    std::string id;
    Region region;  // the document's bytes
    std::string snippet;
};

struct ZdsSearchOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    std::uint64_t maxHits = 0;  // 0 = all

    bool cancelled() const { return cancel != nullptr && cancel->cancelled(); }
};

struct ZdsSearchOutcome {
    bool cancelled = false;
    std::uint64_t scanned = 0;  // documents looked at
    std::uint64_t hits = 0;
    bool usedIndex = false;  // an id lookup answered from the ZDX without a scan
};

// Runs `matcher` over `collection` in stored order; `onHit` returning false stops the search.
ZdsSearchOutcome searchZdsCollection(const ZdsCollection& collection, const ZdsMatcher& matcher,
                                     const std::function<bool(const ZdsSearchHit&)>& onHit,
                                     const ZdsSearchOptions& options = {});

}  // namespace strata::zds
