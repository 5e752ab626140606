#include "shardlake_store.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include "formats/registry/directory_listing.h"

#include "formats/common/thread_cancel.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace fs = std::filesystem;

namespace {

fs::path canonicalOrSelf(const fs::path& path, bool* failed = nullptr) {
    std::error_code error;
    fs::path out = fs::weakly_canonical(path, error);
    if (failed != nullptr) {
        *failed = static_cast<bool>(error);
    }
    return error ? path : out;
}

bool missing(const std::error_code& error) {
    return error == std::errc::no_such_file_or_directory || error == std::errc::not_a_directory;
}

// The folder's entries, all of them, sorted by name; none when the folder is missing.
std::vector<ProbeEntry> listLocal(const fs::path& folder) {
    std::vector<ProbeEntry> out;
    std::error_code error;
    fs::directory_iterator it(folder, error);
    if (missing(error)) {
        return out;
    }
    for (const fs::directory_iterator end; !error && it != end; it.increment(error)) {
        ProbeEntry entry;
        entry.name = it->path().filename().string();
        std::error_code typeError;  // a dangling link is neither; the listing goes on
        entry.isDirectory = it->is_directory(typeError);
        entry.isRegularFile = !entry.isDirectory && it->is_regular_file(typeError);
        out.push_back(std::move(entry));
    }
    if (error) {
        // Part of a folder would drop arbitrary shards from orphan checks, trees and diffs.
        throw SourceError(folder.string() + ": cannot list the folder: " + error.message());
    }
    std::sort(out.begin(), out.end(),
              [](const ProbeEntry& a, const ProbeEntry& b) { return a.name < b.name; });
    return out;
}

}  // namespace

Store::Store(fs::path root) : root_(std::move(root)), canonicalRoot_(canonicalOrSelf(root_)) {}

Store::Store(FileTreePtr tree, fs::path root)
    : tree_(tree && tree->remote() ? std::move(tree) : nullptr),
      root_(std::move(root)),
      canonicalRoot_(tree_ ? root_ : canonicalOrSelf(root_)) {}

bool Store::insideRoot(const fs::path& path, bool* failed) const {
    if (tree_) {
        return true;  // keys are checked by keyProblem; a URL has no symbolic links
    }
    const fs::path relative = canonicalOrSelf(path, failed).lexically_relative(canonicalRoot_);
    return !relative.empty() && *relative.begin() != "..";
}

bool Store::folderInsideRoot(const fs::path& folder) const {
    const std::string key = folder.string();
    {
        std::lock_guard lock(mutex_);
        if (const auto it = folderInside_.find(key); it != folderInside_.end()) {
            return it->second;
        }
    }
    bool failed = false;
    const bool inside = insideRoot(folder, &failed);
    // Neither a passing failure nor a folder not made yet (it may come as a link) is remembered.
    if (!failed && isDirectory(folder)) {
        std::lock_guard lock(mutex_);
        folderInside_.emplace(key, inside);
    }
    return inside;
}

// A regular file (after links) inside the root: one lstat for a plain file in a folder seen
// before. Missing, another kind of file, or a link leading out of the root: false. Any other
// failure to look (permission denied on the folder) throws: the file may well be there.
bool Store::isLocalFile(const fs::path& path) const {
    if (!folderInsideRoot(path.parent_path())) {
        return false;
    }
    std::error_code error;
    fs::file_status status = fs::symlink_status(path, error);
    if (status.type() == fs::file_type::not_found) {
        return false;
    }
    if (error) {
        throw SourceError(path.string() + ": cannot look at the file: " + error.message());
    }
    if (fs::is_symlink(status)) {
        status = fs::status(path, error);
        if (status.type() == fs::file_type::not_found ||
            error == std::errc::too_many_symbolic_link_levels) {
            return false;  // a link that leads nowhere
        }
        if (error) {
            throw SourceError(path.string() + ": cannot look at the file: " + error.message());
        }
        if (!insideRoot(path)) {
            return false;  // treated like a missing file
        }
    }
    return fs::is_regular_file(status);
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

ByteSourcePtr Store::openedSource(std::string_view key) const {
    std::lock_guard lock(mutex_);
    const auto it = cache_.find(key);
    return it == cache_.end() ? nullptr : it->second;
}

ByteSourcePtr Store::openFile(const fs::path& path) const {
    if (tree_) {
        try {
            return tree_->open(Location::parse(path.string()));
        } catch (const StoreError& e) {
            // Not there, or a folder (an HTTP server redirects it to its '/' form).
            if (e.missing()) {
                return nullptr;
            }
            throw;
        }
    }
    if (!isLocalFile(path)) {
        return nullptr;
    }
    try {
        return openFileOnDemand(path);
    } catch (const SourceError&) {
        if (!isLocalFile(path)) {
            return nullptr;  // removed since it was looked at
        }
        throw;  // there, but not readable
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
    return isLocalFile(pathOf(key));
}

std::vector<ProbeEntry> Store::list(std::string_view key) const {
    if (!tree_) {
        return listLocal(pathOf(key));
    }
    std::vector<ProbeEntry> out;
    try {
        for (const FileTreeEntry& e : tree_->list(Location::parse(pathOf(key).string()))) {
            out.push_back({e.name, e.isDirectory, !e.isDirectory});
        }
    } catch (const StoreError& e) {
        if (!e.missing()) {
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
