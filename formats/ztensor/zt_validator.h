// The zTensor validator: reports what ZtFile::open found in the header and manifest, then reads
// every component (in parallel) to check padding, digests, zstd frames, decoded sizes, sparse
// structure and non-finite values. Diagnostic codes are listed in docs/formats-ztensor.md.
#pragma once

#include <cstdint>
#include <memory>

#include "../common/validator.h"
#include "zt_file.h"

namespace strata::ztensor {

struct ZtValidatorLimits {
    // Sparse components are loaded whole to check their structure; larger ones are skipped
    // with a ZT-LIMIT note.
    std::uint64_t maxSparseLoad = 1ull << 30;
    // zstd components whose decoded size the tensor does not bound (unknown formats) are
    // decoded, without keeping the output, up to this many bytes.
    std::uint64_t maxUnboundedDecode = 16ull << 30;
};

class ZtValidator final : public Validator {
public:
    explicit ZtValidator(std::shared_ptr<const ZtFile> file, ZtValidatorLimits limits = {});
    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override;

private:
    std::shared_ptr<const ZtFile> file_;
    ZtValidatorLimits limits_;
};

std::unique_ptr<Validator> makeZtValidator(std::shared_ptr<const ZtFile> file);

}  // namespace strata::ztensor
