// Internal to the Shardlake index repair: the shard files it weighs and the repair's state, which
// shardlake_repair_index.cpp, shardlake_repair_index_shards.cpp and ..._output.cpp share.
#pragma once

#include "shardlake_repair_parts.h"

namespace strata::shardlake::repair {

struct RawHeader {
    bool present = false;  // at least 32 bytes
    bool magicOk = false;
    std::uint32_t version = 0;
    std::uint32_t shardId = 0;
    std::uint32_t dims = 0;
    std::uint32_t centroids = 0;
    std::uint64_t count = 0;
    bool pqPresent = false;
    std::uint32_t pqM = 0;
    std::uint32_t pqK = 0;
};

enum class Trust { None, Fingerprint, Dataset, Recomputed };

struct Candidate {
    bool listed = false;
    std::size_t position = 0;
    ojson entry = ojson::object();
    std::string key;
    std::optional<std::uint64_t> entryId;
    std::optional<std::uint64_t> entryCount;
    std::string entryFp;
    std::vector<std::string> fpFields;
    std::optional<std::vector<float>> entryCentroid;
    ByteSourcePtr source;
    RawHeader header;

    // Decided layout.
    bool usable = false;
    bool laidOut = false;  // keep[] is set; losses from here on are counted per record
    std::uint64_t oldId = 0;
    std::uint32_t centroidCount = 1;
    std::uint64_t headerSize = 0;
    std::uint64_t recordsOffset = 0;
    std::uint64_t recordSize = 0;
    std::uint64_t count = 0;    // the records the shard should hold
    std::uint64_t present = 0;  // of those, complete in the file
    std::vector<std::string> fixes;
    std::vector<float> centroid;
    bool centroidAgreed = false;
    bool centroidSole = false;  // one source only: the file's own, or the manifest's
    std::string centroidNote;
    std::uint64_t fingerprint = 0;
    std::vector<std::uint8_t> keep;  // per present record
    Trust trust = Trust::None;
    std::uint64_t newId = 0;
    std::string newKey;

    std::uint64_t kept() const {
        return static_cast<std::uint64_t>(std::count(keep.begin(), keep.end(), 1));
    }
    Region recordRegion(std::uint64_t first, std::uint64_t n) const {
        return {source.get(), recordsOffset + first * recordSize, n * recordSize};
    }
};

class IndexRepair {
public:
    IndexRepair(Context& ctx, std::string version)
        : ctx_(ctx), in_(*ctx.store), v_(std::move(version)) {}

    void run();

private:
    bool readManifest();
    bool decideFacts();
    void collectCandidates();
    void layOut(Candidate& c);
    void matchDataset();
    void decideCentroid(Candidate& c);
    void scanRecords(Candidate& c);
    void decideTrust(Candidate& c);
    void dropDuplicateIds();
    void dropRecords(Candidate& c, std::uint64_t first, std::uint64_t n, const std::string& why);
    void loseShard(Candidate& c, const std::string& why);
    void write();
    void keepBuildMetadata(ojson& m);
    void keepOrphans(const std::vector<const Candidate*>& orphans);
    void leaveAbsent(ojson& object, const char* key, const std::string& path);
    void listManifestChanges(const std::string& written);
    std::size_t indexOf(const Candidate& c) const {
        return static_cast<std::size_t>(&c - candidates_.data());
    }
    // The manifest lists no shard (rebuilt, or its list is empty): files found beside it are the
    // index, and losing one is a loss, not a leftover left out.
    bool rebuilt() const { return salvaged_ || listedCount_ == 0; }
    std::string where(const Candidate& c) const {
        return "index " + v_ + ", shard " +
               (c.listed && c.entryId ? std::to_string(*c.entryId) : "file") + " (" + c.key + ")";
    }

    Context& ctx_;
    const Store& in_;
    std::string v_;
    std::string base_() const { return "indexes/" + v_; }

    ByteSourcePtr manifestSource_;
    std::optional<ojson> manifest_;  // parsed or salvaged
    bool salvaged_ = false;
    std::vector<std::string> manifestChanges_;

    std::uint32_t dims_ = 0;
    bool pq_ = false;
    std::uint32_t pqM_ = 0;
    std::uint32_t pqK_ = 0;
    std::string metric_;
    std::string datasetVersion_;
    std::string vectorsKey_;
    std::string metadataKey_;
    std::string cqKey_;
    ByteSourcePtr cq_;
    std::optional<CoarseLayout> cqLayout_;  // when the quantizer is readable with the index's dims
    std::string codebookKey_;
    ByteSourcePtr codebook_;
    std::shared_ptr<RecordMatcher> matcher_;
    std::vector<Candidate> candidates_;
    std::uint64_t lostRecords_ = 0;
    std::size_t listedCount_ = 0;
    bool entriesDropped_ = false;  // a manifest entry listed a file twice or had no usable key
};

}  // namespace strata::shardlake::repair
