#include "zds_diff.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

#include "formats/common/json_diff.h"
#include "zds_live_set.h"

namespace strata::zds {

namespace {

using json = nlohmann::json;

constexpr std::uint64_t kProgressEvery = 4096;

std::string text(const ByteView& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

std::optional<json> parseDocument(const std::string& bytes) {
    std::optional<json> v = parseJsonExact(bytes);
    if (v && v->is_object()) {
        v->erase("_id");  // the match key; docs/ files do not carry it
    }
    return v;
}

std::string storageText(const ZdsCollection& c) {
    switch (c.mode()) {
        case ZdsStorageMode::Jsonl:
            return c.index ? "data.jsonl with meta/index.bin" : "data.jsonl without an index";
        case ZdsStorageMode::Docs:
            return "one file per document in docs/";
        case ZdsStorageMode::None:
            break;
    }
    return "no documents";
}

class ZdsDiffer final : public Differ {
public:
    ZdsDiffer(std::shared_ptr<const ZdsDataset> a, std::shared_ptr<const ZdsDataset> b)
        : a_(std::move(a)), b_(std::move(b)) {}

    JobOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        if (!containers()) {
            return JobOutcome::Stopped;
        }
        std::vector<std::string> names;
        for (const auto& c : a_->collections) {
            names.push_back(c->name());
        }
        for (const auto& c : b_->collections) {
            if (!find(*a_, c->name())) {
                names.push_back(c->name());
            }
        }
        for (std::size_t i = 0; i < names.size(); ++i) {
            base_ = double(i) / double(names.size());
            span_ = 1.0 / double(names.size());
            const ZdsCollection* ca = find(*a_, names[i]);
            const ZdsCollection* cb = find(*b_, names[i]);
            const JobOutcome o = collection(names[i], ca, cb);
            if (o != JobOutcome::Completed) {
                return o;
            }
        }
        options.reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

private:
    static const ZdsCollection* find(const ZdsDataset& ds, const std::string& name) {
        for (const auto& c : ds.collections) {
            if (c->name() == name) {
                return c.get();
            }
        }
        return nullptr;
    }

    bool put(Difference d) { return report(*sink_, std::move(d)); }

    bool containers() {
        const bool aZip = a_->archive() != nullptr;
        const bool bZip = b_->archive() != nullptr;
        if (aZip == bZip) {
            return true;
        }
        Difference d;
        d.kind = DiffKind::Encoding;
        d.path = "";
        d.description = std::string("A is ") + (aZip ? "a .zds archive" : "a folder") + ", B is " +
                        (bZip ? "a .zds archive" : "a folder");
        d.a.value = aZip ? "archive" : "folder";
        d.b.value = bZip ? "archive" : "folder";
        return put(std::move(d));
    }

    JobOutcome collection(const std::string& name, const ZdsCollection* a, const ZdsCollection* b) {
        if (a == nullptr || b == nullptr) {
            const ZdsCollection& c = a != nullptr ? *a : *b;
            Difference d;
            d.kind = a != nullptr ? DiffKind::Removed : DiffKind::Added;
            d.path = name;
            d.description = "the collection (" + std::to_string(c.documentCount()) +
                            " documents) is only in " + (a != nullptr ? "A" : "B");
            (a != nullptr ? d.a : d.b).value = std::to_string(c.documentCount()) + " documents";
            return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
        }
        ZdsLiveOptions lo;
        lo.index.cancel = options_->cancel;
        const auto la = a->liveSet(lo);
        const auto lb = b->liveSet(lo);
        if (!la || !lb) {
            return JobOutcome::Cancelled;
        }
        if (!storage(name, *a, *b, *la, *lb)) {
            return JobOutcome::Stopped;
        }
        return documents(name, *a, *b, *la, *lb);
    }

    // One row per collection for how its storage differs, however many ways it does: the
    // layout each side uses, and how each side reads its own where the other does not (a
    // note only one side carries; a note both carry is the same storage read the same way).
    bool storage(const std::string& name, const ZdsCollection& a, const ZdsCollection& b,
                 const ZdsLiveSet& la, const ZdsLiveSet& lb) {
        const bool layouts = storageText(a) != storageText(b);
        std::vector<std::string> parts;
        if (layouts) {
            parts.push_back("stored as " + storageText(a) + " in A, as " + storageText(b) +
                            " in B");
        }
        const bool notedA = notesOnOneSide(parts, "A", la, lb);
        const bool notedB = notesOnOneSide(parts, "B", lb, la);
        if (parts.empty()) {
            return true;
        }
        Difference d;
        d.kind = DiffKind::Encoding;
        d.path = name;
        for (const std::string& part : parts) {
            d.description += (d.description.empty() ? "" : "; ") + part;
        }
        if (layouts || notedA) {
            d.a.value = layouts ? storageText(a) : la.basisText();
        }
        if (layouts || notedB) {
            d.b.value = layouts ? storageText(b) : lb.basisText();
        }
        return put(std::move(d));
    }

    // Adds "in <side>, <note>" for each note of `live` that `other` does not carry; true when
    // it added any.
    static bool notesOnOneSide(std::vector<std::string>& parts, const char* side,
                               const ZdsLiveSet& live, const ZdsLiveSet& other) {
        bool added = false;
        for (const std::string& note : live.notes()) {
            const auto& others = other.notes();
            if (std::find(others.begin(), others.end(), note) == others.end()) {
                parts.push_back(std::string("in ") + side + ", " + note);
                added = true;
            }
        }
        return added;
    }

    JobOutcome documents(const std::string& name, const ZdsCollection& a, const ZdsCollection& b,
                         const ZdsLiveSet& la, const ZdsLiveSet& lb) {
        const std::uint64_t n = la.size();
        const std::uint64_t total = n + lb.size();
        std::uint64_t lastCommonInB = 0;
        bool inOrder = true;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i % kProgressEvery == 0) {
                if (options_->cancelled()) {
                    return JobOutcome::Cancelled;
                }
                options_->reportProgress(base_ + span_ * double(i) / double(total),
                                         name + ": document " + std::to_string(i));
            }
            ++summary_.compared;
            const std::string id(la.id(i));
            const auto j = lb.find(id);
            if (!j) {
                Difference d;
                d.kind = DiffKind::Removed;
                d.path = name + "/" + id;
                d.description = "document " + id + " is only in A";
                d.a = {la.region(i),
                       diffValueText(text(a.documentBytes(i)), options_->maxValueChars)};
                if (!put(std::move(d))) {
                    return JobOutcome::Stopped;
                }
                continue;
            }
            inOrder = inOrder && *j >= lastCommonInB;
            lastCommonInB = *j;
            if (!document(name, id, a, i, b, *j)) {
                return JobOutcome::Stopped;
            }
        }
        for (std::uint64_t j = 0; j < lb.size(); ++j) {
            if (j % kProgressEvery == 0 && options_->cancelled()) {
                return JobOutcome::Cancelled;
            }
            const std::string id(lb.id(j));
            if (la.find(id)) {
                continue;
            }
            ++summary_.compared;
            Difference d;
            d.kind = DiffKind::Added;
            d.path = name + "/" + id;
            d.description = "document " + id + " is only in B";
            d.b = {lb.region(j), diffValueText(text(b.documentBytes(j)), options_->maxValueChars)};
            if (!put(std::move(d))) {
                return JobOutcome::Stopped;
            }
        }
        if (!inOrder) {
            Difference d;
            d.kind = DiffKind::Encoding;
            d.path = name;
            d.description = "the documents both hold are stored in another order";
            if (!put(std::move(d))) {
                return JobOutcome::Stopped;
            }
        }
        return JobOutcome::Completed;
    }

    // One document on both sides.
    bool document(const std::string& name, const std::string& id, const ZdsCollection& a,
                  std::uint64_t i, const ZdsCollection& b, std::uint64_t j) {
        const ByteView va = a.documentBytes(i);
        const ByteView vb = b.documentBytes(j);
        const bool sameLayout = a.mode() == b.mode();
        if (sameLayout && va.size() == vb.size() &&
            std::equal(va.bytes.begin(), va.bytes.end(), vb.bytes.begin())) {
            return true;
        }
        Difference d;
        d.path = name + "/" + id;
        d.a = {a.document(i).region, diffValueText(text(va), options_->maxValueChars)};
        d.b = {b.document(j).region, diffValueText(text(vb), options_->maxValueChars)};
        const auto ja = parseDocument(text(va));
        const auto jb = parseDocument(text(vb));
        if (!ja || !jb) {
            d.kind = DiffKind::Changed;
            d.description = "document " + id + " differs, and is not valid JSON in " +
                            (!ja && !jb ? "either"
                             : !ja      ? "A"
                                        : "B");
            return put(std::move(d));
        }
        std::size_t more = 0;
        diffJsonValues(*ja, *jb, "$", d.fields, more, options_->maxValueChars);
        if (d.fields.empty()) {
            if (!sameLayout) {
                return true;  // a layout change re-serialises every document: said once above
            }
            d.kind = DiffKind::Encoding;
            d.description = "document " + id + ": the same JSON value, written differently";
            return put(std::move(d));
        }
        d.kind = DiffKind::Changed;
        std::string paths;
        for (std::size_t k = 0; k < d.fields.size() && k < 3; ++k) {
            paths += (k == 0 ? "" : ", ") + d.fields[k].path;
        }
        const std::size_t count = d.fields.size() + more;
        d.description = "document " + id + ": " + std::to_string(count) +
                        (count == 1 ? " value differs (" : " values differ (") + paths +
                        (count > 3 ? ", ..." : "") + ")";
        return put(std::move(d));
    }

    std::shared_ptr<const ZdsDataset> a_, b_;
    DiffSink* sink_ = nullptr;
    const DiffOptions* options_ = nullptr;
    double base_ = 0, span_ = 1;
};

}  // namespace

std::unique_ptr<Differ> makeZdsDiffer(std::shared_ptr<const ZdsDataset> a,
                                      std::shared_ptr<const ZdsDataset> b) {
    return std::make_unique<ZdsDiffer>(std::move(a), std::move(b));
}

}  // namespace strata::zds
