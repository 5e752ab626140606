#include "shardlake_store.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include "formats/registry/directory_listing.h"
#include "formats/remote/remote_error.h"

#include "formats/common/thread_cancel.h"
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

Store::Store(FileTreePtr tree, fs::path root)
    : tree_(tree && tree->remote() ? std::move(tree) : nullptr),
      root_(std::move(root)),
      canonicalRoot_(tree_ ? root_ : canonicalOrSelf(root_)) {}

bool Store::insideRoot(const fs::path& path) const {
    if (tree_) {
        return true;  // keys are checked by keyProblem; a URL has no symbolic links
    }
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
    {
        std::lock_guard lock(mutex_);
        if (const auto it = cache_.find(key); it != cache_.end()) {
            return it->second;
        }
    }
    // Opened outside the lock: a remote open is a round trip, and shards open in parallel.
    ByteSourcePtr opened = openFile(pathOf(key));
    if (!opened) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    const auto [it, added] = cache_.emplace(std::string(key), opened);
    if (added) {
        order_.push_back(opened);
    }
    return it->second;
}

ByteSourcePtr Store::openFile(const fs::path& path) const {
    if (tree_) {
        try {
            return tree_->open(Location::parse(path.string()));
        } catch (const RemoteError& e) {
            // Not there, or a folder (an HTTP server redirects it to its '/' form).
            if (e.kind() == RemoteError::Kind::NotFound || e.url().ends_with('/')) {
                return nullptr;
            }
            throw;
        }
    }
    // A symbolic link that leads out of the root is treated like a missing file.
    if (!isRegularFile(path) || !insideRoot(path)) {
        return nullptr;
    }
    try {
        return openMappedFile(path);
    } catch (const SourceError&) {
        return nullptr;
    }
}

bool Store::exists(std::string_view key) const {
    if (!keyProblem(key).empty()) {
        return false;
    }
    if (tree_) {
        // Opening costs the same round trip as asking, and what is asked about is read next.
        return source(key) != nullptr;
    }
    return isRegularFile(pathOf(key)) && insideRoot(pathOf(key));
}

std::vector<ProbeEntry> Store::list(std::string_view key) const {
    if (!tree_) {
        return listDirectory(pathOf(key), kFolderEntryLimit).entries;
    }
    std::vector<ProbeEntry> out;
    try {
        for (const FileTreeEntry& e :
             tree_->list(Location::parse(pathOf(key).string()), kFolderEntryLimit)) {
            out.push_back({e.name, e.isDirectory, !e.isDirectory});
        }
    } catch (const RemoteError& e) {
        if (e.kind() != RemoteError::Kind::NotFound) {
            throw;
        }
    }
    return out;
}

void Store::prefetch(const std::vector<std::string>& keys) const {
    if (!tree_ || keys.size() < 2) {
        return;
    }
    constexpr std::size_t kOpensInFlight = 8;
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < keys.size(); i = next++) {
            try {
                source(keys[i]);
            } catch (const std::exception&) {
                // reported when the caller asks for this key
            }
        }
    };
    std::vector<std::jthread> workers;
    for (std::size_t i = 0; i < std::min(kOpensInFlight, keys.size()); ++i) {
        workers.emplace_back([token = threadCancelToken(), &work] {
            const ThreadCancelScope scope(token);  // remote opens stop with the job
            work();
        });
    }
}

std::vector<ByteSourcePtr> Store::sources() const {
    std::lock_guard lock(mutex_);
    return order_;
}

std::vector<std::string> Store::folders(std::string_view key) const {
    std::vector<std::string> out;
    for (const ProbeEntry& entry : list(key)) {
        if (entry.isDirectory) {
            out.push_back(entry.name);
        }
    }
    return out;
}

std::vector<std::string> Store::files(std::string_view key) const {
    std::vector<std::string> out;
    for (const ProbeEntry& entry : list(key)) {
        if (entry.isRegularFile) {
            out.push_back(entry.name);
        }
    }
    return out;
}

}  // namespace strata::shardlake
