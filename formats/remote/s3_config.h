// Where S3 requests go and how they are signed: the endpoint, the region and the credentials,
// resolved like the AWS tools do from the options, the standard environment variables and the
// ~/.aws/credentials and ~/.aws/config profiles.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "http_client.h"

namespace strata {

struct S3Settings {
    std::string endpoint;  // "http://127.0.0.1:9000"; empty for AWS itself
    std::string region = "us-east-1";
    std::optional<AwsSigning> signing;  // empty: anonymous (unsigned) requests
    std::string credentialSource;       // "environment", "profile default", "none"...

    // The object's URL (path-style on a configured endpoint, virtual-host style on AWS).
    std::string objectUrl(const std::string& bucket, const std::string& key) const;
    // The bucket's ListObjectsV2 URL with `query` (already canonical: sorted and encoded).
    std::string listUrl(const std::string& bucket, const std::string& query) const;

private:
    bool pathStyle(const std::string& bucket) const;
    std::string bucketUrl(const std::string& bucket) const;
};

// INI sections of an AWS credentials or config file: section name -> key -> value. Indented
// lines (nested settings) and comments are skipped; a missing file is empty.
using IniSections = std::map<std::string, std::map<std::string, std::string>>;
IniSections readIniFile(const std::filesystem::path& path);

// `env` looks up an environment variable (empty when unset); tests pass their own.
using EnvLookup = std::function<std::string(const std::string&)>;
S3Settings resolveS3Settings(const RemoteOptions& options, const EnvLookup& env);
S3Settings resolveS3Settings(const RemoteOptions& options);  // the process environment

}  // namespace strata
