// Fuzzes the folder listings a scan of a URL walks: the same bytes as an HTTP server's JSON
// listing (parseJsonListing) and as an S3 ListObjectsV2 page (parseListObjectsV2, then the
// entries it names under a prefix). Nothing may crash or throw other than the S3 parser's
// SourceError, and what the parsers promise must hold: JSON names are one plain name (not empty,
// no '/', not "." or ".."), S3 names are not empty and hold no '/', each S3 folder is named
// once, and no name leads out of its folder (Location::child refuses it or stays inside).
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/location.h"
#include "formats/remote/json_listing.h"
#include "formats/remote/s3_list.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

// `name` as a child of `folder` is inside it, or refused.
void staysInside(const strata::Location& folder, const std::string& name) {
    std::string inside = folder.text();
    if (!inside.ends_with('/')) {
        inside += '/';
    }
    try {
        check(folder.child(name).text().starts_with(inside));
    } catch (const std::invalid_argument&) {
    }
}

void fuzzJson(std::span<const std::uint8_t> bytes) {
    const auto entries = strata::parseJsonListing(bytes);
    if (!entries) {
        return;
    }
    const strata::Location folder = strata::Location::parse("http://127.0.0.1/data/run");
    for (const strata::FileTreeEntry& e : *entries) {
        check(!e.name.empty() && e.name != "." && e.name != "..");
        check(e.name.find('/') == std::string::npos);
        check(!e.isDirectory || e.size == 0);
        staysInside(folder, e.name);
    }
}

void fuzzS3(std::string_view xml) {
    strata::S3Listing page;
    try {
        page = strata::parseListObjectsV2(xml, "s3://bucket/run");
    } catch (const strata::SourceError&) {
        return;
    }
    check(!page.truncated || !page.nextContinuationToken.empty());
    for (const std::string prefix : {"", "run/"}) {
        std::vector<strata::FileTreeEntry> entries;
        strata::addS3Entries(page, prefix, entries);
        strata::addS3Entries(page, prefix, entries);  // a second page naming the same again
        strata::sortS3Entries(entries);
        const strata::Location folder =
            strata::Location::parse(prefix.empty() ? "s3://bucket" : "s3://bucket/run");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const strata::FileTreeEntry& e = entries[i];
            check(!e.name.empty() && e.name.find('/') == std::string::npos);
            check(i == 0 ||
                  !(e.isDirectory && entries[i - 1].isDirectory && e.name == entries[i - 1].name));
            staysInside(folder, e.name);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzzJson({data, size});
    fuzzS3({reinterpret_cast<const char*>(data), size});
    return 0;
}
