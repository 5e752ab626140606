// A remote tree seen through a memory of its folder listings, for the check of one folder unit
// (a dataset, a corpus, a storage root): its fingerprint (describeFolderUnit), its open and its
// validator list the same folders, and each listing is asked of the server once. Files are
// passed through (their sources keep what they read). The memo lives as long as one entry's
// check, so no listing it gives is older than that check.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/file_tree.h"

namespace strata::scan {

class ListingMemo final : public FileTree {
public:
    explicit ListingMemo(FileTreePtr tree) : tree_(std::move(tree)) {}

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

    FileTreePtr tree_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::vector<FileTreeEntry>> listings_;  // by location text
    mutable std::size_t fetched_ = 0;
};

}  // namespace strata::scan
