#include "zt_edit_plan.h"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

#include "formats/common/atomic_file.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_writer.h"

namespace strata::model {

namespace {

// Decoded components of tensors whose format does not bound their size are read up to this.
constexpr std::uint64_t kUnboundedDecodeLimit = 16ull << 30;

std::uint64_t storedBytes(const ZtFile& file, const ZtTensor& tensor) {
    std::uint64_t total = 0;
    for (std::size_t index : tensor.components) {
        const ZtComponent& c = file.components()[index];
        total += c.length.value_or(0);
    }
    return total;
}

// The reference writes components in this order (data; values, indices, indptr; values,
// coords); other roles follow in manifest order.
std::vector<std::size_t> writeOrder(const ZtFile& file, const ZtTensor& tensor) {
    static const std::vector<std::string> kOrder{"data", "values", "indices", "indptr", "coords"};
    auto rank = [&](std::size_t index) {
        const auto& role = file.components()[index].role;
        return std::find(kOrder.begin(), kOrder.end(), role) - kOrder.begin();
    };
    std::vector<std::size_t> order = tensor.components;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
    return order;
}

}  // namespace

ZtEditPlan ztInitialPlan(const ZtFile& file) {
    ZtEditPlan plan;
    plan.attributes = file.attributes();
    for (const ZtTensor& tensor : file.tensors()) {
        plan.tensors.push_back({tensor.name, false, ZtEncodingChoice::Keep, ZtDigestChoice::Keep});
    }
    return plan;
}

ZtEncoding ztPlannedEncoding(const ZtComponent& component, const ZtTensorEdit& edit) {
    switch (edit.encoding) {
        case ZtEncodingChoice::Raw:
            return ZtEncoding::Raw;
        case ZtEncodingChoice::Zstd:
            return ZtEncoding::Zstd;
        case ZtEncodingChoice::Keep:
            break;
    }
    return component.encoding;
}

std::optional<ZtDigestAlgorithm> ztPlannedDigest(const ZtComponent& component,
                                                 const ZtTensorEdit& edit) {
    switch (edit.digest) {
        case ZtDigestChoice::None:
            return std::nullopt;
        case ZtDigestChoice::Crc32c:
            return ZtDigestAlgorithm::Crc32c;
        case ZtDigestChoice::Sha256:
            return ZtDigestAlgorithm::Sha256;
        case ZtDigestChoice::Keep:
            break;
    }
    if (!component.digest) {
        return std::nullopt;
    }
    const ZtDigestSpec spec = parseZtDigest(*component.digest);
    if (!spec.usable() || spec.algorithm == ZtDigestAlgorithm::Unknown) {
        return std::nullopt;
    }
    return spec.algorithm;
}

std::string ztPlanProblem(const ZtFile& file, const ZtEditPlan& plan) {
    if (!file.manifestDecoded() ||
        (file.layout() != ZtLayout::V1_0 && file.layout() != ZtLayout::V1_1)) {
        return "only zTensor v1 files with a readable manifest can be saved";
    }
    if (plan.tensors.size() != file.tensors().size()) {
        return "the edit plan does not match the file";
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const ZtTensorEdit& edit = plan.tensors[i];
        if (edit.deleted) {
            continue;
        }
        const ZtTensor& tensor = file.tensors()[i];
        if (edit.name.empty() || !names.insert(edit.name).second) {
            return "tensor name '" + edit.name + "' is empty or used twice";
        }
        if (!tensor.dtype || !tensor.shapeValid) {
            return "tensor '" + tensor.name + "' has no usable dtype or shape (delete it to save)";
        }
        for (std::size_t index : tensor.components) {
            if (!file.components()[index].readable()) {
                return "a component of tensor '" + tensor.name +
                       "' cannot be read (delete the tensor to save)";
            }
        }
    }
    return {};
}

void ztSavePlan(const ZtFile& file, const ZtEditPlan& plan, const std::filesystem::path& path,
                const CancelToken* cancel, const std::function<void(double)>& progress) {
    if (const std::string problem = ztPlanProblem(file, plan); !problem.empty()) {
        throw std::runtime_error(problem);
    }
    std::uint64_t total = 1;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        total += plan.tensors[i].deleted ? 0 : storedBytes(file, file.tensors()[i]);
    }
    AtomicFile out(path);
    ZtWriterOptions options;
    options.attributes = plan.attributes;
    options.zstdLevel = plan.zstdLevel;
    ZtWriter writer([&out](std::span<const std::uint8_t> bytes) { out.write(bytes); }, options);
    std::uint64_t done = 0;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const ZtTensorEdit& edit = plan.tensors[i];
        if (edit.deleted) {
            continue;
        }
        if (cancel != nullptr && cancel->cancelled()) {
            throw std::runtime_error("cancelled");
        }
        const ZtTensor& tensor = file.tensors()[i];
        // Decoded bytes stay alive until the writer has added the tensor.
        std::vector<ZtBytes> decoded;
        ZtWriterTensor next{edit.name, *tensor.dtype, tensor.shape, tensor.formatName, {}};
        decoded.reserve(tensor.components.size());
        for (std::size_t index : writeOrder(file, tensor)) {
            const ZtComponent& c = file.components()[index];
            const bool raw = c.encoding == ZtEncoding::Raw;
            decoded.push_back(ztComponentBytes(
                file, c, raw ? std::numeric_limits<std::uint64_t>::max() : kUnboundedDecodeLimit));
            if (!decoded.back().ok()) {
                throw std::runtime_error("tensor '" + tensor.name + "', component '" + c.role +
                                         "': " + decoded.back().error);
            }
            next.components.push_back({c.role, decoded.back().bytes(), ztPlannedEncoding(c, edit),
                                       ztPlannedDigest(c, edit)});
        }
        try {
            writer.add(next);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(e.what());
        }
        done += storedBytes(file, tensor);
        if (progress) {
            progress(static_cast<double>(done) / static_cast<double>(total));
        }
    }
    writer.finish();
    out.commit();
    if (progress) {
        progress(1.0);
    }
}

}  // namespace strata::model
