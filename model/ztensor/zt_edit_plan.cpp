#include "zt_edit_plan.h"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

#include "formats/ztensor/zt_convert.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_writer.h"

namespace strata::model {

ZtEditPlan ztInitialPlan(const ztensor::ZtFile& file) {
    ZtEditPlan plan;
    plan.attributes = file.attributes();
    for (const ztensor::ZtTensor& tensor : file.tensors()) {
        plan.tensors.push_back({tensor.name, false, ZtEncodingChoice::Keep, ZtDigestChoice::Keep});
    }
    return plan;
}

ztensor::ZtEncoding ztPlannedEncoding(const ztensor::ZtComponent& component,
                                      const ZtTensorEdit& edit) {
    switch (edit.encoding) {
        case ZtEncodingChoice::Raw:
            return ztensor::ZtEncoding::Raw;
        case ZtEncodingChoice::Zstd:
            return ztensor::ZtEncoding::Zstd;
        case ZtEncodingChoice::Keep:
            break;
    }
    return component.encoding;
}

std::optional<ztensor::ZtDigestAlgorithm> ztPlannedDigest(const ztensor::ZtComponent& component,
                                                          const ZtTensorEdit& edit) {
    switch (edit.digest) {
        case ZtDigestChoice::None:
            return std::nullopt;
        case ZtDigestChoice::Crc32c:
            return ztensor::ZtDigestAlgorithm::Crc32c;
        case ZtDigestChoice::Sha256:
            return ztensor::ZtDigestAlgorithm::Sha256;
        case ZtDigestChoice::Keep:
            break;
    }
    if (!component.digest) {
        return std::nullopt;
    }
    const ztensor::ZtDigestSpec spec = ztensor::parseZtDigest(*component.digest);
    if (!spec.usable() || spec.algorithm == ztensor::ZtDigestAlgorithm::Unknown) {
        return std::nullopt;
    }
    return spec.algorithm;
}

std::string ztPlanProblem(const ztensor::ZtFile& file, const ZtEditPlan& plan) {
    if (!file.manifestDecoded() ||
        (file.layout() != ztensor::ZtLayout::V1_0 && file.layout() != ztensor::ZtLayout::V1_1)) {
        return "only zTensor v1 files with a readable manifest can be saved";
    }
    if (plan.tensors.size() != file.tensors().size()) {
        return "the edit plan does not match the file";
    }
    for (const auto& [key, value] : plan.attributes) {
        if (!ztensor::ztIsValidText(key) || !ztensor::ztIsValidText(value)) {
            return "attribute '" + key + "' is not UTF-8 text";
        }
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const ZtTensorEdit& edit = plan.tensors[i];
        if (edit.deleted) {
            continue;
        }
        const ztensor::ZtTensor& tensor = file.tensors()[i];
        if (edit.name.empty() || !names.insert(edit.name).second) {
            return "tensor name '" + edit.name + "' is empty or used twice";
        }
        if (!ztensor::ztIsValidText(edit.name)) {
            return "tensor name '" + edit.name + "' is not UTF-8 (rename it to save)";
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

namespace {

// The formats layer's conversion plan for this edit plan: kept tensors in the order of their
// bytes, under their new names, with their encoding and digest choices.
ztensor::ZtConvertPlan convertPlanFor(const ztensor::ZtFile& file, const ZtEditPlan& plan) {
    ztensor::ZtConvertPlan out = ztensor::ztPlanFor(file);
    out.attributes = plan.attributes;
    out.zstdLevel = plan.zstdLevel;
    std::vector<strata::ztensor::ZtTensorEdit> kept;
    for (strata::ztensor::ZtTensorEdit edit : out.tensors) {
        const ztensor::ZtTensor* tensor = file.findTensor(edit.source);
        if (tensor == nullptr) {
            continue;
        }
        const ZtTensorEdit& mine =
            plan.tensors[static_cast<std::size_t>(tensor - file.tensors().data())];
        if (mine.deleted) {
            continue;
        }
        edit.name = mine.name;
        switch (mine.encoding) {
            case ZtEncodingChoice::Keep:
                edit.encoding.reset();
                break;
            case ZtEncodingChoice::Raw:
                edit.encoding = ztensor::ZtEncoding::Raw;
                break;
            case ZtEncodingChoice::Zstd:
                edit.encoding = ztensor::ZtEncoding::Zstd;
                break;
        }
        edit.digest = mine.digest;
        kept.push_back(std::move(edit));
    }
    out.tensors = std::move(kept);
    return out;
}

}  // namespace

void ztSavePlan(const ztensor::ZtFile& file, const ZtEditPlan& plan,
                const std::filesystem::path& path, const CancelToken* cancel,
                const std::function<void(double)>& progress) {
    if (const std::string problem = ztPlanProblem(file, plan); !problem.empty()) {
        throw std::runtime_error(problem);
    }
    ztensor::ZtConvertOptions options;
    options.threads = 0;  // zstd encoding on a worker pool, one thread per core
    options.cancel = cancel;
    if (progress) {
        options.progress = [&progress](double fraction, const std::string&) { progress(fraction); };
    }
    const ztensor::ZtConvertResult result =
        ztensor::ztConvertFile(file, convertPlanFor(file, plan), path, options);
    if (result.cancelled) {
        throw std::runtime_error("cancelled");
    }
    if (progress) {
        progress(1.0);
    }
}

}  // namespace strata::model
