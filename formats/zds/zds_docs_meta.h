// The metadata of a file-per-document collection, as the reference's engine writes and reads it:
//   meta/doc_index.jsonl  one {"doc_id","schema_id","size","mtime"} per document
//   meta/order.ids        the ids in listing order, one per line
//   meta/schemas.jsonl    one {"schema_id","schema","count"} per distinct document shape
//   meta/journal.log      {"op":"PUT"|"DELETE"|"COMMIT"|"CHECKPOINT","timestamp",...} lines
// Reading follows the reference's rules (a doc_index or schemas line that does not parse makes
// the whole file unusable to it); writing produces files it reads back.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata::zds {

// A document's shape: objects map keys to shapes, an array holds the shape of its first element
// (or nothing), scalars are "string", "integer" (fits in i64), "number", "boolean", "null".
nlohmann::json zdsSchemaOf(const nlohmann::json& document);
// Schema id: the SHA-256 (hex) of the shape's compact JSON with keys sorted. The reference's
// Rust engine hashes with BLAKE3 and its Python package with SHA-256; no reader checks the hash,
// only that doc_index.jsonl and schemas.jsonl agree.
std::string zdsSchemaId(const nlohmann::json& schema);

struct ZdsDocIndexEntry {
    std::string docId;
    std::string schemaId;
    std::uint64_t size = 0;
    std::uint64_t mtime = 0;
};
struct ZdsSchemaEntry {
    std::string schemaId;
    nlohmann::json schema;
    std::uint64_t count = 0;
};
struct ZdsJournalEntry {
    enum class Op { Put, Delete, Commit, Checkpoint } op = Op::Put;
    std::string timestamp;
    std::string docId;     // PUT, DELETE
    std::string schemaId;  // PUT
    std::uint64_t size = 0;
    std::uint64_t batchId = 0;  // COMMIT
};

// One line of each file; nothing (and `error` says why) when the reference could not read it.
std::optional<ZdsDocIndexEntry> parseZdsDocIndexLine(std::string_view line, std::string* error);
std::optional<ZdsSchemaEntry> parseZdsSchemaLine(std::string_view line, std::string* error);
std::optional<ZdsJournalEntry> parseZdsJournalLine(std::string_view line, std::string* error);
// RFC 3339 date-time as the journal writes it ("2026-11-22T19:22:14.219194078Z").
bool isZdsTimestamp(std::string_view text);

// The lines of a small text file without their line endings, with 1-based line numbers; blank
// lines are left out.
struct ZdsTextLine {
    std::uint64_t number = 0;
    std::uint64_t offset = 0;  // of the line in the file
    std::string_view text;
};
std::vector<ZdsTextLine> zdsTextLines(std::string_view file);

// Builds every metadata file for the documents of a collection being written.
class ZdsDocsMetaBuilder {
public:
    // `previous*`: the collection's old metadata files ("" when absent), so unchanged documents
    // keep their mtime and the journal keeps its history and records only what changed.
    ZdsDocsMetaBuilder(std::string_view previousDocIndex, std::string_view previousJournal);

    // A document in listing order: its id and the bytes of its docs/<id>.json.
    void add(const std::string& id, std::span<const std::uint8_t> file);

    std::size_t schemaCount() const { return schemas_.size(); }
    std::string docIndex() const;
    std::string orderIds() const;
    std::string schemas() const;
    std::string journal() const;

private:
    struct Doc {
        std::string id;
        std::string schemaId;
        std::uint64_t size = 0;
        std::uint64_t mtime = 0;
        bool changed = true;
    };
    std::vector<Doc> docs_;
    std::vector<ZdsSchemaEntry> schemas_;
    std::unordered_map<std::string, std::size_t> schemaAt_;
    std::unordered_map<std::string, ZdsDocIndexEntry> previous_;
    std::string previousJournal_;
    std::uint64_t nextBatch_ = 1;
    std::uint64_t now_ = 0;
};

}  // namespace strata::zds
