#include "shardlake_tree.h"

#include <algorithm>
#include <set>

#include "formats/common/le_reader.h"
#include "shardlake_binary.h"
#include "shardlake_json.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace {

Region wholeOf(const ByteSourcePtr& source) {
    return source ? Region{source.get(), 0, source->size()} : Region{};
}

// Children that live in different files: deepestAt must not binary-search them.
class GroupNode final : public Node {
public:
    using Node::Node;

protected:
    bool childrenSortedByOffset() const override { return false; }
};

std::unique_ptr<Node> makeGroup(std::string kind, std::string label) {
    return std::make_unique<GroupNode>(std::move(kind), std::move(label));
}

std::unique_ptr<Node> makeMissing(const std::string& key) {
    auto node = std::make_unique<Node>("shardlake.missing", key);
    node->setValue("missing");
    node->setStatus(Status::Error);
    return node;
}

void addHeaderFields(Node& node, const std::vector<HeaderField>& fields) {
    for (const HeaderField& field : fields) {
        if (field.name == "magic") {
            // Its bytes from its value (little-endian): no second read of the file.
            std::string text;
            for (unsigned i = 0; i < 8; ++i) {
                const auto b = static_cast<std::uint8_t>(field.value >> (8 * i));
                text += b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '.';
            }
            node.addField(field.name, text, field.region);
        } else {
            node.addField(field.name, field.value, field.region);
        }
    }
}

// Equal-sized f32 vectors back to back: shard centroids, quantizer centroids, PQ codewords.
class VectorListNode final : public Node {
public:
    VectorListNode(std::string kind, std::string label, ByteSourcePtr source, std::uint64_t offset,
                   std::uint64_t count, std::uint64_t dims, std::string childKind,
                   std::string childLabel)
        : Node(std::move(kind), std::move(label),
               Region{source.get(), offset, count * dims * 4}.clipped()),
          source_(std::move(source)),
          offset_(offset),
          count_(count),
          dims_(dims),
          childKind_(std::move(childKind)),
          childLabel_(std::move(childLabel)) {
        setValue(std::to_string(count) + " × " + std::to_string(dims) + " f32");
    }

protected:
    bool hasLazyChildren() const override { return count_ > 0; }
    std::uint64_t lazyChildCount() const override { return count_; }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const std::uint64_t offset = offset_ + index * dims_ * 4;
        auto node = std::make_unique<Node>(childKind_, childLabel_ + " " + std::to_string(index),
                                           Region{source_.get(), offset, dims_ * 4});
        const std::vector<float> values = readF32s(*source_, offset, dims_);
        node->setValue(formatVector(values));
        node->addField("values", formatVector(values, 64), node->region());
        return node;
    }
    std::optional<std::uint64_t> childIndexAt(std::uint64_t offset,
                                              const ByteSource* source) const override {
        if (source != source_.get() || offset < offset_ || dims_ == 0) {
            return std::nullopt;
        }
        const std::uint64_t index = (offset - offset_) / (dims_ * 4);
        return index < count_ ? std::optional(index) : std::nullopt;
    }

private:
    ByteSourcePtr source_;
    std::uint64_t offset_, count_, dims_;
    std::string childKind_, childLabel_;
};

// The records of a shard, made one at a time at recordsOffset + i × recordSize.
class RecordsNode final : public Node {
public:
    RecordsNode(ByteSourcePtr source, const ShardLayout& layout)
        : Node("shardlake.records", "records",
               Region{source.get(), layout.recordsOffset,
                      layout.recordsPresent() * layout.recordSize}),
          source_(std::move(source)),
          layout_(layout),
          count_(layout.recordsPresent()) {
        setValue(std::to_string(count_) + " of " + std::to_string(layout.vectorCount) +
                 " records present");
    }

protected:
    bool hasLazyChildren() const override { return count_ > 0; }
    std::uint64_t lazyChildCount() const override { return count_; }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const std::uint64_t offset = layout_.recordOffset(index);
        const std::uint64_t id = readLe<std::uint64_t>(*source_, offset).value_or(0);
        auto node = std::make_unique<Node>("shardlake.record", "record " + std::to_string(index),
                                           Region{source_.get(), offset, layout_.recordSize});
        node->addField("id", id, {source_.get(), offset, 8});
        const Region body{source_.get(), offset + 8, layout_.recordSize - 8};
        if (layout_.isPq()) {
            const ByteView codes = source_->view(body.offset, body.length);
            std::string text;
            for (const std::uint8_t code : codes.bytes) {
                text += (text.empty() ? "" : " ") + std::to_string(code);
            }
            node->addField("codes", text, body);
            node->setValue("id " + std::to_string(id) + ": codes " + text);
        } else {
            const std::vector<float> values = readF32s(*source_, body.offset, layout_.dims);
            node->addField("vector", formatVector(values, 64), body);
            node->setValue("id " + std::to_string(id) + " " + formatVector(values));
        }
        return node;
    }
    std::optional<std::uint64_t> childIndexAt(std::uint64_t offset,
                                              const ByteSource* source) const override {
        if (source != source_.get() || offset < layout_.recordsOffset) {
            return std::nullopt;
        }
        const std::uint64_t index = (offset - layout_.recordsOffset) / layout_.recordSize;
        return index < count_ ? std::optional(index) : std::nullopt;
    }

private:
    ByteSourcePtr source_;
    ShardLayout layout_;
    std::uint64_t count_;
};

void markProblems(Node& node, const std::vector<BinaryProblem>& problems) {
    if (!problems.empty()) {
        node.setStatus(Status::Error);
        node.setValue(problems.front().message);
    }
}

std::unique_ptr<Node> makeHeaderNode(const ByteSourcePtr& source, std::uint64_t size,
                                     const std::vector<HeaderField>& fields) {
    auto header = std::make_unique<Node>("shardlake.shard.header", "header",
                                         Region{source.get(), 0, size}.clipped());
    addHeaderFields(*header, fields);
    return header;
}

void addTrailing(Node& node, const ByteSourcePtr& source, std::optional<std::uint64_t> expected) {
    if (expected && *expected < source->size()) {
        auto trailing =
            std::make_unique<Node>("shardlake.trailing", "trailing bytes",
                                   Region{source.get(), *expected, source->size() - *expected});
        trailing->setStatus(Status::Error);
        trailing->setValue(std::to_string(source->size() - *expected) + " bytes");
        node.appendChild(std::move(trailing));
    }
}

void addScalarFields(Node& node, const JsonDoc& doc) {
    if (!doc.value.is_object()) {
        return;
    }
    for (auto it = doc.value.begin(); it != doc.value.end(); ++it) {
        const Region region = doc.regionOf("/" + it.key());
        const auto& value = it.value();
        if (value.is_string()) {
            node.addField(it.key(), value.get<std::string>(), region);
        } else if (value.is_number_unsigned()) {
            node.addField(it.key(), value.get<std::uint64_t>(), region);
        } else if (value.is_number_integer()) {
            node.addField(it.key(), value.get<std::int64_t>(), region);
        } else if (value.is_number_float()) {
            node.addField(it.key(), value.get<double>(), region);
        } else if (value.is_boolean()) {
            node.addField(it.key(), value.get<bool>(), region);
        } else if (value.is_array()) {
            node.addField(it.key(), std::string{}, region,
                          "array of " + std::to_string(value.size()));
        } else if (value.is_object()) {
            std::string text = value.dump();
            if (text.size() > 120) {
                text = text.substr(0, 117) + "...";
            }
            node.addField(it.key(), std::string{}, region, text);
        }
    }
}

void addManifestShards(Node& node, const JsonDoc& doc) {
    const auto shards = doc.value.find("shards");
    if (shards == doc.value.end() || !shards->is_array()) {
        return;
    }
    for (std::size_t i = 0; i < shards->size(); ++i) {
        const auto& entry = (*shards)[i];
        auto child =
            std::make_unique<Node>("shardlake.manifest.shard", "shards[" + std::to_string(i) + "]",
                                   doc.regionOf(pointerOf("/shards", i)));
        if (entry.is_object()) {
            for (auto it = entry.begin(); it != entry.end(); ++it) {
                const Region region = doc.regionOf(pointerOf("/shards", i, it.key()));
                std::string text =
                    it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
                if (text.size() > 120) {
                    text = text.substr(0, 117) + "...";
                }
                child->addField(it.key(), text, region);
            }
            if (const auto key = entry.find("artifact_key");
                key != entry.end() && key->is_string()) {
                child->setValue(key->get<std::string>());
            }
        }
        node.appendChild(std::move(child));
    }
}

std::unique_ptr<Node> sourceOrMissing(const Store& store, const std::string& key,
                                      std::unique_ptr<Node> (*make)(ByteSourcePtr, std::string)) {
    if (ByteSourcePtr source = store.source(key)) {
        return make(std::move(source), key);
    }
    return makeMissing(key);
}

std::unique_ptr<Node> jsonOrMissing(const Store& store, const std::string& key,
                                    const std::string& kind) {
    if (ByteSourcePtr source = store.source(key)) {
        return makeJsonNode(std::move(source), kind, key);
    }
    return makeMissing(key);
}

std::unique_ptr<Node> makeFileNode(ByteSourcePtr source, std::string label) {
    auto node = std::make_unique<Node>("shardlake.file", std::move(label), wholeOf(source));
    node->setValue(std::to_string(source->size()) + " bytes");
    return node;
}

// Children are labelled with their key; inside a folder node, the folder's part is redundant.
void shortenLabels(Node& node, const std::string& prefix) {
    for (std::uint64_t i = 0; i < node.childCount(); ++i) {
        Node* child = node.child(i);
        if (child->label().starts_with(prefix + "/")) {
            child->setLabel(child->label().substr(prefix.size() + 1));
        }
    }
}

}  // namespace

std::unique_ptr<Node> makeShardNode(ByteSourcePtr source, std::string label) {
    auto node = std::make_unique<Node>("shardlake.shard", std::move(label), wholeOf(source));
    const ShardParse parse = parseShard(*source);
    if (!parse.layout) {
        markProblems(*node, parse.problems);
        return node;
    }
    const ShardLayout& layout = *parse.layout;
    node->appendChild(makeHeaderNode(source, layout.headerSize, parse.fields));
    for (const HeaderField& field : parse.fields) {
        if (field.name != "magic") {
            node->addField(field.name, field.value, field.region);
        }
    }
    if (layout.layoutKnown) {
        node->setValue(std::string(layout.isPq() ? "PQ" : "raw") + ", " +
                       std::to_string(layout.vectorCount) + " × " + std::to_string(layout.dims) +
                       " dims");
        node->appendChild(std::make_unique<VectorListNode>(
            "shardlake.centroids", "centroids", source, layout.centroidsOffset,
            layout.centroidsPresent(), layout.dims, "shardlake.centroid", "centroid"));
        node->appendChild(std::make_unique<RecordsNode>(source, layout));
        addTrailing(*node, source, layout.expectedSize);
    }
    markProblems(*node, parse.problems);
    return node;
}

std::unique_ptr<Node> makeCoarseQuantizerNode(ByteSourcePtr source, std::string label) {
    auto node =
        std::make_unique<Node>("shardlake.coarse_quantizer", std::move(label), wholeOf(source));
    const CoarseParse parse = parseCoarseQuantizer(*source);
    if (parse.layout) {
        node->appendChild(makeHeaderNode(source, kCoarseHeaderSize, parse.fields));
        const CoarseLayout& layout = *parse.layout;
        node->setValue(std::to_string(layout.clusters) + " clusters × " +
                       std::to_string(layout.dims) + " dims");
        if (layout.layoutKnown) {
            node->appendChild(std::make_unique<VectorListNode>(
                "shardlake.centroids", "centroids", source, kCoarseHeaderSize,
                layout.centroidsPresent(), layout.dims, "shardlake.centroid", "centroid"));
            addTrailing(*node, source, layout.expectedSize);
        }
    }
    markProblems(*node, parse.problems);
    return node;
}

std::unique_ptr<Node> makeCodebookNode(ByteSourcePtr source, std::string label) {
    auto node = std::make_unique<Node>("shardlake.pq_codebook", std::move(label), wholeOf(source));
    const CodebookParse parse = parseCodebook(*source);
    if (parse.layout) {
        node->appendChild(makeHeaderNode(source, kCodebookHeaderSize, parse.fields));
        const CodebookLayout& layout = *parse.layout;
        node->setValue("M " + std::to_string(layout.m) + ", K " + std::to_string(layout.k) +
                       ", sub_dims " + std::to_string(layout.subDims));
        if (layout.layoutKnown) {
            node->appendChild(std::make_unique<VectorListNode>(
                "shardlake.codewords", "codewords", source, kCodebookHeaderSize,
                layout.codewordsPresent(), layout.subDims, "shardlake.codeword", "codeword"));
            addTrailing(*node, source, layout.expectedSize);
        }
    }
    markProblems(*node, parse.problems);
    return node;
}

std::unique_ptr<Node> makeJsonNode(ByteSourcePtr source, std::string kind, std::string label) {
    auto node = std::make_unique<Node>(kind, std::move(label), wholeOf(source));
    const JsonDoc doc = loadJson(source);
    if (!doc.parsed) {
        node->setStatus(Status::Error);
        node->setValue(doc.error);
        return node;
    }
    addScalarFields(*node, doc);
    if (kind == "shardlake.manifest") {
        addManifestShards(*node, doc);
    } else if (kind == "shardlake.alias" && doc.value.is_object()) {
        const auto target = doc.value.find("index_version");
        if (target != doc.value.end() && target->is_string()) {
            node->setValue("→ " + target->get<std::string>());
        }
    }
    return node;
}

namespace {

// An index folder's files, each read and parsed when the tree first shows it: a root of 10,000
// shards opens with its manifest read and its folder listed, not with every shard parsed.
class IndexNode final : public Node {
public:
    enum class Maker { Manifest, Shard, CoarseQuantizer, Codebook, Json, File };
    struct Entry {
        std::string key;
        Maker maker;
    };

    IndexNode(const Store& store, std::string version, std::vector<Entry> entries)
        : Node("shardlake.index", version),
          store_(store),
          prefix_("indexes/" + version + "/"),
          entries_(std::move(entries)) {}

protected:
    bool hasLazyChildren() const override { return !entries_.empty(); }
    std::uint64_t lazyChildCount() const override { return entries_.size(); }
    bool childrenSortedByOffset() const override { return false; }
    // A file's bytes can only lie under the entry that opened it (the store keeps each file
    // once), so a lookup by offset builds one child, not 10,000.
    bool childMayCover(std::uint64_t index, const ByteSource* source) const override {
        return source == nullptr || store_.openedSource(entries_[index].key).get() == source;
    }

    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const Entry& entry = entries_[index];
        std::unique_ptr<Node> node;
        try {
            node = build(entry);
        } catch (const SourceError& e) {
            // Unreadable (permissions, descriptors, a server failing): shown, never thrown
            // into the view that asked.
            node = std::make_unique<Node>("shardlake.missing", entry.key);
            node->setValue(e.what());
            node->setStatus(Status::Error);
        }
        if (node->label().starts_with(prefix_)) {
            node->setLabel(node->label().substr(prefix_.size()));
        }
        return node;
    }

private:
    std::unique_ptr<Node> build(const Entry& entry) const {
        switch (entry.maker) {
            case Maker::Manifest:
                return jsonOrMissing(store_, entry.key, "shardlake.manifest");
            case Maker::Shard:
                return sourceOrMissing(store_, entry.key, makeShardNode);
            case Maker::CoarseQuantizer:
                return sourceOrMissing(store_, entry.key, makeCoarseQuantizerNode);
            case Maker::Codebook:
                return sourceOrMissing(store_, entry.key, makeCodebookNode);
            case Maker::Json:
                return jsonOrMissing(store_, entry.key, "shardlake.json");
            case Maker::File:
                return sourceOrMissing(store_, entry.key, makeFileNode);
        }
        return makeMissing(entry.key);
    }

    const Store& store_;
    std::string prefix_;
    std::vector<Entry> entries_;
};

// Worker outputs and other files under indexes/<v>/ that are not shards.
void listExtraFiles(std::vector<IndexNode::Entry>& entries, const Store& store,
                    const std::string& prefix) {
    const auto add = [&entries](const std::string& key, const std::string& name) {
        entries.push_back(
            {key, name.ends_with(".json") ? IndexNode::Maker::Json : IndexNode::Maker::File});
    };
    for (const std::string& name : store.files(prefix)) {
        if (name != "manifest.json" && name != "coarse_quantizer.cq" && name != "pq_codebook.bin") {
            add(prefix + "/" + name, name);
        }
    }
    const std::string workers = prefix + "/workers";
    for (const std::string& worker : store.folders(workers)) {
        for (const std::string& name : store.files(workers + "/" + worker)) {
            add(workers + "/" + worker + "/" + name, name);
        }
    }
}

}  // namespace

std::unique_ptr<Node> makeIndexNode(const Store& store, const std::string& version) {
    using Maker = IndexNode::Maker;
    const std::string prefix = "indexes/" + version;
    const std::string manifestKey = prefix + "/manifest.json";
    std::vector<IndexNode::Entry> entries{{manifestKey, Maker::Manifest}};
    IndexManifest manifest;
    const JsonDoc doc = loadJson(store.source(manifestKey));
    if (doc.parsed) {
        std::vector<Diagnostic> ignored;
        manifest = readIndexManifest(doc, ignored);
    }
    std::set<std::string> shown;
    for (const ShardEntry& shard : manifest.shards) {
        if (!shard.artifactKey.empty() && shown.insert(shard.artifactKey).second) {
            entries.push_back({shard.artifactKey, Maker::Shard});
        }
    }
    // Shard files the manifest does not list (or all of them when it cannot be read).
    for (const std::string& name : store.files(prefix + "/shards")) {
        const std::string key = prefix + "/shards/" + name;
        if (name.ends_with(".sidx") && shown.insert(key).second) {
            entries.push_back({key, Maker::Shard});
        }
    }
    const std::string cqKey = manifest.coarseQuantizerKey.empty() ? prefix + "/coarse_quantizer.cq"
                                                                  : manifest.coarseQuantizerKey;
    if (store.exists(cqKey) || !manifest.coarseQuantizerKey.empty()) {
        entries.push_back({cqKey, Maker::CoarseQuantizer});
    }
    const std::string codebookKey = manifest.compression.codebookKey.empty()
                                        ? prefix + "/pq_codebook.bin"
                                        : manifest.compression.codebookKey;
    if (store.exists(codebookKey) || !manifest.compression.codebookKey.empty()) {
        entries.push_back({codebookKey, Maker::Codebook});
    }
    listExtraFiles(entries, store, prefix);
    auto node = std::make_unique<IndexNode>(store, version, std::move(entries));
    node->setValue(manifest.metric.empty()
                       ? std::string("index")
                       : manifest.metric + ", " + std::to_string(manifest.shards.size()) +
                             " shards");
    return node;
}

// A dataset's extra JSON files up to this size are parsed for the tree.
constexpr std::uint64_t kParsedJsonLimit = 1U << 20U;

std::unique_ptr<Node> makeDatasetNode(const Store& store, const std::string& version) {
    const std::string prefix = "datasets/" + version;
    auto node = makeGroup("shardlake.dataset", version);
    node->appendChild(jsonOrMissing(store, prefix + "/info.json", "shardlake.dataset_info"));
    for (const std::string& name : store.files(prefix)) {
        const std::string key = prefix + "/" + name;
        if (name == "info.json") {
            continue;
        }
        if (ByteSourcePtr source = store.source(key)) {
            if (name.ends_with(".jsonl")) {
                auto vectors = std::make_unique<Node>("shardlake.vectors", key, wholeOf(source));
                vectors->setValue(std::to_string(source->size()) + " bytes of JSON lines");
                node->appendChild(std::move(vectors));
            } else if (name.ends_with(".json") && source->size() > kParsedJsonLimit) {
                // metadata.json of a big dataset (an object per vector): parsing it for a node
                // that shows top-level scalars would cost the open a second per 200,000
                // vectors. Validation reads it.
                auto json = std::make_unique<Node>("shardlake.json", key, wholeOf(source));
                json->setValue(std::to_string(source->size()) + " bytes of JSON");
                node->appendChild(std::move(json));
            } else {
                node->appendChild(name.ends_with(".json")
                                      ? makeJsonNode(source, "shardlake.json", key)
                                      : makeFileNode(source, key));
            }
        }
    }
    shortenLabels(*node, prefix);
    return node;
}

std::unique_ptr<Node> makeRootNode(const Store& store) {
    auto root = makeGroup("shardlake.root", store.root().filename().string());
    auto datasets = makeGroup("shardlake.datasets", "datasets");
    for (const std::string& version : store.folders("datasets")) {
        datasets->appendChild(makeDatasetNode(store, version));
    }
    auto indexes = makeGroup("shardlake.indexes", "indexes");
    for (const std::string& version : store.folders("indexes")) {
        indexes->appendChild(makeIndexNode(store, version));
    }
    auto aliases = makeGroup("shardlake.aliases", "aliases");
    for (const std::string& name : store.files("aliases")) {
        if (ByteSourcePtr source = store.source("aliases/" + name)) {
            aliases->appendChild(makeJsonNode(source, "shardlake.alias", "aliases/" + name));
        }
    }
    shortenLabels(*aliases, "aliases");
    root->setValue(std::to_string(datasets->childCount()) + " datasets, " +
                   std::to_string(indexes->childCount()) + " indexes, " +
                   std::to_string(aliases->childCount()) + " aliases");
    root->appendChild(std::move(datasets));
    root->appendChild(std::move(indexes));
    root->appendChild(std::move(aliases));
    return root;
}

}  // namespace strata::shardlake
