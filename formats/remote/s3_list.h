// S3 ListObjectsV2: one page of keys and common prefixes under a prefix.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/file_tree.h"
#include "http_client.h"
#include "s3_config.h"

namespace strata {

struct S3Listing {
    struct Object {
        std::string key;
        std::uint64_t size = 0;
        std::string etag;          // as listed, quotes included
        std::string lastModified;  // ISO 8601, as listed
    };
    std::vector<Object> objects;
    std::vector<std::string> commonPrefixes;  // with their trailing delimiter
    bool truncated = false;
    std::string nextContinuationToken;
};

// Parses a ListBucketResult document; throws SourceError naming `url` when it is not one.
S3Listing parseListObjectsV2(std::string_view xml, const std::string& url);

// Appends to `entries` what one page names directly under `prefix` ("" or ending in '/'):
// objects as files, common prefixes as folders, each named by its part after `prefix` up to the
// next '/', never empty. A key that goes on past that '/' (from a server that ignored the
// delimiter) names its folder, as S3 would have grouped it; keys outside `prefix` are left out.
void addS3Entries(const S3Listing& page, std::string_view prefix,
                  std::vector<FileTreeEntry>& entries);
// Sorts entries by name, each folder once (several pages or keys may name the same one).
void sortS3Entries(std::vector<FileTreeEntry>& entries);

// One page's request: prefix, delimiter, maxKeys and continuationToken as in ListObjectsV2.
struct S3ListRequest {
    std::string bucket, prefix, delimiter;
    unsigned maxKeys = 1000;
    std::string continuationToken;
};

// GETs one page; `cancelled` and `budget` as in HttpClient::perform.
S3Listing listObjectsV2(const HttpClient& client, const S3Settings& settings,
                        const S3ListRequest& page, const std::function<bool()>& cancelled = {},
                        RequestBudget* budget = nullptr);

}  // namespace strata
