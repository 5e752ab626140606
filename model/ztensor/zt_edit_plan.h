// The pending edits of a zTensor document: attributes, and per tensor its new name, deletion,
// encoding and digest choice. Undo commands swap whole plans; saving writes the file the plan
// describes through the zTensor writer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/common/validator.h"
#include "formats/ztensor/zt_digest.h"
#include "formats/ztensor/zt_file.h"

namespace strata::model {

// Keep: each component as it is stored now.
enum class ZtEncodingChoice { Keep, Raw, Zstd };
// Keep: each component's current digest algorithm (recomputed), none when it has none.
using ZtDigestChoice = strata::ztensor::ZtDigestChoice;

struct ZtTensorEdit {
    std::string name;
    bool deleted = false;
    ZtEncodingChoice encoding = ZtEncodingChoice::Keep;
    ZtDigestChoice digest = ZtDigestChoice::Keep;

    bool operator==(const ZtTensorEdit&) const = default;
};

struct ZtEditPlan {
    std::vector<std::pair<std::string, std::string>> attributes;
    // One per tensor of the file, in the file's order.
    std::vector<ZtTensorEdit> tensors;
    int zstdLevel = 3;

    bool operator==(const ZtEditPlan&) const = default;
};

// The plan that rewrites the file as it is.
ZtEditPlan ztInitialPlan(const strata::ztensor::ZtFile& file);

// What a component will be stored as under `edit`.
strata::ztensor::ZtEncoding ztPlannedEncoding(const strata::ztensor::ZtComponent& component,
                                              const ZtTensorEdit& edit);
std::optional<strata::ztensor::ZtDigestAlgorithm> ztPlannedDigest(
    const strata::ztensor::ZtComponent& component, const ZtTensorEdit& edit);

// Why the plan cannot be saved (a tensor Strata cannot re-encode, duplicate names), or "".
std::string ztPlanProblem(const strata::ztensor::ZtFile& file, const ZtEditPlan& plan);

// Writes the file the plan describes to `path` with the formats layer's ztConvertFile (zstd
// encoding on a worker pool, input digests checked before they are refreshed, AtomicFile: the
// target is replaced only when everything was written). `progress` gets the fraction done.
// Throws std::runtime_error (including when cancelled, leaving the target untouched).
void ztSavePlan(const strata::ztensor::ZtFile& file, const ZtEditPlan& plan,
                const std::filesystem::path& path, const strata::CancelToken* cancel = nullptr,
                const std::function<void(double)>& progress = {});

}  // namespace strata::model
