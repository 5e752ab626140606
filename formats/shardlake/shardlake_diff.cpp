#include "shardlake_diff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/common/json_diff.h"
#include "shardlake_answer_overlap.h"
#include "shardlake_dataset.h"
#include "shardlake_vector_diff.h"

namespace strata {

namespace {

using shardlake::Store;

// Where a vector's line is, found in one pass over vectors.jsonl; values are parsed again only
// for the ids both sides hold, so memory stays a few words per vector.
struct VectorLine {
    std::uint64_t id = 0;
    std::uint64_t offset = 0, length = 0;
};

std::vector<VectorLine> indexVectors(const ByteSource& source, std::uint64_t& unreadable) {
    std::vector<VectorLine> out;
    shardlake::forEachDatasetLine(source, [&](const shardlake::DatasetLine& line) {
        if (line.id && line.error.empty()) {
            out.push_back({*line.id, line.region.offset, line.region.length});
        } else {
            ++unreadable;
        }
        return true;
    });
    std::stable_sort(out.begin(), out.end(),
                     [](const VectorLine& x, const VectorLine& y) { return x.id < y.id; });
    return out;
}

std::vector<float> valuesAt(const ByteSourcePtr& source, const VectorLine& line) {
    const ByteView v = source->view(line.offset, line.length);
    std::vector<float> values;
    const auto one = makeBufferSource(
        std::string_view(reinterpret_cast<const char*>(v.data()), v.size()), source->name());
    shardlake::forEachDatasetLine(*one, [&](const shardlake::DatasetLine& l) {
        values.assign(l.values.begin(), l.values.end());
        return false;
    });
    return values;
}

std::string textOf(const ByteView& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

// A JSON document with its numbers as written (json_diff.h).
std::optional<nlohmann::json> parseWhole(const ByteSource& source) {
    // Read straight into the text: a view of a file read on demand would be a second copy.
    std::string text(static_cast<std::size_t>(source.size()), '\0');
    text.resize(source.read(0, {reinterpret_cast<std::uint8_t*>(text.data()), text.size()}));
    return parseJsonExact(text);
}

std::string formatDistance(double d) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", d);
    return buffer;
}

std::string shardVectorWhere(const shardlake::ShardVectorSet& set,
                             const shardlake::ShardVector& v) {
    return set.name(v.shard) + " record " + std::to_string(v.record);
}

// Vectors of two sets of shards matched by id: only in A removed, only in B added, in both with
// other values changed with the L2 distance (PQ codes: between the vectors each side's codebook
// reconstructs; without codebooks, the count of codes that differ). `prefix` starts each path
// ("indexes/v1/" or ""). Returns Stopped when `put` refuses a difference.
JobOutcome diffShardVectors(const std::string& prefix, shardlake::ShardVectorSet& va,
                            shardlake::ShardVectorSet& vb,
                            const std::optional<shardlake::LoadedCodebook>& ca,
                            const std::optional<shardlake::LoadedCodebook>& cb,
                            const DiffOptions& options, DiffSummary& summary,
                            const std::function<bool(Difference)>& put) {
    std::uint64_t mixed = 0;  // pairs stored raw on one side and as PQ codes on the other
    const auto only = [&](DiffKind kind, const shardlake::ShardVectorSet& set,
                          const shardlake::ShardVector& v) {
        Difference d;
        d.kind = kind;
        d.path = prefix + "vectors/" + std::to_string(v.id);
        d.description = "vector " + std::to_string(v.id) + " is only in " +
                        (kind == DiffKind::Removed ? "A" : "B") + " (" + shardVectorWhere(set, v) +
                        ")";
        (kind == DiffKind::Removed ? d.a : d.b).region = v.region;
        return put(std::move(d));
    };
    const auto pair = [&](const shardlake::ShardVector& x, const shardlake::ShardVector& y) {
        const auto& lx = va.layout(x.shard);
        const auto& ly = vb.layout(y.shard);
        if (lx.isPq() != ly.isPq()) {
            ++mixed;
            return true;
        }
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = prefix + "vectors/" + std::to_string(x.id);
        d.a.region = x.region;
        d.b.region = y.region;
        const std::string id = std::to_string(x.id);
        if (lx.dims != ly.dims) {
            d.description = "vector " + id + ": " + std::to_string(lx.dims) + " dimensions in A, " +
                            std::to_string(ly.dims) + " in B";
            d.fields.push_back({"dimensions", DiffKind::Changed, std::to_string(lx.dims),
                                std::to_string(ly.dims)});
            return put(std::move(d));
        }
        std::size_t codesDiffer = 0;
        if (lx.isPq()) {
            const auto cx = va.codes(x), cy = vb.codes(y);
            for (std::size_t i = 0; i < std::max(cx.size(), cy.size()); ++i) {
                codesDiffer += i >= cx.size() || i >= cy.size() || cx[i] != cy[i];
            }
            if (codesDiffer > 0) {
                d.fields.push_back({"codes", DiffKind::Changed, "",
                                    std::to_string(codesDiffer) + " of " +
                                        std::to_string(std::max(cx.size(), cy.size())) +
                                        " differ"});
            }
        }
        const auto x_ = va.values(x, ca), y_ = vb.values(y, cb);
        if (x_ && y_) {
            double sum = 0;
            bool equal = true;
            for (std::size_t k = 0; k < x_->size(); ++k) {
                equal = equal && (*x_)[k] == (*y_)[k];
                const double delta = double((*x_)[k]) - double((*y_)[k]);
                sum += delta * delta;
            }
            if (equal) {
                return true;
            }
            const std::string l2 = formatDistance(std::sqrt(sum));
            d.description = "vector " + id + " changed, L2 distance " + l2;
            d.fields.insert(d.fields.begin(), {"l2_distance", DiffKind::Changed, "", l2});
            return put(std::move(d));
        }
        if (codesDiffer == 0) {
            return true;
        }
        d.description = "vector " + id + " changed: " + d.fields.back().b +
                        " PQ codes (no codebook to measure the distance)";
        return put(std::move(d));
    };
    shardlake::ShardVector x, y;
    bool hasX = va.next(x), hasY = vb.next(y);
    while (hasX || hasY) {
        if ((summary.compared & 0xFFF) == 0 && options.cancelled()) {
            return JobOutcome::Cancelled;
        }
        ++summary.compared;
        bool ok = true;
        if (!hasY || (hasX && x.id < y.id)) {
            ok = only(DiffKind::Removed, va, x);
            hasX = va.next(x);
        } else if (!hasX || y.id < x.id) {
            ok = only(DiffKind::Added, vb, y);
            hasY = vb.next(y);
        } else {
            ok = pair(x, y);
            hasX = va.next(x);
            hasY = vb.next(y);
        }
        if (!ok) {
            return JobOutcome::Stopped;
        }
    }
    if (mixed > 0) {
        Difference d;
        d.kind = DiffKind::Encoding;
        d.path = prefix + "vectors";
        d.description = std::to_string(mixed) + " vector" + (mixed == 1 ? "" : "s") +
                        " stored as raw values on one side and as PQ codes on the other: " +
                        "matched by id, values not compared";
        if (!put(std::move(d))) {
            return JobOutcome::Stopped;
        }
    }
    return JobOutcome::Completed;
}

class ShardlakeDiffer final : public Differ {
public:
    // aFolder and bFolder, both set ("indexes/v1", "datasets/d1"): compare only these two
    // index versions or datasets.
    ShardlakeDiffer(std::shared_ptr<const Store> a, std::shared_ptr<const Store> b,
                    std::string aFolder = {}, std::string bFolder = {})
        : a_(std::move(a)),
          b_(std::move(b)),
          aFolder_(std::move(aFolder)),
          bFolder_(std::move(bFolder)) {}

    JobOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        if (aFolder_.starts_with("indexes/")) {
            return runIndexes();
        }
        if (aFolder_.starts_with("datasets/")) {
            ++summary_.compared;
            const JobOutcome o = folderContents(aFolder_, true);
            if (o == JobOutcome::Completed) {
                options.reportProgress(1.0, "done");
            }
            return o;
        }
        const struct {
            const char* folder;
            bool files;
        } sections[] = {{"datasets", false}, {"indexes", false}, {"aliases", true}};
        for (const auto& section : sections) {
            if (options.cancelled()) {
                return JobOutcome::Cancelled;
            }
            const JobOutcome o = compareSection(section.folder, section.files);
            if (o != JobOutcome::Completed) {
                return o;
            }
        }
        const JobOutcome o = compareAnswers();
        if (o != JobOutcome::Completed) {
            return o;
        }
        options.reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

private:
    // Two index versions only: their files, then their answers.
    JobOutcome runIndexes() {
        ++summary_.compared;
        JobOutcome o = folderContents(aFolder_, false);
        // Identical versions have nothing to compare by answers.
        if (o == JobOutcome::Completed && !changedIndexes_.empty()) {
            o = compareAnswers({{aFolder_.substr(8), bFolder_.substr(8)}});
        }
        if (o == JobOutcome::Completed) {
            options_->reportProgress(1.0, "done");
        }
        return o;
    }

    // B's key for a key named by A: the same, except that A's compared index version or
    // dataset stands for B's.
    std::string keyB(const std::string& key) const {
        if (aFolder_.empty()) {
            return key;
        }
        if (key == aFolder_ || key.starts_with(aFolder_ + "/")) {
            return bFolder_ + key.substr(aFolder_.size());
        }
        return key;
    }

    bool put(Difference d) {
        // An index version with any difference is worth comparing by its answers.
        if (d.path.starts_with("indexes/")) {
            const std::string rest = d.path.substr(8);
            changedIndexes_.insert(rest.substr(0, rest.find('/')));
        }
        return report(*sink_, std::move(d));
    }

    // Index versions to compare by their answers: one name on both sides whose files differ,
    // then versions found on one side only, paired by the dataset they index.
    std::vector<std::pair<std::string, std::string>> answerPairs() const {
        const auto na = a_->folders("indexes"), nb = b_->folders("indexes");
        const std::set<std::string> inA(na.begin(), na.end()), inB(nb.begin(), nb.end());
        std::vector<std::pair<std::string, std::string>> pairs;
        std::map<std::string, std::string> onlyB;  // dataset key -> first version only in B
        for (const auto& v : nb) {
            if (!inA.contains(v)) {
                onlyB.emplace(shardlake::indexDatasetKey(*b_, v), v);
            }
        }
        for (const auto& v : na) {
            if (inB.contains(v)) {
                if (changedIndexes_.contains(v)) {
                    pairs.emplace_back(v, v);
                }
                continue;
            }
            const auto match = onlyB.find(shardlake::indexDatasetKey(*a_, v));
            if (match != onlyB.end() && !match->first.empty()) {
                pairs.emplace_back(v, match->second);
                onlyB.erase(match);
            }
        }
        return pairs;
    }

    JobOutcome compareAnswers() { return compareAnswers(answerPairs()); }

    JobOutcome compareAnswers(const std::vector<std::pair<std::string, std::string>>& pairs) {
        if (options_->answerQueries == 0) {
            return JobOutcome::Completed;
        }
        for (const auto& [va, vb] : pairs) {
            shardlake::AnswerOverlapOptions o;
            o.k = options_->answerK;
            o.queries = options_->answerQueries;
            o.nprobe = options_->answerNprobe;
            o.threads = options_->threads;
            o.cancel = options_->cancel;
            options_->reportProgress(0.99, "comparing the answers of index " + va);
            const auto overlap = shardlake::compareIndexAnswers(*a_, va, *b_, vb, o);
            if (options_->cancelled()) {
                return JobOutcome::Cancelled;
            }
            // An index that cannot be searched is reported by its files' differences already.
            if (!overlap.error.empty() || overlap.queries == 0) {
                continue;
            }
            ++summary_.compared;
            if (!put(answerDifference(va, vb, overlap))) {
                return JobOutcome::Stopped;
            }
        }
        return JobOutcome::Completed;
    }

    static std::string percent(double share) { return formatDistance(share * 100) + " %"; }

    static Difference answerDifference(const std::string& va, const std::string& vb,
                                       const shardlake::AnswerOverlap& o) {
        Difference d;
        d.kind = o.bAgainstA < 1 ? DiffKind::Changed : DiffKind::Encoding;
        d.path = "answers/" + va + (va == vb ? "" : " vs " + vb);
        const std::string k = std::to_string(o.k);
        d.description =
            "top-" + k + " answers to " + std::to_string(o.queries) + " vectors of A's dataset (" +
            (o.nprobe == 0 ? std::string("every shard") : "nprobe " + std::to_string(o.nprobe)) +
            "): B finds " + percent(o.bAgainstA) + " of A's; against the exact " +
            "answer A finds " + percent(o.aAgainstExact) + ", B " + percent(o.bAgainstExact) +
            (o.sameDataset ? "" : " (each over its own dataset, which differ)");
        d.fields.push_back({"recall@" + k + " of B against A", DiffKind::Changed, "",
                            formatDistance(o.bAgainstA)});
        d.fields.push_back({"recall@" + k + " against the exact answer", DiffKind::Changed,
                            formatDistance(o.aAgainstExact), formatDistance(o.bAgainstExact)});
        return d;
    }

    // What an interrupted save leaves (`.NAME.strata-…`) is not part of a root's content.
    static bool saveLeftover(const std::string& name) {
        return name.starts_with('.') && name.find(".strata-") != std::string::npos;
    }

    static std::vector<std::string> names(const Store& s, const char* folder, bool files) {
        std::vector<std::string> out = files ? s.files(folder) : s.folders(folder);
        std::erase_if(out, saveLeftover);
        return out;
    }

    JobOutcome compareSection(const std::string& folder, bool files) {
        const auto na = names(*a_, folder.c_str(), files);
        const auto nb = names(*b_, folder.c_str(), files);
        const std::set<std::string> inA(na.begin(), na.end()), inB(nb.begin(), nb.end());
        std::set<std::string> all(inA);
        all.insert(inB.begin(), inB.end());
        for (const std::string& name : all) {
            ++summary_.compared;
            const std::string key = folder + "/" + name;
            if (!inA.contains(name) || !inB.contains(name)) {
                Difference d;
                d.kind = inA.contains(name) ? DiffKind::Removed : DiffKind::Added;
                d.path = key;
                d.description = singular(folder) + " " + name + " is only in " +
                                (inA.contains(name) ? "A" : "B");
                if (!put(std::move(d))) {
                    return JobOutcome::Stopped;
                }
                continue;
            }
            const JobOutcome o = files
                                     ? (jsonFile(key) ? JobOutcome::Completed : JobOutcome::Stopped)
                                     : folderContents(key, folder == "datasets");
            if (o != JobOutcome::Completed) {
                return o;
            }
        }
        return JobOutcome::Completed;
    }

    static std::string singular(const std::string& folder) {
        return folder == "datasets" ? "dataset" : folder == "indexes" ? "index version" : "alias";
    }

    // Every file of a dataset or index version, by name: JSON ones field by field, vectors by
    // id, the others by bytes.
    JobOutcome folderContents(const std::string& key, bool dataset) {
        std::set<std::string> files;
        for (const auto& [s, k] : {std::pair{a_.get(), key}, std::pair{b_.get(), keyB(key)}}) {
            for (const auto& f : s->files(k)) {
                if (!saveLeftover(f)) {
                    files.insert(f);
                }
            }
            for (const auto& sub : s->folders(k)) {
                for (const auto& f : s->files(k + "/" + sub)) {
                    if (!saveLeftover(sub) && !saveLeftover(f)) {
                        files.insert(sub + "/" + f);
                    }
                }
            }
        }
        bool shardsDiffer = false;
        for (const std::string& file : files) {
            if (options_->cancelled()) {
                return JobOutcome::Cancelled;
            }
            const std::string path = key + "/" + file;
            const std::uint64_t before = summary_.total();
            const bool ok =
                file.ends_with(".json")
                    ? jsonFile(path)
                    : (dataset && file == "vectors.jsonl" ? vectors(path) : binaryFile(path));
            if (!ok) {
                return JobOutcome::Stopped;
            }
            shardsDiffer = shardsDiffer ||
                           (!dataset && file.starts_with("shards/") && summary_.total() != before);
        }
        // Shards that differ in bytes: what do they hold, vector by vector?
        if (shardsDiffer) {
            return shardVectors(key);
        }
        return JobOutcome::Completed;
    }

    // The vectors of two index versions' shards, matched by id across all their shards.
    JobOutcome shardVectors(const std::string& key) {
        const auto shardsOf = [](const Store& s, const std::string& folder) {
            std::vector<std::pair<std::string, ByteSourcePtr>> out;
            for (const auto& f : s.files(folder + "/shards")) {
                if (f.ends_with(".sidx")) {
                    out.emplace_back("shards/" + f, s.source(folder + "/shards/" + f));
                }
            }
            return out;
        };
        options_->reportProgress(0.9, "comparing the vectors of " + key + " by id");
        shardlake::ShardVectorSet va(shardsOf(*a_, key)), vb(shardsOf(*b_, keyB(key)));
        const auto ca = shardlake::loadCodebook(a_->source(key + "/pq_codebook.bin"));
        const auto cb = shardlake::loadCodebook(b_->source(keyB(key) + "/pq_codebook.bin"));
        return diffShardVectors(key + "/", va, vb, ca, cb, *options_, summary_,
                                [this](Difference d) { return put(std::move(d)); });
    }

    // True to go on; an absent side is reported as added or removed.
    bool presence(const std::string& path, const ByteSourcePtr& sa, const ByteSourcePtr& sb,
                  bool& both) {
        both = sa && sb;
        if (both || (!sa && !sb)) {
            return true;
        }
        Difference d;
        d.kind = sa ? DiffKind::Removed : DiffKind::Added;
        d.path = path;
        const ByteSourcePtr& s = sa ? sa : sb;
        d.description = "file " + path + " is only in " + (sa ? "A" : "B");
        (sa ? d.a : d.b).region = Region{s.get(), 0, s->size()};
        return put(std::move(d));
    }

    bool jsonFile(const std::string& path) {
        const ByteSourcePtr sa = a_->source(path), sb = b_->source(keyB(path));
        bool both = false;
        if (!presence(path, sa, sb, both)) {
            return false;
        }
        if (!both) {
            return true;
        }
        const auto ja = parseWhole(*sa), jb = parseWhole(*sb);
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = path;
        d.a.region = Region{sa.get(), 0, sa->size()};
        d.b.region = Region{sb.get(), 0, sb->size()};
        std::size_t more = 0;
        if (!ja || !jb) {
            if (sameBytes(*sa, *sb)) {
                return true;
            }
            d.description = "bytes differ (" + std::string(!ja ? "A" : "B") + " is not JSON)";
            return put(std::move(d));
        }
        diffJsonValues(*ja, *jb, "$", d.fields, more, options_->maxValueChars);
        if (d.fields.empty()) {
            if (sameBytes(*sa, *sb)) {
                return true;
            }
            d.kind = DiffKind::Encoding;
            d.description = "the same JSON written differently";
            return put(std::move(d));
        }
        d.description = std::to_string(d.fields.size() + more) +
                        (d.fields.size() + more == 1 ? " value differs" : " values differ");
        return put(std::move(d));
    }

    bool binaryFile(const std::string& path) {
        const ByteSourcePtr sa = a_->source(path), sb = b_->source(keyB(path));
        bool both = false;
        if (!presence(path, sa, sb, both)) {
            return false;
        }
        if (!both || sameBytes(*sa, *sb)) {
            return true;
        }
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = path;
        d.a = {Region{sa.get(), 0, sa->size()}, std::to_string(sa->size()) + " bytes"};
        d.b = {Region{sb.get(), 0, sb->size()}, std::to_string(sb->size()) + " bytes"};
        d.description = "the bytes differ";
        return put(std::move(d));
    }

    Difference vectorDifference(DiffKind kind, const std::string& path, const VectorLine& line,
                                const ByteSourcePtr& source) {
        Difference d;
        d.kind = kind;
        d.path = path + "/" + std::to_string(line.id);
        d.description = "vector " + std::to_string(line.id) + " is only in " +
                        (kind == DiffKind::Removed ? "A" : "B");
        (kind == DiffKind::Removed ? d.a : d.b).region =
            Region{source.get(), line.offset, line.length};
        return d;
    }

    bool vectors(const std::string& path) {
        const ByteSourcePtr sa = a_->source(path), sb = b_->source(keyB(path));
        bool both = false;
        if (!presence(path, sa, sb, both)) {
            return false;
        }
        if (!both || sameBytes(*sa, *sb)) {
            return true;
        }
        std::uint64_t badA = 0, badB = 0;
        const auto va = indexVectors(*sa, badA), vb = indexVectors(*sb, badB);
        std::size_t i = 0, j = 0;
        while (i < va.size() || j < vb.size()) {
            if ((summary_.compared & 0xFFF) == 0 && options_->cancelled()) {
                return true;
            }
            ++summary_.compared;
            if (j == vb.size() || (i < va.size() && va[i].id < vb[j].id)) {
                if (!put(vectorDifference(DiffKind::Removed, path, va[i++], sa))) {
                    return false;
                }
            } else if (i == va.size() || vb[j].id < va[i].id) {
                if (!put(vectorDifference(DiffKind::Added, path, vb[j++], sb))) {
                    return false;
                }
            } else if (!sameVector(path, va[i++], sa, vb[j++], sb)) {
                return false;
            }
        }
        return true;
    }

    bool sameVector(const std::string& path, const VectorLine& la, const ByteSourcePtr& sa,
                    const VectorLine& lb, const ByteSourcePtr& sb) {
        const auto x = valuesAt(sa, la), y = valuesAt(sb, lb);
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = path + "/" + std::to_string(la.id);
        d.a.region = Region{sa.get(), la.offset, la.length};
        d.b.region = Region{sb.get(), lb.offset, lb.length};
        if (textOf(sa->view(la.offset, la.length)) != textOf(sb->view(lb.offset, lb.length))) {
            metadataFields(lineRest(sa, la), lineRest(sb, lb), d.fields);
        }
        if (x == y) {
            if (d.fields.empty()) {
                return true;
            }
            d.description = "vector " + std::to_string(la.id) + ": the same values, " +
                            std::to_string(d.fields.size()) + " other value" +
                            (d.fields.size() == 1 ? "" : "s") + " differ (" +
                            d.fields.front().path + (d.fields.size() > 1 ? ", ..." : "") + ")";
            return put(std::move(d));
        }
        if (x.size() != y.size()) {
            d.description = "vector " + std::to_string(la.id) + ": " + std::to_string(x.size()) +
                            " dimensions in A, " + std::to_string(y.size()) + " in B";
            d.fields.push_back({"dimensions", DiffKind::Changed, std::to_string(x.size()),
                                std::to_string(y.size())});
            return put(std::move(d));
        }
        double sum = 0;
        for (std::size_t k = 0; k < x.size(); ++k) {
            const double delta = double(x[k]) - double(y[k]);
            sum += delta * delta;
        }
        const std::string l2 = formatDistance(std::sqrt(sum));
        d.description = "vector " + std::to_string(la.id) + " changed, L2 distance " + l2;
        d.fields.insert(d.fields.begin(), {"l2_distance", DiffKind::Changed, "", l2});
        return put(std::move(d));
    }

    // A line's members other than its id and values (its metadata, numbers as written); empty
    // when the line is not a JSON object.
    static std::optional<nlohmann::json> lineRest(const ByteSourcePtr& s, const VectorLine& l) {
        auto v = parseJsonExact(textOf(s->view(l.offset, l.length)));
        if (!v || !v->is_object()) {
            return std::nullopt;
        }
        for (const char* key : {"id", "data", "vector"}) {
            v->erase(key);
        }
        return v;
    }

    void metadataFields(const std::optional<nlohmann::json>& a,
                        const std::optional<nlohmann::json>& b, std::vector<DiffField>& out) const {
        if (a && b) {
            std::size_t more = 0;
            diffJsonValues(*a, *b, "$", out, more, options_->maxValueChars);
        }
    }

    std::shared_ptr<const Store> a_, b_;
    std::string aFolder_, bFolder_;       // both set: compare these two folders only
    std::set<std::string> shardsDiffer_;  // index folders (A's keys) with a shard that differs
    std::set<std::string> changedIndexes_;
    DiffSink* sink_ = nullptr;
    const DiffOptions* options_ = nullptr;
};

// Two single `.sidx` shards: their headers field by field, their centroids, their vectors by id.
class ShardFileDiffer final : public Differ {
public:
    ShardFileDiffer(shardlake::ShardFile a, shardlake::ShardFile b)
        : a_(std::move(a)), b_(std::move(b)) {}

    JobOutcome run(DiffSink& sink, const DiffOptions& options) override {
        const auto put = [&](Difference d) { return report(sink, std::move(d)); };
        if (sameBytes(*a_.source, *b_.source)) {
            ++summary_.compared;
            return JobOutcome::Completed;
        }
        const auto pa = shardlake::parseShard(*a_.source), pb = shardlake::parseShard(*b_.source);
        const shardlake::ShardLayout la = *pa.layout, lb = *pb.layout;
        // The header, one field per value that differs (the magic matched on both sides).
        Difference header;
        header.kind = DiffKind::Changed;
        header.path = "header";
        header.a.region = Region{a_.source.get(), 0, la.headerSize};
        header.b.region = Region{b_.source.get(), 0, lb.headerSize};
        const auto field = [&](const char* name, std::uint64_t x, std::uint64_t y) {
            if (x != y) {
                header.fields.push_back(
                    {name, DiffKind::Changed, std::to_string(x), std::to_string(y)});
            }
        };
        field("format_version", la.version, lb.version);
        field("shard_id", la.shardId, lb.shardId);
        field("dims", la.dims, lb.dims);
        field("centroid_count", la.centroidCount, lb.centroidCount);
        field("vector_count", la.vectorCount, lb.vectorCount);
        field("pq_m", la.pqM, lb.pqM);
        field("pq_k", la.pqK, lb.pqK);
        ++summary_.compared;
        if (!header.fields.empty()) {
            header.description =
                std::to_string(header.fields.size()) +
                (header.fields.size() == 1 ? " header field differs" : " header fields differ");
            if (!put(std::move(header))) {
                return JobOutcome::Stopped;
            }
        }
        const JobOutcome o = centroids(la, lb, put);
        if (o != JobOutcome::Completed) {
            return o;
        }
        shardlake::ShardVectorSet va({{a_.name, a_.source}}), vb({{b_.name, b_.source}});
        const JobOutcome v =
            diffShardVectors("", va, vb, std::nullopt, std::nullopt, options, summary_, put);
        if (v == JobOutcome::Completed) {
            options.reportProgress(1.0, "done");
        }
        return v;
    }

private:
    // Centroids by position, compared by value: one difference for all of them.
    JobOutcome centroids(const shardlake::ShardLayout& la, const shardlake::ShardLayout& lb,
                         const std::function<bool(Difference)>& put) {
        const std::uint64_t na = la.centroidsPresent(), nb = lb.centroidsPresent();
        std::uint64_t differ = 0;
        if (la.dims == lb.dims) {
            for (std::uint64_t i = 0; i < std::min(na, nb); ++i) {
                const auto x = shardlake::readF32s(*a_.source, la.centroidOffset(i), la.dims);
                const auto y = shardlake::readF32s(*b_.source, lb.centroidOffset(i), lb.dims);
                differ += x != y;
            }
        } else {
            differ = std::min(na, nb);
        }
        differ += std::max(na, nb) - std::min(na, nb);
        ++summary_.compared;
        if (differ == 0) {
            return JobOutcome::Completed;
        }
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = "centroids";
        d.a = {Region{a_.source.get(), la.centroidsOffset, na * la.centroidBytes},
               std::to_string(na) + " centroids"};
        d.b = {Region{b_.source.get(), lb.centroidsOffset, nb * lb.centroidBytes},
               std::to_string(nb) + " centroids"};
        d.description = std::to_string(differ) + " of " + std::to_string(std::max(na, nb)) +
                        " centroids differ";
        return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
    }

    shardlake::ShardFile a_, b_;
};

}  // namespace

std::unique_ptr<Differ> makeShardlakeDiffer(std::shared_ptr<const Store> a,
                                            std::shared_ptr<const Store> b) {
    return std::make_unique<ShardlakeDiffer>(std::move(a), std::move(b));
}

std::unique_ptr<Differ> makeShardlakeIndexDiffer(const shardlake::StoreIndex& a,
                                                 const shardlake::StoreIndex& b) {
    return std::make_unique<ShardlakeDiffer>(a.store, b.store, "indexes/" + a.version,
                                             "indexes/" + b.version);
}

}  // namespace strata

namespace strata {

namespace {

std::string shardProblem(const shardlake::ShardFile& shard, const char* side) {
    const auto parse = shardlake::parseShard(*shard.source);
    if (parse.layout && parse.layout->layoutKnown &&
        (parse.layout->version == 1 || parse.layout->version == 2)) {
        return {};
    }
    return std::string("shard ") + side + " (" + shard.name + ") cannot be read: " +
           (parse.problems.empty() ? std::string("unreadable header")
                                   : parse.problems.front().message);
}

}  // namespace

std::unique_ptr<Differ> makeShardlakeShardDiffer(const shardlake::ShardFile& a,
                                                 const shardlake::ShardFile& b) {
    for (const auto& [shard, side] : {std::pair{&a, "A"}, std::pair{&b, "B"}}) {
        if (const std::string problem = shardProblem(*shard, side); !problem.empty()) {
            throw DiffError(problem);
        }
    }
    return std::make_unique<ShardFileDiffer>(a, b);
}

std::unique_ptr<Differ> makeShardlakeDatasetDiffer(const shardlake::StoreDataset& a,
                                                   const shardlake::StoreDataset& b) {
    return std::make_unique<ShardlakeDiffer>(a.store, b.store, "datasets/" + a.name,
                                             "datasets/" + b.name);
}

}  // namespace strata
