// Checks of a file-per-document collection's metadata (meta/doc_index.jsonl, order.ids,
// schemas.jsonl, journal.log) against each other and against the files in docs/. Part of the
// ZDS validator; every code is listed in docs/formats-zds.md.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/common/region.h"
#include "zds_reader.h"

namespace strata {

using ZdsReport = std::function<void(Severity, const std::string& code, std::string message,
                                     std::vector<Region> regions, std::string file)>;

// The shape (zdsSchemaOf as compact JSON) of each docs/ file that is JSON, taken from the one
// read of each file the validator makes; shapes are kept once however many documents share one.
class ZdsDocShapes {
public:
    void add(std::string id, std::string shape);
    // Nothing for a document that is not JSON (or was not read).
    const std::string* find(const std::string& id) const;

private:
    std::unordered_map<std::string, std::size_t> byId_;
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<const std::string*> shapes_;
};

// The shape of a document's JSON text; nothing when it is not JSON.
std::optional<std::string> zdsDocShape(std::span<const std::uint8_t> text);

// `files`: ids that have a docs/<id>.json. `strict`: manifest.json says "strict": true.
// `shapes`: the documents' shapes when the caller has read them; otherwise each document the
// schemas are checked against is read here.
void checkZdsDocsMetadata(const ZdsCollection& c, const std::unordered_set<std::string>& files,
                          bool strict, const ZdsReport& report,
                          const ZdsDocShapes* shapes = nullptr);

}  // namespace strata
