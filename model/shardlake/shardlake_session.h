// One Shardlake document as its views see it: which storage root (or single file) it is, what
// the datasets, indexes and aliases of the root hold, and a way back from the views' own byte
// sources to the document's, so a click in a view selects the bytes in the tree and hex view.
#pragma once

#include <QObject>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/registry/format_handler.h"
#include "formats/shardlake/shardlake_binary.h"
#include "formats/shardlake/shardlake_search.h"
#include "formats/shardlake/shardlake_store.h"

namespace strata::model {

struct ShardlakeShardInfo {
    std::string key;  // "indexes/v1/shards/shard-0000.sidx", or the file name of a lone shard
    std::uint64_t shardId = 0;
    std::optional<std::uint64_t> manifestCount;
    std::string manifestFingerprint;  // as the manifest writes it; empty when it has none
    strata::ByteSourcePtr source;     // null when the file is missing
    std::optional<strata::shardlake::ShardLayout> layout;
    std::string problem;  // the first header problem, "missing", or empty
};

struct ShardlakeIndexInfo {
    std::string version;
    std::string metric;
    std::optional<std::uint64_t> dims;
    std::optional<std::uint64_t> totalVectors;
    bool pq = false;
    std::uint64_t pqM = 0;
    std::uint64_t pqK = 0;
    std::string datasetVersion;
    std::string vectorsKey;
    std::string coarseQuantizerKey;
    std::vector<ShardlakeShardInfo> shards;
    std::string error;  // the manifest could not be read
};

struct ShardlakeDatasetInfo {
    std::string version;
    std::optional<std::uint64_t> dims;
    std::optional<std::uint64_t> count;
    std::string embeddingVersion;
    std::string vectorsKey;
    std::string error;
};

struct ShardlakeAliasInfo {
    std::string name;    // file name without .json
    std::string target;  // index_version on disk; empty when unreadable
    std::string error;
};

class ShardlakeSession : public QObject {
    Q_OBJECT
public:
    enum class Kind { Root, Index, Shard, CoarseQuantizer, Other };

    explicit ShardlakeSession(std::shared_ptr<const strata::OpenedDocument> opened,
                              QObject* parent = nullptr);
    ~ShardlakeSession() override;

    Kind kind() const { return kind_; }
    // The storage root (Root, Index); the file's folder otherwise.
    const std::filesystem::path& rootPath() const { return rootPath_; }
    const std::shared_ptr<const strata::shardlake::Store>& store() const { return store_; }
    const std::shared_ptr<const strata::OpenedDocument>& opened() const { return opened_; }

    const std::vector<ShardlakeDatasetInfo>& datasets() const { return datasets_; }
    const std::vector<ShardlakeIndexInfo>& indexes() const { return indexes_; }
    const ShardlakeIndexInfo* index(const std::string& version) const;
    const std::vector<ShardlakeAliasInfo>& aliases() const { return aliases_; }
    // The lone file of Shard and CoarseQuantizer documents.
    const strata::ByteSourcePtr& singleFile() const { return singleFile_; }
    const std::optional<ShardlakeShardInfo>& singleShard() const { return singleShard_; }

    // The same bytes in the document's own source (invalid when the document does not have the
    // file), so DocumentView::selectRegion can show them.
    strata::Region documentRegion(const strata::Region& region) const;

    // The index ready to search, loaded once per version; null with *error when it cannot be.
    std::shared_ptr<const strata::shardlake::LoadedIndex> loadedIndex(const std::string& version,
                                                                      std::string* error) const;

private:
    std::shared_ptr<const strata::shardlake::Store> makeStore() const;
    void readRoot(const std::string& onlyIndex);
    ShardlakeIndexInfo readIndex(const std::string& version) const;

    std::shared_ptr<const strata::OpenedDocument> opened_;
    Kind kind_ = Kind::Other;
    std::filesystem::path rootPath_;
    std::shared_ptr<const strata::shardlake::Store> store_;
    std::vector<ShardlakeDatasetInfo> datasets_;
    std::vector<ShardlakeIndexInfo> indexes_;
    std::vector<ShardlakeAliasInfo> aliases_;
    strata::ByteSourcePtr singleFile_;
    std::optional<ShardlakeShardInfo> singleShard_;
    std::unordered_map<std::string, const strata::ByteSource*> documentSources_;
    mutable std::mutex loadMutex_;
    mutable std::unordered_map<std::string, std::shared_ptr<const strata::shardlake::LoadedIndex>>
        loaded_;
};

// Reads a shard's header into `info` (layout, problem).
void readShardHeader(ShardlakeShardInfo& info);

}  // namespace strata::model
