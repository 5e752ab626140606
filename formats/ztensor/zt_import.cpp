#include "zt_import.h"

#include <algorithm>
#include <memory>
#include <set>
#include <thread>

#include "../common/atomic_file.h"
#include "../common/ordered_pool.h"
#include "npy_reader.h"
#include "safetensors_reader.h"
#include "zt_writer.h"

namespace strata::ztensor {

namespace {

struct Encoded {
    ByteView stored;
    std::string digest;
};

ByteView ownedView(std::vector<std::uint8_t> bytes) {
    auto holder = std::make_shared<std::vector<std::uint8_t>>(std::move(bytes));
    return ByteView{{holder->data(), holder->size()}, holder};
}

}  // namespace

std::string ztImportKind(const std::filesystem::path& path) {
    const ByteSourcePtr source = openMappedFile(path);
    std::uint8_t head[9] = {};
    const std::size_t got = source->read(0, head);
    const std::string_view text(reinterpret_cast<const char*>(head), got);
    if (text.starts_with(kNpyMagic)) {
        return "npy";
    }
    if (text.starts_with(std::string_view("PK\x03\x04", 4)) ||
        text.starts_with(std::string_view("PK\x05\x06", 4))) {
        return "npz";
    }
    // safetensors: a header size, then the JSON object (which starts with '{').
    if (got == 9 && head[8] == '{') {
        return "safetensors";
    }
    return {};
}

ZtImportSet ztReadImport(const std::filesystem::path& path) {
    const std::string kind = ztImportKind(path);
    if (kind == "npy") {
        return readNpyFile(path);
    }
    if (kind == "npz") {
        return readNpzFile(path);
    }
    if (kind == "safetensors") {
        return readSafetensorsFile(path);
    }
    throw ZtImportError(path.string() + ": not a .npy, .npz or safetensors file");
}

ZtImportResult ztWriteImport(const ZtImportSet& set, const std::filesystem::path& out,
                             const ZtImportOptions& options) {
    std::set<std::string> names;
    for (const auto& tensor : set.tensors) {
        if (tensor.name.empty() || !names.insert(tensor.name).second) {
            throw ZtImportError("tensor name '" + tensor.name + "' is empty or used twice");
        }
        if (!ztIsValidText(tensor.name)) {
            throw ZtImportError("tensor name '" + tensor.name + "' is not UTF-8");
        }
    }
    for (const auto& [key, value] : set.attributes) {
        if (!ztIsValidText(key) || !ztIsValidText(value)) {
            throw ZtImportError("metadata entry '" + key + "' is not UTF-8 text");
        }
    }
    if (options.encoding != ZtEncoding::Raw && options.encoding != ZtEncoding::Zstd) {
        throw ZtImportError("unknown target encoding");
    }
    AtomicFile file(out);
    ZtWriterOptions writerOptions;
    writerOptions.attributes = set.attributes;
    writerOptions.zstdLevel = options.zstdLevel;
    ZtWriter writer([&](std::span<const std::uint8_t> bytes) { file.write(bytes); }, writerOptions);

    const unsigned workers =
        options.threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : options.threads;
    OrderedPool<Encoded> pool(workers, 2 * workers, options.cancel);
    ZtImportResult result;
    std::size_t consumed = 0;
    auto consume = [&](const Encoded& encoded) {
        const ZtImportTensor& tensor = set.tensors[consumed++];
        writer.addStored({tensor.name,
                          tensor.dtype,
                          tensor.shape,
                          "dense",
                          {{"data", encoded.stored.bytes, options.encoding, encoded.digest, {}}},
                          {}});
        ++result.tensors;
        if (options.progress) {
            options.progress(
                static_cast<double>(consumed) / static_cast<double>(set.tensors.size()),
                "tensor " + std::to_string(consumed) + " of " + std::to_string(set.tensors.size()) +
                    ": " + tensor.name);
        }
    };
    const auto encode = [&options](const ZtImportTensor* tensor) {
        Encoded encoded{tensor->data, {}};
        if (options.encoding == ZtEncoding::Zstd) {
            encoded.stored = ownedView(ztZstdEncode(tensor->data.bytes, options.zstdLevel));
        }
        if (options.digest) {
            encoded.digest = ztDigestText(*options.digest, encoded.stored.bytes);
        }
        return encoded;
    };
    for (const auto& tensor : set.tensors) {
        if (pool.full()) {
            auto next = pool.next();
            if (!next) {
                break;
            }
            consume(*next);
        }
        if (!pool.submit([&encode, t = &tensor] { return encode(t); })) {
            break;
        }
    }
    while (consumed < set.tensors.size()) {
        auto next = pool.next();
        if (!next) {
            break;
        }
        consume(*next);
    }
    if (consumed < set.tensors.size() || (options.cancel && options.cancel->cancelled())) {
        result.cancelled = true;
        return result;
    }
    writer.finish();
    file.commit();
    result.bytesOut = writer.position();
    return result;
}

}  // namespace strata::ztensor
