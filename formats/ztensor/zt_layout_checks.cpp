// ZtOpener's checks over what it read: each tensor's required components, where components lie
// (alignment, bounds, overlaps), the layout map, and the steps in order (run).
#include <algorithm>

#include "../common/bounds.h"
#include "zt_opener.h"

namespace strata::ztensor {

void ZtOpener::checkRequiredRoles(std::size_t tensorIndex) {
    const ZtTensor& tensor = file_->tensors_[tensorIndex];
    std::vector<std::string_view> required;
    switch (tensor.format) {
        case ZtTensorFormat::Dense:
            required = {"data"};
            break;
        case ZtTensorFormat::SparseCsr:
            required = {"values", "indices", "indptr"};
            break;
        case ZtTensorFormat::SparseCoo:
            required = {"values", "coords"};
            break;
        case ZtTensorFormat::Other:
            return;
    }
    for (auto role : required) {
        if (file_->component(tensor, role) == nullptr) {
            reportTensor(tensorIndex, Severity::Error, "ZT-COMPONENT-REF",
                         "format " + tensor.formatName + " needs a '" + std::string(role) +
                             "' component, which the manifest does not name",
                         tensor.componentsField);
        }
    }
    for (std::size_t index : tensor.components) {
        const auto& role = file_->components_[index].role;
        if (std::find(required.begin(), required.end(), role) == required.end()) {
            reportComponent(
                index, Severity::Info, "ZT-COMPONENT-UNUSED",
                "format " + tensor.formatName + " does not use a '" + role + "' component",
                file_->components_[index].entry);
        }
    }
    // Dense raw data has exactly the tensor's byte size; zstd data is checked once decoded.
    const ZtComponent* data = file_->component(tensor, "data");
    if (tensor.format == ZtTensorFormat::Dense && data != nullptr && data->length &&
        tensor.byteSize && data->encoding == ZtEncoding::Raw && *data->length != *tensor.byteSize) {
        reportComponent(static_cast<std::size_t>(data - file_->components_.data()), Severity::Error,
                        "ZT-SIZE",
                        "holds " + std::to_string(*data->length) + " bytes, but " +
                            tensor.dtypeName + " × shape needs " + std::to_string(*tensor.byteSize),
                        data->lengthField);
    }
}

void ZtOpener::checkLayout() {
    const std::uint64_t size = file_->fileSize_;
    const std::uint64_t manifestStart = file_->manifest_.offset;
    for (std::size_t i = 0; i < file_->components_.size(); ++i) {
        const ZtComponent& c = file_->components_[i];
        if (!c.hasRange()) {
            continue;
        }
        const std::uint64_t offset = *c.offset;
        const std::uint64_t length = *c.length;
        if (!c.inBounds) {
            reportComponent(i, Severity::Error, "ZT-COMPONENT-BOUNDS",
                            "bytes [" + std::to_string(offset) + ", " +
                                (checkedAdd(offset, length) ? std::to_string(offset + length)
                                                            : std::string("overflow")) +
                                ") reach past the end of the " + std::to_string(size) +
                                "-byte file",
                            c.data);
        }
        if (offset % kZtAlignment != 0) {
            reportComponent(i, Severity::Error, "ZT-ALIGN",
                            "offset " + std::to_string(offset) + " is not a multiple of 64",
                            c.offsetField);
        }
        if (length == 0) {
            continue;  // an empty component occupies no bytes, so it overlaps nothing
        }
        if (offset < kZtHeaderSize) {
            reportComponent(i, Severity::Error, "ZT-OVERLAP",
                            "overlaps the 8-byte magic number at the start of the file", c.data);
        }
        if (c.inBounds && offset + length > manifestStart) {
            reportComponent(i, Severity::Error, "ZT-OVERLAP",
                            "overlaps the manifest or the manifest size field (which start at " +
                                std::to_string(manifestStart) + ")",
                            c.data);
        }
    }
    checkOverlaps();
}

void ZtOpener::checkOverlaps() {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < file_->components_.size(); ++i) {
        const auto& c = file_->components_[i];
        if (c.hasRange() && *c.length > 0) {
            order.push_back(i);
        }
    }
    const auto& comps = file_->components_;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::pair(*comps[a].offset, *comps[a].length) <
               std::pair(*comps[b].offset, *comps[b].length);
    });
    std::optional<std::size_t> reach;  // the component reaching furthest so far
    for (std::size_t i : order) {
        const auto& c = comps[i];
        if (reach) {
            const auto& r = comps[*reach];
            if (*c.offset < r.data.end()) {
                const std::string other =
                    "'" + file_->tensors_[r.tensor].name + "' component '" + r.role + "'";
                if (*c.offset == *r.offset && *c.length == *r.length) {
                    reportComponent(i, Severity::Warning, "ZT-OVERLAP",
                                    "uses exactly the same bytes as tensor " + other, c.data);
                } else {
                    reportComponent(i, Severity::Error, "ZT-OVERLAP",
                                    "overlaps the bytes of tensor " + other, c.data);
                }
            }
        }
        if (!reach || c.data.end() > comps[*reach].data.end()) {
            reach = i;
        }
    }
}

void ZtOpener::buildLayoutEntries() {
    const auto& comps = file_->components_;
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < comps.size(); ++i) {
        if (comps[i].hasRange()) {
            groups[{*comps[i].offset, *comps[i].length}].push_back(i);
        }
    }
    std::vector<ZtLayoutEntry> entries;
    // A component without a usable range lies somewhere unknown: then no byte can be called
    // padding, so gaps are only listed when every range is known.
    const bool rangesKnown =
        std::all_of(comps.begin(), comps.end(), [](const ZtComponent& c) { return c.hasRange(); });
    const std::uint64_t begin = kZtHeaderSize;
    const std::uint64_t end = file_->manifest_.valid() ? file_->manifest_.offset : begin;
    std::uint64_t covered = begin;  // everything before this is a component or the header
    for (auto& [range, members] : groups) {
        const auto [offset, length] = range;
        if (rangesKnown && offset > covered && covered < end) {
            const std::uint64_t gapEnd = std::min(offset, end);
            entries.push_back({true, at(covered, gapEnd - covered), {}});
            covered = gapEnd;
        }
        entries.push_back({false, at(offset, length), std::move(members)});
        // Bytes past the end of the file cover nothing, but those inside it are not padding.
        covered = std::max(covered, std::min(saturatingEnd(offset, length), file_->fileSize_));
    }
    if (rangesKnown && covered < end) {
        entries.push_back({true, at(covered, end - covered), {}});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return a.region.offset < b.region.offset;
    });
    file_->layoutEntries_ = std::move(entries);
}

std::shared_ptr<const ZtFile> ZtOpener::run() {
    if (!readHeader() || !readManifestSize() || !locateManifest() || !decodeManifest()) {
        return file_;
    }
    if (file_->layout_ != ZtLayout::V1_0 && file_->layout_ != ZtLayout::NotZTensor) {
        return file_;  // other versions: the manifest is shown, not interpreted
    }
    readRoot();
    checkLayout();
    buildLayoutEntries();
    // Diagnostics in file order make reports easy to follow.
    std::stable_sort(file_->diagnostics_.begin(), file_->diagnostics_.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         const auto key = [](const Diagnostic& d) {
                             return d.regions.empty() ? std::uint64_t{0} : d.regions[0].offset;
                         };
                         return key(a) < key(b);
                     });
    return file_;
}

}  // namespace strata::ztensor
