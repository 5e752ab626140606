#include "entropy_job.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "formats/common/bounds.h"

namespace strata::model {

namespace {

// Each bucket is sampled as a few slices spread over it, so structure anywhere in the bucket
// shows, not just its first bytes.
constexpr std::uint64_t kSlicesPerBucket = 4;

struct ByteHistogram {
    std::array<std::uint64_t, 256> counts{};
    std::uint64_t total = 0;

    void add(std::span<const std::uint8_t> bytes) {
        for (const std::uint8_t b : bytes) {
            ++counts[b];
        }
        total += bytes.size();
    }
    double entropy() const {
        if (total == 0) {
            return 0.0;
        }
        double h = 0.0;
        for (const std::uint64_t c : counts) {
            if (c != 0) {
                const double p = double(c) / double(total);
                h -= p * std::log2(p);
            }
        }
        return std::clamp(h, 0.0, 8.0);
    }
    double fraction(std::uint64_t n) const { return total == 0 ? 0.0 : double(n) / double(total); }
    std::uint64_t ascii() const {
        std::uint64_t n = counts['\t'] + counts['\n'] + counts['\r'];
        for (int b = 0x20; b < 0x7F; ++b) {
            n += counts[std::size_t(b)];
        }
        return n;
    }
};

}  // namespace

// Gives the worker's posted call access to EntropyJob's result.
struct EntropyAccess {
    static void set(EntropyJob* job, EntropyProfile profile) {
        job->profile_ = std::move(profile);
        emit job->profileReady(job->profile_);
    }
};

int EntropyProfile::bucketAt(quint64 offset) const {
    if (bucketSize == 0 || entropy.isEmpty()) {
        return -1;
    }
    return int(std::min<quint64>(offset / bucketSize, quint64(entropy.size() - 1)));
}

double shannonEntropy(const std::uint8_t* data, std::size_t size) {
    ByteHistogram h;
    h.add({data, size});
    return h.entropy();
}

bool computeEntropyProfile(const ByteSource& source, const EntropyOptions& options,
                           const strata::CancelToken* cancel, EntropyProfile& out,
                           const std::function<void(double)>& onProgress) {
    const std::uint64_t size = source.size();
    out = {};
    out.fileSize = size;
    if (size == 0) {
        return true;
    }
    const auto wanted = std::uint64_t(std::max(1, options.buckets));
    out.bucketSize = std::max<std::uint64_t>(1, (size + wanted - 1) / wanted);
    const auto buckets = int((size + out.bucketSize - 1) / out.bucketSize);
    out.entropy.resize(buckets);
    out.zeroFraction.resize(buckets);
    out.asciiFraction.resize(buckets);
    const std::uint64_t sample = std::max<std::uint64_t>(1, options.sampleBytesPerBucket);

    for (int i = 0; i < buckets; ++i) {
        if (cancel != nullptr && cancel->cancelled()) {
            return false;
        }
        const std::uint64_t start = std::uint64_t(i) * out.bucketSize;
        const std::uint64_t length = clippedLength(start, out.bucketSize, size);
        ByteHistogram h;
        if (length <= sample) {
            h.add(source.view(start, length).bytes);
        } else {
            const std::uint64_t slice = std::max<std::uint64_t>(1, sample / kSlicesPerBucket);
            const std::uint64_t stride = (length - slice) / (kSlicesPerBucket - 1);
            for (std::uint64_t s = 0; s < kSlicesPerBucket; ++s) {
                h.add(source.view(start + s * stride, slice).bytes);
            }
        }
        out.entropy[i] = float(h.entropy());
        out.zeroFraction[i] = float(h.fraction(h.counts[0]));
        out.asciiFraction[i] = float(h.fraction(h.ascii()));
        if (onProgress) {
            onProgress(double(i + 1) / double(buckets));
        }
    }
    return true;
}

EntropyJob* startEntropyProfile(JobRunner& runner, ByteSourcePtr source,
                                const EntropyOptions& options) {
    auto* job =
        new EntropyJob(QObject::tr("Entropy of %1").arg(QString::fromStdString(source->name())));
    runner.start(job, [source, options, job](JobContext& context) {
        EntropyProfile profile;
        const bool completed =
            computeEntropyProfile(*source, options, &context.cancelToken(), profile,
                                  [&context](double fraction) { context.setProgress(fraction); });
        if (completed) {
            context.post([job, profile = std::move(profile)]() mutable {
                EntropyAccess::set(job, std::move(profile));
            });
        }
    });
    return job;
}

}  // namespace strata::model
