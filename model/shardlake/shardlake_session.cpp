#include "shardlake_session.h"

#include "formats/shardlake/shardlake_format.h"
#include "formats/shardlake/shardlake_json.h"
#include "formats/shardlake/shardlake_manifest.h"

namespace strata::model {

namespace fs = std::filesystem;
using namespace strata::shardlake;

namespace {

ShardlakeSession::Kind kindOf(const strata::Node* root) {
    if (root == nullptr) {
        return ShardlakeSession::Kind::Other;
    }
    const std::string& kind = root->kind();
    if (kind == "shardlake.root") {
        return ShardlakeSession::Kind::Root;
    }
    if (kind == "shardlake.index") {
        return ShardlakeSession::Kind::Index;
    }
    if (kind == "shardlake.shard") {
        return ShardlakeSession::Kind::Shard;
    }
    if (kind == "shardlake.coarse_quantizer") {
        return ShardlakeSession::Kind::CoarseQuantizer;
    }
    return ShardlakeSession::Kind::Other;
}

std::string stripJson(const std::string& name) {
    return name.ends_with(".json") ? name.substr(0, name.size() - 5) : name;
}

ShardlakeAliasInfo readAliasFile(const Store& store, const std::string& file) {
    ShardlakeAliasInfo info;
    info.name = stripJson(file);
    const JsonDoc doc = loadJson(store.source("aliases/" + file));
    if (!doc.parsed) {
        info.error = doc.error.empty() ? "unreadable" : doc.error;
        return info;
    }
    std::vector<Diagnostic> ignored;
    if (const auto pointer = readAlias(doc, ignored)) {
        info.target = pointer->indexVersion;
    } else {
        info.error = "no index_version";
    }
    return info;
}

ShardlakeDatasetInfo readDataset(const Store& store, const std::string& version) {
    ShardlakeDatasetInfo info;
    info.version = version;
    const JsonDoc doc = loadJson(store.source("datasets/" + version + "/info.json"));
    if (!doc.parsed) {
        info.error = doc.error.empty() ? "info.json missing" : doc.error;
        return info;
    }
    std::vector<Diagnostic> ignored;
    const DatasetInfo dataset = readDatasetInfo(doc, ignored);
    info.dims = dataset.dims;
    info.count = dataset.count;
    info.embeddingVersion = dataset.embeddingVersion;
    info.vectorsKey = dataset.vectorsKey;
    return info;
}

}  // namespace

void readShardHeader(ShardlakeShardInfo& info) {
    if (!info.source) {
        info.problem = "missing";
        return;
    }
    const ShardParse parse = parseShard(*info.source);
    info.layout = parse.layout;
    if (!parse.problems.empty()) {
        info.problem = parse.problems.front().message;
    } else if (!parse.layout || !parse.layout->layoutKnown) {
        info.problem = "unreadable header";
    }
}

ShardlakeSession::ShardlakeSession(std::shared_ptr<const strata::OpenedDocument> opened,
                                   QObject* parent)
    : QObject(parent), opened_(std::move(opened)) {
    for (const ByteSourcePtr& source : opened_->sources) {
        documentSources_.emplace(source->name(), source.get());
    }
    kind_ = kindOf(opened_->root.get());
    const fs::path& path = opened_->path;
    switch (kind_) {
        case Kind::Root:
            rootPath_ = path;
            store_ = makeStore();
            readRoot({});
            break;
        case Kind::Index:
            rootPath_ = path.parent_path().parent_path();
            store_ = makeStore();
            readRoot(path.filename().string());
            break;
        case Kind::Shard:
        case Kind::CoarseQuantizer:
        case Kind::Other:
            rootPath_ = path.parent_path();
            store_ = makeStore();
            if (!opened_->sources.empty() && kind_ != Kind::Other) {
                singleFile_ = opened_->sources.front();
            }
            if (kind_ == Kind::Shard && singleFile_) {
                ShardlakeShardInfo shard;
                shard.key = path.filename().string();
                shard.source = singleFile_;
                readShardHeader(shard);
                shard.shardId = shard.layout ? shard.layout->shardId : 0;
                singleShard_ = std::move(shard);
            }
            break;
    }
}

ShardlakeSession::~ShardlakeSession() = default;

std::shared_ptr<const Store> ShardlakeSession::makeStore() const {
    // The store the document was opened with, when it is this root's: its files are open
    // already, and a second store would open every shard again.
    if (auto store = shardlake::openedAs<Store>(*opened_); store && store->root() == rootPath_) {
        return store;
    }
    if (auto index = shardlake::openedAs<StoreIndex>(*opened_);
        index && index->store->root() == rootPath_) {
        return index->store;
    }
    // A document opened from a URL reads the rest of its root through the same remote tree.
    return opened_->tree ? std::make_shared<Store>(opened_->tree, rootPath_)
                         : std::make_shared<Store>(rootPath_);
}

void ShardlakeSession::readRoot(const std::string& onlyIndex) {
    if (onlyIndex.empty()) {
        for (const std::string& version : store_->folders("datasets")) {
            datasets_.push_back(readDataset(*store_, version));
        }
        for (const std::string& version : store_->folders("indexes")) {
            indexes_.push_back(readIndex(version));
        }
        for (const std::string& file : store_->files("aliases")) {
            if (file.ends_with(".json")) {
                aliases_.push_back(readAliasFile(*store_, file));
            }
        }
        return;
    }
    indexes_.push_back(readIndex(onlyIndex));
}

ShardlakeIndexInfo ShardlakeSession::readIndex(const std::string& version) const {
    ShardlakeIndexInfo info;
    info.version = version;
    const JsonDoc doc = loadJson(store_->source("indexes/" + version + "/manifest.json"));
    if (!doc.parsed) {
        info.error = doc.error.empty() ? "manifest.json missing" : doc.error;
        return info;
    }
    std::vector<Diagnostic> ignored;
    const IndexManifest manifest = readIndexManifest(doc, ignored);
    info.metric = manifest.metric;
    info.dims = manifest.dims;
    info.totalVectors = manifest.totalVectorCount;
    info.pq = manifest.compression.pqShards();
    info.pqM = manifest.compression.pqM.value_or(0);
    info.pqK = manifest.compression.pqK.value_or(0);
    info.datasetVersion = manifest.datasetVersion;
    info.vectorsKey = manifest.vectorsKey;
    info.coarseQuantizerKey = manifest.coarseQuantizerKey.empty()
                                  ? "indexes/" + version + "/coarse_quantizer.cq"
                                  : manifest.coarseQuantizerKey;
    for (const ShardEntry& entry : manifest.shards) {
        ShardlakeShardInfo shard;
        shard.key = entry.artifactKey;
        shard.shardId = entry.shardId.value_or(entry.position);
        shard.manifestCount = entry.vectorCount;
        shard.manifestFingerprint = entry.fingerprint;
        shard.source = store_->source(entry.artifactKey);
        readShardHeader(shard);
        info.shards.push_back(std::move(shard));
    }
    return info;
}

const ShardlakeIndexInfo* ShardlakeSession::index(const std::string& version) const {
    for (const ShardlakeIndexInfo& info : indexes_) {
        if (info.version == version) {
            return &info;
        }
    }
    return nullptr;
}

strata::Region ShardlakeSession::documentRegion(const strata::Region& region) const {
    if (region.source == nullptr) {
        return {};
    }
    if (const auto it = documentSources_.find(region.source->name());
        it != documentSources_.end()) {
        return {it->second, region.offset, region.length};
    }
    // A file the document's own store opened after open() (a shard the tree had not shown
    // yet): the session reads through that store, so the source is the document's already.
    if (opened_->sourceOpenedLater && opened_->sourceOpenedLater(region.source)) {
        return region;
    }
    return {};
}

std::shared_ptr<const LoadedIndex> ShardlakeSession::loadedIndex(const std::string& version,
                                                                 std::string* error) const {
    std::lock_guard lock(loadMutex_);
    if (const auto it = loaded_.find(version); it != loaded_.end()) {
        return it->second;
    }
    IndexLoad load = shardlake::loadIndex(*store_, version);
    if (!load.index) {
        if (error != nullptr) {
            *error = load.error;
        }
        return nullptr;
    }
    auto index = std::make_shared<const LoadedIndex>(std::move(*load.index));
    loaded_.emplace(version, index);
    return index;
}

}  // namespace strata::model
