// Checks of a file-per-document collection's metadata (meta/doc_index.jsonl, order.ids,
// schemas.jsonl, journal.log) against each other and against the files in docs/. Part of the
// ZDS validator; every code is listed in docs/formats-zds.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/common/region.h"
#include "zds_reader.h"

namespace strata::zds {

using ZdsReport = std::function<void(Severity, const std::string& code, std::string message,
                                     std::vector<Region> regions, std::string file)>;

// What the validator's one read of each docs/ file found: its size, and the shape (zdsSchemaOf
// as compact JSON) of those that are JSON. Shapes are kept once however many documents share one.
class ZdsDocFacts {
public:
    void add(std::string id, std::uint64_t size, std::optional<std::string> shape);
    // The file's size; nothing for a file that was not read.
    std::optional<std::uint64_t> size(const std::string& id) const;
    // Nothing for a document that is not JSON (or was not read).
    const std::string* shape(const std::string& id) const;

private:
    static constexpr std::size_t kNoShape = static_cast<std::size_t>(-1);
    struct Doc {
        std::uint64_t size = 0;
        std::size_t shape = kNoShape;
    };
    std::unordered_map<std::string, Doc> byId_;
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<const std::string*> shapes_;
};

// The shape of a document's JSON text; nothing when it is not JSON.
std::optional<std::string> zdsDocShape(std::span<const std::uint8_t> text);

// `files`: ids that have a docs/<id>.json. `strict`: manifest.json says "strict": true.
// `facts`: the documents' sizes and shapes when the caller has read them; otherwise each
// document is opened and read here.
void checkZdsDocsMetadata(const ZdsCollection& c, const std::unordered_set<std::string>& files,
                          bool strict, const ZdsReport& report, const ZdsDocFacts* facts = nullptr);

class DocsChecker;

// The same checks in two steps, so the metadata is read beside the reading of the documents:
// read() reads doc_index.jsonl and schemas.jsonl and checks each on its own (on any one
// thread; it reports nothing), check() reports what read() found and the checks against the
// files, in the order checkZdsDocsMetadata reports them (it reads first if read() was not run).
class ZdsDocsMetadataCheck {
public:
    ZdsDocsMetadataCheck(const ZdsCollection& c, bool strict);
    ~ZdsDocsMetadataCheck();
    ZdsDocsMetadataCheck(const ZdsDocsMetadataCheck&) = delete;
    ZdsDocsMetadataCheck& operator=(const ZdsDocsMetadataCheck&) = delete;

    void read();
    void check(const std::unordered_set<std::string>& files, const ZdsReport& report,
               const ZdsDocFacts* facts = nullptr);

private:
    std::unique_ptr<DocsChecker> checker_;
};

}  // namespace strata::zds
