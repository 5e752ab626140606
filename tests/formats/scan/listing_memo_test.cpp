// The listing memo a scan puts in front of a remote folder unit: each folder is listed once
// however often the fingerprint, the open and the validator ask, a limited or truncated listing
// is not taken for the whole, names in a remembered listing need no stat of their own, and a
// name asked after twice is asked of the tree once.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>

#include "formats/scan/listing_memo.h"
#include "scratch_dir.h"

namespace strata::scan::test {

namespace {

namespace fs = std::filesystem;

// The local file system, counting what is asked of it.
class CountingTree final : public FileTree {
public:
    bool remote() const override { return true; }
    bool listsDotFiles() const override { return !hidesDotFiles; }
    ByteSourcePtr open(const Location& file) const override { return local_->open(file); }
    std::optional<FileTreeEntry> stat(const Location& location) const override {
        ++stats;
        return local_->stat(location);
    }
    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        ++lists;
        return local_->list(folder, limit, truncated);
    }
    FileOrFolder openOrList(const Location& location, std::size_t limit) const override {
        ++lists;
        return local_->openOrList(location, limit);
    }
    mutable std::atomic<int> lists{0}, stats{0};
    bool hidesDotFiles = false;  // as a web server's listings do

private:
    FileTreePtr local_ = localFileTree();
};

class ListingMemoTest : public ::testing::Test {
protected:
    void SetUp() override {
        fs::create_directories(dir_.path() / "set" / "meta");
        for (const char* name : {"a.jsonl", "b.jsonl", "c.jsonl"}) {
            std::ofstream(dir_.path() / "set" / name) << "{}\n";
        }
        counting_ = std::make_shared<CountingTree>();
        memo_ = std::make_shared<ListingMemo>(counting_);
        folder_ = Location::local(dir_.path() / "set");
    }

    strata::test::ScratchDir dir_{"listing_memo"};
    std::shared_ptr<CountingTree> counting_;
    std::shared_ptr<ListingMemo> memo_;
    Location folder_;
};

TEST_F(ListingMemoTest, AFolderIsListedOnce) {
    const std::vector<FileTreeEntry> first = memo_->list(folder_);
    ASSERT_EQ(first.size(), 4u);
    EXPECT_EQ(memo_->list(folder_).size(), 4u);
    const FileOrFolder again = memo_->openOrList(folder_, 0);
    EXPECT_EQ(again.file, nullptr);
    EXPECT_EQ(again.entries.size(), 4u);
    bool truncated = false;
    EXPECT_EQ(memo_->list(folder_, 2, &truncated).size(), 2u);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(counting_->lists.load(), 1);
    EXPECT_EQ(memo_->listingsFetched(), 1u);
}

TEST_F(ListingMemoTest, ATruncatedListingIsNotTakenForTheWhole) {
    bool truncated = false;
    EXPECT_EQ(memo_->list(folder_, 2, &truncated).size(), 2u);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(memo_->list(folder_).size(), 4u);  // asked again, whole
    EXPECT_EQ(memo_->list(folder_).size(), 4u);  // now remembered
    EXPECT_EQ(counting_->lists.load(), 2);
}

TEST_F(ListingMemoTest, ANameInARememberedListingNeedsNoStat) {
    memo_->list(folder_);
    const std::optional<FileTreeEntry> b = memo_->stat(folder_.child("b.jsonl"));
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->size, 3u);
    EXPECT_EQ(counting_->stats.load(), 0);
    // A name the listing does not hold is not there: the tree lists every name.
    EXPECT_FALSE(memo_->stat(folder_.child(".marker")).has_value());
    EXPECT_FALSE(memo_->stat(folder_.child("missing")).has_value());
    EXPECT_EQ(counting_->stats.load(), 0);
    // One whose listings hide dot files is asked after a dot name, once.
    counting_->hidesDotFiles = true;
    EXPECT_FALSE(memo_->stat(folder_.child(".marker")).has_value());
    EXPECT_FALSE(memo_->stat(folder_.child(".marker")).has_value());
    EXPECT_FALSE(memo_->stat(folder_.child("missing")).has_value());
    EXPECT_EQ(counting_->stats.load(), 1);
}

TEST_F(ListingMemoTest, FilesPassThrough) {
    const FileOrFolder file = memo_->openOrList(folder_.child("a.jsonl"), 0);
    ASSERT_NE(file.file, nullptr);
    EXPECT_EQ(memo_->listingsFetched(), 0u);
}

}  // namespace

}  // namespace strata::scan::test
