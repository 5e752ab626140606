#include "zt_nodes.h"

#include <algorithm>

#include "formats/common/counted.h"

namespace strata::ztensor {

namespace {

using FilePtr = std::shared_ptr<const ZtFile>;

std::string sizeText(std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes";
}

std::string encodingText(const ZtComponent& c) {
    return c.encodingName;
}

std::string componentValue(const ZtComponent& c) {
    std::string out;
    if (c.length) {
        out = sizeText(*c.length);
    }
    if (c.encoding != ZtEncoding::Raw) {
        out += out.empty() ? "" : ", ";
        out += c.encodingName;
    }
    if (c.digest) {
        out += out.empty() ? "" : ", ";
        out += *c.digest;
    }
    return out;
}

void addComponentFields(Node& node, const ZtFile& file, const ZtComponent& c) {
    node.addField("tensor", file.tensors()[c.tensor].name, file.tensors()[c.tensor].entry);
    node.addField("role", c.role, c.entry);
    if (c.offset) {
        node.addField("offset", *c.offset, c.offsetField);
    }
    if (c.length) {
        node.addField("length", *c.length, c.lengthField);
    }
    node.addField("encoding", encodingText(c), c.encodingField);
    if (c.digest) {
        node.addField("digest", *c.digest, c.digestField);
    }
    node.setStatus(c.status);
}

// One component as a child of its tensor: the stored bytes, with the manifest fields.
std::unique_ptr<Node> makeComponentNode(const ZtFile& file, std::size_t index) {
    const ZtComponent& c = file.components()[index];
    auto node = std::make_unique<Node>("ztensor.component", c.role, c.data);
    node->setValue(componentValue(c));
    addComponentFields(*node, file, c);
    return node;
}

class ZtTensorNode final : public Node {
public:
    ZtTensorNode(FilePtr file, std::size_t index)
        : Node("ztensor.tensor", file->tensors()[index].name, file->tensors()[index].entry),
          file_(std::move(file)),
          index_(index) {
        const ZtTensor& t = tensor();
        addField("dtype", t.dtypeName, t.dtypeField);
        addField("shape", ztShapeText(t.shape), t.shapeField);
        addField("format", t.formatName, t.formatField);
        if (t.elementCount) {
            addField("elements", *t.elementCount, t.shapeField);
        }
        if (t.byteSize) {
            addField("nbytes", *t.byteSize, t.shapeField);
        }
        setValue(t.dtypeName + " " + ztShapeText(t.shape) +
                 (t.format == ZtTensorFormat::Dense ? std::string() : " " + t.formatName));
        setStatus(t.status);
    }

protected:
    bool hasLazyChildren() const override { return !tensor().components.empty(); }
    std::uint64_t lazyChildCount() const override { return tensor().components.size(); }
    std::unique_ptr<Node> makeChild(std::uint64_t i) const override {
        return makeComponentNode(*file_, tensor().components[static_cast<std::size_t>(i)]);
    }
    // Children point at component bytes outside the tensor's manifest entry.
    bool childrenSortedByOffset() const override { return false; }

private:
    const ZtTensor& tensor() const { return file_->tensors()[index_]; }
    FilePtr file_;
    std::size_t index_;
};

class ZtManifestNode final : public Node {
public:
    explicit ZtManifestNode(FilePtr file)
        : Node("ztensor.manifest", "manifest", file->manifest()), file_(std::move(file)) {
        const ZtFile& f = *file_;
        setValue(sizeText(f.manifest().length) + ", " + counted(f.tensors().size(), "tensor"));
        if (!f.version().empty()) {
            addField("version", f.version(), f.versionField());
        }
        if (!f.generator().empty()) {
            addField("generator", f.generator(), f.generatorField());
        }
        for (const auto& [key, value] : f.attributes()) {
            addField("attributes." + key, value);
        }
        const bool interpreted = f.layout() == ZtLayout::V1_0 || f.layout() == ZtLayout::NotZTensor;
        if (f.manifestDecoded() && !interpreted) {
            // Other versions: show the top-level keys as they are.
            const auto& json = f.manifestJson();
            if (json.is_object()) {
                for (const auto& [key, value] : json.items()) {
                    std::string text =
                        value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
                    if (text.size() > 200) {
                        text = text.substr(0, 200) + "…";
                    }
                    addField(key, text);
                }
            } else {
                addField("manifest",
                         json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                             .substr(0, 200));
            }
        }
        if (!f.manifestDecoded()) {
            setStatus(Status::Error);
        }
    }

protected:
    bool hasLazyChildren() const override { return !file_->tensors().empty(); }
    std::uint64_t lazyChildCount() const override { return file_->tensors().size(); }
    std::unique_ptr<Node> makeChild(std::uint64_t i) const override {
        return std::make_unique<ZtTensorNode>(file_, static_cast<std::size_t>(i));
    }

private:
    FilePtr file_;
};

// What each child of the root is, in file order.
struct RootChild {
    enum Kind { Magic, Entry, Manifest, ManifestSize } kind;
    std::size_t entry = 0;
    std::uint64_t offset = 0;
};

class ZtFileNode final : public Node {
    static constexpr int kLookBack = 64;

public:
    ZtFileNode(FilePtr file, std::string label)
        : Node("ztensor.file", std::move(label), {file->source().get(), 0, file->source()->size()}),
          file_(std::move(file)) {
        const ZtFile& f = *file_;
        addField("layout", std::string(ztLayoutName(f.layout())), f.magic());
        addField("file size", f.fileSize());
        if (f.manifestSize()) {
            addField("manifest size", *f.manifestSize(), f.manifestSizeField());
        }
        if (!f.version().empty()) {
            addField("version", f.version(), f.versionField());
        }
        addField("tensors", static_cast<std::uint64_t>(f.tensors().size()));
        setValue(std::string(ztLayoutName(f.layout())) + ", " +
                 counted(f.tensors().size(), "tensor"));
        setStatus(f.status());
        if (f.magic().length > 0) {
            children_.push_back({RootChild::Magic, 0, 0});
        }
        for (std::size_t i = 0; i < f.layoutEntries().size(); ++i) {
            children_.push_back({RootChild::Entry, i, f.layoutEntries()[i].region.offset});
        }
        if (f.manifest().valid()) {
            children_.push_back({RootChild::Manifest, 0, f.manifest().offset});
        }
        if (f.manifestSizeField().valid()) {
            children_.push_back({RootChild::ManifestSize, 0, f.manifestSizeField().offset});
        }
        std::stable_sort(
            children_.begin(), children_.end(),
            [](const RootChild& a, const RootChild& b) { return a.offset < b.offset; });
    }

protected:
    bool hasLazyChildren() const override { return !children_.empty(); }
    std::uint64_t lazyChildCount() const override { return children_.size(); }
    std::unique_ptr<Node> makeChild(std::uint64_t i) const override;
    // Children are sorted by offset, but empty components and damaged files can put a child
    // that covers nothing (or overlaps) after the one that does: look back a little.
    std::optional<std::uint64_t> childIndexAt(std::uint64_t offset,
                                              const ByteSource* source) const override {
        if (source != file_->source().get()) {
            return std::nullopt;
        }
        auto it = std::upper_bound(
            children_.begin(), children_.end(), offset,
            [](std::uint64_t value, const RootChild& child) { return value < child.offset; });
        for (int steps = 0; it != children_.begin() && steps < kLookBack; ++steps) {
            --it;
            const auto index = static_cast<std::uint64_t>(it - children_.begin());
            if (child(index)->region().contains(offset)) {
                return index;
            }
        }
        return std::nullopt;
    }

private:
    std::unique_ptr<Node> makeEntry(std::size_t index) const;

    FilePtr file_;
    std::vector<RootChild> children_;
};

std::unique_ptr<Node> ZtFileNode::makeChild(std::uint64_t i) const {
    const ZtFile& f = *file_;
    const RootChild& child = children_[static_cast<std::size_t>(i)];
    switch (child.kind) {
        case RootChild::Magic: {
            auto node = std::make_unique<Node>("ztensor.magic", "magic", f.magic());
            const ByteView bytes = f.source()->view(0, f.magic().length);
            std::string text;
            for (auto b : bytes.bytes) {
                text += (b >= 0x20 && b < 0x7f) ? static_cast<char>(b) : '.';
            }
            node->setValue(text);
            node->addField("magic", text, f.magic());
            return node;
        }
        case RootChild::Entry:
            return makeEntry(child.entry);
        case RootChild::Manifest:
            return std::make_unique<ZtManifestNode>(file_);
        case RootChild::ManifestSize: {
            auto node = std::make_unique<Node>("ztensor.manifest_size", "manifest size",
                                               f.manifestSizeField());
            if (f.manifestSize()) {
                node->setValue(std::to_string(*f.manifestSize()));
                node->addField("manifest size", *f.manifestSize(), f.manifestSizeField());
            }
            return node;
        }
    }
    return nullptr;
}

std::unique_ptr<Node> ZtFileNode::makeEntry(std::size_t index) const {
    const ZtFile& f = *file_;
    const ZtLayoutEntry& entry = f.layoutEntries()[index];
    if (entry.isGap) {
        auto node = std::make_unique<Node>("ztensor.padding", "padding", entry.region);
        node->setValue(sizeText(entry.region.length));
        return node;
    }
    // Components sharing the same bytes are one node named after all of them.
    std::string label;
    for (std::size_t i : entry.components) {
        const ZtComponent& c = f.components()[i];
        label += label.empty() ? "" : ", ";
        label += f.tensors()[c.tensor].name + "/" + c.role;
    }
    const ZtComponent& first = f.components()[entry.components.front()];
    auto node = std::make_unique<Node>("ztensor.component", label, entry.region);
    node->setValue(componentValue(first));
    addComponentFields(*node, f, first);
    Status status = Status::Ok;
    for (std::size_t i : entry.components) {
        status = worse(status, f.components()[i].status);
    }
    node->setStatus(status);
    return node;
}

}  // namespace

std::string ztShapeText(const std::vector<std::uint64_t>& shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        out += (i > 0 ? ", " : "") + std::to_string(shape[i]);
    }
    return out + "]";
}

std::unique_ptr<Node> makeZtNodeTree(std::shared_ptr<const ZtFile> file, std::string label) {
    return std::make_unique<ZtFileNode>(std::move(file), std::move(label));
}

std::vector<std::pair<std::string, std::string>> ztFacts(const ZtFile& file) {
    std::vector<std::pair<std::string, std::string>> facts;
    facts.emplace_back("layout", std::string(ztLayoutName(file.layout())));
    if (!file.version().empty()) {
        facts.emplace_back("version", file.version());
    }
    if (!file.generator().empty()) {
        facts.emplace_back("generator", file.generator());
    }
    facts.emplace_back("tensors", std::to_string(file.tensors().size()));
    facts.emplace_back("components", std::to_string(file.components().size()));
    if (file.manifestSize()) {
        facts.emplace_back("manifest size", std::to_string(*file.manifestSize()));
    }
    for (const auto& [key, value] : file.attributes()) {
        facts.emplace_back("attribute " + key, value);
    }
    return facts;
}

}  // namespace strata::ztensor
