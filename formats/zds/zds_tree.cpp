#include "zds_tree.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace strata::zds {

namespace {

using DatasetPtr = std::shared_ptr<const ZdsDataset>;

std::unique_ptr<Node> fileNode(const std::string& kind, const std::string& label,
                               const ByteSourcePtr& src) {
    auto node = std::make_unique<Node>(kind, label, Region{src.get(), 0, src->size()});
    node->addField("size", src->size(), Region{src.get(), 0, src->size()});
    node->setValue(std::to_string(src->size()) + " bytes");
    return node;
}

class ZdxNode final : public Node {
public:
    ZdxNode(DatasetPtr ds, const ZdsCollection& c)
        : Node("zds.zdx", "index.bin", Region{c.index.get(), 0, c.index->size()}),
          ds_(std::move(ds)),
          zdx_(*c.zdx()) {
        switch (zdx_.layout()) {
            case ZdxLayout::Binary:
                setValue("ZDX v" + std::to_string(zdx_.version()) + ", " +
                         std::to_string(zdx_.declaredCount()) + " entries");
                break;
            case ZdxLayout::Text:
                setValue("text index (id, offset, length lines)");
                break;
            case ZdxLayout::Unknown:
                setValue("not a ZDX index");
                setStatus(Status::Error);
                break;
        }
    }

protected:
    bool hasLazyChildren() const override { return zdx_.layout() != ZdxLayout::Unknown; }
    std::uint64_t lazyChildCount() const override {
        return (zdx_.layout() == ZdxLayout::Binary ? 1 : 0) + zdx_.entryCount();
    }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const ByteSource* src = zdx_.source().get();
        if (zdx_.layout() == ZdxLayout::Binary) {
            if (index == 0) {
                return header(src);
            }
            --index;
        }
        const ZdxEntry e = zdx_.entry(index);
        auto node =
            std::make_unique<Node>("zds.zdx.entry", "entry " + std::to_string(index), e.entry);
        node->setValue(e.id);
        node->addField("id", e.id, e.idRegion);
        node->addField("offset", e.offset, e.offsetRegion);
        node->addField("length", e.length, e.lengthRegion);
        if (!e.parsed) {
            node->setStatus(Status::Error);
        }
        return node;
    }

private:
    std::unique_ptr<Node> header(const ByteSource* src) const {
        auto node = std::make_unique<Node>("zds.zdx.header", "header",
                                           Region{src, 0, kZdxHeaderSize}.clipped());
        node->addField("magic", std::string(kZdxMagicText), Region{src, 0, 4}.clipped());
        node->addField("version", std::uint64_t{zdx_.version()}, Region{src, 4, 4}.clipped());
        node->addField("count", zdx_.declaredCount(), Region{src, 8, 8}.clipped());
        if (!zdx_.headerComplete()) {
            node->setStatus(Status::Error);
        }
        return node;
    }
    static constexpr const char* kZdxMagicText = "ISDZ";

    DatasetPtr ds_;
    const ZdxIndex& zdx_;
};

// The raw structure under data.jsonl (its non-blank lines, live or not) or docs/ (its files):
// which of them are live documents is the Documents tab's business (zds_live_set.h).
class DocumentsNode final : public Node {
public:
    DocumentsNode(DatasetPtr ds, const ZdsCollection& c, std::string label, Region region)
        : Node(c.mode() == ZdsStorageMode::Jsonl ? "zds.data" : "zds.docs", std::move(label),
               region),
          ds_(std::move(ds)),
          c_(c) {}

protected:
    bool jsonl() const { return c_.mode() == ZdsStorageMode::Jsonl; }
    bool hasLazyChildren() const override { return true; }
    std::uint64_t lazyChildCount() const override {
        return jsonl() ? c_.lineStarts().size() : c_.docFiles().size();
    }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        return jsonl() ? lineNode(index) : docFileNode(index);
    }
    bool childrenSortedByOffset() const override { return jsonl(); }

private:
    std::unique_ptr<Node> lineNode(std::uint64_t index) const {
        const auto& starts = c_.lineStarts();
        const ByteSource& data = *c_.data;
        const std::uint64_t start = starts[index];
        std::uint64_t end = index + 1 < starts.size() ? starts[index + 1] : data.size();
        // A line ends at its newline; blank lines before the next start are not part of it.
        const ByteView v = data.view(start, end - start);
        const auto nl = std::find(v.bytes.begin(), v.bytes.end(), std::uint8_t{'\n'});
        if (nl != v.bytes.end()) {
            end = start + static_cast<std::uint64_t>(nl - v.bytes.begin()) + 1;
        }
        const Region region{&data, start, end - start};
        const std::string id =
            extractJsonId(data.view(start, end - start).bytes).value_or(std::string());
        auto node = std::make_unique<Node>("zds.document", id.empty() ? "(no _id)" : id, region);
        node->setValue("line " + std::to_string(index + 1));
        node->addField("id", id);
        node->addField("offset", start, region);
        node->addField("length", end - start, region);
        return node;
    }
    std::unique_ptr<Node> docFileNode(std::uint64_t index) const {
        const std::string& name = c_.docFiles()[index];
        const ByteSourcePtr src = ds_->storage().open(c_.path("docs/" + name));
        const std::string id = name.ends_with(".json") ? name.substr(0, name.size() - 5) : name;
        auto node = std::make_unique<Node>("zds.document", id,
                                           src ? Region{src.get(), 0, src->size()} : Region{});
        node->addField("file", "docs/" + name);
        if (src) {
            node->addField("size", src->size(), Region{src.get(), 0, src->size()});
        } else {
            node->setStatus(Status::Error);
            node->setValue("unreadable");
        }
        return node;
    }

    DatasetPtr ds_;
    const ZdsCollection& c_;
};

class MembersNode final : public Node {
public:
    explicit MembersNode(DatasetPtr ds)
        : Node("zds.zip.members", "archive members"), ds_(std::move(ds)) {
        setValue(std::to_string(ds_->archive()->members().size()) + " members");
    }

protected:
    bool hasLazyChildren() const override { return true; }
    std::uint64_t lazyChildCount() const override { return ds_->archive()->members().size(); }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const ZipArchive& za = *ds_->archive();
        const ZipMember& m = za.members()[index];
        const ByteSource* src = za.archiveSource().get();
        const std::uint64_t end =
            saturatingEnd(m.dataOffset.value_or(m.localHeaderOffset), m.compressedSize);
        auto node = std::make_unique<Node>(
            "zds.zip.member", m.name,
            Region{src, m.localHeaderOffset, end - m.localHeaderOffset}.clipped());
        node->addField("method", std::uint64_t{m.method}, {},
                       m.method == kZipMethodStore     ? "0 (STORE)"
                       : m.method == kZipMethodDeflate ? "8 (DEFLATE)"
                                                       : std::to_string(m.method));
        node->addField("compressed size", m.compressedSize);
        node->addField("uncompressed size", m.uncompressedSize);
        char crc[16];
        std::snprintf(crc, sizeof crc, "0x%08x", m.crc);
        node->addField("crc32", std::string(crc));
        node->addField("local header offset", m.localHeaderOffset);
        if (m.dataOffset) {
            node->addField("data offset", *m.dataOffset,
                           Region{src, *m.dataOffset, m.compressedSize}.clipped());
        } else {
            node->setStatus(Status::Error);
        }
        return node;
    }
    bool childrenSortedByOffset() const override { return false; }

private:
    DatasetPtr ds_;
};

// The root keeps the dataset, and with it every source a node or diagnostic points into.
class DatasetNode final : public Node {
public:
    DatasetNode(DatasetPtr ds, Region region)
        : Node("zds.dataset", ds->path().filename().string(), region), ds_(std::move(ds)) {}

private:
    DatasetPtr ds_;
};

std::unique_ptr<Node> collectionNode(const DatasetPtr& ds, const ZdsCollection& c) {
    auto node = std::make_unique<Node>("zds.collection", c.name());
    std::string mode = c.mode() == ZdsStorageMode::Jsonl
                           ? (c.index ? "JSONL + index" : "JSONL, no index")
                       : c.mode() == ZdsStorageMode::Docs ? "file per document"
                                                          : "empty";
    node->setValue(mode);
    node->addField("storage", mode);
    if (c.manifest) {
        node->appendChild(fileNode("zds.manifest", "manifest.json", c.manifest));
    }
    if (c.index) {
        node->appendChild(std::make_unique<ZdxNode>(ds, c));
    }
    if (c.data) {
        node->appendChild(std::make_unique<DocumentsNode>(ds, c, "data.jsonl",
                                                          Region{c.data.get(), 0, c.data->size()}));
    } else if (c.mode() == ZdsStorageMode::Docs) {
        node->appendChild(std::make_unique<DocumentsNode>(ds, c, "docs", Region{}));
    }
    if (c.orderIds) {
        node->appendChild(fileNode("zds.file", "order.ids", c.orderIds));
    }
    if (c.docIndex) {
        node->appendChild(fileNode("zds.file", "doc_index.jsonl", c.docIndex));
    }
    return node;
}

}  // namespace

std::unique_ptr<Node> buildZdsTree(std::shared_ptr<const ZdsDataset> ds) {
    Region rootRegion;
    if (ds->archive()) {
        const auto& src = ds->archive()->archiveSource();
        rootRegion = {src.get(), 0, src->size()};
    }
    auto root = std::make_unique<DatasetNode>(ds, rootRegion);
    root->setValue(std::to_string(ds->collections.size()) + " collections" +
                   (ds->archive() ? " (ZIP archive)" : ""));
    if (ds->zdsJson) {
        root->appendChild(fileNode("zds.metadata", "zds.json", ds->zdsJson));
    }
    for (const auto& c : ds->collections) {
        root->appendChild(collectionNode(ds, *c));
    }
    if (ds->archive()) {
        root->appendChild(std::make_unique<MembersNode>(ds));
    }
    return root;
}

}  // namespace strata::zds
