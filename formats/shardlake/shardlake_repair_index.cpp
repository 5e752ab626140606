// The Shardlake repair of one index version (see shardlake_repair.h): facts by vote, shards
// checked and vouched for, records dropped, shards renumbered, files and manifest planned.
#include "shardlake_repair_parts.h"

#include "formats/common/json_diff.h"

namespace strata::shardlake::repair {

namespace {

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

RawHeader readRawHeader(const ByteSource& source) {
    RawHeader h;
    std::array<std::uint8_t, kShardHeaderV2Size> bytes{};
    const std::size_t n = source.read(0, bytes);
    if (n < kShardHeaderV1Size) {
        return h;
    }
    h.present = true;
    h.magicOk = std::memcmp(bytes.data(), "SLKIDX\0\0", 8) == 0;
    h.version = decodeLe<std::uint32_t>(bytes.data() + 8);
    h.shardId = decodeLe<std::uint32_t>(bytes.data() + 12);
    h.dims = decodeLe<std::uint32_t>(bytes.data() + 16);
    h.centroids = decodeLe<std::uint32_t>(bytes.data() + 20);
    h.count = decodeLe<std::uint64_t>(bytes.data() + 24);
    if (n >= kShardHeaderV2Size) {
        h.pqPresent = true;
        h.pqM = decodeLe<std::uint32_t>(bytes.data() + 32);
        h.pqK = decodeLe<std::uint32_t>(bytes.data() + 36);
    }
    return h;
}

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

bool IndexRepair::readManifest() {
    const std::string key = base_() + "/manifest.json";
    manifestSource_ = in_.source(key);
    if (!manifestSource_) {
        ctx_.action("index " + v_ +
                    ": manifest.json is missing; the manifest is rebuilt from the "
                    "shard files");
        manifest_ = ojson::object();
        salvaged_ = true;
        return true;
    }
    const std::string text = textOf(*manifestSource_);
    if (auto parsed = parseObject(text)) {
        manifest_ = std::move(parsed);
        return true;
    }
    salvaged_ = true;
    if (auto members = salvageByLayout(text)) {
        ctx_.action("index " + v_ + ": manifest.json is not valid JSON; " +
                        plural(members->value.size(), "field was", "fields were") +
                        " read member by member, what cannot be read is rebuilt from the shard "
                        "files where they record it",
                    wholeOf(manifestSource_));
        for (const LostMember& lost : members->lost) {
            ctx_.loss("index " + v_ + ": manifest.json: " +
                          (lost.path.empty()
                               ? std::string("the text is cut short; whatever followed is lost")
                               : "`" + lost.path + "` cannot be read (its value is not kept)"),
                      Region{manifestSource_.get(), lost.offset, lost.length});
        }
        manifest_ = std::move(members->value);
    } else if (std::size_t readUpTo = 0; auto partial = salvagePrefix(text, &readUpTo)) {
        ctx_.action("index " + v_ + ": manifest.json is not valid JSON; its first " +
                        plural(partial->size(), "field", "fields") +
                        " were read, the rest is rebuilt from the shard files where they "
                        "record it",
                    wholeOf(manifestSource_));
        ctx_.loss("index " + v_ + ": manifest.json: the fields after its first " +
                      plural(partial->size(), "field", "fields") +
                      " cannot be read (their values are not kept)",
                  Region{manifestSource_.get(), readUpTo, text.size() - readUpTo});
        manifest_ = std::move(partial);
    } else {
        ctx_.action("index " + v_ +
                        ": manifest.json is not valid JSON and no field of it can be read; the "
                        "manifest is rebuilt from the shard files",
                    wholeOf(manifestSource_));
        ctx_.loss(
            "index " + v_ + ": manifest.json: no field can be read (their values are not kept)",
            wholeOf(manifestSource_));
        manifest_ = ojson::object();
    }
    return true;
}

bool IndexRepair::decideFacts() {
    const ojson& m = *manifest_;
    const Region manifestRegion = wholeOf(manifestSource_);
    auto lose = [&](const std::string& why) {
        ctx_.loss("index " + v_ + " not written: " + why, manifestRegion);
        return false;
    };
    metric_ = stringAt(m, "distance_metric");
    if (!metricFromName(metric_)) {
        return lose(metric_.empty()
                        ? "its distance metric is recorded nowhere but in the manifest, "
                          "which does not hold it"
                        : "its distance metric \"" + metric_ + "\" is not one Shardlake knows");
    }
    // Dims: the manifest, every shard header, the quantizer, the codebook and the dataset vote.
    std::vector<std::uint32_t> dimsVotes;
    const auto manifestDims = unsignedAt(m, "dims");
    if (manifestDims && *manifestDims > 0 && *manifestDims <= kMaxDims) {
        dimsVotes.push_back(static_cast<std::uint32_t>(*manifestDims));
    }
    std::size_t v1 = 0;
    std::size_t v2 = 0;
    std::vector<std::uint32_t> mVotes;
    std::vector<std::uint32_t> kVotes;
    for (const Candidate& c : candidates_) {
        if (c.header.present) {
            if (c.header.dims > 0 && c.header.dims <= kMaxDims) {
                dimsVotes.push_back(c.header.dims);
            }
            v1 += c.header.version == 1 ? 1 : 0;
            v2 += c.header.version == 2 ? 1 : 0;
            if (c.header.version == 2 && c.header.pqPresent) {
                mVotes.push_back(c.header.pqM);
                kVotes.push_back(c.header.pqK);
            }
        }
    }
    const ojson compression = m.contains("compression") ? m["compression"] : ojson();
    const std::string codec = stringAt(compression, "codec");
    const bool manifestPq = codec == "pq8";
    pq_ = v2 != v1 ? v2 > v1 : manifestPq;
    cqKey_ = stringAt(m, "coarse_quantizer_key");
    if (cqKey_.empty() || !keyProblem(cqKey_).empty()) {
        cqKey_ = base_() + "/coarse_quantizer.cq";
    }
    cq_ = in_.source(cqKey_);
    std::optional<CoarseParse> cqParse;
    if (cq_) {
        cqParse = parseCoarseQuantizer(*cq_);
        if (cqParse->layout && cqParse->layout->dims > 0 && cqParse->layout->dims <= kMaxDims) {
            dimsVotes.push_back(cqParse->layout->dims);
        }
    }
    std::optional<CodebookParse> codebookParse;
    if (pq_) {
        codebookKey_ = stringAt(compression, "codebook_key");
        if (codebookKey_.empty() || !keyProblem(codebookKey_).empty() ||
            !in_.exists(codebookKey_)) {
            codebookKey_ = base_() + "/pq_codebook.bin";
        }
        codebook_ = in_.source(codebookKey_);
        if (codebook_) {
            codebookParse = parseCodebook(*codebook_);
            if (codebookParse->layout) {
                dimsVotes.push_back(codebookParse->layout->dims);
                mVotes.push_back(codebookParse->layout->m);
                kVotes.push_back(codebookParse->layout->k);
            }
        }
        if (auto mm = unsignedAt(compression, "pq_num_subspaces"); mm && *mm <= UINT32_MAX) {
            mVotes.push_back(static_cast<std::uint32_t>(*mm));
        }
        if (auto kk = unsignedAt(compression, "pq_codebook_size"); kk && *kk <= UINT32_MAX) {
            kVotes.push_back(static_cast<std::uint32_t>(*kk));
        }
    }
    // The dataset the manifest names, or the root's only dataset.
    datasetVersion_ = stringAt(m, "dataset_version");
    if (datasetVersion_.empty() && ctx_.datasets.size() == 1) {
        datasetVersion_ = *ctx_.datasets.begin();
        manifestChanges_.push_back("dataset_version restored as " + datasetVersion_ +
                                   " (the root's only dataset)");
    }
    if (datasetVersion_.empty()) {
        return lose("the manifest does not say which dataset it indexes, and the root has " +
                    std::to_string(ctx_.datasets.size()) + " datasets");
    }
    if (const auto it = ctx_.datasetInfo.find(datasetVersion_); it != ctx_.datasetInfo.end()) {
        if (auto d = unsignedAt(it->second, "dims"); d && *d > 0 && *d <= kMaxDims) {
            dimsVotes.push_back(static_cast<std::uint32_t>(*d));
        }
    }
    const auto dims =
        vote(dimsVotes,
             manifestDims ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*manifestDims))
                          : std::nullopt);
    if (!dims) {
        return lose(
            "its dims cannot be told: the manifest, shard headers, quantizer and dataset "
            "do not agree");
    }
    dims_ = *dims;
    if (!manifestDims || *manifestDims != dims_) {
        manifestChanges_.push_back(
            "dims " + (manifestDims ? std::to_string(*manifestDims) : std::string("(absent)")) +
            " → " + std::to_string(dims_) + " (what the shard headers, quantizer and dataset say)");
    }
    if (pq_) {
        const auto mm = vote(mVotes);
        const auto kk = vote(kVotes);
        if (!mm || !kk || *mm == 0 || dims_ % *mm != 0 || *kk == 0 || *kk > 256) {
            return lose(
                "its PQ settings (pq_m, pq_k) cannot be told from the manifest, the shard "
                "headers and the codebook");
        }
        pqM_ = *mm;
        pqK_ = *kk;
        if (!codebook_ || !codebookParse || !codebookParse->problems.empty() ||
            !codebookParse->layout || !codebookParse->layout->layoutKnown ||
            codebookParse->layout->dims != dims_ || codebookParse->layout->m != pqM_ ||
            codebookParse->layout->k != pqK_) {
            return lose(
                "its PQ codebook (" + codebookKey_ + ") is " +
                (!codebook_ ? std::string("missing")
                            : (codebookParse && !codebookParse->problems.empty()
                                   ? "unreadable (" + codebookParse->problems.front().message + ")"
                                   : std::string("inconsistent with the index"))) +
                "; its codewords were trained on the data and cannot be rebuilt, so no PQ code "
                "can be decoded");
        }
        const CodebookLayout& cb = *codebookParse->layout;
        const std::vector<float> words =
            readF32s(*codebook_, kCodebookHeaderSize, cb.codewordCount * cb.subDims);
        if (!allFinite(words)) {
            return lose("its PQ codebook (" + codebookKey_ + ") holds a NaN or infinite codeword");
        }
    }
    if (cqParse && cqParse->problems.empty() && cqParse->layout && cqParse->layout->layoutKnown &&
        cqParse->layout->dims == dims_) {
        cqLayout_ = *cqParse->layout;
    } else if (cq_ || stringAt(m, "coarse_quantizer_key").size() > 0) {
        ctx_.action("index " + v_ + ": the coarse quantizer " + cqKey_ + " is " +
                        (!cq_ ? std::string("missing")
                              : (cqParse && !cqParse->problems.empty()
                                     ? "unreadable (" + cqParse->problems.front().message + ")"
                                     : "for other dims")) +
                        "; it is rebuilt from the shards' centroids",
                    wholeOf(cq_));
    }
    // The vectors and metadata files must be in the output.
    const auto info = ctx_.datasetInfo.find(datasetVersion_);
    vectorsKey_ = stringAt(m, "vectors_key");
    metadataKey_ = stringAt(m, "metadata_key");
    if (info != ctx_.datasetInfo.end()) {
        if (vectorsKey_.empty() || !ctx_.outKeys.contains(vectorsKey_)) {
            const std::string k = stringAt(info->second, "vectors_key");
            if (!k.empty() && ctx_.outKeys.contains(k)) {
                manifestChanges_.push_back("vectors_key → " + k + " (from the dataset)");
                vectorsKey_ = k;
            }
        }
        if (metadataKey_.empty() || !ctx_.outKeys.contains(metadataKey_)) {
            const std::string k = stringAt(info->second, "metadata_key");
            if (!k.empty() && ctx_.outKeys.contains(k)) {
                manifestChanges_.push_back("metadata_key → " + k + " (from the dataset)");
                metadataKey_ = k;
            }
        }
    }
    if (!ctx_.outKeys.contains(vectorsKey_) || !ctx_.outKeys.contains(metadataKey_)) {
        return lose("its dataset " + datasetVersion_ + " (" +
                    (vectorsKey_.empty() ? std::string("vectors file unknown") : vectorsKey_) +
                    ") is not in the repaired root, and an index must name its vectors file");
    }
    return true;
}

void IndexRepair::collectCandidates() {
    const ojson& m = *manifest_;
    std::set<std::string> keys;
    if (m.contains("shards") && m["shards"].is_array()) {
        const ojson& shards = m["shards"];
        for (std::size_t i = 0; i < shards.size(); ++i) {
            const ojson& e = shards[i];
            Candidate c;
            c.listed = true;
            c.position = i;
            c.entry = e.is_object() ? e : ojson::object();
            c.key = stringAt(e, "artifact_key");
            c.entryId = unsignedAt(e, "shard_id");
            c.entryCount = unsignedAt(e, "vector_count");
            for (const char* field : {"sha256", "fingerprint"}) {
                const std::string fp = stringAt(e, field);
                if (!fp.empty()) {
                    if (c.entryFp.empty()) {
                        c.entryFp = fp;
                    }
                    c.fpFields.push_back(field);
                }
            }
            c.entryCentroid = floatsAt(e, "centroid");
            if (c.key.empty() || !keyProblem(c.key).empty()) {
                ctx_.loss(
                    "index " + v_ + ": shard entry " + std::to_string(i) +
                        " has no usable artifact_key" +
                        (c.key.empty() ? "" : " (" + c.key + " " + keyProblem(c.key) + ")") +
                        (c.entryCount
                             ? "; its " + plural(*c.entryCount, "vector", "vectors") + " are lost"
                             : ""),
                    wholeOf(manifestSource_));
                lostRecords_ += c.entryCount.value_or(0);
                entriesDropped_ = true;
                continue;
            }
            if (!keys.insert(c.key).second) {
                entriesDropped_ = true;
                ctx_.action("index " + v_ + ": shard entry " + std::to_string(i) + " lists " +
                                c.key + " a second time; the duplicate entry is dropped",
                            wholeOf(manifestSource_));
                continue;
            }
            c.source = in_.source(c.key);
            if (!c.source) {
                ctx_.loss(
                    "index " + v_ + ": shard " + c.key + " is missing" +
                        (c.entryCount
                             ? "; its " + plural(*c.entryCount, "vector", "vectors") + " are lost"
                             : ""),
                    wholeOf(manifestSource_));
                lostRecords_ += c.entryCount.value_or(0);
                continue;
            }
            c.header = readRawHeader(*c.source);
            candidates_.push_back(std::move(c));
        }
    }
    const std::string folder = base_() + "/shards";
    for (const std::string& name : in_.files(folder)) {
        const std::string key = folder + "/" + name;
        if (isLeftoverName(name)) {
            ctx_.action(key + ": left out (a leftover of an interrupted save)",
                        wholeOf(in_.source(key)));
            continue;
        }
        if (!name.ends_with(".sidx") || keys.contains(key)) {
            continue;
        }
        Candidate c;
        c.key = key;
        c.source = in_.source(key);
        if (!c.source) {
            continue;
        }
        c.header = readRawHeader(*c.source);
        keys.insert(key);
        candidates_.push_back(std::move(c));
    }
}

void IndexRepair::layOut(Candidate& c) {
    const RawHeader& h = c.header;
    const std::uint64_t size = c.source->size();
    const std::uint32_t version = pq_ ? 2 : 1;
    c.headerSize = pq_ ? kShardHeaderV2Size : kShardHeaderV1Size;
    if (!h.present || size < c.headerSize) {
        loseShard(
            c, "the file (" + plural(size, "byte", "bytes") + ") is shorter than a shard header");
        return;
    }
    c.oldId = c.listed && c.entryId ? *c.entryId : h.shardId;
    const std::uint64_t centroidBytes = std::uint64_t{4} * dims_;
    c.recordSize = 8 + (pq_ ? pqM_ : centroidBytes);
    // The header's centroid count (the format writes 1) unless only 1 makes the file's length
    // agree with the record count of the header or the manifest.
    c.centroidCount = h.centroids >= 1 && h.centroids <= kMaxCentroidsPerShard ? h.centroids : 1;
    auto fits = [&](std::uint64_t centroids) {
        const std::uint64_t offset = c.headerSize + centroids * centroidBytes;
        if (size < offset || (size - offset) % c.recordSize != 0) {
            return false;
        }
        const std::uint64_t n = (size - offset) / c.recordSize;
        return n == h.count || (c.entryCount && n == *c.entryCount);
    };
    if (c.centroidCount != 1 && !fits(c.centroidCount) && fits(1)) {
        c.centroidCount = 1;
    }
    c.recordsOffset = c.headerSize + c.centroidCount * centroidBytes;
    if (size < c.recordsOffset) {
        loseShard(c, "the file (" + plural(size, "byte", "bytes") +
                         ") ends inside its centroids (records would start at byte " +
                         std::to_string(c.recordsOffset) + ")");
        return;
    }
    const std::uint64_t room = size - c.recordsOffset;
    const std::uint64_t lenN = room / c.recordSize;
    const bool exact = room % c.recordSize == 0;
    const std::uint64_t hdrN = h.count;
    if (!c.entryCount && exact && lenN != hdrN) {
        c.count = lenN;  // no entry to side with the header: the length, which holds whole records
    } else if (!c.entryCount || *c.entryCount == hdrN) {
        c.count = hdrN;
    } else if (exact && lenN == *c.entryCount) {
        c.count = lenN;
    } else if (exact && lenN == hdrN) {
        c.count = hdrN;
    } else {
        loseShard(c, "its header says " + plural(hdrN, "record", "records") + ", the manifest " +
                         std::to_string(*c.entryCount) + ", and the file's length holds " +
                         std::to_string(lenN) + (exact ? "" : " and a part"));
        return;
    }
    c.present = std::min(c.count, lenN);
    // Header fields that disagree with what the index and the file say.
    auto fix = [&](const char* field, std::uint64_t was, std::uint64_t now) {
        if (was != now) {
            c.fixes.push_back(std::string(field) + " " + std::to_string(was) + " → " +
                              std::to_string(now));
        }
    };
    if (!h.magicOk) {
        c.fixes.push_back("magic restored to SLKIDX");
    }
    fix("format_version", h.version, version);
    fix("shard_id", h.shardId, c.oldId);
    fix("dims", h.dims, dims_);
    fix("centroid_count", h.centroids, c.centroidCount);
    fix("vector_count", hdrN, c.count);
    if (pq_) {
        fix("pq_m", h.pqPresent ? h.pqM : 0, pqM_);
        fix("pq_k", h.pqPresent ? h.pqK : 0, pqK_);
    }
    if (c.entryCount && *c.entryCount != c.count) {
        manifestChanges_.push_back(c.key + ": vector_count " + std::to_string(*c.entryCount) +
                                   " → " + std::to_string(c.count) +
                                   " (the shard header and its length agree)");
    }
    c.fingerprint = fingerprintOf(*c.source, ctx_.options.cancel);
    c.keep.assign(static_cast<std::size_t>(c.present), 1);
    c.laidOut = true;
    if (c.present < c.count) {
        const std::uint64_t from = c.recordsOffset + c.present * c.recordSize;
        ctx_.loss(where(c) + ": the file ends at byte " + std::to_string(size) +
                      ", inside record " + std::to_string(c.present) + "; records " +
                      std::to_string(c.present) + " to " + std::to_string(c.count - 1) + " (" +
                      plural(c.count - c.present, "vector", "vectors") + ") are lost",
                  {c.source.get(), from, size - from});
        lostRecords_ += c.count - c.present;
    } else if (room > c.count * c.recordSize) {
        const std::uint64_t from = c.recordsOffset + c.count * c.recordSize;
        ctx_.action(where(c) + ": " + plural(size - from, "byte", "bytes") +
                        " after the last record dropped",
                    {c.source.get(), from, size - from});
    }
    c.usable = true;
}

void IndexRepair::matchDataset() {
    if (pq_ || !ctx_.outKeys.contains(vectorsKey_)) {
        return;
    }
    const ByteSourcePtr vectors = in_.source(vectorsKey_);
    if (!vectors) {
        return;
    }
    matcher_ = std::make_shared<RecordMatcher>(dims_);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
        Candidate& c = candidates_[i];
        if (!c.usable || c.present == 0) {
            continue;
        }
        total += c.present;
        if (total > matcher_->recordLimit()) {
            matcher_->giveUp();  // read no more records than a comparison takes
            break;
        }
        const std::vector<RecordDigest> records =
            digestRecords(*c.source, c.recordsOffset, c.present, c.recordSize, ctx_.options.cancel);
        if (records.size() != c.present) {
            continue;
        }
        matcher_->addShard(i, records);
    }
    matcher_->seal();
    // Lines a repair of the dataset drops are not compared (their ids count as absent).
    const auto repeated = ctx_.repeatedIds.find(datasetVersion_);
    forEachDatasetLine(*vectors, [&](const DatasetLine& line) {
        const bool dropped =
            !line.error.empty() || !line.id || !line.hasValues || line.nonFinite ||
            line.values.size() != dims_ ||
            (repeated != ctx_.repeatedIds.end() && repeated->second.contains(*line.id));
        if (!dropped) {
            matcher_->feed(line);
        }
        return matcher_->wantsMore();
    });
    matcher_->finish();
    if (!matcher_->usable()) {
        matcher_.reset();
    }
}

void IndexRepair::decideCentroid(Candidate& c) {
    std::vector<std::pair<const char*, std::vector<float>>> sources;
    if (c.source->size() >= c.headerSize + std::uint64_t{4} * dims_) {
        sources.emplace_back("the shard's own", readF32s(*c.source, c.headerSize, dims_));
    }
    if (c.entryCentroid && c.entryCentroid->size() == dims_) {
        sources.emplace_back("the manifest's", *c.entryCentroid);
    }
    if (cqLayout_ && c.oldId < cqLayout_->centroidsPresent()) {
        sources.emplace_back("the quantizer's",
                             readF32s(*cq_, cqLayout_->centroidOffset(c.oldId), dims_));
    }
    for (std::size_t i = 0; i < sources.size(); ++i) {
        std::size_t agree = 0;
        for (std::size_t j = 0; j < sources.size(); ++j) {
            agree += sameBits(sources[i].second, sources[j].second) ? 1 : 0;
        }
        if (agree >= 2 && allFinite(sources[i].second)) {
            c.centroid = sources[i].second;
            c.centroidAgreed = true;
            for (const auto& [name, values] : sources) {
                if (!sameBits(values, c.centroid)) {
                    c.centroidNote += std::string(c.centroidNote.empty() ? "" : ", ") + name;
                }
            }
            return;
        }
    }
    if (sources.size() == 1 && allFinite(sources[0].second)) {
        // Only the file records it (the manifest lists no centroid, the quantizer is gone).
        c.centroid = sources[0].second;
        c.centroidSole = true;
        return;
    }
    for (const auto& [name, values] : sources) {
        if (allFinite(values)) {
            c.centroid = values;
            c.centroidNote = std::string("no two sources agree; ") + name + " is kept";
            return;
        }
    }
}

void IndexRepair::dropRecords(Candidate& c, std::uint64_t first, std::uint64_t n,
                              const std::string& why) {
    if (n == 0) {
        return;
    }
    const std::string which =
        n == 1 ? "record " + std::to_string(first)
               : "records " + std::to_string(first) + " to " + std::to_string(first + n - 1);
    ctx_.loss(where(c) + ": " + which + " " + why, c.recordRegion(first, n));
    lostRecords_ += n;
}

// Records that cannot be read: non-finite values (raw), codes not below pq_k (PQ). Consecutive
// records dropped for the same reason are reported together.
void IndexRepair::scanRecords(Candidate& c) {
    std::uint64_t runStart = 0;
    std::uint64_t runLength = 0;
    auto flush = [&] {
        const char* verb = runLength == 1 ? "holds" : "hold";
        dropRecords(c, runStart, runLength,
                    pq_ ? std::string(verb) + " a PQ code not below pq_k " + std::to_string(pqK_)
                        : std::string(verb) + " a NaN or infinite value");
        runLength = 0;
    };
    const std::uint64_t perChunk = std::max<std::uint64_t>(1, kChunk / c.recordSize);
    for (std::uint64_t first = 0; first < c.present; first += perChunk) {
        ctx_.checkCancel();
        const std::uint64_t n = std::min(perChunk, c.present - first);
        const ByteView view =
            c.source->view(c.recordsOffset + first * c.recordSize, n * c.recordSize);
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint8_t* record = view.data() + i * c.recordSize;
            bool bad = false;
            if (pq_) {
                for (std::uint32_t m = 0; m < pqM_ && !bad; ++m) {
                    bad = record[8 + m] >= pqK_;
                }
            } else {
                for (std::uint32_t d = 0; d < dims_ && !bad; ++d) {
                    const std::uint32_t bits = decodeLe<std::uint32_t>(record + 8 + 4 * d);
                    bad = (bits & 0x7f800000u) == 0x7f800000u;
                }
            }
            const std::uint64_t index = first + i;
            if (bad) {
                c.keep[index] = 0;
                if (runLength > 0 && runStart + runLength != index) {
                    flush();
                }
                if (runLength == 0) {
                    runStart = index;
                }
                ++runLength;
            }
        }
    }
    if (runLength > 0) {
        flush();
    }
}

void IndexRepair::loseShard(Candidate& c, const std::string& why) {
    c.usable = false;
    if (!c.listed && !rebuilt()) {
        ctx_.action(where(c) + ": left out (no manifest entry lists it): " + why,
                    wholeOf(c.source));
        return;
    }
    // Once laid out, records already reported lost (cut off, unreadable) are not counted again.
    const std::uint64_t lost =
        c.laidOut
            ? c.kept()
            : c.entryCount.value_or(c.header.present && c.header.magicOk ? c.header.count : 0);
    ctx_.loss(
        where(c) + " lost: " + why +
            (c.listed && c.entryCount ? " (" + plural(*c.entryCount, "vector", "vectors") + ")"
                                      : ""),
        wholeOf(c.source));
    lostRecords_ += lost;
}

void IndexRepair::decideTrust(Candidate& c) {
    const std::string actual = hex16(c.fingerprint);
    const bool exactFp = c.listed && c.entryFp == actual;
    const bool caseFp = c.listed && !exactFp && lower(c.entryFp) == actual;
    if (exactFp || caseFp) {
        c.trust = Trust::Fingerprint;
        if (caseFp) {
            manifestChanges_.push_back(c.key + ": fingerprint " + c.entryFp +
                                       " written in lower case");
        }
        if (matcher_) {
            std::uint64_t differ = 0;
            for (std::uint64_t i = 0; i < c.present; ++i) {
                differ += matcher_->verdict(indexOf(c), i) != RecordMatcher::Verdict::Equal ? 1 : 0;
            }
            if (differ > 0) {
                ctx_.action(where(c) + ": kept although " +
                                plural(differ, "record differs", "records differ") +
                                " from the dataset's vectors (or " + (differ == 1 ? "is" : "are") +
                                " not in it): the shard's fingerprint vouches for its bytes; "
                                "which side is right cannot be told",
                            wholeOf(c.source));
            }
        }
        return;
    }
    const std::string mismatch =
        c.listed ? (c.entryFp.empty() ? "the manifest gives no fingerprint"
                                      : "the manifest's fingerprint " + c.entryFp +
                                            " does not match the file's " + actual)
                 : "no manifest entry lists it";
    if (matcher_ && (c.centroidAgreed || c.centroidSole)) {
        std::uint64_t equal = 0;
        for (std::uint64_t i = 0; i < c.present; ++i) {
            equal += c.keep[i] && matcher_->verdict(indexOf(c), i) == RecordMatcher::Verdict::Equal
                         ? 1
                         : 0;
        }
        if (equal > 0) {
            c.trust = Trust::Dataset;
            std::uint64_t runStart = 0;
            std::uint64_t runLength = 0;
            for (std::uint64_t i = 0; i <= c.present; ++i) {
                const bool drop = i < c.present && c.keep[i] &&
                                  matcher_->verdict(indexOf(c), i) != RecordMatcher::Verdict::Equal;
                if (drop) {
                    c.keep[i] = 0;
                    if (runLength == 0) {
                        runStart = i;
                    }
                    ++runLength;
                } else if (runLength > 0) {
                    dropRecords(c, runStart, runLength,
                                runLength == 1
                                    ? "differs from the dataset's vector with its id (or the "
                                      "dataset lacks it), and no fingerprint vouches "
                                      "for it"
                                    : "differ from the dataset's vectors (or the "
                                      "dataset lacks them), and no fingerprint "
                                      "vouches for them");
                    runLength = 0;
                }
            }
            ctx_.action(
                where(c) + ": " + mismatch + "; kept because each of its " +
                    plural(c.kept(), "record", "records") +
                    " kept equals the dataset's vector with its id and " +
                    (c.centroidSole ? std::string("its centroid, which only routes queries, is "
                                                  "recorded nowhere else (kept as it is)")
                                    : std::string("its centroid agrees with the manifest or "
                                                  "quantizer")) +
                    "; the fingerprint is recomputed",
                wholeOf(c.source));
            return;
        }
    }
    if (ctx_.options.recomputeDigests) {
        c.trust = Trust::Recomputed;
        ctx_.action(
            where(c) + ": " + mismatch +
                "; kept as asked (--recompute-digests) with a fingerprint computed afresh, which "
                "vouches for bytes no fingerprint protected",
            wholeOf(c.source));
        return;
    }
    ctx_.report.recomputingDigestsKeepsMore = true;
    loseShard(
        c, mismatch + ", and nothing else vouches for its records (--recompute-digests keeps it)");
}

// An id stored again (in a later shard, or later in the same shard) is dropped.
void IndexRepair::dropDuplicateIds() {
    struct Ref {
        std::uint64_t id;
        std::uint32_t candidate;
        std::uint64_t record;
    };
    std::uint64_t total = 0;
    for (const Candidate& c : candidates_) {
        total += c.usable ? c.present : 0;
    }
    if (total > IdCollector::kLimit) {
        // As the validator: past 2^27 records ids are not collected (24 bytes each).
        ctx_.action("index " + v_ + ": " + std::to_string(total) +
                    " records: ids are not checked for repeats (more than 2^27)");
        return;
    }
    std::vector<Ref> refs;
    refs.reserve(static_cast<std::size_t>(total));
    for (std::uint32_t ci = 0; ci < candidates_.size(); ++ci) {
        const Candidate& c = candidates_[ci];
        if (!c.usable) {
            continue;
        }
        RecordReader records(*c.source, c.recordsOffset, c.recordSize, c.present);
        for (std::uint64_t i = 0; i < c.present; ++i) {
            if (c.keep[i]) {
                refs.push_back({records.id(i), ci, i});
            }
        }
    }
    std::stable_sort(refs.begin(), refs.end(),
                     [](const Ref& a, const Ref& b) { return a.id < b.id; });
    for (std::size_t i = 1; i < refs.size(); ++i) {
        if (refs[i].id == refs[i - 1].id) {
            Candidate& c = candidates_[refs[i].candidate];
            Candidate& first = candidates_[refs[i - 1].candidate];
            c.keep[refs[i].record] = 0;
            dropRecords(c, refs[i].record, 1,
                        "(id " + std::to_string(refs[i].id) + ") repeats an id already kept in " +
                            first.key);
            refs[i] = refs[i - 1];  // later copies compare with the kept one
        }
    }
}

void IndexRepair::write() {
    const ojson& original = *manifest_;
    std::vector<Candidate*> kept;
    for (Candidate& c : candidates_) {
        if (c.usable && c.kept() > 0) {
            kept.push_back(&c);
        } else if (c.usable) {
            ctx_.loss(where(c) + " lost: no record of it could be kept", wholeOf(c.source));
            c.usable = false;
        }
    }
    if (kept.empty()) {
        ctx_.loss("index " + v_ + " not written: no shard of it could be kept",
                  wholeOf(manifestSource_));
        return;
    }
    // Shard ids run 0..n-1 (query routing: centroid i → shard_id i).
    std::vector<Candidate*> byId = kept;
    std::stable_sort(byId.begin(), byId.end(),
                     [](const Candidate* a, const Candidate* b) { return a->oldId < b->oldId; });
    bool renumbered = false;
    for (std::size_t i = 0; i < byId.size(); ++i) {
        byId[i]->newId = i;
        renumbered = renumbered || byId[i]->oldId != i;
    }
    std::set<std::string> newKeys;
    bool clash = false;
    for (Candidate* c : kept) {
        c->newKey = c->newId == c->oldId && c->listed ? c->key : shardFileKey(v_, c->newId);
        clash = clash || !newKeys.insert(c->newKey).second;
    }
    if (clash) {
        for (Candidate* c : kept) {
            c->newKey = shardFileKey(v_, c->newId);
        }
    }
    if (renumbered) {
        std::string moves;
        for (Candidate* c : byId) {
            if (c->oldId != c->newId) {
                moves += (moves.empty() ? "" : ", ") + std::to_string(c->oldId) + " → " +
                         std::to_string(c->newId);
            }
        }
        ctx_.action("index " + v_ +
                    ": shards renumbered so their ids run from 0 (queries are routed "
                    "to centroid i, served by shard_id i): " +
                    moves);
    }
    // Shard files.
    ojson entries = ojson::array();
    std::uint64_t total = 0;
    std::uint64_t smallest = UINT64_MAX;
    std::uint64_t largest = 0;
    std::vector<Candidate*> order = kept;  // manifest order, then files found beside it
    for (Candidate* cp : order) {
        Candidate& c = *cp;
        if (c.newId != c.oldId) {
            c.fixes.push_back("shard_id " + std::to_string(c.oldId) + " → " +
                              std::to_string(c.newId));
        }
        const std::uint64_t keptCount = c.kept();
        std::string head;
        head.append("SLKIDX\0\0", 8);
        appendLe(head, pq_ ? 2 : 1, 4);
        appendLe(head, c.newId, 4);
        appendLe(head, dims_, 4);
        appendLe(head, c.centroidCount, 4);
        appendLe(head, keptCount, 8);
        if (pq_) {
            appendLe(head, pqM_, 4);
            appendLe(head, pqK_, 4);
        }
        appendFloats(head, c.centroid);
        const std::uint64_t centroidBytes = std::uint64_t{4} * dims_;
        if (c.centroidCount > 1) {
            const ByteView extra =
                c.source->view(c.headerSize + centroidBytes, (c.centroidCount - 1) * centroidBytes);
            head.append(reinterpret_cast<const char*>(extra.data()), extra.size());
        }
        OutFile file;
        file.key = c.newKey;
        const ByteView onDisk =
            c.source->view(0, std::min<std::uint64_t>(head.size(), c.source->size()));
        const bool sameHead = onDisk.size() == head.size() &&
                              std::memcmp(onDisk.data(), head.data(), head.size()) == 0;
        const bool whole = keptCount == c.present && c.present == c.count &&
                           c.source->size() == c.recordsOffset + c.count * c.recordSize;
        if (sameHead && whole) {
            file.copy = c.source;
        } else {
            file.text = std::move(head);
            file.records = c.source;
            file.recordsOffset = c.recordsOffset;
            file.recordSize = c.recordSize;
            for (std::uint64_t i = 0; i < c.present;) {
                if (!c.keep[i]) {
                    ++i;
                    continue;
                }
                std::uint64_t j = i;
                while (j < c.present && c.keep[j]) {
                    ++j;
                }
                file.runs.emplace_back(i, j - i);
                i = j;
            }
        }
        if (!c.centroidNote.empty() && c.centroidAgreed) {
            const std::string note = c.centroidNote;
            if (note.find("shard's") != std::string::npos) {
                c.fixes.push_back(
                    "centroid rewritten (it differed from the manifest's and the quantizer's)");
            }
        } else if (!c.centroidNote.empty()) {
            ctx_.action(where(c) + ": centroid: " + c.centroidNote, wholeOf(c.source));
        }
        if (!c.fixes.empty() && !file.copy) {
            std::string joined;
            for (const std::string& f : c.fixes) {
                joined += (joined.empty() ? "" : "; ") + f;
            }
            ctx_.action(where(c) +
                            ": mended from what the manifest, the other shards, the quantizer "
                            "and the file's length agree on: " +
                            joined,
                        {c.source.get(), 0, c.headerSize});
        }
        const std::string fp = hex16(fingerprintOfOut(file));
        if (file.copy == nullptr && c.trust == Trust::Fingerprint) {
            ctx_.action(where(c) + ": rewritten; its fingerprint " + c.entryFp +
                            " matched the file, "
                            "and the new one (" +
                            fp + ") covers the records kept with the changes listed",
                        wholeOf(c.source));
        }
        // The manifest entry.
        ojson e = c.entry;
        e["shard_id"] = c.newId;
        e["artifact_key"] = c.newKey;
        e["vector_count"] = keptCount;
        if (c.fpFields.empty()) {
            e["sha256"] = fp;
        }
        for (const std::string& field : c.fpFields) {
            e[field] = fp;
        }
        if (const auto listed = floatsAt(e, "centroid");
            !listed || !sameBits(*listed, c.centroid)) {
            e["centroid"] = floatArray(c.centroid);
            if (c.listed) {
                manifestChanges_.push_back(c.key + ": centroid " +
                                           (listed ? "rewritten" : std::string("restored")) +
                                           " from the shard file and the quantizer");
            }
        }
        if (e.contains("routing") && e["routing"].is_object()) {
            e["routing"]["centroid_id"] = centroidName(c.newId);
            e["routing"]["file_location"] = c.newKey;
        } else if (!c.listed) {
            e["routing"] = {{"centroid_id", centroidName(c.newId)},
                            {"index_type", "flat"},
                            {"file_location", c.newKey}};
        }
        if (!c.listed) {
            ctx_.action(where(c) + ": added to the manifest as shard " + std::to_string(c.newId),
                        wholeOf(c.source));
        }
        entries.push_back(std::move(e));
        total += keptCount;
        smallest = std::min(smallest, keptCount);
        largest = std::max(largest, keptCount);
        ctx_.report.recovered += keptCount;
        ctx_.add(std::move(file));
    }
    // The coarse quantizer: copied when it already routes to exactly these shards.
    const bool hadQuantizer = cq_ != nullptr || !stringAt(original, "coarse_quantizer_key").empty();
    if (hadQuantizer) {
        bool same = cqLayout_ && cqLayout_->clusters == kept.size() && !renumbered &&
                    cqLayout_->expectedSize && *cqLayout_->expectedSize == cq_->size();
        for (std::size_t i = 0; same && i < byId.size(); ++i) {
            same = sameBits(readF32s(*cq_, cqLayout_->centroidOffset(i), dims_), byId[i]->centroid);
        }
        if (same) {
            ctx_.add({cqKey_, cq_, {}, {}, 0, 0, {}, {}});
        } else {
            std::string text;
            text.append("SLKIVF\0\0", 8);
            appendLe(text, 1, 4);
            appendLe(text, dims_, 4);
            appendLe(text, byId.size(), 4);
            for (const Candidate* c : byId) {
                appendFloats(text, c->centroid);
            }
            if (cqLayout_) {
                ctx_.action("index " + v_ +
                                ": coarse quantizer rewritten with the centroids of the " +
                                plural(byId.size(), "shard", "shards") + " kept",
                            wholeOf(cq_));
            }
            ctx_.add({cqKey_, nullptr, std::move(text), {}, 0, 0, {}, {}});
        }
    }
    if (pq_) {
        ctx_.add({codebookKey_, codebook_, {}, {}, 0, 0, {}, {}});
    }
    // The manifest.
    ojson m = original;
    auto set = [&](const char* key, const ojson& value, const std::string& why) {
        const bool had = m.contains(key);
        if (!had || m[key] != value) {
            if (!why.empty()) {
                manifestChanges_.push_back(std::string(key) + " " +
                                           (had ? shown(m[key]) : "(absent)") + " → " +
                                           shown(value) + " (" + why + ")");
            }
            m[key] = value;
        }
    };
    const auto version = unsignedAt(m, "manifest_version");
    if (!version || *version < 1 || *version > kMaxManifestVersion) {
        set("manifest_version", kMaxManifestVersion, "the version Strata and Shardlake read");
    }
    set("dataset_version", datasetVersion_, "");
    if (stringAt(m, "embedding_version").empty()) {
        const std::string embedding =
            stringAt(ctx_.datasetInfo[datasetVersion_], "embedding_version");
        if (embedding.empty()) {
            leaveAbsent(m, "embedding_version", "embedding_version");
        } else {
            set("embedding_version", embedding, "from the dataset");
        }
    }
    set("index_version", v_, "the folder's name");
    if (stringAt(m, "alias").empty()) {
        leaveAbsent(m, "alias", "alias");
    }
    set("dims", dims_, "");
    set("distance_metric", metric_, "");
    set("vectors_key", vectorsKey_, "");
    set("metadata_key", metadataKey_, "");
    if (!m.contains("shards") || m["shards"] != entries) {
        m["shards"] = entries;
    }
    set("total_vector_count", total, "the sum of the shards kept");
    keepBuildMetadata(m);
    if (m.contains("shard_summary") && m["shard_summary"].is_object()) {
        ojson summary = m["shard_summary"];
        summary["num_shards"] = kept.size();
        summary["min_shard_vector_count"] = smallest;
        summary["max_shard_vector_count"] = largest;
        set("shard_summary", summary, "the shards kept");
    }
    if (pq_) {
        ojson c = m.contains("compression") && m["compression"].is_object() ? m["compression"]
                                                                            : ojson::object();
        c["enabled"] = true;
        c["codec"] = "pq8";
        c["pq_num_subspaces"] = pqM_;
        c["pq_codebook_size"] = pqK_;
        c["codebook_key"] = codebookKey_;
        set("compression", c, "what the shards and the codebook say");
    } else if (m.contains("compression") && !m["compression"].is_null()) {
        // What the validator accepts for raw shards: codec none (or absent), not enabled, no PQ
        // fields.
        const ojson& c = m["compression"];
        const std::string codec = stringAt(c, "codec");
        const bool fine = c.is_object() && !(c.contains("enabled") && c["enabled"] == true) &&
                          (!c.contains("codec") || codec == "none") &&
                          !c.contains("pq_num_subspaces") && !c.contains("pq_codebook_size") &&
                          !c.contains("codebook_key");
        if (!fine) {
            set("compression", ojson{{"enabled", false}, {"codec", "none"}},
                "the shards hold raw vectors");
        }
    }
    if (hadQuantizer) {
        set("coarse_quantizer_key", cqKey_, "");
    }
    if (m.contains("algorithm") && !m["algorithm"].is_object() && !m["algorithm"].is_string()) {
        m.erase("algorithm");
        manifestChanges_.push_back("algorithm removed (not an object)");
    }
    const std::string key = base_() + "/manifest.json";
    if (!salvaged_ && m == original && manifestSource_) {
        ctx_.add({key, manifestSource_, {}, {}, 0, 0, {}, {}});
    } else {
        const std::string text = prettyJson(m, FloatText::F32WhenExact);
        listManifestChanges(text);
        std::string joined;
        for (const std::string& c : manifestChanges_) {
            joined += (joined.empty() ? "" : "; ") + c;
        }
        ctx_.action("index " + v_ + ": manifest written anew for the " +
                        plural(kept.size(), "shard", "shards") + " kept (" +
                        plural(total, "vector", "vectors") + ")" +
                        (joined.empty() ? "" : ": " + joined),
                    wholeOf(manifestSource_));
        ctx_.add({key, nullptr, text, {}, 0, 0, {}, {}});
    }
    // Other files of the index (worker plans, lexical index) are copied as they are.
    const fs::path folder = in_.pathOf(base_());
    const fs::path shards = in_.pathOf(base_() + "/shards");
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        // Its own error: a dangling link must not end the walk (and with it the copies).
        std::error_code typeError;
        if (it->path() == shards) {
            it.disable_recursion_pending();  // shards are laid out above, 10,000 of them or more
            continue;
        }
        if (it.depth() > 3 || !it->is_regular_file(typeError) || it->is_symlink(typeError)) {
            continue;
        }
        // The walk's paths all start with the root's: no file system call per file.
        const std::string rel = it->path().lexically_relative(in_.root()).generic_string();
        const std::string name = it->path().filename().string();
        if (rel.empty() || ctx_.outKeys.contains(rel) || rel == key ||
            rel.starts_with(base_() + "/shards/") || rel == cqKey_ || rel == codebookKey_) {
            continue;
        }
        if (isLeftoverName(name)) {
            ctx_.action(rel + ": left out (a leftover of an interrupted save)");
            continue;
        }
        if (ByteSourcePtr source = in_.source(rel)) {
            ctx_.add({rel, source, {}, {}, 0, 0, {}, {}});
        }
    }
    ctx_.indexes.push_back({v_, stringAt(m, "alias"), stringAt(m["build_metadata"], "built_at")});
}

// What the manifest records of its build is recorded nowhere else: a value that cannot be read
// stays absent (and listed) rather than made up, the kmeans iterations apart, which the
// manifest's algorithm parameters also record.
void IndexRepair::keepBuildMetadata(ojson& m) {
    ojson build = m.contains("build_metadata") && m["build_metadata"].is_object()
                      ? m["build_metadata"]
                      : ojson::object();
    if (build.contains("built_at") && !isRfc3339(stringAt(build, "built_at"))) {
        build.erase("built_at");
    }
    if (!unsignedAt(build, "num_kmeans_iters")) {
        const ojson params = m.contains("algorithm") && m["algorithm"].is_object()
                                 ? m["algorithm"].value("params", ojson::object())
                                 : ojson::object();
        if (const auto iters = unsignedAt(params, "kmeans_iters")) {
            build["num_kmeans_iters"] = *iters;
            manifestChanges_.push_back("build_metadata.num_kmeans_iters restored as " +
                                       std::to_string(*iters) +
                                       " (what algorithm.params.kmeans_iters records)");
        }
    }
    if (stringAt(build, "builder_version").empty()) {
        build.erase("builder_version");
    }
    for (const char* field :
         {"built_at", "builder_version", "num_kmeans_iters", "nprobe_default"}) {
        if (!build.contains(field) ||
            (std::string_view(field) != "built_at" &&
             std::string_view(field) != "builder_version" && !unsignedAt(build, field))) {
            leaveAbsent(build, field, std::string("build_metadata.") + field);
        }
    }
    m["build_metadata"] = std::move(build);
}

// A required field that could not be read and that nothing else records: written absent, a loss,
// and the one error the output's check lets through (readers refuse the manifest until it is set).
void IndexRepair::leaveAbsent(ojson& object, const char* key, const std::string& path) {
    object.erase(key);
    const std::string manifest = base_() + "/manifest.json";
    ctx_.absentFields[manifest].insert(key);
    ctx_.loss("index " + v_ + ": manifest.json is written without `" + path +
                  "`: it could not be read and nothing else records it; readers refuse the "
                  "manifest until it is set",
              wholeOf(manifestSource_));
}

// Every value the written manifest holds otherwise than the one read (a value mended, restored
// from the shard files, or left out) is a loss: the output's content differs there. Compared as
// written, numbers exactly (a centroid rewritten with the same f32 values is no change).
void IndexRepair::listManifestChanges(const std::string& written) {
    std::optional<nlohmann::json> before = nlohmann::json::object();
    if (manifestSource_) {
        before = parseJsonExact(salvaged_ ? manifest_->dump() : textOf(*manifestSource_));
    }
    const std::optional<nlohmann::json> after = parseJsonExact(written);
    if (!before || !after) {
        return;
    }
    std::vector<DiffField> fields;
    std::size_t more = 0;
    diffJsonValues(*before, *after, "$", fields, more, 60);
    if (fields.empty()) {
        return;
    }
    std::string listed;
    for (std::size_t i = 0; i < fields.size() && i < 8; ++i) {
        const DiffField& f = fields[i];
        listed += (i == 0 ? "" : "; ") + f.path + ": " + (f.a.empty() ? "(absent)" : f.a) + " → " +
                  (f.b.empty() ? "(absent)" : f.b);
    }
    const std::size_t count = fields.size() + more;
    ctx_.loss("index " + v_ + ": manifest.json is written with " +
                  plural(count, "value", "values") + " other than the one" +
                  (count == 1 ? "" : "s") + " read: " + listed +
                  (count > 8 ? "; and " + std::to_string(count - 8) + " more" : ""),
              wholeOf(manifestSource_));
}

void IndexRepair::run() {
    readManifest();
    collectCandidates();
    listedCount_ = static_cast<std::size_t>(std::count_if(
        candidates_.begin(), candidates_.end(), [](const Candidate& c) { return c.listed; }));
    if (!decideFacts()) {
        for (const Candidate& c : candidates_) {
            if (c.listed) {
                lostRecords_ += c.entryCount.value_or(0);
            } else if (c.header.present && c.header.magicOk && rebuilt()) {
                lostRecords_ += c.header.count;
            }
        }
        ctx_.report.lostKnown += lostRecords_;
        return;
    }
    // Files no entry lists join the index only when its shard list shows damage: rebuilt, an
    // entry dropped, fewer entries than quantizer clusters, or counts summing short of the total.
    std::uint64_t listedSum = 0;
    for (const Candidate& c : candidates_) {
        listedSum += c.listed ? c.entryCount.value_or(0) : 0;
    }
    const auto total = unsignedAt(*manifest_, "total_vector_count");
    const bool listDamaged = rebuilt() || entriesDropped_ ||
                             (cqLayout_ && cqLayout_->clusters > listedCount_) ||
                             (total && *total > listedSum);
    std::vector<const Candidate*> orphans;  // copied as they are once the index is planned
    for (Candidate& c : candidates_) {
        ctx_.checkCancel();
        if (!c.listed && !listDamaged) {
            orphans.push_back(&c);
            continue;
        }
        layOut(c);
    }
    matchDataset();
    for (Candidate& c : candidates_) {
        if (!c.usable) {
            continue;
        }
        decideCentroid(c);
        if (c.centroid.empty()) {
            loseShard(
                c, "it has no usable centroid (none in the file, the manifest or the quantizer)");
            continue;
        }
        scanRecords(c);
        decideTrust(c);
    }
    // A file no manifest entry lists joins only when none of its ids is in a listed shard: a
    // leftover of another build would otherwise come back.
    const bool anyListed = std::any_of(candidates_.begin(), candidates_.end(),
                                       [](const Candidate& c) { return c.usable && c.listed; });
    const bool anyUnlisted = std::any_of(candidates_.begin(), candidates_.end(),
                                         [](const Candidate& c) { return c.usable && !c.listed; });
    if (anyListed && anyUnlisted) {
        std::vector<std::uint64_t> listedIds;  // sorted: 8 bytes a record
        for (const Candidate& c : candidates_) {
            if (!c.usable || !c.listed) {
                continue;
            }
            RecordReader records(*c.source, c.recordsOffset, c.recordSize, c.present);
            for (std::uint64_t i = 0; i < c.present; ++i) {
                if (c.keep[i]) {
                    listedIds.push_back(records.id(i));
                }
            }
        }
        std::sort(listedIds.begin(), listedIds.end());
        for (Candidate& c : candidates_) {
            if (!c.usable || c.listed) {
                continue;
            }
            RecordReader records(*c.source, c.recordsOffset, c.recordSize, c.present);
            for (std::uint64_t i = 0; c.usable && i < c.present; ++i) {
                const std::uint64_t id = records.id(i);
                if (c.keep[i] && std::binary_search(listedIds.begin(), listedIds.end(), id)) {
                    ctx_.action(where(c) +
                                    ": left out: no manifest entry lists it and it holds ids of "
                                    "listed shards (a leftover of another build)",
                                wholeOf(c.source));
                    c.usable = false;
                }
            }
        }
    }
    dropDuplicateIds();
    write();
    keepOrphans(orphans);
    ctx_.report.lostKnown += lostRecords_;
}

// Shard files no entry of an undamaged list names: readers ignore them, and the copy keeps them
// as they are (a file of the index all the same), unless the index was not written or a kept
// shard now has that name.
void IndexRepair::keepOrphans(const std::vector<const Candidate*>& orphans) {
    const bool written = std::any_of(ctx_.indexes.begin(), ctx_.indexes.end(),
                                     [&](const KeptIndex& k) { return k.version == v_; });
    for (const Candidate* c : orphans) {
        if (written && !ctx_.outKeys.contains(c->key)) {
            ctx_.action(where(*c) +
                            ": copied as it is: no manifest entry lists it (readers ignore "
                            "it), and the manifest's shard list shows no damage",
                        wholeOf(c->source));
            ctx_.add({c->key, c->source, {}, {}, 0, 0, {}, {}});
        } else {
            ctx_.action(
                where(*c) + ": left out: no manifest entry lists it, and " +
                    (written ? "a shard kept now has its name" : "the index is not written"),
                wholeOf(c->source));
        }
    }
}

}  // namespace

void repairIndex(Context& ctx, const std::string& version) {
    IndexRepair(ctx, version).run();
}

}  // namespace strata::shardlake::repair
