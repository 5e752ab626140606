#include "ozdf_listed_corpus.h"

namespace strata::ozdf {

std::shared_ptr<const ListedCorpus> ListedCorpus::list(const std::filesystem::path& folder) {
    return std::make_shared<const ListedCorpus>(listCorpus(folder));
}

ListedCorpus::ListedCorpus(CorpusListing listing) : listing_(std::move(listing)) {}

std::string ListedCorpus::filename(std::size_t index) const {
    return listing_.entries.at(index).path.filename().string();
}

std::shared_ptr<const Document> ListedCorpus::document(std::size_t index) const {
    {
        const std::lock_guard lock(documentsMutex_);
        if (const auto found = documents_.find(index); found != documents_.end()) {
            return found->second;
        }
    }
    // Read outside the lock: the tree may ask for another document from another thread.
    auto read = std::make_shared<const Document>(readCorpusEntry(listing_.entries.at(index)));
    const std::lock_guard lock(documentsMutex_);
    const auto [kept, added] = documents_.emplace(index, std::move(read));
    if (added) {
        for (const ByteSourcePtr& source : kept->second->sources) {
            sources_.emplace(source.get(), std::make_pair(index, source));
        }
    }
    return kept->second;
}

std::optional<std::size_t> ListedCorpus::documentHolding(const ByteSource* source) const {
    const std::lock_guard lock(documentsMutex_);
    const auto found = sources_.find(source);
    return found != sources_.end() ? std::optional(found->second.first) : std::nullopt;
}

ByteSourcePtr ListedCorpus::openedSource(const ByteSource* source) const {
    const std::lock_guard lock(documentsMutex_);
    const auto found = sources_.find(source);
    return found != sources_.end() ? found->second.second : nullptr;
}

std::shared_ptr<const Corpus> ListedCorpus::corpus(
    const CancelToken* cancel, const std::function<void(std::size_t)>& done) const {
    const std::lock_guard lock(corpusMutex_);
    if (!corpus_) {
        std::optional<Corpus> read = readListedCorpus(listing_, cancel, done);
        if (!read) {
            return nullptr;
        }
        corpus_ = std::make_shared<const Corpus>(std::move(*read));
    }
    return corpus_;
}

}  // namespace strata::ozdf
