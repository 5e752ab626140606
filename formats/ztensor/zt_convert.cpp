#include "zt_convert.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "../common/atomic_file.h"
#include "../common/checksums.h"
#include "../common/ordered_pool.h"
#include "zt_decode.h"
#include "zt_digest.h"

namespace strata::ztensor {

namespace {

// The order the reference writer gives each format's components; other roles follow.
int roleRank(ZtTensorFormat format, const std::string& role) {
    static const std::map<ZtTensorFormat, std::vector<std::string>> kOrder = {
        {ZtTensorFormat::Dense, {"data"}},
        {ZtTensorFormat::SparseCsr, {"values", "indices", "indptr"}},
        {ZtTensorFormat::SparseCoo, {"values", "coords"}},
    };
    const auto it = kOrder.find(format);
    if (it != kOrder.end()) {
        const auto pos = std::find(it->second.begin(), it->second.end(), role);
        if (pos != it->second.end()) {
            return static_cast<int>(pos - it->second.begin());
        }
    }
    return 100;
}

std::uint64_t firstOffset(const ZtFile& file, const ZtTensor& tensor) {
    std::uint64_t first = UINT64_MAX;
    for (std::size_t index : tensor.components) {
        first = std::min(first, file.components()[index].offset.value_or(UINT64_MAX));
    }
    return first;
}

// The tensor's components in the order they are written.
std::vector<const ZtComponent*> writeOrder(const ZtFile& file, const ZtTensor& tensor) {
    std::vector<const ZtComponent*> out;
    for (std::size_t index : tensor.components) {
        out.push_back(&file.components()[index]);
    }
    std::stable_sort(out.begin(), out.end(), [&](const ZtComponent* a, const ZtComponent* b) {
        const int ra = roleRank(tensor.format, a->role);
        const int rb = roleRank(tensor.format, b->role);
        if (ra != rb) {
            return ra < rb;
        }
        return a->offset.value_or(UINT64_MAX) < b->offset.value_or(UINT64_MAX);
    });
    return out;
}

// One component, ready for the writer.
struct Encoded {
    std::string role;
    ByteView stored;
    ZtEncoding encoding = ZtEncoding::Raw;
    std::string digest;
    std::uint64_t bytesIn = 0;
};

struct Job {
    const ZtTensor* tensor = nullptr;
    const ZtTensorEdit* edit = nullptr;
    const ZtComponent* component = nullptr;
    bool lastOfTensor = false;
};

ByteView ownedView(std::vector<std::uint8_t> bytes) {
    auto holder = std::make_shared<std::vector<std::uint8_t>>(std::move(bytes));
    return ByteView{{holder->data(), holder->size()}, holder};
}

std::string where(const ZtFile& file, const ZtComponent& component) {
    return file.componentPath(component);
}

// The canonical digest text of `stored`, checked against the component's digest when asked.
// Returns the algorithm the component used (if any) and the text computed with it.
std::pair<std::optional<ZtDigestAlgorithm>, std::string> checkDigest(
    const ZtFile& file, const ZtComponent& component, std::span<const std::uint8_t> stored,
    bool verify) {
    if (!component.digest) {
        return {std::nullopt, {}};
    }
    const ZtDigestSpec spec = parseZtDigest(*component.digest);
    if (!spec.usable() || spec.algorithm == ZtDigestAlgorithm::Unknown) {
        if (verify) {
            throw ZtConvertError(where(file, component) + ": digest '" + *component.digest +
                                 "' cannot be checked" +
                                 (spec.error.empty() ? std::string() : ": " + spec.error));
        }
        return {std::nullopt, {}};
    }
    std::string text = ztDigestText(spec.algorithm, stored);
    if (verify) {
        std::vector<std::uint8_t> actual;
        if (spec.algorithm == ZtDigestAlgorithm::Crc32c) {
            const std::uint32_t crc = crc32c(stored);
            actual = {static_cast<std::uint8_t>(crc >> 24), static_cast<std::uint8_t>(crc >> 16),
                      static_cast<std::uint8_t>(crc >> 8), static_cast<std::uint8_t>(crc)};
        } else {
            const Sha256Digest sum = sha256(stored);
            actual.assign(sum.begin(), sum.end());
        }
        if (actual != spec.expected) {
            throw ZtConvertError(where(file, component) + ": digest mismatch (stored bytes give " +
                                 text + ", the manifest says " + *component.digest + ")");
        }
    }
    return {spec.algorithm, std::move(text)};
}

std::optional<ZtDigestAlgorithm> chosenDigest(ZtDigestChoice choice,
                                              std::optional<ZtDigestAlgorithm> input) {
    switch (choice) {
        case ZtDigestChoice::Keep:
            return input;
        case ZtDigestChoice::None:
            return std::nullopt;
        case ZtDigestChoice::Crc32c:
            return ZtDigestAlgorithm::Crc32c;
        case ZtDigestChoice::Sha256:
            return ZtDigestAlgorithm::Sha256;
    }
    return std::nullopt;
}

// Decodes, re-encodes and digests one component (runs on a pool thread).
Encoded encodeComponent(const ZtFile& file, const Job& job, const ZtConvertPlan& plan,
                        const ZtConvertOptions& options) {
    const ZtComponent& component = *job.component;
    if (!component.readable()) {
        throw ZtConvertError(where(file, component) + ": the component cannot be read");
    }
    const ByteView original = file.source()->view(*component.offset, *component.length);
    if (original.size() != *component.length) {
        throw ZtConvertError(where(file, component) + ": the stored bytes cannot be read");
    }
    auto [inputAlgorithm, inputText] =
        checkDigest(file, component, original.bytes, plan.verifyDigests);

    // The decoded bytes: the stored ones for raw, decoded (bounded by the tensor) for zstd.
    ByteView decoded = original;
    if (component.encoding == ZtEncoding::Zstd) {
        ZtBytes bytes = ztComponentBytes(file, component, options.maxComponentBytes);
        if (!bytes.ok()) {
            throw ZtConvertError(where(file, component) + ": " + bytes.error);
        }
        decoded = std::move(bytes.view);
    }
    const auto expected = ztExpectedDecodedSize(file, component);
    if (expected && decoded.size() != *expected) {
        throw ZtConvertError(where(file, component) + ": decodes to " +
                             std::to_string(decoded.size()) + " bytes, the tensor needs " +
                             std::to_string(*expected));
    }

    Encoded out;
    out.role = component.role;
    out.bytesIn = original.size();
    out.encoding = job.edit->encoding.value_or(component.encoding);
    bool unchanged = false;
    if (out.encoding == ZtEncoding::Raw) {
        out.stored = decoded;
        unchanged = component.encoding == ZtEncoding::Raw;
    } else if (component.encoding == ZtEncoding::Zstd && !plan.recompress) {
        out.stored = original;
        unchanged = true;
    } else {
        out.stored = ownedView(ztZstdEncode(decoded.bytes, plan.zstdLevel));
    }
    const auto algorithm = chosenDigest(job.edit->digest, inputAlgorithm);
    if (algorithm) {
        out.digest = unchanged && algorithm == inputAlgorithm
                         ? inputText
                         : ztDigestText(*algorithm, out.stored.bytes);
    }
    return out;
}

std::vector<Job> planJobs(const ZtFile& file, const ZtConvertPlan& plan) {
    std::vector<Job> jobs;
    for (const auto& edit : plan.tensors) {
        const ZtTensor* tensor = file.findTensor(edit.source);
        const auto components = writeOrder(file, *tensor);
        for (std::size_t i = 0; i < components.size(); ++i) {
            jobs.push_back({tensor, &edit, components[i], i + 1 == components.size()});
        }
    }
    return jobs;
}

}  // namespace

ZtConvertPlan ztPlanFor(const ZtFile& file) {
    ZtConvertPlan plan;
    plan.attributes = file.attributes();
    if (!file.generator().empty()) {
        plan.generator = file.generator();
    }
    std::vector<const ZtTensor*> tensors;
    for (const auto& tensor : file.tensors()) {
        tensors.push_back(&tensor);
    }
    // An empty component shares its offset with the component written after it.
    auto storedSize = [&](const ZtTensor& tensor) {
        std::uint64_t total = 0;
        for (std::size_t index : tensor.components) {
            total += file.components()[index].length.value_or(0);
        }
        return total;
    };
    std::stable_sort(tensors.begin(), tensors.end(), [&](const ZtTensor* a, const ZtTensor* b) {
        const auto oa = firstOffset(file, *a);
        const auto ob = firstOffset(file, *b);
        return oa != ob ? oa < ob : storedSize(*a) < storedSize(*b);
    });
    for (const ZtTensor* tensor : tensors) {
        plan.tensors.push_back({tensor->name, tensor->name, std::nullopt, ZtDigestChoice::Keep});
    }
    return plan;
}

void ztSetEncoding(ZtConvertPlan& plan, std::optional<ZtEncoding> encoding) {
    for (auto& edit : plan.tensors) {
        edit.encoding = encoding;
    }
}

void ztSetDigest(ZtConvertPlan& plan, ZtDigestChoice digest) {
    for (auto& edit : plan.tensors) {
        edit.digest = digest;
    }
}

bool ztRenameTensor(ZtConvertPlan& plan, const std::string& from, const std::string& to) {
    for (auto& edit : plan.tensors) {
        if (edit.name == from) {
            edit.name = to;
            return true;
        }
    }
    return false;
}

bool ztRemoveTensor(ZtConvertPlan& plan, const std::string& name) {
    const auto before = plan.tensors.size();
    std::erase_if(plan.tensors, [&](const ZtTensorEdit& edit) { return edit.name == name; });
    return plan.tensors.size() != before;
}

void ztCheckPlan(const ZtFile& file, const ZtConvertPlan& plan) {
    if (!file.manifestDecoded()) {
        throw ZtConvertError("the input's manifest cannot be read");
    }
    if (plan.zstdLevel < -131072 || plan.zstdLevel > 22) {
        throw ZtConvertError("zstd level " + std::to_string(plan.zstdLevel) + " is out of range");
    }
    std::set<std::string> names;
    for (const auto& edit : plan.tensors) {
        const ZtTensor* tensor = file.findTensor(edit.source);
        if (tensor == nullptr) {
            throw ZtConvertError("no tensor '" + edit.source + "' in the input");
        }
        if (edit.name.empty()) {
            throw ZtConvertError("tensor '" + edit.source + "' would get an empty name");
        }
        if (!ztIsValidText(edit.name)) {
            throw ZtConvertError("tensor '" + edit.source + "' would get a name that is not UTF-8");
        }
        if (!names.insert(edit.name).second) {
            throw ZtConvertError("two tensors would be named '" + edit.name + "'");
        }
        if (!tensor->dtype || !tensor->shapeValid) {
            throw ZtConvertError("tensor '" + edit.source + "' has no usable dtype or shape");
        }
        if (edit.encoding && *edit.encoding == ZtEncoding::Unknown) {
            throw ZtConvertError("tensor '" + edit.name + "': unknown target encoding");
        }
    }
    std::set<std::string> keys;
    for (const auto& [key, value] : plan.attributes) {
        if (!keys.insert(key).second) {
            throw ZtConvertError("attribute '" + key + "' is given twice");
        }
        if (!ztIsValidText(key) || !ztIsValidText(value)) {
            throw ZtConvertError("attribute '" + key + "' is not UTF-8 text");
        }
    }
}

ZtConvertResult ztConvert(const ZtFile& file, const ZtConvertPlan& plan,
                          const ZtWriter::Output& output, const ZtConvertOptions& options) {
    ztCheckPlan(file, plan);
    const std::vector<Job> jobs = planJobs(file, plan);
    std::uint64_t totalIn = 0;
    for (const Job& job : jobs) {
        totalIn += job.component->length.value_or(0);
    }

    ZtWriterOptions writerOptions;
    writerOptions.version = plan.version;
    writerOptions.generator = plan.generator;
    writerOptions.attributes = plan.attributes;
    writerOptions.zstdLevel = plan.zstdLevel;
    ZtWriter writer(output, writerOptions);

    ZtConvertResult result;
    const unsigned threads = options.threads;
    const unsigned workers =
        threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
    OrderedPool<Encoded> pool(workers, 2 * workers, options.cancel);
    std::vector<Encoded> pending;
    std::size_t consumed = 0;
    auto consume = [&](Encoded encoded) {
        const Job& job = jobs[consumed++];
        result.bytesIn += encoded.bytesIn;
        pending.push_back(std::move(encoded));
        if (!job.lastOfTensor) {
            return;
        }
        ZtStoredTensor stored{
            job.edit->name, *job.tensor->dtype, job.tensor->shape, job.tensor->formatName, {}, {}};
        for (const Encoded& e : pending) {
            stored.components.push_back({e.role, e.stored.bytes, e.encoding, e.digest, {}});
        }
        writer.addStored(stored);
        pending.clear();
        ++result.tensors;
        result.components += stored.components.size();
        if (!options.progress) {
            return;
        }
        options.progress(
            totalIn == 0 ? 1.0 : static_cast<double>(result.bytesIn) / static_cast<double>(totalIn),
            "tensor " + std::to_string(result.tensors) + " of " +
                std::to_string(plan.tensors.size()) + ": " + job.edit->name);
    };
    for (const Job& job : jobs) {
        if (pool.full()) {
            auto next = pool.next();
            if (!next) {
                break;
            }
            consume(std::move(*next));
        }
        if (!pool.submit([&file, &plan, &options, job] {
                return encodeComponent(file, job, plan, options);
            })) {
            break;
        }
    }
    while (consumed < jobs.size()) {
        auto next = pool.next();
        if (!next) {
            break;
        }
        consume(std::move(*next));
    }
    if (consumed < jobs.size() || (options.cancel != nullptr && options.cancel->cancelled())) {
        result.cancelled = true;
        return result;
    }
    // Tensors without components are written too.
    for (const auto& edit : plan.tensors) {
        const ZtTensor* tensor = file.findTensor(edit.source);
        if (tensor->components.empty()) {
            writer.addStored(
                {edit.name, *tensor->dtype, tensor->shape, tensor->formatName, {}, {}});
            ++result.tensors;
        }
    }
    writer.finish();
    result.bytesOut = writer.position();
    return result;
}

ZtConvertResult ztConvertFile(const ZtFile& file, const ZtConvertPlan& plan,
                              const std::filesystem::path& path, const ZtConvertOptions& options) {
    ztCheckPlan(file, plan);
    AtomicFile out(path);
    const ZtConvertResult result = ztConvert(
        file, plan, [&](std::span<const std::uint8_t> bytes) { out.write(bytes); }, options);
    if (!result.cancelled) {
        out.commit();
    }
    return result;
}

}  // namespace strata::ztensor
