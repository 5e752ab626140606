#include "zt_diff.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "formats/common/json_diff.h"
#include "formats/common/thread_cancel.h"
#include "zt_logical.h"
#include "zt_sparse_diff.h"

namespace strata::ztensor {

namespace {

constexpr std::uint64_t kChunkBytes = 4ull << 20;
constexpr std::size_t kQueuedPieces = 4;

std::string formatDouble(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

std::string shapeText(const ZtTensor& t) {
    if (!t.shapeValid) {
        return "(invalid shape)";
    }
    std::string s = "[";
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(t.shape[i]);
    }
    return s + "]";
}

std::string describe(const ZtTensor& t) {
    return t.dtypeName + " " + shapeText(t) + (t.formatName == "dense" ? "" : " " + t.formatName);
}

// The decoded bytes of one component, produced on a thread of its own and pulled in pieces.
class ComponentStream {
public:
    ComponentStream(const ZtFile& file, const ZtComponent& component, unsigned elementSize) {
        worker_ = startThreadInheritingCancel([this, &file, &component, elementSize] {
            const ZtReadResult r = ztReadComponent(
                file, component, [this](std::span<const std::uint8_t> piece) { push(piece); },
                elementSize, &stop_);
            std::lock_guard lock(mutex_);
            result_ = r;
            done_ = true;
            changed_.notify_all();
        });
    }
    ~ComponentStream() {
        stop_.cancel();
        {
            std::lock_guard lock(mutex_);
            changed_.notify_all();
        }
        worker_.join();
    }
    ComponentStream(const ComponentStream&) = delete;
    ComponentStream& operator=(const ComponentStream&) = delete;

    // The next piece, or false at the end (then result() says how the read ended).
    bool next(std::vector<std::uint8_t>& piece) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !queue_.empty() || done_; });
        if (queue_.empty()) {
            return false;
        }
        piece = std::move(queue_.front());
        queue_.pop_front();
        changed_.notify_all();
        return true;
    }
    ZtReadResult result() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return done_; });
        return result_;
    }

private:
    void push(std::span<const std::uint8_t> piece) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return queue_.size() < kQueuedPieces || stop_.cancelled(); });
        if (!stop_.cancelled()) {
            queue_.emplace_back(piece.begin(), piece.end());
            changed_.notify_all();
        }
    }

    CancelToken stop_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::vector<std::uint8_t>> queue_;
    ZtReadResult result_;
    bool done_ = false;
    std::thread worker_;
};

// A run of pulled pieces read as one stream.
class PieceCursor {
public:
    explicit PieceCursor(ComponentStream& stream) : stream_(stream) {}
    // Bytes available now (refills when empty); 0 at the end.
    std::size_t available() {
        while (at_ == piece_.size()) {
            at_ = 0;
            if (!stream_.next(piece_)) {
                piece_.clear();
                return 0;
            }
        }
        return piece_.size() - at_;
    }
    const std::uint8_t* data() const { return piece_.data() + at_; }
    void advance(std::size_t n) { at_ += n; }

private:
    ComponentStream& stream_;
    std::vector<std::uint8_t> piece_;
    std::size_t at_ = 0;
};

std::string sideError(char side, const ZtFile& file, const ZtComponent& c, const std::string& e) {
    return std::string(1, side) + ": " + file.componentPath(c) + ": " + e;
}

ZtValueComparison compareDecoded(const ZtFile& a, const ZtComponent& ca, const ZtFile& b,
                                 const ZtComponent& cb, ZtDType dtype, const CancelToken* cancel) {
    const unsigned size = ztDTypeSize(dtype);
    ZtValueComparison out;
    ComponentStream sa(a, ca, size), sb(b, cb, size);
    PieceCursor pa(sa), pb(sb);
    std::uint64_t element = 0;
    bool tailDiffers = false;
    for (;;) {
        if (cancel != nullptr && cancel->cancelled()) {
            out.cancelled = true;
            out.error = "cancelled";
            return out;
        }
        const std::size_t na = pa.available(), nb = pb.available();
        if (na == 0 || nb == 0) {
            break;
        }
        const std::uint64_t count = std::min(na, nb) / size;
        if (count == 0) {
            // Pieces are cut at elements, so this is a partial element ending a stream (a
            // length the validator refuses): compared as bytes, and then no stream goes on.
            const std::size_t n = std::min(na, nb);
            tailDiffers = tailDiffers || std::memcmp(pa.data(), pb.data(), n) != 0;
            pa.advance(n);
            pb.advance(n);
            continue;
        }
        ztCompareElements(dtype, pa.data(), pb.data(), count, element, out.diff);
        element += count;
        pa.advance(count * size);
        pb.advance(count * size);
    }
    const ZtReadResult ra = sa.result(), rb = sb.result();
    if (!ra.ok) {
        out.error = sideError('A', a, ca, ra.error);
    } else if (!rb.ok) {
        out.error = sideError('B', b, cb, rb.error);
    } else if (ra.bytes != rb.bytes) {
        out.error =
            "A has " + std::to_string(ra.bytes) + " bytes of values, B " + std::to_string(rb.bytes);
    } else if (tailDiffers) {
        out.error = "the bytes after the last whole element (" + std::to_string(ra.bytes % size) +
                    " of " + std::to_string(size) + " bytes) differ";
    } else {
        out.ok = true;
    }
    return out;
}

// Both sides raw and inside their files: compare the mapped bytes in place, chunks shared out
// over the workers; each worker keeps its own tally and the tallies merge in chunk order.
ZtValueComparison compareRaw(const ZtFile& a, const ZtComponent& ca, const ZtFile& b,
                             const ZtComponent& cb, ZtDType dtype, const CancelToken* cancel,
                             unsigned threads) {
    const unsigned size = ztDTypeSize(dtype);
    ZtValueComparison out;
    const std::uint64_t length = *ca.length;
    const std::uint64_t chunk = kChunkBytes / size * size;
    const std::uint64_t chunks = (length + chunk - 1) / chunk;
    std::atomic<std::uint64_t> nextChunk{0};
    std::vector<ZtValueDiff> tallies(std::max(1u, threads));
    auto work = [&](ZtValueDiff& tally) {
        for (std::uint64_t i = nextChunk++; i < chunks; i = nextChunk++) {
            if (cancel != nullptr && cancel->cancelled()) {
                return;
            }
            const std::uint64_t at = i * chunk;
            const std::uint64_t n = std::min(chunk, length - at) / size * size;
            const ByteView va = a.source()->view(*ca.offset + at, n);
            const ByteView vb = b.source()->view(*cb.offset + at, n);
            const std::uint64_t common = std::min(va.size(), vb.size()) / size;
            ztCompareElements(dtype, va.data(), vb.data(), common, at / size, tally);
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < tallies.size(); ++t) {
        pool.push_back(startThreadInheritingCancel([&work, &tally = tallies[t]] { work(tally); }));
    }
    work(tallies[0]);
    for (auto& t : pool) {
        t.join();
    }
    if (cancel != nullptr && cancel->cancelled()) {
        out.cancelled = true;
        out.error = "cancelled";
        return out;
    }
    for (const auto& t : tallies) {
        out.diff.merge(t);
    }
    out.ok = true;
    return out;
}

}  // namespace

void ZtValueDiff::merge(const ZtValueDiff& other) {
    elements += other.elements;
    differing += other.differing;
    if (other.firstDiffering && (!firstDiffering || *other.firstDiffering < *firstDiffering)) {
        firstDiffering = other.firstDiffering;
    }
    maxAbs = std::max(maxAbs, other.maxAbs);
    maxRel = std::max(maxRel, other.maxRel);
    sumSquares += other.sumSquares;
    nonFinite += other.nonFinite;
}

double ZtValueDiff::rms() const {
    return elements == 0 ? 0.0 : std::sqrt(sumSquares / double(elements));
}

void ztCompareElements(ZtDType dtype, const std::uint8_t* a, const std::uint8_t* b,
                       std::uint64_t elementCount, std::uint64_t firstElement, ZtValueDiff& out) {
    const unsigned size = ztDTypeSize(dtype);
    out.elements += elementCount;
    if (elementCount == 0 || std::memcmp(a, b, elementCount * size) == 0) {
        return;  // the common case: equal runs cost one memcmp
    }
    for (std::uint64_t i = 0; i < elementCount; ++i) {
        const std::uint8_t* ea = a + i * size;
        const std::uint8_t* eb = b + i * size;
        if (std::memcmp(ea, eb, size) == 0) {
            continue;
        }
        ++out.differing;
        if (!out.firstDiffering) {
            out.firstDiffering = firstElement + i;
        }
        const double va = ztElementValue(dtype, ea), vb = ztElementValue(dtype, eb);
        if (!std::isfinite(va) || !std::isfinite(vb)) {
            ++out.nonFinite;
            continue;
        }
        const double d = std::fabs(va - vb);
        out.maxAbs = std::max(out.maxAbs, d);
        const double scale = std::max(std::fabs(va), std::fabs(vb));
        if (scale > 0) {
            out.maxRel = std::max(out.maxRel, d / scale);
        }
        out.sumSquares += d * d;
    }
}

ZtValueComparison ztCompareComponents(const ZtFile& a, const ZtComponent& ca, const ZtFile& b,
                                      const ZtComponent& cb, ZtDType dtype,
                                      const CancelToken* cancel, unsigned threads) {
    const bool raw = ca.encoding == ZtEncoding::Raw && cb.encoding == ZtEncoding::Raw &&
                     ca.inBounds && cb.inBounds && ca.length == cb.length &&
                     *ca.length % ztDTypeSize(dtype) == 0;
    if (raw) {
        return compareRaw(a, ca, b, cb, dtype, cancel, threads);
    }
    return compareDecoded(a, ca, b, cb, dtype, cancel);
}

namespace {

std::string encodingText(const ZtComponent& c) {
    return c.encodingName.empty() ? "raw" : c.encodingName;
}

class ZtDiffer final : public Differ {
public:
    ZtDiffer(std::shared_ptr<const ZtFile> a, std::shared_ptr<const ZtFile> b)
        : a_(std::move(a)), b_(std::move(b)) {}

    JobOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        readable(*a_, 'A');
        readable(*b_, 'B');
        if (!fileLevel()) {
            return JobOutcome::Stopped;
        }
        std::vector<std::string> names;
        for (const auto& t : a_->tensors()) {
            names.push_back(t.name);
        }
        for (const auto& t : b_->tensors()) {
            if (a_->findTensor(t.name) == nullptr) {
                names.push_back(t.name);
            }
        }
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (options.cancelled()) {
                return JobOutcome::Cancelled;
            }
            options.reportProgress(double(i) / double(names.size()), "tensor " + names[i]);
            const JobOutcome o = tensor(names[i]);
            if (o != JobOutcome::Completed) {
                return o;
            }
        }
        options.reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

private:
    static void readable(const ZtFile& f, char side) {
        if (!f.manifestDecoded()) {
            throw DiffError(std::string(1, side) + " (" + f.source()->name() +
                            "): the zTensor manifest cannot be read (see validate)");
        }
    }

    bool put(Difference d) { return report(*sink_, std::move(d)); }

    bool encoding(const std::string& path, const std::string& what, const std::string& va,
                  const std::string& vb, Region ra = {}, Region rb = {}) {
        Difference d;
        d.kind = DiffKind::Encoding;
        d.path = path;
        d.description = what + ": " + va + " in A, " + vb + " in B";
        d.a = {ra, va};
        d.b = {rb, vb};
        return put(std::move(d));
    }

    bool fileLevel() {
        if (a_->layout() != b_->layout() &&
            !encoding("file/layout", "file layout", std::string(ztLayoutName(a_->layout())),
                      std::string(ztLayoutName(b_->layout())), a_->magic(), b_->magic())) {
            return false;
        }
        if (a_->version() != b_->version() &&
            !encoding("file/version", "version", a_->version(), b_->version(), a_->versionField(),
                      b_->versionField())) {
            return false;
        }
        if (a_->generator() != b_->generator() &&
            !encoding("file/generator", "generator", a_->generator(), b_->generator(),
                      a_->generatorField(), b_->generatorField())) {
            return false;
        }
        return attributes();
    }

    // Attributes by key, compared as the manifest holds them (a number is not the text of that
    // number, though readers that list them show both alike).
    bool attributes() {
        const nlohmann::json fa = attributeMap(*a_), fb = attributeMap(*b_);
        for (auto it = fa.begin(); it != fa.end(); ++it) {
            const auto other = fb.find(it.key());
            Difference d;
            d.path = "attributes/" + it.key();
            d.a.value = attributeText(*it);
            if (other == fb.end()) {
                d.kind = DiffKind::Removed;
                d.description = "attribute " + it.key() + " is only in A";
            } else if (!sameJsonValue(*it, *other)) {
                d.kind = DiffKind::Changed;
                d.description = "attribute " + it.key() + " differs";
                d.b.value = attributeText(*other);
            } else {
                continue;
            }
            if (!put(std::move(d))) {
                return false;
            }
        }
        for (auto it = fb.begin(); it != fb.end(); ++it) {
            if (fa.contains(it.key())) {
                continue;
            }
            Difference d;
            d.kind = DiffKind::Added;
            d.path = "attributes/" + it.key();
            d.description = "attribute " + it.key() + " is only in B";
            d.b.value = attributeText(*it);
            if (!put(std::move(d))) {
                return false;
            }
        }
        return unusedKeys();
    }

    static nlohmann::json attributeMap(const ZtFile& f) {
        const nlohmann::json& m = f.manifestJson();
        if (m.is_object() && m.contains("attributes") && m["attributes"].is_object()) {
            return m["attributes"];
        }
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [key, value] : f.attributes()) {
            out[key] = value;
        }
        return out;
    }

    std::string attributeText(const nlohmann::json& v) const {
        return diffValueText(v.is_string() ? v.get<std::string>() : jsonText(v),
                             options_->maxValueChars);
    }

    // Manifest keys no reader uses (at the top, in a tensor's entry, in a component's) are kept
    // by writers that copy a file, so a difference in them is a difference of the file's content:
    // one difference for the top (`manifest`) and one per tensor on both sides
    // (`tensor/<name>/manifest`).
    bool unusedKeys() {
        const nlohmann::json ea = ztUnusedManifestKeys(*a_), eb = ztUnusedManifestKeys(*b_);
        if (!unusedKeysOf("manifest", "the manifest", ea["top"], eb["top"])) {
            return false;
        }
        const auto of = [](const nlohmann::json& extras, const std::string& name) {
            const auto it = extras["tensors"].find(name);
            return it == extras["tensors"].end() ? nlohmann::json::object() : *it;
        };
        for (const ZtTensor& t : a_->tensors()) {
            if (b_->findTensor(t.name) != nullptr &&
                !unusedKeysOf("tensor/" + t.name + "/manifest", "tensor " + t.name, of(ea, t.name),
                              of(eb, t.name))) {
                return false;
            }
        }
        return true;
    }

    bool unusedKeysOf(const std::string& path, const std::string& what, const nlohmann::json& a,
                      const nlohmann::json& b) {
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = path;
        std::size_t more = 0;
        diffJsonValues(a, b, "$", d.fields, more, options_->maxValueChars);
        if (d.fields.empty()) {
            return true;
        }
        d.description = what + ": " + std::to_string(d.fields.size() + more) + " manifest value" +
                        (d.fields.size() + more == 1 ? "" : "s") +
                        " that readers do not use differ";
        return put(std::move(d));
    }

    static Region bytesOf(const ZtFile& f, const ZtTensor& t) {
        const ZtComponent* data = f.component(t, "data");
        return data != nullptr && data->hasRange() ? data->data : t.entry;
    }

    JobOutcome tensor(const std::string& name) {
        const ZtTensor* ta = a_->findTensor(name);
        const ZtTensor* tb = b_->findTensor(name);
        ++summary_.compared;
        if (ta == nullptr || tb == nullptr) {
            const ZtTensor& t = ta != nullptr ? *ta : *tb;
            Difference d;
            d.kind = ta != nullptr ? DiffKind::Removed : DiffKind::Added;
            d.path = "tensor/" + name;
            d.description = "tensor " + name + " (" + describe(t) + ") is only in " +
                            (ta != nullptr ? "A" : "B");
            const ZtFile& file = ta != nullptr ? *a_ : *b_;
            DiffSide& side = ta != nullptr ? d.a : d.b;
            side.region = bytesOf(file, t);
            side.value = describe(t);
            return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
        }
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = "tensor/" + name;
        d.a = {bytesOf(*a_, *ta), describe(*ta)};
        d.b = {bytesOf(*b_, *tb), describe(*tb)};
        if (ta->dtypeName != tb->dtypeName) {
            d.fields.push_back({"dtype", DiffKind::Changed, ta->dtypeName, tb->dtypeName});
        }
        if (shapeText(*ta) != shapeText(*tb)) {
            d.fields.push_back({"shape", DiffKind::Changed, shapeText(*ta), shapeText(*tb)});
        }
        if (ta->formatName != tb->formatName) {
            d.fields.push_back({"format", DiffKind::Changed, ta->formatName, tb->formatName});
        }
        // Only the layout differs (dense, sparse_csr, sparse_coo): the values by coordinates.
        if (d.fields.size() == 1 && d.fields[0].path == "format" && valueLayout(*ta) &&
            valueLayout(*tb)) {
            return byCoordinates(name, *ta, *tb, std::move(d), {});
        }
        if (!d.fields.empty()) {
            d.description = "tensor " + name + ": " + d.a.value + " in A, " + d.b.value +
                            " in B (values not compared)";
            return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
        }
        return values(name, *ta, *tb, std::move(d));
    }

    static bool valueLayout(const ZtTensor& t) {
        return t.format == ZtTensorFormat::Dense || t.format == ZtTensorFormat::SparseCsr ||
               t.format == ZtTensorFormat::SparseCoo;
    }

    // Two tensors of one dtype and shape, one at least sparse, compared element by element at
    // their row-major coordinates. `d` holds the format field when the layouts differ, or the
    // component fields found when they are alike (kept when the coordinates cannot be compared).
    JobOutcome byCoordinates(const std::string& name, const ZtTensor& ta, const ZtTensor& tb,
                             Difference d, const std::vector<std::string>& storage) {
        const bool sameLayout = ta.format == tb.format;
        const ZtValueComparison c = ztCompareByCoordinates(*a_, ta, *b_, tb, options_->cancel);
        if (c.cancelled) {
            return JobOutcome::Cancelled;
        }
        if (!c.ok) {
            d.description =
                "tensor " + name + ": " +
                (sameLayout ? fieldsText(d.fields) : d.a.value + " in A, " + d.b.value + " in B") +
                " (values not compared by coordinates: " + c.error + ")";
            return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
        }
        const std::string layouts =
            sameLayout ? "entries stored in another order"
                       : "stored " + ta.formatName + " in A, " + tb.formatName + " in B";
        if (c.diff.identical()) {
            Difference e;
            e.kind = DiffKind::Encoding;
            e.path = d.path;
            e.a = d.a;
            e.b = d.b;
            std::vector<std::string> parts{layouts};
            parts.insert(parts.end(), storage.begin(), storage.end());
            e.description =
                "tensor " + name + ": the same values at the same coordinates, " + join(parts);
            if (!sameLayout) {
                e.fields.push_back({"format", DiffKind::Encoding, ta.formatName, tb.formatName});
            }
            return put(std::move(e)) ? JobOutcome::Completed : JobOutcome::Stopped;
        }
        d.fields.clear();
        if (!sameLayout) {
            d.fields.push_back({"format", DiffKind::Encoding, ta.formatName, tb.formatName});
        }
        appendValueFields("values", c.diff, d.fields);
        d.description = "tensor " + name + " by coordinates: " + fieldsText(d.fields);
        return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
    }

    // Components by role, in role order.
    static std::map<std::string, const ZtComponent*> roles(const ZtFile& f, const ZtTensor& t) {
        std::map<std::string, const ZtComponent*> out;
        for (std::size_t i : t.components) {
            out.emplace(f.components()[i].role, &f.components()[i]);
        }
        return out;
    }

    // The dtype a component's elements have: the tensor's for values (bytes when the dtype is
    // unknown), 64-bit unsigned for the index components of sparse layouts.
    static ZtDType roleDType(const ZtTensor& t, const std::string& role) {
        if (role == "data" || role == "values") {
            return t.dtype.value_or(ZtDType::UInt8);
        }
        return ZtDType::UInt64;
    }

    static bool sameDigests(const ZtComponent& ca, const ZtComponent& cb, bool& known) {
        known = ca.digest && cb.digest && ca.encodingName == cb.encodingName &&
                ca.digest->substr(0, ca.digest->find(':')) ==
                    cb.digest->substr(0, cb.digest->find(':'));
        return known && *ca.digest == *cb.digest;
    }

    JobOutcome values(const std::string& name, const ZtTensor& ta, const ZtTensor& tb,
                      Difference d) {
        const auto ra = roles(*a_, ta), rb = roles(*b_, tb);
        std::vector<std::string> storage;
        for (const auto& [role, ca] : ra) {
            const auto it = rb.find(role);
            if (it == rb.end()) {
                d.fields.push_back({role, DiffKind::Removed, "present", ""});
                continue;
            }
            const ZtComponent& cb = *it->second;
            if (const auto o = component(role, ta, *ca, cb, d); o != JobOutcome::Completed) {
                return o;
            }
            if (encodingText(*ca) != encodingText(cb)) {
                storage.push_back(role + " stored " + encodingText(*ca) + " in A, " +
                                  encodingText(cb) + " in B");
            } else if (ca->digest.has_value() != cb.digest.has_value()) {
                storage.push_back(role + " has a digest only in " + (ca->digest ? "A" : "B"));
            }
        }
        for (const auto& [role, cb] : rb) {
            if (!ra.contains(role)) {
                d.fields.push_back({role, DiffKind::Added, "", "present"});
            }
        }
        // Sparse components that differ may still hold the same entries in another order.
        if (!d.fields.empty() && ta.format != ZtTensorFormat::Dense && valueLayout(ta)) {
            return byCoordinates(name, ta, tb, std::move(d), storage);
        }
        if (!d.fields.empty()) {
            d.description = "tensor " + name + ": " + fieldsText(d.fields);
            return put(std::move(d)) ? JobOutcome::Completed : JobOutcome::Stopped;
        }
        if (storage.empty()) {
            return JobOutcome::Completed;
        }
        Difference e;
        e.kind = DiffKind::Encoding;
        e.path = d.path;
        e.a = d.a;
        e.b = d.b;
        e.description = "tensor " + name + ": the same values, " + join(storage);
        return put(std::move(e)) ? JobOutcome::Completed : JobOutcome::Stopped;
    }

    JobOutcome component(const std::string& role, const ZtTensor& ta, const ZtComponent& ca,
                         const ZtComponent& cb, Difference& d) {
        if (options_->quick) {
            bool known = false;
            const bool same = sameDigests(ca, cb, known);
            if (known) {
                if (!same) {
                    d.fields.push_back(
                        {role + ".digest", DiffKind::Changed, *ca.digest, *cb.digest});
                }
                return JobOutcome::Completed;
            }
        }
        const ZtValueComparison c = ztCompareComponents(
            *a_, ca, *b_, cb, roleDType(ta, role), options_->cancel,
            options_->threads ? options_->threads
                              : std::max(1u, std::thread::hardware_concurrency()));
        if (c.cancelled) {
            return JobOutcome::Cancelled;
        }
        if (!c.ok) {
            d.fields.push_back({role, DiffKind::Changed, "", "cannot compare: " + c.error});
            return JobOutcome::Completed;
        }
        if (!c.diff.identical()) {
            appendValueFields(role, c.diff, d.fields);
        }
        return JobOutcome::Completed;
    }

    static void appendValueFields(const std::string& role, const ZtValueDiff& v,
                                  std::vector<DiffField>& out) {
        std::string summary = std::to_string(v.differing) + " of " + std::to_string(v.elements) +
                              " elements differ, first at " + std::to_string(*v.firstDiffering);
        if (v.differing > v.nonFinite) {
            summary += ", max |a-b| " + formatDouble(v.maxAbs) + ", max relative " +
                       formatDouble(v.maxRel) + ", RMS " + formatDouble(v.rms());
        }
        if (v.nonFinite != 0) {
            summary += ", " + std::to_string(v.nonFinite) + " with NaN or infinity";
        }
        out.push_back({role, DiffKind::Changed, "", summary});
        out.push_back({role + ".differing", DiffKind::Changed, "", std::to_string(v.differing)});
        out.push_back(
            {role + ".first_index", DiffKind::Changed, "", std::to_string(*v.firstDiffering)});
        out.push_back({role + ".max_abs", DiffKind::Changed, "", formatDouble(v.maxAbs)});
        out.push_back({role + ".max_rel", DiffKind::Changed, "", formatDouble(v.maxRel)});
        out.push_back({role + ".rms", DiffKind::Changed, "", formatDouble(v.rms())});
    }

    static std::string fieldsText(const std::vector<DiffField>& fields) {
        std::vector<std::string> parts;
        for (const auto& f : fields) {
            if (f.path.find('.') != std::string::npos) {
                continue;  // the detail fields; the summary field says it all
            }
            parts.push_back(f.kind == DiffKind::Removed ? f.path + " only in A"
                            : f.kind == DiffKind::Added ? f.path + " only in B"
                                                        : f.path + ": " + f.b);
        }
        if (parts.empty()) {
            for (const auto& f : fields) {
                parts.push_back(f.path + " differs");
            }
        }
        return join(parts);
    }

    static std::string join(const std::vector<std::string>& parts) {
        std::string out;
        for (const auto& p : parts) {
            out += (out.empty() ? "" : "; ") + p;
        }
        return out;
    }

    std::shared_ptr<const ZtFile> a_, b_;
    DiffSink* sink_ = nullptr;
    const DiffOptions* options_ = nullptr;
};

}  // namespace

std::unique_ptr<Differ> makeZtDiffer(std::shared_ptr<const ZtFile> a,
                                     std::shared_ptr<const ZtFile> b) {
    return std::make_unique<ZtDiffer>(std::move(a), std::move(b));
}

}  // namespace strata::ztensor
