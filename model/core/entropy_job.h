// Entropy and byte-class profile of a file in fixed buckets, for the file map. Each bucket is
// sampled (at most kSampleBytesPerBucket), so a 100 GB file costs the same as a 100 MB one.
#pragma once

#include <QMetaType>
#include <QVector>

#include <cstdint>
#include <functional>

#include "formats/common/byte_source.h"
#include "model/core/job_runner.h"

namespace strata::model {

struct EntropyProfile {
    quint64 fileSize = 0;
    // Bytes of the file per bucket (the last bucket may be shorter).
    quint64 bucketSize = 0;
    // Shannon entropy in bits per byte, 0..8, one per bucket.
    QVector<float> entropy;
    // Fractions 0..1 of the sampled bytes that are zero / printable ASCII (0x20..0x7E, \t\n\r).
    QVector<float> zeroFraction;
    QVector<float> asciiFraction;

    int bucketCount() const { return int(entropy.size()); }
    // The bucket holding `offset`.
    int bucketAt(quint64 offset) const;
};

struct EntropyOptions {
    int buckets = 1024;
    std::uint64_t sampleBytesPerBucket = 64 * 1024;
};

class EntropyJob : public Job {
    Q_OBJECT
public:
    using Job::Job;
    // Valid once finished() was emitted with state Finished.
    const EntropyProfile& profile() const { return profile_; }

signals:
    void profileReady(const strata::model::EntropyProfile& profile);

private:
    friend struct EntropyAccess;
    EntropyProfile profile_;
};

EntropyJob* startEntropyProfile(JobRunner& runner, ByteSourcePtr source,
                                const EntropyOptions& options = {});

// The computation behind the job; returns false when cancelled.
bool computeEntropyProfile(const ByteSource& source, const EntropyOptions& options,
                           const strata::CancelToken* cancel, EntropyProfile& out,
                           const std::function<void(double)>& onProgress = {});
// Shannon entropy of one block of bytes, bits per byte.
double shannonEntropy(const std::uint8_t* data, std::size_t size);

}  // namespace strata::model

Q_DECLARE_METATYPE(strata::model::EntropyProfile)
