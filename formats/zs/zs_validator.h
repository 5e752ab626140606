// Checks a ZS file against every rule of the ZS 0.10 specification (and the root checks the
// reference validator adds). Blocks are CRC-checked and decoded on all cores; every damaged
// block is reported, not just the first. The codes are listed in docs/formats-zs.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/checksums.h"
#include "formats/common/validator.h"
#include "zs_reader.h"

namespace strata::zs {

// One data block copied into the file validated with its stored payload unchanged from a block
// the writer decoded and checked itself (a repair): where those stored bytes lie and what they
// decode to.
struct ZsCopiedBlock {
    const ByteSource* source = nullptr;  // must outlive the validation
    std::uint64_t payloadOffset = 0;     // the stored payload in `source` (not the frame)
    std::uint64_t payloadLength = 0;
    std::uint64_t records = 0;  // at least 1, in order, readable
    std::string first, last;
};

// Every data block of a file, in file order, as copies: the validator then checks each data
// block's frame and CRC as always and compares its stored payload byte for byte with the bytes
// it was copied from instead of decoding it a second time (the same stored bytes decode to the
// same records), and checks the header's data SHA-256 against `dataSha256`, the hash of the
// decoded payloads in this order. The header, the index blocks, the tree and every key are
// checked in full. A data block that is not the copy named at its place (other bytes, more or
// fewer data blocks) is an error, ZS-COPY-MISMATCH.
struct ZsCopiedData {
    std::vector<ZsCopiedBlock> blocks;
    Sha256Digest dataSha256{};
};

class ZsValidator final : public Validator {
public:
    explicit ZsValidator(std::shared_ptr<const ZsFile> file) : file_(std::move(file)) {}
    // Validates a file whose data blocks are all copies (see ZsCopiedData).
    ZsValidator(std::shared_ptr<const ZsFile> file, const ZsCopiedData* copied)
        : file_(std::move(file)), copied_(copied) {}
    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override;

private:
    std::shared_ptr<const ZsFile> file_;
    const ZsCopiedData* copied_ = nullptr;
};

}  // namespace strata::zs
