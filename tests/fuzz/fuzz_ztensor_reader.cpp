// Fuzzes the zTensor reader: open, validate, walk the tree, read every tensor. Checks: no crash,
// no hang, no unbounded allocation; decoded bytes never exceed the limit asked for.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/ztensor/zt_cbor_scan.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/zt_nodes.h"
#include "formats/ztensor/zt_validator.h"

namespace {

constexpr std::uint64_t kLimit = 1 << 20;

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

void walk(const strata::Node& node, int depth) {
    if (depth > 4) {
        return;
    }
    const std::uint64_t count = node.childCount();
    for (std::uint64_t i = 0; i < count && i < 64; ++i) {
        const strata::Node* child = node.child(i);
        check(child != nullptr);
        walk(*child, depth + 1);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    const auto scan = strata::ztensor::scanCbor(input);
    check(!scan.ok || scan.end <= size);

    auto source =
        strata::makeBufferSource(std::vector<std::uint8_t>(input.begin(), input.end()), "fuzz.zt");
    const auto file = strata::ztensor::ZtFile::open(source);
    strata::CollectingSink sink;
    strata::ValidationOptions options;
    options.threads = 1;
    strata::ztensor::ZtValidatorLimits limits;
    limits.maxSparseLoad = kLimit;
    limits.maxUnboundedDecode = kLimit;
    strata::ztensor::ZtValidator(file, limits).run(sink, options);

    const auto root = strata::ztensor::makeZtNodeTree(file, "fuzz.zt");
    walk(*root, 0);
    if (size > 0) {
        (void)root->deepestAt(size / 2);
    }
    std::size_t tensors = 0;
    for (const auto& tensor : file->tensors()) {
        if (++tensors > 16) {
            break;
        }
        const auto bytes = strata::ztensor::ztTensorBytes(*file, tensor, kLimit);
        check(!bytes.ok() || bytes.view.size() <= kLimit);
        for (std::size_t index : tensor.components) {
            const auto component =
                strata::ztensor::ztComponentBytes(*file, file->components()[index], kLimit);
            check(!component.ok() || component.view.size() <= kLimit);
        }
    }
    return 0;
}
