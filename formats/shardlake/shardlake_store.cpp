#include "shardlake_store.h"

#include "formats/registry/directory_listing.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace fs = std::filesystem;

namespace {

fs::path canonicalOrSelf(const fs::path& path) {
    std::error_code error;
    fs::path out = fs::weakly_canonical(path, error);
    return error ? path : out;
}

}  // namespace

Store::Store(fs::path root) : root_(std::move(root)), canonicalRoot_(canonicalOrSelf(root_)) {}

bool Store::insideRoot(const fs::path& path) const {
    const fs::path relative = canonicalOrSelf(path).lexically_relative(canonicalRoot_);
    return !relative.empty() && *relative.begin() != "..";
}

fs::path Store::pathOf(std::string_view key) const {
    return root_ / fs::path(std::string(key));
}

ByteSourcePtr Store::source(std::string_view key) const {
    if (!keyProblem(key).empty()) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    if (const auto it = cache_.find(key); it != cache_.end()) {
        return it->second;
    }
    ByteSourcePtr mapped;
    const fs::path path = pathOf(key);
    // A symbolic link that leads out of the root is treated like a missing file.
    if (isRegularFile(path) && insideRoot(path)) {
        try {
            mapped = openMappedFile(path);
        } catch (const SourceError&) {
            mapped = nullptr;
        }
    }
    if (mapped) {
        cache_.emplace(std::string(key), mapped);
        order_.push_back(mapped);
    }
    return mapped;
}

bool Store::exists(std::string_view key) const {
    return keyProblem(key).empty() && isRegularFile(pathOf(key)) && insideRoot(pathOf(key));
}

std::vector<ByteSourcePtr> Store::sources() const {
    std::lock_guard lock(mutex_);
    return order_;
}

std::vector<std::string> Store::folders(std::string_view key) const {
    std::vector<std::string> out;
    for (const ProbeEntry& entry : listDirectory(pathOf(key), kFolderEntryLimit).entries) {
        if (entry.isDirectory) {
            out.push_back(entry.name);
        }
    }
    return out;
}

std::vector<std::string> Store::files(std::string_view key) const {
    std::vector<std::string> out;
    for (const ProbeEntry& entry : listDirectory(pathOf(key), kFolderEntryLimit).entries) {
        if (entry.isRegularFile) {
            out.push_back(entry.name);
        }
    }
    return out;
}

}  // namespace strata::shardlake
