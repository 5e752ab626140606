// The Shardlake repair of one index version (see shardlake_repair.h): the manifest read, facts
// decided by vote, shard files collected and laid out, and the steps run in order.
#include "shardlake_repair_index.h"

namespace strata::shardlake::repair {

namespace {

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

}  // namespace

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
                        counted(members->value.size(), "field was", "fields were") +
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
                        counted(partial->size(), "field", "fields") +
                        " were read, the rest is rebuilt from the shard files where they "
                        "record it",
                    wholeOf(manifestSource_));
        ctx_.loss("index " + v_ + ": manifest.json: the fields after its first " +
                      counted(partial->size(), "field", "fields") +
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
                             ? "; its " + counted(*c.entryCount, "vector", "vectors") + " are lost"
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
                             ? "; its " + counted(*c.entryCount, "vector", "vectors") + " are lost"
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
            c, "the file (" + counted(size, "byte", "bytes") + ") is shorter than a shard header");
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
        loseShard(c, "the file (" + counted(size, "byte", "bytes") +
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
        loseShard(c, "its header says " + counted(hdrN, "record", "records") + ", the manifest " +
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
                      counted(c.count - c.present, "vector", "vectors") + ") are lost",
                  {c.source.get(), from, size - from});
        lostRecords_ += c.count - c.present;
    } else if (room > c.count * c.recordSize) {
        const std::uint64_t from = c.recordsOffset + c.count * c.recordSize;
        ctx_.action(where(c) + ": " + counted(size - from, "byte", "bytes") +
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

void repairIndex(Context& ctx, const std::string& version) {
    IndexRepair(ctx, version).run();
}

}  // namespace strata::shardlake::repair
