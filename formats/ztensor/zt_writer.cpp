#include "zt_writer.h"

#include <simdjson.h>
#include <zstd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "../common/atomic_file.h"
#include "../common/bounds.h"
#include "../common/checksums.h"

namespace strata::ztensor {

namespace {

// Minimal definite-length CBOR encoding, enough for a manifest.
class CborOut {
public:
    void head(std::uint8_t major, std::uint64_t value) {
        const auto m = static_cast<std::uint8_t>(major << 5);
        if (value < 24) {
            bytes_.push_back(static_cast<std::uint8_t>(m | value));
        } else if (value <= 0xFF) {
            bytes_.push_back(m | 24);
            put(value, 1);
        } else if (value <= 0xFFFF) {
            bytes_.push_back(m | 25);
            put(value, 2);
        } else if (value <= 0xFFFFFFFFull) {
            bytes_.push_back(m | 26);
            put(value, 4);
        } else {
            bytes_.push_back(m | 27);
            put(value, 8);
        }
    }
    void text(std::string_view s) {
        head(3, s.size());
        bytes_.insert(bytes_.end(), s.begin(), s.end());
    }
    void uint(std::uint64_t v) { head(0, v); }
    void map(std::uint64_t entries) { head(5, entries); }
    void array(std::uint64_t items) { head(4, items); }
    // Members the writer does not know, after `known` ones, in key order.
    void extra(const ZtExtraMembers& members) {
        const std::map<std::string, const std::vector<std::uint8_t>*> sorted = [&] {
            std::map<std::string, const std::vector<std::uint8_t>*> out;
            for (const auto& [key, value] : members) {
                out.emplace(key, &value);
            }
            return out;
        }();
        for (const auto& [key, value] : sorted) {
            text(key);
            bytes_.insert(bytes_.end(), value->begin(), value->end());
        }
    }
    std::vector<std::uint8_t> take() { return std::move(bytes_); }

private:
    void put(std::uint64_t value, int size) {
        for (int i = size - 1; i >= 0; --i) {
            bytes_.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
        }
    }
    std::vector<std::uint8_t> bytes_;
};

std::size_t distinctKeys(const ZtExtraMembers& members) {
    std::set<std::string> keys;
    for (const auto& member : members) {
        keys.insert(member.first);
    }
    return keys.size();
}

struct CCtxFree {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

}  // namespace

// Made the way a streaming encoder makes a frame when the input size is not known up front (as
// the reference writer does): no content size, no checksum, and the level's default window, so
// the frames are byte-identical to the reference's (tested on the corpus).
std::vector<std::uint8_t> ztZstdEncode(std::span<const std::uint8_t> data, int level) {
    std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx(ZSTD_createCCtx());
    if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level))) {
        throw std::runtime_error("zstd: cannot create a compression context");
    }
    std::vector<std::uint8_t> out(ZSTD_compressBound(data.size()) + 64);
    ZSTD_outBuffer ob{out.data(), out.size(), 0};
    ZSTD_inBuffer in{data.data(), data.size(), 0};
    // With no input at all the reference's encoder only ever ends the frame, which makes zstd
    // write a single-segment frame with a content size of 0.
    const std::vector<ZSTD_EndDirective> modes =
        data.empty() ? std::vector{ZSTD_e_end} : std::vector{ZSTD_e_continue, ZSTD_e_end};
    for (ZSTD_EndDirective mode : modes) {
        for (;;) {
            const size_t left = ZSTD_compressStream2(cctx.get(), &ob, &in, mode);
            if (ZSTD_isError(left)) {
                throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(left));
            }
            if (ob.pos == ob.size) {
                out.resize(out.size() * 2);
                ob.dst = out.data();
                ob.size = out.size();
            }
            const bool done = mode == ZSTD_e_continue ? in.pos == in.size : left == 0;
            if (done) {
                break;
            }
        }
    }
    out.resize(ob.pos);
    return out;
}

std::string ztDigestText(ZtDigestAlgorithm algorithm, std::span<const std::uint8_t> stored) {
    if (algorithm == ZtDigestAlgorithm::Crc32c) {
        return formatZtCrc32c(crc32c(stored));
    }
    if (algorithm == ZtDigestAlgorithm::Sha256) {
        return "sha256:" + toHex(sha256(stored));
    }
    throw std::invalid_argument("unknown digest algorithm");
}

bool ztIsValidText(std::string_view text) {
    return simdjson::validate_utf8(text.data(), text.size());
}

namespace {

void requireUtf8(std::string_view text, std::string_view what) {
    if (!ztIsValidText(text)) {
        throw std::invalid_argument("zTensor writer: " + std::string(what) + " is not valid UTF-8");
    }
}

// Members kept from another file: UTF-8 keys that are not ones the writer writes itself.
void requireExtra(const ZtExtraMembers& members, bool (*isRead)(std::string_view),
                  std::string_view where) {
    for (const auto& member : members) {
        requireUtf8(member.first, "a key of " + std::string(where));
        if (isRead(member.first) || member.second.empty()) {
            throw std::invalid_argument("zTensor writer: the key '" + member.first + "' of " +
                                        std::string(where) + " is written by the writer itself");
        }
    }
}

}  // namespace

ZtWriter::ZtWriter(Output output, ZtWriterOptions options)
    : output_(std::move(output)), options_(std::move(options)) {
    requireUtf8(options_.version, "the version");
    requireUtf8(options_.generator, "the generator");
    for (const auto& [key, value] : options_.attributes) {
        requireUtf8(key, "attribute name '" + key + "'");
        requireUtf8(value, "the value of attribute '" + key + "'");
    }
    requireExtra(options_.extra, ztIsReadRootKey, "the manifest");
    const auto* magic = reinterpret_cast<const std::uint8_t*>(kZtMagicV1.data());
    emit({magic, kZtMagicV1.size()});
}

void ZtWriter::emit(std::span<const std::uint8_t> bytes) {
    output_(bytes);
    position_ += bytes.size();
}

void ZtWriter::checkNewName(const std::string& name) const {
    if (finished_) {
        throw std::logic_error("zTensor writer: add() after finish()");
    }
    requireUtf8(name, "tensor name '" + name + "'");
    if (names_.contains(name)) {
        throw std::invalid_argument("zTensor writer: duplicate tensor '" + name + "'");
    }
}

namespace {

void checkNewRole(const std::vector<std::string>& roles, const std::string& role,
                  const std::string& tensor) {
    requireUtf8(role, "role '" + role + "' of tensor '" + tensor + "'");
    if (std::find(roles.begin(), roles.end(), role) != roles.end()) {
        throw std::invalid_argument("zTensor writer: duplicate role '" + role + "' in tensor '" +
                                    tensor + "'");
    }
}

}  // namespace

ZtWriter::Written ZtWriter::place(const std::string& role, std::span<const std::uint8_t> stored,
                                  ZtEncoding encoding, std::string digest) {
    if (encoding != ZtEncoding::Raw && encoding != ZtEncoding::Zstd) {
        throw std::invalid_argument("zTensor writer: unknown encoding");
    }
    static const std::uint8_t kZeros[64] = {};
    // Every component starts at the next multiple of 64; an empty one writes nothing.
    const std::uint64_t aligned = (position_ + kZtAlignment - 1) / kZtAlignment * kZtAlignment;
    if (!stored.empty()) {
        emit({kZeros, static_cast<std::size_t>(aligned - position_)});
        emit(stored);
    }
    return Written{role, aligned, stored.size(), encoding, std::move(digest), {}};
}

void ZtWriter::add(const ZtWriterTensor& tensor) {
    checkNewName(tensor.name);
    requireUtf8(tensor.format, "the format of tensor '" + tensor.name + "'");
    if (tensor.format == "dense") {
        std::optional<std::uint64_t> bytes = ztDTypeSize(tensor.dtype);
        for (auto dim : tensor.shape) {
            bytes = bytes ? checkedMul(*bytes, dim) : std::nullopt;
        }
        if (tensor.components.size() != 1 || tensor.components[0].role != "data" || !bytes ||
            tensor.components[0].data.size() != *bytes) {
            throw std::invalid_argument("zTensor writer: dense tensor '" + tensor.name +
                                        "' needs one 'data' component of dtype × shape bytes");
        }
    }
    Entry entry{tensor.name, tensor.dtype, tensor.shape, tensor.format, {}, {}};
    std::vector<std::string> roles;
    for (const auto& component : tensor.components) {
        checkNewRole(roles, component.role, tensor.name);
        roles.push_back(component.role);
        std::vector<std::uint8_t> compressed;
        std::span<const std::uint8_t> stored = component.data;
        if (component.encoding == ZtEncoding::Zstd) {
            compressed = ztZstdEncode(component.data, options_.zstdLevel);
            stored = compressed;
        }
        std::string digest;
        if (component.digest) {
            digest = ztDigestText(*component.digest, stored);
        }
        entry.components.push_back(
            place(component.role, stored, component.encoding, std::move(digest)));
    }
    names_.insert(entry.name);
    entries_.push_back(std::move(entry));
}

void ZtWriter::addStored(const ZtStoredTensor& tensor) {
    checkNewName(tensor.name);
    requireUtf8(tensor.format, "the format of tensor '" + tensor.name + "'");
    requireExtra(tensor.extra, ztIsReadTensorKey, "tensor '" + tensor.name + "'");
    Entry entry{tensor.name, tensor.dtype, tensor.shape, tensor.format, {}, tensor.extra};
    std::vector<std::string> roles;
    for (const auto& component : tensor.components) {
        checkNewRole(roles, component.role, tensor.name);
        requireExtra(component.extra, ztIsReadComponentKey,
                     "component '" + component.role + "' of tensor '" + tensor.name + "'");
        roles.push_back(component.role);
        entry.components.push_back(
            place(component.role, component.stored, component.encoding, component.digest));
        entry.components.back().extra = component.extra;
    }
    names_.insert(entry.name);
    entries_.push_back(std::move(entry));
}

std::vector<std::uint8_t> ZtWriter::manifest() const {
    CborOut out;
    out.map(4 + distinctKeys(options_.extra));
    out.text("version");
    out.text(options_.version);
    out.text("generator");
    out.text(options_.generator);
    out.text("attributes");
    const std::map<std::string, std::string> attributes(options_.attributes.begin(),
                                                        options_.attributes.end());
    out.map(attributes.size());
    for (const auto& [key, value] : attributes) {
        out.text(key);
        out.text(value);
    }
    out.text("tensors");
    std::map<std::string, const Entry*> sorted;
    for (const auto& entry : entries_) {
        sorted.emplace(entry.name, &entry);
    }
    out.map(sorted.size());
    for (const auto& [name, entry] : sorted) {
        out.text(name);
        out.map(4 + distinctKeys(entry->extra));
        out.text("dtype");
        out.text(ztDTypeName(entry->dtype));
        out.text("shape");
        out.array(entry->shape.size());
        for (auto dim : entry->shape) {
            out.uint(dim);
        }
        out.text("format");
        out.text(entry->format);
        out.text("components");
        std::map<std::string, const Written*> roles;
        for (const auto& c : entry->components) {
            roles.emplace(c.role, &c);
        }
        out.map(roles.size());
        for (const auto& [role, c] : roles) {
            out.text(role);
            const bool zstd = c->encoding == ZtEncoding::Zstd;
            out.map(2 + (zstd ? 1 : 0) + (c->digest.empty() ? 0 : 1) + distinctKeys(c->extra));
            out.text("offset");
            out.uint(c->offset);
            out.text("length");
            out.uint(c->length);
            if (zstd) {
                out.text("encoding");
                out.text("zstd");
            }
            if (!c->digest.empty()) {
                out.text("digest");
                out.text(c->digest);
            }
            out.extra(c->extra);
        }
        out.extra(entry->extra);
    }
    out.extra(options_.extra);
    return out.take();
}

void ZtWriter::finish() {
    if (finished_) {
        return;
    }
    finished_ = true;
    const auto bytes = manifest();
    emit(bytes);
    std::uint8_t size[8];
    for (int i = 0; i < 8; ++i) {
        size[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(bytes.size()) >> (8 * i));
    }
    emit(size);
}

std::vector<std::uint8_t> ztWriteToBuffer(const std::vector<ZtWriterTensor>& tensors,
                                          const ZtWriterOptions& options) {
    std::vector<std::uint8_t> out;
    ZtWriter writer(
        [&](std::span<const std::uint8_t> bytes) {
            out.insert(out.end(), bytes.begin(), bytes.end());
        },
        options);
    for (const auto& tensor : tensors) {
        writer.add(tensor);
    }
    writer.finish();
    return out;
}

void ztWriteFile(const std::filesystem::path& path, const std::vector<ZtWriterTensor>& tensors,
                 const ZtWriterOptions& options) {
    AtomicFile file(path);
    ZtWriter writer([&](std::span<const std::uint8_t> bytes) { file.write(bytes); }, options);
    for (const auto& tensor : tensors) {
        writer.add(tensor);
    }
    writer.finish();
    file.commit();
}

}  // namespace strata::ztensor
