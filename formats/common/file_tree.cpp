#include "file_tree.h"

#include <sys/stat.h>

#include <algorithm>
#include <system_error>

namespace strata {

namespace {

namespace fs = std::filesystem;

// Size and modification time from one stat (what file_size alone would cost).
void fillFromStat(const fs::path& path, FileTreeEntry& entry) {
    struct ::stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        return;
    }
    entry.size = static_cast<std::uint64_t>(st.st_size);
    const auto nanoseconds = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
                             static_cast<std::int64_t>(st.st_mtim.tv_nsec);
    entry.modified = std::to_string(nanoseconds);
}

class LocalFileTree final : public FileTree {
public:
    bool remote() const override { return false; }

    ByteSourcePtr open(const Location& file) const override {
        return openMappedFile(file.localPath());
    }

    std::optional<FileTreeEntry> stat(const Location& location) const override {
        std::error_code ec;
        const fs::path path = location.localPath();
        const auto status = fs::status(path, ec);
        if (ec || !fs::exists(status)) {
            return std::nullopt;
        }
        FileTreeEntry e;
        e.name = path.filename().string();
        e.isDirectory = fs::is_directory(status);
        if (fs::is_regular_file(status)) {
            fillFromStat(path, e);
        } else if (!e.isDirectory) {
            return std::nullopt;  // sockets, devices: not files Strata reads
        }
        return e;
    }

    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        std::vector<FileTreeEntry> out;
        std::error_code ec;
        fs::directory_iterator it(folder.localPath(), ec);
        if (ec) {
            throw SourceError(folder.text() + ": cannot list the folder: " + ec.message());
        }
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            std::error_code typeEc;
            FileTreeEntry e;
            e.name = it->path().filename().string();
            e.isDirectory = it->is_directory(typeEc);
            if (!e.isDirectory && !it->is_regular_file(typeEc)) {
                continue;
            }
            if (!e.isDirectory) {
                fillFromStat(it->path(), e);
            }
            out.push_back(std::move(e));
        }
        std::sort(out.begin(), out.end(),
                  [](const FileTreeEntry& a, const FileTreeEntry& b) { return a.name < b.name; });
        if (truncated != nullptr) {
            *truncated = limit != 0 && out.size() > limit;
        }
        if (limit != 0 && out.size() > limit) {
            out.resize(limit);
        }
        return out;
    }
};

}  // namespace

ByteSourcePtr FileTree::openListed(const Location& file, const FileTreeEntry&) const {
    return open(file);
}

FileOrFolder FileTree::openOrList(const Location& location, std::size_t limit) const {
    const std::optional<FileTreeEntry> entry = stat(location);
    if (!entry) {
        throw SourceError(location.text() + ": no such file or folder");
    }
    FileOrFolder out;
    if (entry->isDirectory) {
        out.entries = list(location, limit, &out.truncated);
    } else {
        out.file = open(location);
    }
    return out;
}

FileTreePtr localFileTree() {
    static const FileTreePtr tree = std::make_shared<LocalFileTree>();
    return tree;
}

}  // namespace strata
