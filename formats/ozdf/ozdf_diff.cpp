#include "ozdf_diff.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace strata {

namespace {

using ozdf::Element;
using ozdf::ElementKind;
using ozdf::Paragraph;

// Longest-common-subsequence tables above this many cells are not built: the two sequences are
// then paired by position (a bound on memory for hostile input, never hit by prose).
constexpr std::size_t kMaxLcsCells = 4u << 20;

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t space = text.find(' ', at);
        const std::size_t end = space == std::string::npos ? text.size() : space;
        if (end > at) {
            out.push_back(text.substr(at, end - at));
        }
        at = end + 1;
    }
    return out;
}

// Pairs (i, j) of equal elements on a longest common subsequence, in order; positional when
// the table would be too large.
template <typename T, typename Eq>
std::vector<std::pair<std::size_t, std::size_t>> commonSubsequence(const std::vector<T>& a,
                                                                   const std::vector<T>& b,
                                                                   Eq equal) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    const std::size_t n = a.size(), m = b.size();
    if ((n + 1) * (m + 1) > kMaxLcsCells) {
        for (std::size_t i = 0; i < std::min(n, m); ++i) {
            if (equal(a[i], b[i])) {
                out.emplace_back(i, i);
            }
        }
        return out;
    }
    std::vector<std::uint32_t> t((n + 1) * (m + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return t[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = m; j-- > 0;) {
            at(i, j) =
                equal(a[i], b[j]) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        }
    }
    for (std::size_t i = 0, j = 0; i < n && j < m;) {
        if (equal(a[i], b[j])) {
            out.emplace_back(i++, j++);
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            ++i;
        } else {
            ++j;
        }
    }
    return out;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const auto& p : parts) {
        out += (out.empty() ? "" : separator) + p;
    }
    return out;
}

// An element's bytes without the blank lines after it (which only separate it from the next).
// A document's file is read whole once for all its elements (up to a size): a file read on
// demand opens and reads itself for every view, and every element of every document is viewed.
class ElementBytes {
public:
    std::string text(const Region& r) {
        if (!r.valid()) {
            return {};
        }
        ByteView v;
        if (r.source->size() <= kWholeUpTo && !r.source->isRemote()) {
            auto [it, fresh] = whole_.try_emplace(r.source);
            if (fresh) {
                it->second = r.source->view(0, r.source->size());
            }
            const ByteView& whole = it->second;
            const std::uint64_t from = std::min<std::uint64_t>(r.offset, whole.size());
            const std::uint64_t n = std::min<std::uint64_t>(r.length, whole.size() - from);
            v.bytes =
                whole.bytes.subspan(static_cast<std::size_t>(from), static_cast<std::size_t>(n));
        } else {
            v = r.source->view(r.offset, r.length);
        }
        std::string text(reinterpret_cast<const char*>(v.data()), v.size());
        while (!text.empty() &&
               (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
            text.pop_back();
        }
        return text;
    }
    // Done with a pair of documents: their files are let go.
    void clear() { whole_.clear(); }

private:
    static constexpr std::uint64_t kWholeUpTo = 64U << 20U;
    std::map<const ByteSource*, ByteView> whole_;
};

struct DocRef {
    std::string key;
    const ozdf::Document* document = nullptr;
};

std::vector<DocRef> documentsOf(const OzdfDiffSide& side) {
    std::vector<DocRef> out;
    if (side.document) {
        out.push_back({side.document->filename, side.document.get()});
    } else if (side.corpus) {
        for (const auto& d : side.corpus->documents) {
            std::error_code ec;
            auto rel = std::filesystem::relative(d.path, side.corpus->path, ec);
            out.push_back({ec || rel.empty() ? d.filename : rel.generic_string(), &d});
        }
    }
    return out;
}

std::string elementClass(ElementKind kind) {
    switch (kind) {
        case ElementKind::Block:
            return "block";
        case ElementKind::List:
        case ElementKind::ExternalList:
            return "list";
        case ElementKind::Comment:
            return "comment";
    }
    return "element";
}

// How the elements (or list items) of one side are matched with the other's: `match` keys are
// distinct for distinct things (no name can hold a line break), `shown` is the path a person
// reads, which two odd names may share ("X #2" the name, and the second "X").
struct MatchKeys {
    std::vector<std::string> match;
    std::vector<std::string> shown;
};

// "block TITLE", "list REFS", "comment 2" (the k-th of its name gets " #k" from the second on).
MatchKeys elementKeys(const std::vector<Element>& elements) {
    std::map<std::string, int> seen;
    MatchKeys keys;
    for (const Element& e : elements) {
        std::string base =
            elementClass(e.kind) + (e.kind == ElementKind::Comment ? "" : " " + e.name);
        const int k = ++seen[base];
        keys.match.push_back(base + "\n" + std::to_string(k));
        if (e.kind == ElementKind::Comment) {
            keys.shown.push_back(base + " " + std::to_string(k));
        } else {
            keys.shown.push_back(k == 1 ? base : base + " #" + std::to_string(k));
        }
    }
    return keys;
}

// Named items by name and, for a repeated name, by which of that name they are ("item JOE",
// "item JOE #2"); unnamed ones by their position in the list ("item 3").
MatchKeys itemKeys(const std::vector<ozdf::Item>& items) {
    std::map<std::string, int> seen;
    MatchKeys keys;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (!items[i].name) {
            keys.match.push_back("unnamed\n" + std::to_string(i));
            keys.shown.push_back("item " + std::to_string(i + 1));
            continue;
        }
        const std::string& name = *items[i].name;
        const int k = ++seen[name];
        keys.match.push_back("named\n" + name + "\n" + std::to_string(k));
        keys.shown.push_back(k == 1 ? "item " + name : "item " + name + " #" + std::to_string(k));
    }
    return keys;
}

class OzdfDiffer final : public Differ {
public:
    OzdfDiffer(OzdfDiffSide a, OzdfDiffSide b) : a_(std::move(a)), b_(std::move(b)) {}

    JobOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        if (!readListed(a_, options) || !readListed(b_, options)) {
            return JobOutcome::Cancelled;
        }
        auto da = documentsOf(a_), db = documentsOf(b_);
        if (a_.document && b_.document) {
            db[0].key = da[0].key;  // two lone documents compare whatever their names
        }
        std::map<std::string, const ozdf::Document*> inB;
        for (const auto& d : db) {
            inB.emplace(d.key, d.document);
        }
        std::map<std::string, const ozdf::Document*> inA;
        for (const auto& d : da) {
            inA.emplace(d.key, d.document);
        }
        std::size_t done = 0;
        for (const auto& d : da) {
            options.reportProgress(double(done++) / double(da.size() + db.size()), d.key);
            if (options.cancelled()) {
                return JobOutcome::Cancelled;
            }
            const auto it = inB.find(d.key);
            const bool go = it == inB.end() ? wholeDocument(DiffKind::Removed, d)
                                            : document(d.key, *d.document, *it->second);
            if (!go) {
                return JobOutcome::Stopped;
            }
        }
        for (const auto& d : db) {
            if (!inA.contains(d.key) && !wholeDocument(DiffKind::Added, d)) {
                return JobOutcome::Stopped;
            }
        }
        options.reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

private:
    // A side listed at open is read now (on the comparison's thread); false when cancelled.
    static bool readListed(OzdfDiffSide& side, const DiffOptions& options) {
        if (side.listed && !side.corpus) {
            side.corpus = side.listed->corpus(options.cancel);
        }
        return !side.listed || side.corpus != nullptr;
    }

    bool put(Difference d) { return report(*sink_, std::move(d)); }

    std::string cut(const std::string& text) const {
        return diffValueText(text, options_->maxValueChars);
    }

    bool wholeDocument(DiffKind kind, const DocRef& d) {
        ++summary_.compared;
        Difference diff;
        diff.kind = kind;
        diff.path = d.key;
        diff.description = "document " + d.key + " (" +
                           std::to_string(d.document->elements.size()) + " elements) is only in " +
                           (kind == DiffKind::Removed ? "A" : "B");
        DiffSide& side = kind == DiffKind::Removed ? diff.a : diff.b;
        if (const ByteSource* s = d.document->mainSource()) {
            side.region = Region{s, 0, s->size()};
        }
        side.value = std::to_string(d.document->elements.size()) + " elements";
        return put(std::move(diff));
    }

    bool document(const std::string& key, const ozdf::Document& a, const ozdf::Document& b) {
        ++summary_.compared;
        struct Done {
            ElementBytes& bytes;
            ~Done() { bytes.clear(); }
        } done{bytes_};
        const MatchKeys ka = elementKeys(a.elements), kb = elementKeys(b.elements);
        std::map<std::string, std::size_t> posB;
        for (std::size_t j = 0; j < kb.match.size(); ++j) {
            posB.emplace(kb.match[j], j);
        }
        std::vector<std::size_t> commonA, commonB;  // indices of elements on both sides
        for (std::size_t i = 0; i < ka.match.size(); ++i) {
            if (const auto it = posB.find(ka.match[i]); it != posB.end()) {
                commonA.push_back(i);
                commonB.push_back(it->second);
            } else if (!element(DiffKind::Removed, key + "/" + ka.shown[i], &a.elements[i],
                                nullptr)) {
                return false;
            }
        }
        const std::vector<bool> moved = outOfOrder(commonB);
        for (std::size_t c = 0; c < commonA.size(); ++c) {
            const Element& ea = a.elements[commonA[c]];
            const Element& eb = b.elements[commonB[c]];
            const std::string path = key + "/" + ka.shown[commonA[c]];
            if (moved[c] && !movedElement(path, ea, eb, commonA[c], commonB[c])) {
                return false;
            }
            if (!element(DiffKind::Changed, path, &ea, &eb)) {
                return false;
            }
        }
        const std::set<std::string> inA(ka.match.begin(), ka.match.end());
        for (std::size_t j = 0; j < kb.match.size(); ++j) {
            if (!inA.contains(kb.match[j]) &&
                !element(DiffKind::Added, key + "/" + kb.shown[j], nullptr, &b.elements[j])) {
                return false;
            }
        }
        return true;
    }

    // Which entries of `order` (the distinct B positions of the common elements, in A order) are
    // not on a longest increasing run: those moved. O(n log n) at every size (a table of a
    // longest common subsequence with the sorted order would not fit beyond a few thousand, and
    // pairing by position instead reported one part moved in a long list as all of them moved).
    // Of several longest runs, the one that table's walk took: level by level from the longest,
    // the last entry above the value taken before.
    static std::vector<bool> outOfOrder(const std::vector<std::size_t>& order) {
        const std::size_t n = order.size();
        // level[i] + 1: the length of the longest increasing run starting at entry i, found from
        // the right by patience sorting (tails[k]: the largest first value of a run of k + 1,
        // decreasing in k).
        std::vector<std::size_t> level(n), tails;
        for (std::size_t i = n; i-- > 0;) {
            const auto it =
                std::lower_bound(tails.begin(), tails.end(), order[i], std::greater<>());
            level[i] = static_cast<std::size_t>(it - tails.begin());
            if (it == tails.end()) {
                tails.push_back(order[i]);
            } else {
                *it = order[i];
            }
        }
        // The entries of each level in A order (their values decrease along it).
        std::vector<std::size_t> start(tails.size() + 1, 0), byLevel(n);
        for (std::size_t i = 0; i < n; ++i) {
            ++start[level[i] + 1];
        }
        for (std::size_t k = 0; k < tails.size(); ++k) {
            start[k + 1] += start[k];
        }
        std::vector<std::size_t> fill(start.begin(), start.end() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            byLevel[fill[level[i]]++] = i;
        }
        std::vector<bool> moved(n, true);
        for (std::size_t k = tails.size(), taken = 0; k-- > 0;) {
            const auto first = byLevel.begin() + static_cast<std::ptrdiff_t>(start[k]);
            const auto last = byLevel.begin() + static_cast<std::ptrdiff_t>(start[k + 1]);
            // Every entry of the top level may start the run; below, those above the value taken.
            const auto end = k + 1 == tails.size()
                                 ? last
                                 : std::partition_point(first, last, [&](std::size_t i) {
                                       return order[i] > order[taken];
                                   });
            taken = *(end - 1);
            moved[taken] = false;
        }
        return moved;
    }

    bool movedElement(const std::string& path, const Element& a, const Element& b, std::size_t from,
                      std::size_t to) {
        Difference d;
        d.kind = DiffKind::Moved;
        d.path = path;
        d.description = elementClass(a.kind) + " moved from position " + std::to_string(from + 1) +
                        " to " + std::to_string(to + 1);
        d.a = {a.headerRegion, "position " + std::to_string(from + 1)};
        d.b = {b.headerRegion, "position " + std::to_string(to + 1)};
        return put(std::move(d));
    }

    static std::string summaryOf(const Element& e) {
        switch (e.kind) {
            case ElementKind::Block:
                return std::to_string(e.paragraphs.size()) + " paragraphs";
            case ElementKind::List:
            case ElementKind::ExternalList:
                return std::to_string(e.items.size()) + " items" +
                       (e.kind == ElementKind::ExternalList ? " in parts" : "");
            case ElementKind::Comment:
                return e.text;
        }
        return {};
    }

    bool element(DiffKind kind, const std::string& path, const Element* a, const Element* b) {
        Difference d;
        d.kind = kind;
        d.path = path;
        if (a != nullptr) {
            d.a = {a->region, cut(summaryOf(*a))};
        }
        if (b != nullptr) {
            d.b = {b->region, cut(summaryOf(*b))};
        }
        if (kind != DiffKind::Changed) {
            const Element& e = a != nullptr ? *a : *b;
            d.description = elementClass(e.kind) + " (" + cut(summaryOf(e)) + ") is only in " +
                            (a != nullptr ? "A" : "B");
            return put(std::move(d));
        }
        contentFields(*a, *b, d.fields);
        if (!d.fields.empty()) {
            d.description = describeChange(d.fields);
            return put(std::move(d));
        }
        return encoding(path, *a, *b);
    }

    void contentFields(const Element& a, const Element& b, std::vector<DiffField>& out) const {
        if (a.kind == ElementKind::Comment || b.kind == ElementKind::Comment) {
            if (a.text != b.text) {
                paragraphChange("text", a.text, b.text, out);
            }
        } else if (elementClass(a.kind) == "list") {
            items(a, b, out);
        } else {
            paragraphs(a.paragraphs, b.paragraphs, "", out);
        }
    }

    void items(const Element& a, const Element& b, std::vector<DiffField>& out) const {
        const MatchKeys ka = itemKeys(a.items), kb = itemKeys(b.items);
        std::map<std::string, std::size_t> posB;
        for (std::size_t j = 0; j < kb.match.size(); ++j) {
            posB.emplace(kb.match[j], j);
        }
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < a.items.size(); ++i) {
            const auto it = posB.find(ka.match[i]);
            if (it == posB.end()) {
                out.push_back({ka.shown[i], DiffKind::Removed,
                               cut(joinedParagraphs(a.items[i].paragraphs)), ""});
                continue;
            }
            order.push_back(it->second);
            paragraphs(a.items[i].paragraphs, b.items[it->second].paragraphs, ka.shown[i] + "/",
                       out);
        }
        const std::vector<bool> moved = outOfOrder(order);
        for (std::size_t c = 0; c < order.size(); ++c) {
            if (moved[c]) {
                out.push_back({kb.shown[order[c]], DiffKind::Moved, "",
                               "position " + std::to_string(order[c] + 1)});
            }
        }
        const std::set<std::string> inA(ka.match.begin(), ka.match.end());
        for (std::size_t j = 0; j < b.items.size(); ++j) {
            if (!inA.contains(kb.match[j])) {
                out.push_back({kb.shown[j], DiffKind::Added, "",
                               cut(joinedParagraphs(b.items[j].paragraphs))});
            }
        }
    }

    static std::string joinedParagraphs(const std::vector<Paragraph>& ps) {
        std::vector<std::string> texts;
        for (const auto& p : ps) {
            texts.push_back(p.text);
        }
        return joined(texts, " ¶ ");
    }

    // Paragraphs aligned on their longest common run of equal texts; the unmatched ones between
    // two anchors are paired in order (changed, with a word diff), the rest added or removed.
    void paragraphs(const std::vector<Paragraph>& a, const std::vector<Paragraph>& b,
                    const std::string& prefix, std::vector<DiffField>& out) const {
        const auto anchors = commonSubsequence(
            a, b, [](const Paragraph& x, const Paragraph& y) { return x.text == y.text; });
        std::size_t i = 0, j = 0;
        auto gap = [&](std::size_t endA, std::size_t endB) {
            for (; i < endA && j < endB; ++i, ++j) {
                paragraphChange(prefix + "paragraph " + std::to_string(j + 1), a[i].text, b[j].text,
                                out);
            }
            for (; i < endA; ++i) {
                out.push_back({prefix + "paragraph " + std::to_string(i + 1) + " (A)",
                               DiffKind::Removed, cut(a[i].text), ""});
            }
            for (; j < endB; ++j) {
                out.push_back({prefix + "paragraph " + std::to_string(j + 1), DiffKind::Added, "",
                               cut(b[j].text)});
            }
        };
        for (const auto& [ai, bj] : anchors) {
            gap(ai, bj);
            i = ai + 1;
            j = bj + 1;
        }
        gap(a.size(), b.size());
    }

    void paragraphChange(const std::string& path, const std::string& a, const std::string& b,
                         std::vector<DiffField>& out) const {
        out.push_back({path, DiffKind::Changed, cut(a), cut(b)});
        const OzdfWordDiff w = ozdfWordDiff(a, b);
        // The words a longest common run of words leaves out: removed on the A side, added on B.
        out.push_back({path + " words", DiffKind::Changed, cut(joined(w.removed, " ")),
                       cut(joined(w.added, " "))});
    }

    // Paragraphs whose changed words the description of one element quotes.
    static constexpr std::size_t kWordChangesShown = 3;

    static std::string describeChange(const std::vector<DiffField>& fields) {
        std::size_t changed = 0, added = 0, removed = 0, moved = 0;
        for (const auto& f : fields) {
            if (f.path.ends_with(" words")) {
                continue;
            }
            changed += f.kind == DiffKind::Changed;
            added += f.kind == DiffKind::Added;
            removed += f.kind == DiffKind::Removed;
            moved += f.kind == DiffKind::Moved;
        }
        std::vector<std::string> parts;
        auto part = [&](std::size_t n, const char* what) {
            if (n != 0) {
                parts.push_back(std::to_string(n) + " " + what);
            }
        };
        part(changed, "changed");
        part(added, "added");
        part(removed, "removed");
        part(moved, "moved");
        // The words themselves, so the list says what changed without a tooltip: "1 changed:
        // "presents," → "gifts,"".
        std::vector<std::string> words;
        std::size_t wordChanges = 0;
        for (const auto& f : fields) {
            if (!f.path.ends_with(" words") || (f.a.empty() && f.b.empty())) {
                continue;
            }
            if (++wordChanges > kWordChangesShown) {
                continue;
            }
            words.push_back(f.a.empty()   ? "+\"" + f.b + "\""
                            : f.b.empty() ? "−\"" + f.a + "\""
                                          : "\"" + f.a + "\" → \"" + f.b + "\"");
        }
        if (wordChanges > kWordChangesShown) {
            words.push_back("…");
        }
        return joined(parts, ", ") + (words.empty() ? "" : ": " + joined(words, "; "));
    }

    // The same content: say so when the bytes differ all the same (wrapping, spacing, case of the
    // header, a list inline on one side and in parts on the other).
    bool encoding(const std::string& path, const Element& a, const Element& b) {
        std::string what;
        if (a.kind != b.kind) {
            what = a.kind == ElementKind::ExternalList ? "the list is in parts in A, inline in B"
                                                       : "the list is inline in A, in parts in B";
        } else if (a.writtenName != b.writtenName) {
            what =
                "the header is written '" + a.writtenName + "' in A, '" + b.writtenName + "' in B";
        } else if (a.kind != ElementKind::ExternalList &&
                   bytes_.text(a.region) != bytes_.text(b.region)) {
            what = "the same text, wrapped or spaced differently";
        }
        if (what.empty()) {
            return true;
        }
        Difference d;
        d.kind = DiffKind::Encoding;
        d.path = path;
        d.description = what;
        d.a = {a.region, cut(summaryOf(a))};
        d.b = {b.region, cut(summaryOf(b))};
        return put(std::move(d));
    }

    OzdfDiffSide a_, b_;
    ElementBytes bytes_;
    DiffSink* sink_ = nullptr;
    const DiffOptions* options_ = nullptr;
};

}  // namespace

OzdfWordDiff ozdfWordDiff(const std::string& a, const std::string& b) {
    const auto wa = words(a), wb = words(b);
    const auto common = commonSubsequence(wa, wb, std::equal_to<>());
    OzdfWordDiff out;
    std::size_t i = 0, j = 0;
    auto flush = [&](std::size_t endA, std::size_t endB) {
        for (; i < endA; ++i) {
            out.removed.push_back(wa[i]);
        }
        for (; j < endB; ++j) {
            out.added.push_back(wb[j]);
        }
    };
    for (const auto& [ai, bj] : common) {
        flush(ai, bj);
        i = ai + 1;
        j = bj + 1;
    }
    flush(wa.size(), wb.size());
    return out;
}

std::unique_ptr<Differ> makeOzdfDiffer(OzdfDiffSide a, OzdfDiffSide b) {
    return std::make_unique<OzdfDiffer>(std::move(a), std::move(b));
}

}  // namespace strata
