// S3 ListObjectsV2: one page of keys and common prefixes under a prefix.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http_client.h"
#include "s3_config.h"

namespace strata {

struct S3Listing {
    struct Object {
        std::string key;
        std::uint64_t size = 0;
    };
    std::vector<Object> objects;
    std::vector<std::string> commonPrefixes;  // with their trailing delimiter
    bool truncated = false;
    std::string nextContinuationToken;
};

// Parses a ListBucketResult document; throws SourceError naming `url` when it is not one.
S3Listing parseListObjectsV2(std::string_view xml, const std::string& url);

// GETs one page (prefix, delimiter, maxKeys, continuationToken as in ListObjectsV2).
S3Listing listObjectsV2(const HttpClient& client, const S3Settings& settings,
                        const std::string& bucket, const std::string& prefix,
                        const std::string& delimiter, unsigned maxKeys,
                        const std::string& continuationToken);

}  // namespace strata
