#include "listing_memo.h"

#include <algorithm>

namespace strata::scan {

namespace {

// The first `limit` entries (0: all), and whether more were left out.
std::vector<FileTreeEntry> firstOf(std::vector<FileTreeEntry> entries, std::size_t limit,
                                   bool* truncated) {
    const bool more = limit > 0 && entries.size() > limit;
    if (more) {
        entries.resize(limit);
    }
    if (truncated != nullptr) {
        *truncated = more;
    }
    return entries;
}

}  // namespace

std::optional<std::vector<FileTreeEntry>> ListingMemo::remembered(const Location& folder) const {
    const std::lock_guard lock(mutex_);
    const auto found = listings_.find(folder.text());
    if (found == listings_.end()) {
        return std::nullopt;
    }
    return found->second;
}

void ListingMemo::makeRoom(std::size_t more) const {
    while (maxEntries_ > 0 && kept_ + more > maxEntries_ && !order_.empty()) {
        const auto& [isListing, key] = order_.front();
        if (isListing) {
            if (const auto found = listings_.find(key); found != listings_.end()) {
                kept_ -= found->second.size();
                listings_.erase(found);
            }
        } else if (stats_.erase(key) > 0) {
            --kept_;
        }
        order_.pop_front();
    }
}

void ListingMemo::remember(const Location& folder,
                           const std::vector<FileTreeEntry>& entries) const {
    const std::lock_guard lock(mutex_);
    if ((maxEntries_ > 0 && entries.size() > maxEntries_) || listings_.contains(folder.text())) {
        return;
    }
    makeRoom(entries.size());
    listings_.emplace(folder.text(), entries);
    order_.emplace_back(true, folder.text());
    kept_ += entries.size();
}

void ListingMemo::rememberStat(const Location& location,
                               const std::optional<FileTreeEntry>& found) const {
    const std::lock_guard lock(mutex_);
    if (stats_.contains(location.text())) {
        return;
    }
    makeRoom(1);
    stats_.emplace(location.text(), found);
    order_.emplace_back(false, location.text());
    ++kept_;
}

std::size_t ListingMemo::listingsFetched() const {
    const std::lock_guard lock(mutex_);
    return fetched_;
}

std::vector<FileTreeEntry> ListingMemo::list(const Location& folder, std::size_t limit,
                                             bool* truncated) const {
    if (std::optional<std::vector<FileTreeEntry>> known = remembered(folder)) {
        return firstOf(std::move(*known), limit, truncated);
    }
    bool more = false;
    std::vector<FileTreeEntry> entries = tree_->list(folder, limit, &more);
    {
        const std::lock_guard lock(mutex_);
        ++fetched_;
    }
    if (!more) {
        remember(folder, entries);
    }
    if (truncated != nullptr) {
        *truncated = more;
    }
    return entries;
}

FileOrFolder ListingMemo::openOrList(const Location& location, std::size_t limit) const {
    if (std::optional<std::vector<FileTreeEntry>> known = remembered(location)) {
        FileOrFolder folder;
        folder.entries = firstOf(std::move(*known), limit, &folder.truncated);
        return folder;
    }
    FileOrFolder found = tree_->openOrList(location, limit);
    if (found.file == nullptr) {
        {
            const std::lock_guard lock(mutex_);
            ++fetched_;
        }
        if (!found.truncated) {
            remember(location, found.entries);
        }
    }
    return found;
}

std::optional<FileTreeEntry> ListingMemo::stat(const Location& location) const {
    // A name its folder's remembered listing holds, or leaves out, needs no request of its own.
    if (std::optional<std::vector<FileTreeEntry>> siblings = remembered(location.parent())) {
        const std::string name = location.fileName();
        const auto found = std::find_if(siblings->begin(), siblings->end(),
                                        [&name](const FileTreeEntry& e) { return e.name == name; });
        if (found != siblings->end()) {
            return *found;
        }
        // A tree whose listings show every name (S3) has nothing there that its folder's
        // listing leaves out; a web server's hides dot files, so those are asked after.
        if (tree_->listsDotFiles() || !name.starts_with('.')) {
            return std::nullopt;
        }
    }
    {
        const std::lock_guard lock(mutex_);
        if (const auto known = stats_.find(location.text()); known != stats_.end()) {
            return known->second;
        }
    }
    std::optional<FileTreeEntry> found = tree_->stat(location);
    rememberStat(location, found);
    return found;
}

}  // namespace strata::scan
