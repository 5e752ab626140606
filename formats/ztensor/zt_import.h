// `strata-cli zt import`: NumPy .npy/.npz and safetensors files into zTensor files. The input's
// kind comes from its first bytes (see npy_reader.h and safetensors_reader.h for what each reader
// accepts); every tensor becomes a dense zTensor tensor with the chosen encoding and digest,
// encoded on a worker pool and written through an AtomicFile.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "../common/validator.h"
#include "zt_digest.h"
#include "zt_file.h"
#include "zt_import_set.h"

namespace strata::ztensor {

// "npy", "npz", "safetensors", or "" when the bytes are none of these.
std::string ztImportKind(const std::filesystem::path& path);

// Reads any supported input. Throws ZtImportError (and SourceError when it cannot be opened).
ZtImportSet ztReadImport(const std::filesystem::path& path);

struct ZtImportOptions {
    ZtEncoding encoding = ZtEncoding::Raw;
    int zstdLevel = 3;
    std::optional<ZtDigestAlgorithm> digest;
    unsigned threads = 0;
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
};

struct ZtImportResult {
    bool cancelled = false;
    std::uint64_t tensors = 0;
    std::uint64_t bytesOut = 0;
};

// Writes `set` as a zTensor file at `out` (replaced only when complete). Throws ZtImportError
// for duplicate names, FileWriteError when the file cannot be written.
ZtImportResult ztWriteImport(const ZtImportSet& set, const std::filesystem::path& out,
                             const ZtImportOptions& options = {});

}  // namespace strata::ztensor
