#include "shardlake_diff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/common/json_diff.h"
#include "shardlake_answer_overlap.h"
#include "shardlake_dataset.h"

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

std::string formatDistance(double d) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", d);
    return buffer;
}

class ShardlakeDiffer final : public Differ {
public:
    ShardlakeDiffer(std::shared_ptr<const Store> a, std::shared_ptr<const Store> b,
                    std::string aIndex = {}, std::string bIndex = {})
        : a_(std::move(a)),
          b_(std::move(b)),
          aIndex_(std::move(aIndex)),
          bIndex_(std::move(bIndex)) {}

    DiffOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        if (!aIndex_.empty()) {
            return runIndexes();
        }
        const struct {
            const char* folder;
            bool files;
        } sections[] = {{"datasets", false}, {"indexes", false}, {"aliases", true}};
        for (const auto& section : sections) {
            if (options.cancelled()) {
                return DiffOutcome::Cancelled;
            }
            const DiffOutcome o = compareSection(section.folder, section.files);
            if (o != DiffOutcome::Completed) {
                return o;
            }
        }
        const DiffOutcome o = compareAnswers();
        if (o != DiffOutcome::Completed) {
            return o;
        }
        options.reportProgress(1.0, "done");
        return DiffOutcome::Completed;
    }

private:
    // Two index versions only: their files, then their answers.
    DiffOutcome runIndexes() {
        ++summary_.compared;
        DiffOutcome o = folderContents("indexes/" + aIndex_, false);
        // Identical versions have nothing to compare by answers.
        if (o == DiffOutcome::Completed && !changedIndexes_.empty()) {
            o = compareAnswers({{aIndex_, bIndex_}});
        }
        if (o == DiffOutcome::Completed) {
            options_->reportProgress(1.0, "done");
        }
        return o;
    }

    // B's key for a key named by A: the same, except that A's compared index version stands
    // for B's.
    std::string keyB(const std::string& key) const {
        if (aIndex_.empty()) {
            return key;
        }
        const std::string from = "indexes/" + aIndex_;
        if (key == from || key.starts_with(from + "/")) {
            return "indexes/" + bIndex_ + key.substr(from.size());
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

    DiffOutcome compareAnswers() { return compareAnswers(answerPairs()); }

    DiffOutcome compareAnswers(const std::vector<std::pair<std::string, std::string>>& pairs) {
        if (options_->answerQueries == 0) {
            return DiffOutcome::Completed;
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
                return DiffOutcome::Cancelled;
            }
            // An index that cannot be searched is reported by its files' differences already.
            if (!overlap.error.empty() || overlap.queries == 0) {
                continue;
            }
            ++summary_.compared;
            if (!put(answerDifference(va, vb, overlap))) {
                return DiffOutcome::Stopped;
            }
        }
        return DiffOutcome::Completed;
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

    static std::vector<std::string> names(const Store& s, const char* folder, bool files) {
        return files ? s.files(folder) : s.folders(folder);
    }

    DiffOutcome compareSection(const std::string& folder, bool files) {
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
                    return DiffOutcome::Stopped;
                }
                continue;
            }
            const DiffOutcome o =
                files ? (jsonFile(key) ? DiffOutcome::Completed : DiffOutcome::Stopped)
                      : folderContents(key, folder == "datasets");
            if (o != DiffOutcome::Completed) {
                return o;
            }
        }
        return DiffOutcome::Completed;
    }

    static std::string singular(const std::string& folder) {
        return folder == "datasets" ? "dataset" : folder == "indexes" ? "index version" : "alias";
    }

    // Every file of a dataset or index version, by name: JSON ones field by field, vectors by
    // id, the others by bytes.
    DiffOutcome folderContents(const std::string& key, bool dataset) {
        std::set<std::string> files;
        for (const auto& [s, k] : {std::pair{a_.get(), key}, std::pair{b_.get(), keyB(key)}}) {
            for (const auto& f : s->files(k)) {
                files.insert(f);
            }
            for (const auto& sub : s->folders(k)) {
                for (const auto& f : s->files(k + "/" + sub)) {
                    files.insert(sub + "/" + f);
                }
            }
        }
        for (const std::string& file : files) {
            if (options_->cancelled()) {
                return DiffOutcome::Cancelled;
            }
            const std::string path = key + "/" + file;
            const bool ok =
                file.ends_with(".json")
                    ? jsonFile(path)
                    : (dataset && file == "vectors.jsonl" ? vectors(path) : binaryFile(path));
            if (!ok) {
                return DiffOutcome::Stopped;
            }
        }
        return DiffOutcome::Completed;
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
        auto parse = [](const ByteSourcePtr& s) {
            const ByteView v = s->view(0, s->size());
            return nlohmann::json::parse(v.data(), v.data() + v.size(), nullptr, false);
        };
        const nlohmann::json ja = parse(sa), jb = parse(sb);
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = path;
        d.a.region = Region{sa.get(), 0, sa->size()};
        d.b.region = Region{sb.get(), 0, sb->size()};
        std::size_t more = 0;
        if (ja.is_discarded() || jb.is_discarded()) {
            if (sameBytes(*sa, *sb)) {
                return true;
            }
            d.description =
                "bytes differ (" + std::string(ja.is_discarded() ? "A" : "B") + " is not JSON)";
            return put(std::move(d));
        }
        diffJsonValues(ja, jb, "$", d.fields, more, options_->maxValueChars);
        if (d.fields.empty()) {
            if (sameBytes(*sa, *sb)) {
                return true;
            }
            d.kind = DiffKind::Encoding;
            d.description = "the same JSON written differently";
            return put(std::move(d));
        }
        d.description = std::to_string(d.fields.size() + more) + " value" +
                        (d.fields.size() + more == 1 ? "" : "s") + " differ";
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
        if (x == y) {
            return true;
        }
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = path + "/" + std::to_string(la.id);
        d.a.region = Region{sa.get(), la.offset, la.length};
        d.b.region = Region{sb.get(), lb.offset, lb.length};
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
        d.fields.push_back({"l2_distance", DiffKind::Changed, "", l2});
        return put(std::move(d));
    }

    std::shared_ptr<const Store> a_, b_;
    std::string aIndex_, bIndex_;  // both set: compare these two index versions only
    std::set<std::string> changedIndexes_;
    DiffSink* sink_ = nullptr;
    const DiffOptions* options_ = nullptr;
};

}  // namespace

std::unique_ptr<Differ> makeShardlakeDiffer(std::shared_ptr<const Store> a,
                                            std::shared_ptr<const Store> b) {
    return std::make_unique<ShardlakeDiffer>(std::move(a), std::move(b));
}

std::unique_ptr<Differ> makeShardlakeIndexDiffer(const shardlake::StoreIndex& a,
                                                 const shardlake::StoreIndex& b) {
    return std::make_unique<ShardlakeDiffer>(a.store, b.store, a.version, b.version);
}

}  // namespace strata
