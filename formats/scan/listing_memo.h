// A remote tree seen through a memory of its folder listings and stats, for one folder a scan
// looks at: its probe, then its walk or (for a folder unit: a dataset, a corpus, a storage root)
// its fingerprint (describeFolderUnit), open and validator list the same folders and ask after
// the same names (a probe's dot-file marker, which a web server's listing leaves out), and each
// is asked of the server once. Files are passed through (their sources keep what they read).
// The memo lives as long as that folder's probe and check, so nothing it gives is older.
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/file_tree.h"

namespace strata::scan {

class ListingMemo final : public FileTree {
public:
    // `maxEntries` bounds what it keeps (listed entries and stats together; 0: no bound): past
    // it the oldest listings and stats are forgotten first, and a listing longer than the bound
    // is not kept at all. A forgotten listing is only asked again.
    explicit ListingMemo(FileTreePtr tree, std::size_t maxEntries = 0)
        : tree_(std::move(tree)), maxEntries_(maxEntries) {}

    bool remote() const override { return tree_->remote(); }
    ByteSourcePtr open(const Location& file) const override { return tree_->open(file); }
    ByteSourcePtr openListed(const Location& file, const FileTreeEntry& listed) const override {
        return tree_->openListed(file, listed);
    }
    bool listsDotFiles() const override { return tree_->listsDotFiles(); }
    std::optional<FileTreeEntry> stat(const Location& location) const override;
    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit = 0,
                                    bool* truncated = nullptr) const override;
    FileOrFolder openOrList(const Location& location, std::size_t limit) const override;

    // Listings asked of the tree underneath (for tests).
    std::size_t listingsFetched() const;

private:
    // A folder's whole listing, once one was fetched without a limit or was not truncated.
    std::optional<std::vector<FileTreeEntry>> remembered(const Location& folder) const;
    void remember(const Location& folder, const std::vector<FileTreeEntry>& entries) const;
    void rememberStat(const Location& location, const std::optional<FileTreeEntry>& found) const;
    // Forgets the oldest until `more` fits under the bound. Called under the lock.
    void makeRoom(std::size_t more) const;

    FileTreePtr tree_;
    std::size_t maxEntries_;
    mutable std::mutex mutex_;
    mutable std::deque<std::pair<bool, std::string>> order_;  // (is a listing, key), oldest first
    mutable std::size_t kept_ = 0;                            // entries and stats kept
    mutable std::map<std::string, std::vector<FileTreeEntry>> listings_;  // by location text
    mutable std::map<std::string, std::optional<FileTreeEntry>> stats_;   // absent ones too
    mutable std::size_t fetched_ = 0;
};

}  // namespace strata::scan
