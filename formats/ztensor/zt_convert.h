// Re-encoding zTensor files: a plan says which tensors of an input file go into a new file (under
// which names, with which encoding and digest) and which attributes the new manifest carries;
// ztConvert() carries it out through the ZtWriter, encoding components on a worker pool. Used by
// `strata-cli zt convert` and by the app's Save for edited zTensor documents.
//
//     auto file = ZtFile::open(openMappedFile(in));
//     ZtConvertPlan plan = ztPlanFor(*file);
//     ztSetEncoding(plan, ZtEncoding::Zstd);
//     plan.zstdLevel = 9;
//     ztConvertFile(*file, plan, out, {.threads = 2, .cancel = &token, .progress = report});
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../common/validator.h"
#include "zt_file.h"
#include "zt_writer.h"

namespace strata::ztensor {

struct ZtTensorEdit {
    // The tensor's name in the input file.
    std::string source;
    // Its name in the new file.
    std::string name;
    // Nothing keeps each component's encoding.
    std::optional<ZtEncoding> encoding;
    ZtDigestChoice digest = ZtDigestChoice::Keep;
};

struct ZtConvertPlan {
    // The tensors of the new file, written in this order; tensors not listed are dropped.
    std::vector<ZtTensorEdit> tensors;
    std::vector<std::pair<std::string, std::string>> attributes;
    std::string version = "1.0";
    std::string generator = "Strata";
    int zstdLevel = 3;
    // zstd components that stay zstd are copied frame for frame unless this is set, in which
    // case they are encoded again at zstdLevel.
    bool recompress = false;
    // Check the input's digests before rewriting the bytes they cover, so a refreshed digest
    // never vouches for damaged data.
    bool verifyDigests = true;
};

// The plan that writes `file` again as it is: every tensor under its own name in the order of
// its bytes in the file, its attributes and its generator.
ZtConvertPlan ztPlanFor(const ZtFile& file);
// Gives every tensor of the plan this encoding / digest.
void ztSetEncoding(ZtConvertPlan& plan, std::optional<ZtEncoding> encoding);
void ztSetDigest(ZtConvertPlan& plan, ZtDigestChoice digest);
// Renames a tensor of the plan; returns false when `from` is not in it.
bool ztRenameTensor(ZtConvertPlan& plan, const std::string& from, const std::string& to);
// Drops a tensor from the plan; returns false when it is not in it.
bool ztRemoveTensor(ZtConvertPlan& plan, const std::string& name);

// Why a conversion cannot be done: a bad plan, or input data that cannot be carried over
// (unreadable or undecodable component, wrong decoded size, digest mismatch).
class ZtConvertError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ZtConvertOptions {
    // Encoding threads; 0 = one per core.
    unsigned threads = 0;
    const CancelToken* cancel = nullptr;
    // Fraction of the input's stored bytes done, and which tensor is being written.
    ProgressCallback progress;
    // A component decodes to at most this many bytes; larger ones fail the conversion.
    std::uint64_t maxComponentBytes = 64ull << 30;
};

struct ZtConvertResult {
    bool cancelled = false;
    std::uint64_t tensors = 0;
    std::uint64_t components = 0;
    // Stored bytes read from the input and the size of the new file.
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
};

// Checks the plan against the file (sources exist, output names unique, non-empty and UTF-8,
// dtypes known, attributes UTF-8). Throws ZtConvertError naming the first problem.
void ztCheckPlan(const ZtFile& file, const ZtConvertPlan& plan);

// Writes the new file to `output`. Throws ZtConvertError (and whatever `output` throws); when
// cancelled, returns early with `cancelled` set and an unfinished output.
ZtConvertResult ztConvert(const ZtFile& file, const ZtConvertPlan& plan,
                          const ZtWriter::Output& output, const ZtConvertOptions& options = {});

// Writes the new file through an AtomicFile: `path` is replaced only when everything was
// written, never when the conversion fails or is cancelled. `path` may be the input's own path
// (the input stays mapped until the caller drops it).
ZtConvertResult ztConvertFile(const ZtFile& file, const ZtConvertPlan& plan,
                              const std::filesystem::path& path,
                              const ZtConvertOptions& options = {});

}  // namespace strata::ztensor
