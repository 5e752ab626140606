#include "file_document.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace strata {

namespace fs = std::filesystem;

std::string hexBytes(std::span<const std::uint8_t> bytes) {
    std::string out;
    out.reserve(bytes.size() * 3);
    for (const std::uint8_t b : bytes) {
        char buffer[4];
        std::snprintf(buffer, sizeof buffer, "%02x", b);
        if (!out.empty()) {
            out += ' ';
        }
        out += buffer;
    }
    return out;
}

namespace {

// A node that owns the mapped source its region points into.
class MappedFileNode final : public Node {
public:
    MappedFileNode(std::string kind, std::string label, ByteSourcePtr source)
        : Node(std::move(kind), std::move(label), Region{source.get(), 0, source->size()}),
          source_(std::move(source)) {}

private:
    ByteSourcePtr source_;
};

// The root of a folder document: one child per listed file, each mapped on first access.
class FolderNode final : public Node {
public:
    FolderNode(std::string kind, std::string label, fs::path root, std::vector<fs::path> files,
               std::string childKind)
        : Node(std::move(kind), std::move(label)),
          root_(std::move(root)),
          files_(std::move(files)),
          childKind_(std::move(childKind)) {}

protected:
    bool hasLazyChildren() const override { return !files_.empty(); }
    std::uint64_t lazyChildCount() const override { return files_.size(); }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const fs::path& relative = files_[static_cast<std::size_t>(index)];
        try {
            auto child = std::make_unique<MappedFileNode>(childKind_, relative.generic_string(),
                                                          openMappedFile(root_ / relative));
            std::lock_guard lock(indexMutex_);
            indexBySource_[child->region().source] = index;
            return child;
        } catch (const SourceError& error) {
            auto broken = std::make_unique<Node>(childKind_, relative.generic_string());
            broken->setStatus(Status::Error);
            broken->setValue(error.what());
            return broken;
        }
    }
    // Every child has its own source, so the child covering an offset is the one made for that
    // source (a source can only be known once its child exists).
    bool childrenSortedByOffset() const override { return false; }
    std::optional<std::uint64_t> childIndexAt(std::uint64_t offset,
                                              const ByteSource* source) const override {
        std::lock_guard lock(indexMutex_);
        const auto it = indexBySource_.find(source);
        if (it == indexBySource_.end() || source == nullptr || offset >= source->size()) {
            return std::nullopt;
        }
        return it->second;
    }

private:
    fs::path root_;
    std::vector<fs::path> files_;
    std::string childKind_;
    mutable std::mutex indexMutex_;
    mutable std::unordered_map<const ByteSource*, std::uint64_t> indexBySource_;
};

struct FileList {
    std::vector<fs::path> files;
    bool truncated = false;
};

FileList listFiles(const fs::path& root) {
    // Entries visited (files and folders) before giving up, so a tree of empty folders is
    // bounded too.
    constexpr std::size_t kVisitLimit = 100000;
    FileList list;
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        throw SourceError(root.string() + ": cannot list the folder: " + ec.message());
    }
    std::size_t visited = 0;
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            break;
        }
        if (++visited > kVisitLimit || list.files.size() >= kFolderFileLimit) {
            list.truncated = true;
            break;
        }
        std::error_code typeError;
        if (it->is_regular_file(typeError)) {
            list.files.push_back(it->path().lexically_relative(root));
        }
    }
    std::sort(list.files.begin(), list.files.end());
    return list;
}

std::unique_ptr<OpenedDocument> makeDocument(const fs::path& path, const Detection& detection) {
    auto document = std::make_unique<OpenedDocument>();
    document->format = detection.format;
    document->path = path;
    document->facts.emplace_back("format", std::string(formatName(detection.format)));
    document->facts.emplace_back("description", detection.description);
    document->makeValidator = [] { return std::unique_ptr<Validator>(); };
    return document;
}

}  // namespace

std::unique_ptr<OpenedDocument> openFileDocument(const fs::path& path, const Detection& detection,
                                                 std::string_view kindPrefix) {
    return openFileDocument(openMappedFile(path), detection, kindPrefix);
}

std::unique_ptr<OpenedDocument> openFileDocument(const ByteSourcePtr& source,
                                                 const Detection& detection,
                                                 std::string_view kindPrefix) {
    const fs::path path = source->name();
    auto document = makeDocument(path, detection);
    document->sources.push_back(source);
    document->root =
        std::make_unique<Node>(std::string(kindPrefix) + ".file", path.filename().string(),
                               Region{source.get(), 0, source->size()});
    document->root->addField("size", source->size(), Region{source.get(), 0, source->size()});
    document->facts.emplace_back("size", std::to_string(source->size()));
    return document;
}

Node* addMagicNode(OpenedDocument& document, std::uint64_t length, std::string_view kindPrefix) {
    const ByteSource* source = document.sources.at(0).get();
    const Region region = Region{source, 0, length}.clipped();
    auto magic = std::make_unique<Node>(std::string(kindPrefix) + ".magic", "magic", region);
    const ByteView bytes = source->view(0, region.length);
    const std::string hex = hexBytes(bytes.bytes);
    magic->setValue(hex);
    magic->addField("magic", hex, region);
    return document.root->appendChild(std::move(magic));
}

std::unique_ptr<OpenedDocument> openFolderDocument(const fs::path& path, const Detection& detection,
                                                   std::string_view kindPrefix) {
    auto document = makeDocument(path, detection);
    FileList list = listFiles(path);
    const std::string count = std::to_string(list.files.size());
    document->facts.emplace_back("files", count);
    if (list.truncated) {
        document->facts.emplace_back("listing", "stopped after " + count + " files");
    }
    std::string label = path.filename().string();
    if (label.empty()) {
        label = path.parent_path().filename().string();
    }
    auto root =
        std::make_unique<FolderNode>(std::string(kindPrefix) + ".folder", label, path,
                                     std::move(list.files), std::string(kindPrefix) + ".file");
    root->setValue(count + " files");
    document->root = std::move(root);
    return document;
}

}  // namespace strata
