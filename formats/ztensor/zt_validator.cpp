#include "zt_validator.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <span>
#include <variant>

#include "../common/checksums.h"
#include "../common/ordered_pool.h"
#include "../common/save_leftovers.h"
#include "formats/common/counted.h"
#include "zt_decode.h"
#include "zt_digest.h"
#include "zt_nonfinite.h"
#include "zt_sparse.h"

namespace strata::ztensor {

namespace {

constexpr std::uint64_t kGapChunk = 1ull << 20;
// Raw bytes are copied into a buffer of this size that stays in the core's cache; the digest
// and the value scan then both read them from there.
constexpr std::size_t kReadStep = 256u << 10;
// The value scan of a raw tensor without a digest is split into slices of this size (a
// multiple of every element size), checked on all threads at once.
constexpr std::uint64_t kScanSlice = 16ull << 20;

using Diagnostics = std::vector<Diagnostic>;

// What one task of the validator hands back, in submission order: its diagnostics and the
// NaN/Inf it counted. A tensor's check comes after its slices and closes the tensor, whose
// ZT-NONFINITE total is then known.
struct PartResult {
    Diagnostics diagnostics;
    ZtNonFiniteCount nonFinite;
    const ZtTensor* closes = nullptr;
};

// Calls use(piece) for [offset, offset + length) of the source, copied piece by piece into
// this thread's buffer; false when cancelled first.
template <class Use>
bool readInSteps(const ByteSource& source, std::uint64_t offset, std::uint64_t length,
                 const CancelToken* cancel, Use use) {
    thread_local std::vector<std::uint8_t> buffer(kReadStep);
    for (std::uint64_t at = 0; at < length; at += kReadStep) {
        if (cancel != nullptr && cancel->cancelled()) {
            return false;
        }
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(kReadStep, length - at));
        const std::size_t got = source.read(offset + at, std::span(buffer.data(), want));
        use(std::span<const std::uint8_t>(buffer.data(), got));
    }
    return true;
}

Diagnostic make(Severity severity, std::string code, std::string message, Region region,
                std::string nodePath) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    if (region.valid()) {
        d.regions.push_back(region);
        d.file = region.source->name();
    }
    d.nodePath = std::move(nodePath);
    return d;
}

// NaN/Inf counting over a stream of bytes whose pieces may split elements.
class NonFiniteCounter {
public:
    explicit NonFiniteCounter(std::optional<ZtDType> dtype) : dtype_(dtype) {}

    bool active() const { return dtype_ && ztDTypeIsFloat(*dtype_); }
    void feed(std::span<const std::uint8_t> bytes) {
        if (!active()) {
            return;
        }
        const unsigned size = ztDTypeSize(*dtype_);
        while (carryUsed_ > 0 && !bytes.empty()) {
            carry_[carryUsed_++] = bytes.front();
            bytes = bytes.subspan(1);
            if (carryUsed_ == size) {
                countNonFinite(*dtype_, carry_, size, count_);
                carryUsed_ = 0;
            }
        }
        const std::size_t whole = bytes.size() / size * size;
        countNonFinite(*dtype_, bytes.data(), whole, count_);
        for (std::size_t i = whole; i < bytes.size(); ++i) {
            carry_[carryUsed_++] = bytes[i];
        }
    }
    const ZtNonFiniteCount& count() const { return count_; }

private:
    std::optional<ZtDType> dtype_;
    std::uint8_t carry_[8] = {};
    unsigned carryUsed_ = 0;
    ZtNonFiniteCount count_;
};

// Incremental crc32c or sha256 over stored bytes.
class DigestRunner {
public:
    explicit DigestRunner(ZtDigestAlgorithm algorithm) : algorithm_(algorithm) {}
    void feed(std::span<const std::uint8_t> bytes) {
        if (algorithm_ == ZtDigestAlgorithm::Crc32c) {
            crc_ = crc32c(bytes, crc_);
        } else {
            sha_.update(bytes);
        }
    }
    std::vector<std::uint8_t> finish() {
        if (algorithm_ == ZtDigestAlgorithm::Crc32c) {
            return {static_cast<std::uint8_t>(crc_ >> 24), static_cast<std::uint8_t>(crc_ >> 16),
                    static_cast<std::uint8_t>(crc_ >> 8), static_cast<std::uint8_t>(crc_)};
        }
        const auto digest = sha_.finish();
        return {digest.begin(), digest.end()};
    }

private:
    ZtDigestAlgorithm algorithm_;
    std::uint32_t crc_ = 0;
    Sha256 sha_;
};

std::string digestText(ZtDigestAlgorithm algorithm, const std::vector<std::uint8_t>& value) {
    if (algorithm == ZtDigestAlgorithm::Crc32c) {
        const std::uint32_t crc = (std::uint32_t{value[0]} << 24) |
                                  (std::uint32_t{value[1]} << 16) | (std::uint32_t{value[2]} << 8) |
                                  value[3];
        return formatZtCrc32c(crc);
    }
    return "sha256:" + toHex(value);
}

// The raw dense data component whose value scan goes to slices: no digest to check in order,
// and large enough to be worth splitting. Nothing otherwise.
std::optional<std::size_t> slicedComponent(const ZtFile& file, const ZtTensor& tensor) {
    if (tensor.format != ZtTensorFormat::Dense || !tensor.dtype || !ztDTypeIsFloat(*tensor.dtype) ||
        !tensor.byteSize) {
        return std::nullopt;
    }
    for (std::size_t index : tensor.components) {
        const ZtComponent& c = file.components()[index];
        if (c.role != "data") {
            continue;
        }
        const bool digested = c.digest && parseZtDigest(*c.digest).usable();
        if (c.readable() && c.encoding == ZtEncoding::Raw && !digested &&
            *c.length == *tensor.byteSize && *c.length > kScanSlice) {
            return index;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

// NaN/Inf in [begin, end) of a component's bytes (element boundaries: slices start at
// multiples of kScanSlice).
PartResult scanSlice(const ZtFile& file, const ZtComponent& c, ZtDType dtype, std::uint64_t begin,
                     std::uint64_t end, const CancelToken* cancel,
                     std::atomic<std::uint64_t>& done) {
    NonFiniteCounter counter(dtype);
    readInSteps(*file.source(), *c.offset + begin, end - begin, cancel,
                [&](std::span<const std::uint8_t> piece) {
                    counter.feed(piece);
                    done += piece.size();
                });
    return {{}, counter.count(), nullptr};
}

Diagnostic nonFiniteDiagnostic(const ZtTensor& tensor, const ZtNonFiniteCount& count) {
    return make(Severity::Info, "ZT-NONFINITE",
                "tensor '" + tensor.name + "' holds " + std::to_string(count.nan) + " NaN and " +
                    counted(count.inf, "infinite value"),
                tensor.entry, "manifest/" + ZtFile::tensorPath(tensor));
}

class TensorCheck {
public:
    // `sliced`: a component whose values slices count (see slicedComponent).
    TensorCheck(const ZtFile& file, std::size_t index, std::optional<std::size_t> sliced,
                const ZtValidatorLimits& limits, const ValidationOptions& options,
                std::atomic<std::uint64_t>& done)
        : file_(file),
          tensor_(file.tensors()[index]),
          sliced_(sliced),
          limits_(limits),
          options_(options),
          done_(done),
          nonFinite_(tensor_.dtype) {}

    PartResult run();

private:
    // Returns false when the component's data could not be fully decoded.
    bool checkComponent(std::size_t index);
    void checkDigest(const ZtComponent& c, bool countValues);
    bool checkDecoded(const ZtComponent& c, bool denseData);
    void checkSparse();
    void add(Severity severity, std::string code, const ZtComponent& c, std::string message,
             Region region) {
        out_.push_back(
            make(severity, std::move(code),
                 "tensor '" + tensor_.name + "' component '" + c.role + "': " + std::move(message),
                 region, "manifest/" + file_.componentPath(c)));
    }

    const ZtFile& file_;
    const ZtTensor& tensor_;
    std::optional<std::size_t> sliced_;
    const ZtValidatorLimits& limits_;
    const ValidationOptions& options_;
    std::atomic<std::uint64_t>& done_;
    NonFiniteCounter nonFinite_;
    Diagnostics out_;
};

PartResult TensorCheck::run() {
    bool allDecoded = true;
    for (std::size_t index : tensor_.components) {
        allDecoded = checkComponent(index) && allDecoded;
        if (options_.cancelled()) {
            return {std::move(out_), nonFinite_.count(), &tensor_};
        }
    }
    const bool sparse =
        tensor_.format == ZtTensorFormat::SparseCsr || tensor_.format == ZtTensorFormat::SparseCoo;
    // Missing components were reported when the file was opened; nothing to check then.
    const std::vector<std::string_view> required =
        tensor_.format == ZtTensorFormat::SparseCsr
            ? std::vector<std::string_view>{"values", "indices", "indptr"}
            : std::vector<std::string_view>{"values", "coords"};
    const bool complete = std::all_of(required.begin(), required.end(), [&](auto role) {
        return file_.component(tensor_, role) != nullptr;
    });
    if (sparse && complete && allDecoded && tensor_.dtype && tensor_.shapeValid) {
        checkSparse();
    }
    return {std::move(out_), nonFinite_.count(), &tensor_};
}

bool TensorCheck::checkComponent(std::size_t index) {
    const ZtComponent& c = file_.components()[index];
    if (!c.readable()) {
        return false;  // already reported when the file was opened
    }
    const bool denseData = tensor_.format == ZtTensorFormat::Dense && c.role == "data";
    const bool rawValues = denseData && c.encoding == ZtEncoding::Raw &&
                           (!tensor_.byteSize || *c.length == *tensor_.byteSize);
    if (sliced_ == index) {
        return true;  // no digest; its slices count the values
    }
    checkDigest(c, rawValues);
    if (c.encoding == ZtEncoding::Raw) {
        return true;
    }
    return checkDecoded(c, denseData);
}

void TensorCheck::checkDigest(const ZtComponent& c, bool countValues) {
    std::optional<ZtDigestSpec> spec;
    if (c.digest) {
        spec = parseZtDigest(*c.digest);
        if (!spec->usable()) {
            spec.reset();  // reported when the file was opened
        }
    }
    const bool raw = c.encoding == ZtEncoding::Raw;
    std::optional<DigestRunner> digest;
    if (spec) {
        digest.emplace(spec->algorithm);
    }
    // Digests cover the stored bytes, which for raw components are also the values: both read
    // each piece while it is in the cache.
    if (digest || countValues) {
        const bool finished = readInSteps(*file_.source(), *c.offset, *c.length, options_.cancel,
                                          [&](std::span<const std::uint8_t> piece) {
                                              if (digest) {
                                                  digest->feed(piece);
                                              }
                                              if (countValues) {
                                                  nonFinite_.feed(piece);
                                              }
                                              done_ += raw ? piece.size() : 0;
                                          });
        if (!finished) {
            return;
        }
    } else {
        done_ += raw ? *c.length : 0;
    }
    if (!digest) {
        return;
    }
    const auto actual = digest->finish();
    if (actual != spec->expected) {
        add(Severity::Error, "ZT-DIGEST", c,
            "the stored bytes have digest " + digestText(spec->algorithm, actual) +
                ", but the manifest says " + *c.digest,
            c.data);
    }
}

bool TensorCheck::checkDecoded(const ZtComponent& c, bool denseData) {
    const auto expected = ztExpectedDecodedSize(file_, c);
    const auto bound = ztDecodedSizeBound(file_, c);
    const std::uint64_t limit = bound.value_or(limits_.maxUnboundedDecode);
    const auto result = ztStreamComponent(
        file_, c, limit,
        [&](std::span<const std::uint8_t> piece) {
            if (denseData) {
                nonFinite_.feed(piece);
            }
        },
        options_.cancel, [&](std::uint64_t n) { done_ += n; });
    if (result.cancelled) {
        return false;
    }
    if (result.exceeded) {
        if (bound) {
            add(Severity::Error, "ZT-ZSTD", c,
                "the zstd data decodes to more than the " + std::to_string(*bound) + " bytes " +
                    tensor_.dtypeName + " × " + "shape allows",
                c.data);
        } else {
            add(Severity::Info, "ZT-LIMIT", c,
                "the zstd data decodes to more than " + std::to_string(limit) +
                    " bytes; Strata stopped decoding there",
                c.data);
        }
        return false;
    }
    if (!result.ok) {
        add(Severity::Error, "ZT-ZSTD", c, "the zstd data cannot be decoded: " + result.message,
            c.data);
        return false;
    }
    if (expected && result.produced != *expected) {
        add(Severity::Error, "ZT-ZSTD", c,
            "the zstd data decodes to " + std::to_string(result.produced) + " bytes, but " +
                tensor_.dtypeName + " × shape needs " + std::to_string(*expected),
            c.data);
        return false;
    }
    return true;
}

void TensorCheck::checkSparse() {
    const ZtSparseData sparse = ztLoadSparse(file_, tensor_, limits_.maxSparseLoad);
    const std::string path = "manifest/" + ZtFile::tensorPath(tensor_);
    if (!sparse.loadError.empty()) {
        out_.push_back(
            make(Severity::Info, "ZT-LIMIT",
                 "tensor '" + tensor_.name + "': sparse structure not checked: " + sparse.loadError,
                 tensor_.entry, path));
        return;
    }
    for (const auto& issue : sparse.issues) {
        out_.push_back(make(Severity::Error, "ZT-SPARSE", issue.message, issue.region, path));
    }
    nonFinite_.feed(sparse.values.bytes());
}

Diagnostics checkGap(const ZtFile& file, const ZtLayoutEntry& gap, const CancelToken* cancel,
                     std::atomic<std::uint64_t>& done) {
    Diagnostics out;
    const Region& r = gap.region;
    std::optional<std::uint64_t> firstNonZero;
    std::uint64_t nonZero = 0;
    for (std::uint64_t at = 0; at < r.length; at += kGapChunk) {
        if (cancel != nullptr && cancel->cancelled()) {
            return out;
        }
        const std::uint64_t want = std::min(kGapChunk, r.length - at);
        const ByteView piece = file.source()->view(r.offset + at, want);
        for (std::size_t i = 0; i < piece.size(); ++i) {
            if (piece.bytes[i] != 0) {
                if (!firstNonZero) {
                    firstNonZero = r.offset + at + i;
                }
                ++nonZero;
            }
        }
        done += want;
    }
    const std::string range = "[" + std::to_string(r.offset) + ", " + std::to_string(r.end()) + ")";
    if (r.length >= kZtAlignment) {
        out.push_back(make(Severity::Warning, "ZT-UNREFERENCED",
                           std::to_string(r.length) + " bytes at " + range +
                               " belong to no component: more than alignment padding needs",
                           r, "padding"));
    }
    if (nonZero > 0) {
        out.push_back(make(Severity::Error, "ZT-PADDING",
                           counted(nonZero, "non-zero byte") + " in the padding at " + range +
                               ", the first at offset " + std::to_string(*firstNonZero) +
                               "; padding must be zero",
                           {r.source, *firstNonZero, r.end() - *firstNonZero}, "padding"));
    }
    return out;
}

}  // namespace

ZtValidator::ZtValidator(std::shared_ptr<const ZtFile> file, ZtValidatorLimits limits)
    : file_(std::move(file)), limits_(limits) {}

JobOutcome ZtValidator::run(DiagnosticSink& sink, const ValidationOptions& options) {
    const ZtFile& file = *file_;
    // Capped summaries are their own documented code.
    CappedSink out(sink, std::max<std::size_t>(options.maxPerCode, 1), "ZT-SUPPRESSED");
    for (const auto& d : file.diagnostics()) {
        out.report(d);
    }
    // Beside the file: temporary files of killed saves.
    reportSaveLeftovers(file.source()->name(), "ZT",
                        {static_cast<unsigned>(LeftoverKind::TempFile)}, out);
    // Work in bytes, for progress: stored component bytes and gaps.
    std::uint64_t total = 0;
    for (const auto& c : file.components()) {
        total += c.readable() ? *c.length : 0;
    }
    for (const auto& e : file.layoutEntries()) {
        total += e.isGap ? e.region.length : 0;
    }
    std::atomic<std::uint64_t> done{0};
    options.reportProgress(0.0, "checking components");
    const unsigned threads = options.threads;
    OrderedPool<PartResult> pool(threads, 2 * std::max(1u, threads == 0 ? 4u : threads),
                                 options.cancel);
    std::size_t tasks = 0;
    std::size_t finished = 0;
    ZtNonFiniteCount pending;  // of the tensor whose slices are being taken
    auto consume = [&] {
        auto result = pool.next();
        if (!result) {
            return false;
        }
        for (auto& d : result->diagnostics) {
            out.report(std::move(d));
        }
        pending += result->nonFinite;
        if (result->closes != nullptr) {
            if (pending.nan + pending.inf > 0) {
                out.report(nonFiniteDiagnostic(*result->closes, pending));
            }
            pending = {};
        }
        ++finished;
        const double fraction = total == 0 ? double(finished) / double(tasks)
                                           : std::min(1.0, double(done.load()) / double(total));
        options.reportProgress(fraction, "checked " + std::to_string(finished) + " of " +
                                             std::to_string(tasks) + " parts");
        return true;
    };
    const ZtValidatorLimits limits = limits_;
    for (const auto& entry : file.layoutEntries()) {
        if (!entry.isGap) {
            continue;
        }
        if (pool.full() && !consume()) {
            break;
        }
        const ZtLayoutEntry* gap = &entry;
        if (pool.submit([&file, gap, &options, &done] {
                return PartResult{checkGap(file, *gap, options.cancel, done), {}, nullptr};
            })) {
            ++tasks;
        }
    }
    const auto submit = [&](std::function<PartResult()> task) {
        if (pool.full() && !consume()) {
            return false;
        }
        if (!pool.submit(std::move(task))) {
            return false;
        }
        ++tasks;
        return true;
    };
    bool running = true;
    for (std::size_t i = 0; i < file.tensors().size() && running && !options.cancelled(); ++i) {
        const ZtTensor& tensor = file.tensors()[i];
        const std::optional<std::size_t> sliced = slicedComponent(file, tensor);
        if (sliced) {
            const ZtComponent* c = &file.components()[*sliced];
            for (std::uint64_t at = 0; at < *c->length && running; at += kScanSlice) {
                const std::uint64_t end = std::min(*c->length, at + kScanSlice);
                running = submit([&file, c, &tensor, at, end, &options, &done] {
                    return scanSlice(file, *c, *tensor.dtype, at, end, options.cancel, done);
                });
            }
        }
        running = running && submit([&file, i, sliced, &limits, &options, &done] {
                      return TensorCheck(file, i, sliced, limits, options, done).run();
                  });
    }
    while (finished < tasks && consume()) {
    }
    if (options.cancelled()) {
        return JobOutcome::Cancelled;
    }
    out.finish();
    options.reportProgress(1.0, "done");
    return JobOutcome::Completed;
}

std::unique_ptr<Validator> makeZtValidator(std::shared_ptr<const ZtFile> file) {
    return std::make_unique<ZtValidator>(std::move(file));
}

}  // namespace strata::ztensor
