#include "shardlake_alias_edit.h"

#include <system_error>

#include "formats/common/atomic_file.h"
#include "shardlake_json.h"
#include "shardlake_json_writer.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace {

std::string quoted(std::string_view text) {
    return quoteJson(text);
}

// The version an existing alias file names, or "" when there is none or it does not parse.
std::string currentTarget(const Store& store, std::string_view name) {
    const JsonDoc doc = loadJson(store.source("aliases/" + std::string(name) + ".json"));
    if (!doc.parsed) {
        return {};
    }
    std::vector<Diagnostic> ignored;
    const auto alias = readAlias(doc, ignored);
    return alias ? alias->indexVersion : std::string();
}

}  // namespace

std::string nameProblem(std::string_view name) {
    if (name.empty()) {
        return "is empty";
    }
    if (name.find('/') != std::string_view::npos) {
        return "contains a '/'";
    }
    if (const std::string problem = keyProblem(name); !problem.empty()) {
        return problem;
    }
    return {};
}

std::vector<std::string> indexVersions(const Store& store) {
    std::vector<std::string> out;
    for (const std::string& version : store.folders("indexes")) {
        if (aliasTargetProblem(store, version).empty()) {
            out.push_back(version);
        }
    }
    return out;
}

std::string aliasTargetProblem(const Store& store, std::string_view version) {
    if (const std::string problem = nameProblem(version); !problem.empty()) {
        return "index version " + quoted(version) + ' ' + problem;
    }
    const std::string key = "indexes/" + std::string(version) + "/manifest.json";
    const ByteSourcePtr source = store.source(key);
    if (!source) {
        return "no index version " + quoted(version) + " (" + key + " is missing)";
    }
    const JsonDoc doc = loadJson(source);
    if (!doc.parsed) {
        return key + " does not parse: " + doc.error;
    }
    const auto* named = doc.value.is_object() && doc.value.contains("index_version")
                            ? &doc.value["index_version"]
                            : nullptr;
    if (named == nullptr || !named->is_string() || named->get<std::string>() != version) {
        return key + " does not name index version " + quoted(version);
    }
    return {};
}

std::string aliasFileText(std::string_view alias, std::string_view indexVersion) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    doc["alias"] = std::string(alias);
    doc["index_version"] = std::string(indexVersion);
    return prettyJson(doc);
}

AliasWrite writeAlias(const std::filesystem::path& root, std::string_view name,
                      std::string_view indexVersion, AliasMode mode) {
    AliasWrite out;
    if (const std::string problem = nameProblem(name); !problem.empty()) {
        out.error = "alias name " + quoted(name) + ' ' + problem;
        return out;
    }
    const Store store(root);
    if (std::string problem = aliasTargetProblem(store, indexVersion); !problem.empty()) {
        out.error = std::move(problem);
        return out;
    }
    const std::string key = "aliases/" + std::string(name) + ".json";
    const bool exists = store.exists(key);
    if (mode == AliasMode::ReplaceOnly && !exists) {
        out.error = "no alias " + quoted(name) + " (" + key + " is missing)";
        return out;
    }
    out.previousVersion = exists ? currentTarget(store, name) : std::string();
    if (std::filesystem::is_symlink(root / "aliases")) {
        out.error = "aliases/ is a symbolic link; refusing to write through it";
        return out;
    }
    try {
        std::error_code ignored;
        std::filesystem::create_directories(root / "aliases", ignored);
        AtomicFile file(root / "aliases" / (std::string(name) + ".json"));
        file.write(aliasFileText(name, indexVersion));
        file.commit();
    } catch (const std::exception& error) {
        out.error = error.what();
        return out;
    }
    out.ok = true;
    return out;
}

}  // namespace strata::shardlake
