// Locations: local paths and URLs parsed, joined and split the same way for every reader.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "formats/common/file_tree.h"
#include "formats/common/location.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

TEST(Location, SchemesAndParts) {
    const Location s3 = Location::parse("s3://bucket/root/data.ZS");
    EXPECT_EQ(s3.scheme(), Location::Scheme::S3);
    EXPECT_TRUE(s3.isRemote());
    EXPECT_EQ(s3.bucket(), "bucket");
    EXPECT_EQ(s3.key(), "root/data.ZS");
    EXPECT_EQ(s3.fileName(), "data.ZS");
    EXPECT_EQ(s3.extension(), ".zs");
    EXPECT_EQ(s3.parent().text(), "s3://bucket/root");
    EXPECT_EQ(s3.parent().parent().text(), "s3://bucket");
    EXPECT_EQ(s3.parent().parent().key(), "");

    const Location http = Location::parse("HTTP://127.0.0.1:8080/a/b/");
    EXPECT_EQ(http.scheme(), Location::Scheme::Http);
    EXPECT_EQ(http.text(), "HTTP://127.0.0.1:8080/a/b");
    EXPECT_EQ(http.child("c/d.zt").text(), "HTTP://127.0.0.1:8080/a/b/c/d.zt");
    EXPECT_EQ(Location::parse("https://h").parent().text(), "https://h");

    const Location file = Location::parse("file:///tmp/x/y.zds");
    EXPECT_EQ(file.scheme(), Location::Scheme::File);
    EXPECT_EQ(file.localPath(), fs::path("/tmp/x/y.zds"));
    EXPECT_EQ(Location::parse("relative/z.ozdf").extension(), ".ozdf");
}

// A remote location holds names as written: '?', '#', '%' and spaces are part of a name, never
// a query, a fragment or an escape (turning it into a URL is the remote session's job).
TEST(Location, RemoteNamesAreWrittenAsTheyAre) {
    const Location odd = Location::parse("https://h/a dir/what?#1%41.ZT");
    EXPECT_EQ(odd.fileName(), "what?#1%41.ZT");
    EXPECT_EQ(odd.extension(), ".zt");
    EXPECT_EQ(odd.parent().text(), "https://h/a dir");
    EXPECT_EQ(odd.child("x?y").text(), "https://h/a dir/what?#1%41.ZT/x?y");
    EXPECT_EQ(Location::parse("s3://b/k?.zs").key(), "k?.zs");
}

TEST(Location, ChildNeverLeavesTheFolder) {
    const Location root = Location::parse("s3://b/root");
    EXPECT_THROW(root.child("../x"), std::invalid_argument);
    EXPECT_THROW(root.child("a/../../x"), std::invalid_argument);
    EXPECT_THROW(root.child("/etc/passwd"), std::invalid_argument);
    EXPECT_THROW(root.child("a\\b"), std::invalid_argument);
    EXPECT_THROW(Location::local("/tmp").child(".."), std::invalid_argument);
}

TEST(LocalFileTree, StatListOpen) {
    const fs::path dir = fs::temp_directory_path() / ("strata_tree_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "b.txt") << "hello";
    std::ofstream(dir / "a.txt") << "x";
    const FileTreePtr tree = localFileTree();
    const Location root = Location::local(dir);
    EXPECT_FALSE(tree->remote());
    ASSERT_TRUE(tree->stat(root));
    EXPECT_TRUE(tree->stat(root)->isDirectory);
    EXPECT_EQ(tree->stat(root.child("b.txt"))->size, 5u);
    EXPECT_FALSE(tree->stat(root.child("missing")));
    bool truncated = false;
    const auto two = tree->list(root, 2, &truncated);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(two[0].name, "a.txt");
    EXPECT_EQ(two[1].name, "b.txt");
    EXPECT_EQ(tree->list(root).size(), 3u);
    EXPECT_EQ(tree->open(root.child("b.txt"))->size(), 5u);
    EXPECT_THROW(tree->open(root.child("missing")), SourceError);
    EXPECT_THROW(tree->list(root.child("missing")), SourceError);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace strata
