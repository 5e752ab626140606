// Checks a ZS file against every rule of the ZS 0.10 specification (and the root checks the
// reference validator adds). Blocks are CRC-checked and decoded on all cores; every damaged
// block is reported, not just the first. The codes are listed in docs/formats-zs.md.
#pragma once

#include <memory>

#include "formats/common/validator.h"
#include "zs_reader.h"

namespace strata::zs {

class ZsValidator final : public Validator {
public:
    explicit ZsValidator(std::shared_ptr<const ZsFile> file) : file_(std::move(file)) {}
    ValidationOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override;

private:
    std::shared_ptr<const ZsFile> file_;
};

}  // namespace strata::zs
