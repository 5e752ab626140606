#include "shardlake_pca.h"

#include <QObject>

#include <algorithm>
#include <cmath>

#include "formats/common/le_reader.h"
#include "model/core/job_runner.h"

namespace strata::model {

using strata::shardlake::LoadedIndex;

namespace {

constexpr int kMaxIterations = 300;
constexpr double kConverged = 1e-10;
// The sample is held as doubles: at most 128 MiB of them, whatever the dims.
constexpr std::uint64_t kMaxSampleValues = std::uint64_t{1} << 24;

struct Sample {
    std::vector<double> values;  // rows × dims, row-major
    std::vector<ShardlakePcaPoint> points;
    std::size_t dims = 0;
};

// One record as f32 components; false when it cannot be read or is not finite.
bool readRecord(const LoadedIndex& index, const LoadedIndex::Shard& shard, std::uint64_t record,
                std::vector<float>& out, std::uint64_t& id) {
    const auto& layout = shard.layout;
    const std::uint64_t at = layout.recordOffset(record);
    const ByteView bytes = shard.source->view(at, layout.recordSize);
    if (bytes.size() != layout.recordSize) {
        return false;
    }
    id = strata::decodeLe<std::uint64_t>(bytes.data());
    out.assign(index.dims, 0.0f);
    if (index.pq) {
        for (std::size_t m = 0; m < index.pqM; ++m) {
            const std::uint8_t code = bytes.data()[8 + m];
            if (code >= index.pqK) {
                return false;
            }
            const float* word = index.codebook.data() + (m * index.pqK + code) * index.subDims;
            std::copy(word, word + index.subDims,
                      out.begin() + static_cast<long>(m * index.subDims));
        }
    } else {
        strata::shardlake::decodeF32s(bytes.bytes.subspan(8), out);
    }
    return std::all_of(out.begin(), out.end(), [](float v) { return std::isfinite(v); });
}

Sample drawSample(const LoadedIndex& index, std::size_t maxSamples, std::uint64_t& population,
                  const strata::CancelToken* cancel) {
    Sample sample;
    sample.dims = index.dims;
    population = 0;
    for (const auto& shard : index.shards) {
        population += shard.layout.recordsPresent();
    }
    maxSamples = static_cast<std::size_t>(std::min<std::uint64_t>(
        maxSamples, kMaxSampleValues / std::max<std::uint64_t>(1, index.dims)));
    if (population == 0 || maxSamples == 0) {
        return sample;
    }
    std::vector<float> vector;
    for (std::size_t s = 0; s < index.shards.size(); ++s) {
        const auto& shard = index.shards[s];
        const std::uint64_t count = shard.layout.recordsPresent();
        // This shard's share of the sample, rounded up so small shards still appear.
        const auto share = static_cast<std::uint64_t>(
            std::ceil(static_cast<double>(maxSamples) * static_cast<double>(count) /
                      static_cast<double>(population)));
        const std::uint64_t take = std::min(count, share);
        for (std::uint64_t i = 0; i < take; ++i) {
            if (sample.points.size() >= maxSamples || (cancel != nullptr && cancel->cancelled())) {
                return sample;
            }
            const std::uint64_t record = i * count / take;
            std::uint64_t id = 0;
            if (!readRecord(index, shard, record, vector, id)) {
                continue;
            }
            sample.values.insert(sample.values.end(), vector.begin(), vector.end());
            sample.points.push_back({0, 0, static_cast<int>(s), record, id});
        }
    }
    return sample;
}

void centre(Sample& sample) {
    const std::size_t rows = sample.points.size();
    std::vector<double> mean(sample.dims, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t j = 0; j < sample.dims; ++j) {
            mean[j] += sample.values[r * sample.dims + j];
        }
    }
    for (double& m : mean) {
        m /= static_cast<double>(rows);
    }
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t j = 0; j < sample.dims; ++j) {
            sample.values[r * sample.dims + j] -= mean[j];
        }
    }
}

double dotRow(const Sample& sample, std::size_t row, const std::vector<double>& v) {
    double sum = 0;
    const double* values = sample.values.data() + row * sample.dims;
    for (std::size_t j = 0; j < sample.dims; ++j) {
        sum += values[j] * v[j];
    }
    return sum;
}

void removeComponent(std::vector<double>& v, const std::vector<double>& against) {
    double along = 0;
    for (std::size_t j = 0; j < v.size(); ++j) {
        along += v[j] * against[j];
    }
    for (std::size_t j = 0; j < v.size(); ++j) {
        v[j] -= along * against[j];
    }
}

double normalise(std::vector<double>& v) {
    double norm = 0;
    for (const double x : v) {
        norm += x * x;
    }
    norm = std::sqrt(norm);
    if (norm > 0) {
        for (double& x : v) {
            x /= norm;
        }
    }
    return norm;
}

// Power iteration for the top eigenvector of XᵀX / n orthogonal to `previous` (may be empty).
// Returns its eigenvalue (the variance along it); false in *ok when cancelled.
double powerIteration(const Sample& sample, const std::vector<double>& previous,
                      std::vector<double>& v, const strata::CancelToken* cancel, bool* ok) {
    const std::size_t rows = sample.points.size();
    v.assign(sample.dims, 0.0);
    // A fixed, uneven start so results repeat and are unlikely to be orthogonal to the answer.
    for (std::size_t j = 0; j < sample.dims; ++j) {
        v[j] = 1.0 + 0.37 * static_cast<double>((j * 7919) % 101) / 101.0;
    }
    if (!previous.empty()) {
        removeComponent(v, previous);
    }
    normalise(v);
    double lambda = 0;
    std::vector<double> next(sample.dims);
    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
        if (cancel != nullptr && cancel->cancelled()) {
            *ok = false;
            return 0;
        }
        std::fill(next.begin(), next.end(), 0.0);
        for (std::size_t r = 0; r < rows; ++r) {
            const double along = dotRow(sample, r, v);
            const double* values = sample.values.data() + r * sample.dims;
            for (std::size_t j = 0; j < sample.dims; ++j) {
                next[j] += along * values[j];
            }
        }
        if (!previous.empty()) {
            removeComponent(next, previous);
        }
        lambda = normalise(next) / static_cast<double>(rows);
        double change = 0;
        for (std::size_t j = 0; j < sample.dims; ++j) {
            change += (next[j] - v[j]) * (next[j] - v[j]);
        }
        v.swap(next);
        if (lambda == 0 || change < kConverged) {
            break;
        }
    }
    *ok = true;
    return lambda;
}

}  // namespace

ShardlakePcaResult computeShardlakePca(const LoadedIndex& index, std::size_t maxSamples,
                                       const strata::CancelToken* cancel,
                                       const std::function<void(double)>& progress) {
    ShardlakePcaResult result;
    Sample sample = drawSample(index, maxSamples, result.population, cancel);
    if (cancel != nullptr && cancel->cancelled()) {
        result.cancelled = true;
        return result;
    }
    if (sample.points.size() < 2 || sample.dims == 0) {
        result.error = QObject::tr("fewer than two readable vectors to project");
        return result;
    }
    if (progress) {
        progress(0.2);
    }
    centre(sample);
    bool ok = true;
    result.variance[0] = powerIteration(sample, {}, result.components[0], cancel, &ok);
    if (ok && progress) {
        progress(0.6);
    }
    if (ok && sample.dims > 1) {
        result.variance[1] =
            powerIteration(sample, result.components[0], result.components[1], cancel, &ok);
    } else {
        result.components[1].assign(sample.dims, 0.0);
    }
    if (!ok) {
        result.cancelled = true;
        return result;
    }
    for (std::size_t r = 0; r < sample.points.size(); ++r) {
        sample.points[r].x = static_cast<float>(dotRow(sample, r, result.components[0]));
        sample.points[r].y = static_cast<float>(dotRow(sample, r, result.components[1]));
    }
    result.points = std::move(sample.points);
    if (progress) {
        progress(1.0);
    }
    return result;
}

Job* startShardlakePcaJob(JobRunner& runner, std::shared_ptr<const LoadedIndex> index,
                          std::size_t maxSamples,
                          std::function<void(const ShardlakePcaResult&)> done) {
    const QString title = QObject::tr("PCA of %1").arg(QString::fromStdString(index->version));
    return runner.start(title, [index, maxSamples, done](JobContext& context) {
        auto result = std::make_shared<ShardlakePcaResult>(computeShardlakePca(
            *index, maxSamples, &context.cancelToken(), [&context](double fraction) {
                context.setProgress(fraction, QObject::tr("power iteration"));
            }));
        if (result->cancelled) {
            return;
        }
        if (!result->error.isEmpty()) {
            context.fail(result->error);
            return;
        }
        context.post([done, result] { done(*result); });
    });
}

}  // namespace strata::model
