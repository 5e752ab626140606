// The Shardlake index repair's check of each shard laid out: its centroid, the records that
// cannot be read, what vouches for the rest, and ids stored twice.
#include "shardlake_repair_index.h"

namespace strata::shardlake::repair {

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
            (c.listed && c.entryCount ? " (" + counted(*c.entryCount, "vector", "vectors") + ")"
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
                                counted(differ, "record differs", "records differ") +
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
                    counted(c.kept(), "record", "records") +
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

}  // namespace strata::shardlake::repair
