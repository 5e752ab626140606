// Byte-level checks shared by the index check and the single-file validators: the reporter,
// fingerprints, and scans over records, centroids and codewords.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "formats/common/checksums.h"
#include "formats/common/le_reader.h"
#include "shardlake_checks.h"
#include "shardlake_diagnostic.h"

namespace strata::shardlake {

namespace {

constexpr std::uint64_t kChunkBytes = 8ull << 20;
constexpr std::uint32_t kExponentMask = 0x7f800000u;

bool isNonFinite(const std::uint8_t* p) {
    return (decodeLe<std::uint32_t>(p) & kExponentMask) == kExponentMask;
}

// The first non-finite f32 among `count` values at p, or -1.
std::int64_t firstNonFinite(const std::uint8_t* p, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
        if (isNonFinite(p + 4 * i)) {
            return static_cast<std::int64_t>(i);
        }
    }
    return -1;
}

// Checks `count` vectors of `dims` f32 each, back to back from `offset`.
void checkVectors(const ByteSource& source, std::uint64_t offset, std::uint64_t count,
                  std::uint64_t dims, const char* what, Reporter& reporter) {
    const std::uint64_t bytes = dims * 4;
    if (bytes == 0) {
        return;
    }
    for (std::uint64_t i = 0; i < count && !reporter.cancelled(); ++i) {
        const ByteView view = source.view(offset + i * bytes, bytes);
        if (view.size() != bytes) {
            return;
        }
        if (const auto at = firstNonFinite(view.data(), dims); at >= 0) {
            reporter.report(errorAt("SL-NONFINITE",
                                    std::string(what) + " " + std::to_string(i) +
                                        " holds a NaN or infinite value at component " +
                                        std::to_string(at),
                                    {&source, offset + i * bytes + 4 * std::uint64_t(at), 4}));
        }
    }
}

}  // namespace

void Reporter::report(Diagnostic diagnostic) {
    capped_.report(std::move(diagnostic));
}

void Reporter::reportAll(std::vector<Diagnostic> diagnostics) {
    for (Diagnostic& d : diagnostics) {
        report(std::move(d));
    }
}

void Reporter::reportProblems(const std::vector<BinaryProblem>& problems) {
    for (const BinaryProblem& problem : problems) {
        report(makeDiagnostic(Severity::Error, problem.code, problem.message, problem.regions));
    }
}

void DeferredSink::accept(Diagnostic diagnostic) {
    if (maxPerCode_ == 0 || ++counts_[diagnostic.code] <= maxPerCode_) {
        kept_.push_back(std::move(diagnostic));
        return;
    }
    Dropped& dropped = dropped_[diagnostic.code];
    ++dropped.count;
    dropped.worst = std::max(dropped.worst, diagnostic.severity);
}

void DeferredSink::replayInto(Reporter& reporter) {
    for (Diagnostic& d : kept_) {
        reporter.report(std::move(d));
    }
    for (const auto& [code, dropped] : dropped_) {
        reporter.countDropped(code, dropped.count, dropped.worst);
    }
    kept_.clear();
    dropped_.clear();
}

void DeferredSink::replayInto(DeferredSink& other) {
    for (Diagnostic& d : kept_) {
        other.report(std::move(d));
    }
    for (const auto& [code, dropped] : dropped_) {
        Dropped& into = other.dropped_[code];
        into.count += dropped.count;
        into.worst = std::max(into.worst, dropped.worst);
    }
    kept_.clear();
    dropped_.clear();
}

void DeferredSink::rebase(const ByteSource* from, const ByteSource* to) {
    for (Diagnostic& d : kept_) {
        for (Region& region : d.regions) {
            if (region.source == from) {
                region.source = to;
            }
        }
    }
}

void IdCollector::rebase(const ByteSource* from, const ByteSource* to) {
    for (Seen& seen : seen_) {
        if (seen.source == from) {
            seen.source = to;
        }
    }
}

void IdCollector::append(IdCollector&& other) {
    for (const Seen& seen : other.seen_) {
        add(seen.id, {seen.source, seen.offset, 8});
    }
    overflowed_ = overflowed_ || other.overflowed_;
    other.seen_ = {};
}

void IdCollector::add(std::uint64_t id, Region where) {
    if (seen_.size() >= kLimit) {
        overflowed_ = true;
        return;
    }
    seen_.push_back({id, where.offset, where.source});
}

void IdCollector::reportDuplicates(Reporter& reporter, const char* scope) {
    if (overflowed_) {
        Diagnostic d;
        d.severity = Severity::Info;
        d.code = "SL-DUPLICATE-ID";
        d.message = std::string("more than ") + std::to_string(kLimit) + " ids in " + scope +
                    "; only the first were checked for duplicates";
        reporter.report(std::move(d));
    }
    std::stable_sort(seen_.begin(), seen_.end(),
                     [](const Seen& a, const Seen& b) { return a.id < b.id; });
    for (std::size_t i = 1; i < seen_.size(); ++i) {
        if (seen_[i].id == seen_[i - 1].id) {
            const Seen& first = seen_[i - 1];
            const Seen& again = seen_[i];
            reporter.report(makeDiagnostic(
                Severity::Error, "SL-DUPLICATE-ID",
                "id " + std::to_string(again.id) + " occurs more than once in " + scope,
                {{again.source, again.offset, 8}, {first.source, first.offset, 8}}));
        }
    }
    seen_.clear();
}

std::uint64_t fingerprintOf(const ByteSource& source, const CancelToken* cancel) {
    const ByteSourcePtr mapped = mappedForScan(source);
    const ByteSource& bytes = mapped ? *mapped : source;
    Fnv1a64 hash;
    for (std::uint64_t offset = 0; offset < bytes.size(); offset += kChunkBytes) {
        if (cancel != nullptr && cancel->cancelled()) {
            break;
        }
        hash.update(bytes.view(offset, kChunkBytes).bytes);
    }
    return hash.value();
}

std::string hex16(std::uint64_t value) {
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
    return buffer;
}

void checkShardContent(const ByteSource& source, const ShardLayout& layout, Reporter& reporter,
                       IdCollector* ids, Fnv1a64* hash) {
    std::uint64_t hashed = 0;  // bytes of the file hashed so far, in order
    auto hashUpTo = [&](std::uint64_t end) {
        for (; hash != nullptr && hashed < end; hashed = std::min(end, hashed + kChunkBytes)) {
            hash->update(source.view(hashed, std::min(end, hashed + kChunkBytes) - hashed).bytes);
        }
    };
    if (!layout.layoutKnown) {
        hashUpTo(source.size());
        return;
    }
    checkVectors(source, layout.centroidsOffset, layout.centroidsPresent(), layout.dims, "centroid",
                 reporter);
    hashUpTo(std::min(layout.recordsOffset, source.size()));
    const std::uint64_t count = layout.recordsPresent();
    const std::uint64_t recordsPerChunk =
        std::max<std::uint64_t>(1, kChunkBytes / layout.recordSize);
    for (std::uint64_t first = 0; first < count && !reporter.cancelled();
         first += recordsPerChunk) {
        const std::uint64_t n = std::min(recordsPerChunk, count - first);
        const std::uint64_t base = layout.recordOffset(first);
        const ByteView view = source.view(base, n * layout.recordSize);
        if (view.size() != n * layout.recordSize) {
            break;
        }
        if (hash != nullptr && hashed == base) {
            hash->update(view.bytes);  // the same pass: the chunk is hashed while in cache
            hashed = base + view.size();
        }
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint8_t* record = view.data() + i * layout.recordSize;
            const std::uint64_t offset = base + i * layout.recordSize;
            if (ids != nullptr) {
                ids->add(decodeLe<std::uint64_t>(record), {&source, offset, 8});
            }
            if (layout.isPq()) {
                for (std::uint64_t m = 0; m < layout.pqM; ++m) {
                    if (record[8 + m] >= layout.pqK && layout.pqK != 0) {
                        reporter.report(
                            errorAt("SL-PQ-CODE",
                                    "record " + std::to_string(first + i) + " code " +
                                        std::to_string(m) + " is " + std::to_string(record[8 + m]) +
                                        ", not below pq_k " + std::to_string(layout.pqK),
                                    {&source, offset + 8 + m, 1}));
                    }
                }
            } else if (const auto at = firstNonFinite(record + 8, layout.dims); at >= 0) {
                reporter.report(errorAt("SL-NONFINITE",
                                        "record " + std::to_string(first + i) +
                                            " holds a NaN or infinite value at component " +
                                            std::to_string(at),
                                        {&source, offset + 8 + 4 * std::uint64_t(at), 4}));
            }
        }
    }
    hashUpTo(source.size());
}

namespace {

std::uint64_t vectorDigest(std::span<const std::uint8_t> littleEndianF32s) {
    return crc64xz(littleEndianF32s);
}

}  // namespace

std::vector<RecordDigest> digestRecords(const ByteSource& source, std::uint64_t offset,
                                        std::uint64_t count, std::uint64_t recordSize,
                                        const CancelToken* cancel) {
    std::vector<RecordDigest> out;
    if (recordSize < 8) {
        return out;
    }
    out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, 1u << 20)));
    const std::uint64_t perPiece = std::max<std::uint64_t>(1, (4u << 20) / recordSize);
    std::vector<std::uint8_t> buffer;
    for (std::uint64_t first = 0; first < count; first += perPiece) {
        if (cancel != nullptr && cancel->cancelled()) {
            break;
        }
        const std::uint64_t n = std::min(perPiece, count - first);
        buffer.resize(static_cast<std::size_t>(n * recordSize));
        const std::size_t got = source.read(offset + first * recordSize, buffer);
        const std::uint64_t whole = got / recordSize;
        for (std::uint64_t i = 0; i < whole; ++i) {
            const std::uint8_t* record = buffer.data() + i * recordSize;
            out.push_back({decodeLe<std::uint64_t>(record),
                           vectorDigest({record + 8, static_cast<std::size_t>(recordSize - 8)})});
        }
        if (whole < n) {
            break;
        }
    }
    return out;
}

void RecordMatcher::addShard(std::size_t shard, std::span<const RecordDigest> records) {
    if (!usable_ || refs_.size() + records.size() > recordLimit()) {
        giveUp();  // more records than the largest dataset that is compared
        return;
    }
    Shard& s = shards_[shard];
    s.vectors.reserve(records.size());
    s.verdicts.assign(records.size(), Verdict::Missing);
    for (std::size_t i = 0; i < records.size(); ++i) {
        refs_.push_back(
            {records[i].id, static_cast<std::uint32_t>(shard), static_cast<std::uint32_t>(i)});
        s.vectors.push_back(records[i].vector);
    }
}

void RecordMatcher::giveUp() {
    usable_ = false;
    refs_ = {};
    shards_.clear();
}

void RecordMatcher::seal() {
    std::sort(refs_.begin(), refs_.end(), [](const Ref& a, const Ref& b) { return a.id < b.id; });
}

void RecordMatcher::feed(const DatasetLine& line) {
    if (!usable_) {
        return;
    }
    ++lines_;
    usable_ = line.error.empty() && line.id && line.values.size() == dims_ && dims_ != 0 &&
              lines_ * dims_ <= kMaxValues;
    if (!usable_) {
        giveUp();
        datasetIds_ = {};
        return;
    }
    datasetIds_.push_back(*line.id);
    const auto range = std::equal_range(refs_.begin(), refs_.end(), Ref{*line.id, 0, 0},
                                        [](const Ref& a, const Ref& b) { return a.id < b.id; });
    if (range.first == range.second) {
        return;
    }
    // The values as a shard stores them: little-endian f32.
    std::uint64_t digest = 0;
    if constexpr (std::endian::native == std::endian::little) {
        digest = vectorDigest({reinterpret_cast<const std::uint8_t*>(line.values.data()),
                               line.values.size() * sizeof(float)});
    } else {
        std::vector<std::uint8_t> bytes(line.values.size() * sizeof(float));
        for (std::size_t i = 0; i < line.values.size(); ++i) {
            const auto bits = std::bit_cast<std::uint32_t>(line.values[i]);
            for (std::size_t b = 0; b < 4; ++b) {
                bytes[4 * i + b] = static_cast<std::uint8_t>(bits >> (8 * b));
            }
        }
        digest = vectorDigest(bytes);
    }
    for (auto it = range.first; it != range.second; ++it) {
        Shard& s = shards_.at(it->shard);
        s.verdicts[it->record] =
            s.vectors[it->record] == digest ? Verdict::Equal : Verdict::Differs;
    }
}

void RecordMatcher::finish() {
    std::sort(datasetIds_.begin(), datasetIds_.end());
    if (std::adjacent_find(datasetIds_.begin(), datasetIds_.end()) != datasetIds_.end()) {
        usable_ = false;  // a repeated id: which of its vectors a record should equal is unclear
    }
    datasetIds_ = {};
    finished_ = true;
}

void RecordMatcher::noDataset() {
    usable_ = false;
    finished_ = true;
}

RecordMatcher::Verdict RecordMatcher::verdict(std::size_t shard, std::uint64_t record) const {
    return shards_.at(shard).verdicts.at(static_cast<std::size_t>(record));
}

void checkCoarseContent(const ByteSource& source, const CoarseLayout& layout, Reporter& reporter) {
    if (layout.layoutKnown) {
        checkVectors(source, kCoarseHeaderSize, layout.centroidsPresent(), layout.dims,
                     "quantizer centroid", reporter);
    }
}

void checkCodebookContent(const ByteSource& source, const CodebookLayout& layout,
                          Reporter& reporter) {
    if (layout.layoutKnown) {
        checkVectors(source, kCodebookHeaderSize, layout.codewordsPresent(), layout.subDims,
                     "codeword", reporter);
    }
}

}  // namespace strata::shardlake
