// The Shardlake index repair's output: shard files renumbered and rewritten, the quantizer, the
// manifest written anew (with what it changes) and the index's other files copied.
#include "shardlake_repair_index.h"

#include "formats/common/json_diff.h"

namespace strata::shardlake::repair {

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
                                counted(byId.size(), "shard", "shards") + " kept",
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
                        counted(kept.size(), "shard", "shards") + " kept (" +
                        counted(total, "vector", "vectors") + ")" +
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
                  counted(count, "value", "values") + " other than the one" +
                  (count == 1 ? "" : "s") + " read: " + listed +
                  (count > 8 ? "; and " + std::to_string(count - 8) + " more" : ""),
              wholeOf(manifestSource_));
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

}  // namespace strata::shardlake::repair
