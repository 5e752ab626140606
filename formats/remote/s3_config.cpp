#include "s3_config.h"

#include <cstdlib>
#include <fstream>

namespace strata {

namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::string firstSet(std::initializer_list<std::string> values) {
    for (const std::string& v : values) {
        if (!v.empty()) {
            return v;
        }
    }
    return {};
}

std::string withoutTrailingSlash(std::string url) {
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    return url;
}

}  // namespace

IniSections readIniFile(const std::filesystem::path& path) {
    IniSections sections;
    std::ifstream in(path);
    std::string line;
    std::string current;
    while (std::getline(in, line)) {
        if (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
            continue;  // a nested setting ("s3 =" followed by indented keys)
        }
        line = trimmed(line);
        if (line.empty() || line.front() == '#' || line.front() == ';') {
            continue;
        }
        if (line.front() == '[' && line.back() == ']') {
            current = trimmed(line.substr(1, line.size() - 2));
            sections[current];
            continue;
        }
        const auto eq = line.find('=');
        if (eq != std::string::npos && !current.empty()) {
            sections[current][trimmed(line.substr(0, eq))] = trimmed(line.substr(eq + 1));
        }
    }
    return sections;
}

S3Settings resolveS3Settings(const RemoteOptions& options, const EnvLookup& env) {
    const std::string home = env("HOME");
    const std::filesystem::path credentialsFile = firstSet(
        {env("AWS_SHARED_CREDENTIALS_FILE"), home.empty() ? "" : home + "/.aws/credentials"});
    const std::filesystem::path configFile =
        firstSet({env("AWS_CONFIG_FILE"), home.empty() ? "" : home + "/.aws/config"});
    const std::string profile = firstSet({options.profile, env("AWS_PROFILE"), "default"});
    const IniSections credentials =
        credentialsFile.empty() ? IniSections{} : readIniFile(credentialsFile);
    const IniSections config = configFile.empty() ? IniSections{} : readIniFile(configFile);
    const auto lookup = [](const IniSections& ini, const std::string& section,
                           const std::string& key) {
        const auto s = ini.find(section);
        if (s == ini.end()) {
            return std::string();
        }
        const auto k = s->second.find(key);
        return k == s->second.end() ? std::string() : k->second;
    };
    const std::string configSection = profile == "default" ? "default" : "profile " + profile;
    const auto fromProfile = [&](const std::string& key) {
        return firstSet({lookup(credentials, profile, key), lookup(config, configSection, key)});
    };

    S3Settings s;
    s.region = firstSet({options.region, env("AWS_REGION"), env("AWS_DEFAULT_REGION"),
                         fromProfile("region"), "us-east-1"});
    s.endpoint =
        withoutTrailingSlash(firstSet({options.endpoint, env("AWS_ENDPOINT_URL_S3"),
                                       env("AWS_ENDPOINT_URL"), fromProfile("endpoint_url")}));
    if (options.anonymous) {
        s.credentialSource = "anonymous";
        return s;
    }
    // An explicit profile wins over the environment's keys, as with the AWS tools' --profile.
    const bool envKeys = !env("AWS_ACCESS_KEY_ID").empty() && !env("AWS_SECRET_ACCESS_KEY").empty();
    if (envKeys && options.profile.empty()) {
        s.signing = AwsSigning{s.region, env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"),
                               env("AWS_SESSION_TOKEN")};
        s.credentialSource = "environment";
    } else if (!fromProfile("aws_access_key_id").empty() &&
               !fromProfile("aws_secret_access_key").empty()) {
        s.signing =
            AwsSigning{s.region, fromProfile("aws_access_key_id"),
                       fromProfile("aws_secret_access_key"), fromProfile("aws_session_token")};
        s.credentialSource = "profile " + profile;
    } else {
        s.credentialSource = "none (anonymous requests)";
    }
    return s;
}

S3Settings resolveS3Settings(const RemoteOptions& options) {
    return resolveS3Settings(options, [](const std::string& name) {
        const char* value = std::getenv(name.c_str());
        return value == nullptr ? std::string() : std::string(value);
    });
}

std::string S3Settings::objectUrl(const std::string& bucket, const std::string& key) const {
    return bucketUrl(bucket) + "/" + uriEncode(key, true);
}

bool S3Settings::pathStyle(const std::string& bucket) const {
    return !endpoint.empty() || bucket.find('.') != std::string::npos;
}

std::string S3Settings::listUrl(const std::string& bucket, const std::string& query) const {
    return bucketUrl(bucket) + (pathStyle(bucket) ? "?" : "/?") + query;
}

std::string S3Settings::bucketUrl(const std::string& bucket) const {
    if (pathStyle(bucket)) {
        const std::string base =
            endpoint.empty() ? "https://s3." + region + ".amazonaws.com" : endpoint;
        return base + "/" + uriEncode(bucket, false);
    }
    return "https://" + bucket + ".s3." + region + ".amazonaws.com";
}

}  // namespace strata
