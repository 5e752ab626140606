// A local corpus folder opened for viewing: listed at once, its documents read one at a time
// when the tree first shows them, or all together when a job needs the whole corpus. Listing
// 100,000 documents takes a small part of the time reading them does, so a view of a big corpus
// shows its document list before a single document is read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "ozdf_parser.h"

namespace strata::ozdf {

class ListedCorpus {
public:
    // Throws SourceError when the folder cannot be listed.
    static std::shared_ptr<const ListedCorpus> list(const std::filesystem::path& folder);
    explicit ListedCorpus(CorpusListing listing);

    const CorpusListing& listing() const { return listing_; }
    const std::filesystem::path& path() const { return listing_.path; }
    std::size_t size() const { return listing_.entries.size(); }
    // The name a document has in the corpus (its file or folder name).
    std::string filename(std::size_t index) const;

    // Document `index`, read on first use and kept (its byte sources stay valid as long as this
    // corpus lives). Throws SourceError when it cannot be opened. Thread-safe.
    std::shared_ptr<const Document> document(std::size_t index) const;
    // The listed document whose files, read by document(), include `source`.
    std::optional<std::size_t> documentHolding(const ByteSource* source) const;
    // The source itself, for views that resolve a region's source to a file.
    ByteSourcePtr openedSource(const ByteSource* source) const;

    // The whole corpus, as readCorpus reads it: read once (on kDocumentThreads threads) and
    // kept. A caller arriving while another reads waits and gets the same corpus. nullptr when
    // `cancel` stopped this caller's read (a later call reads again). `done(n)` as in
    // readListedCorpus.
    std::shared_ptr<const Corpus> corpus(const CancelToken* cancel = nullptr,
                                         const std::function<void(std::size_t)>& done = {}) const;

private:
    CorpusListing listing_;

    mutable std::mutex documentsMutex_;
    mutable std::map<std::size_t, std::shared_ptr<const Document>> documents_;
    mutable std::unordered_map<const ByteSource*, std::pair<std::size_t, ByteSourcePtr>> sources_;

    mutable std::mutex corpusMutex_;
    mutable std::shared_ptr<const Corpus> corpus_;
};

}  // namespace strata::ozdf
