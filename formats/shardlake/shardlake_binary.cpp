#include "shardlake_binary.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include "formats/common/bounds.h"
#include "formats/common/le_reader.h"
#include "shardlake_probe.h"

namespace strata::shardlake {

namespace {

constexpr std::uint64_t kMagicSize = 8;
constexpr std::uint32_t kMaxPqK = 256;

bool hasMagic(std::span<const std::uint8_t> head, std::string_view magic) {
    return head.size() >= kMagicSize && std::memcmp(head.data(), magic.data(), kMagicSize) == 0;
}

Region whole(const ByteSource& source) {
    return {&source, 0, source.size()};
}

// Reads consecutive little-endian header fields, remembering each one's region. The header is
// read once: a read per field would be a system call each for a file read on demand.
class HeaderReader {
public:
    HeaderReader(const ByteSource& source, std::vector<HeaderField>& fields)
        : source_(source), fields_(fields), headSize_(source.read(0, head_)) {}

    // The first bytes of the file (fewer when it is shorter).
    std::span<const std::uint8_t> head() const { return {head_.data(), headSize_}; }
    // The magic, as the first field.
    void addMagic() {
        fields_.push_back(
            {"magic", decode<std::uint64_t>(0).value_or(0), {&source_, 0, kMagicSize}});
    }
    template <typename T>
    T take(const char* name) {
        const T value = decode<T>(offset_).value_or(T{});
        fields_.push_back({name, value, {&source_, offset_, sizeof(T)}});
        offset_ += sizeof(T);
        return value;
    }
    Region regionOf(std::string_view name) const {
        for (const HeaderField& field : fields_) {
            if (field.name == name) {
                return field.region;
            }
        }
        return {};
    }

private:
    template <typename T>
    std::optional<T> decode(std::uint64_t offset) const {
        return readLe<T>(std::span<const std::uint8_t>(head_.data(), headSize_), offset);
    }

    const ByteSource& source_;
    std::vector<HeaderField>& fields_;
    std::array<std::uint8_t, 64> head_{};  // every header is shorter
    std::size_t headSize_;
    std::uint64_t offset_ = kMagicSize;
};

// Checks the magic and that the fixed header fits; false when nothing more can be read.
bool checkStart(const ByteSource& source, std::span<const std::uint8_t> head,
                std::string_view magic, std::uint64_t headerSize, const char* what,
                std::vector<BinaryProblem>& problems) {
    if (source.size() < kMagicSize) {
        problems.push_back({"SL-TRUNCATED",
                            std::string(what) + " is " + std::to_string(source.size()) +
                                " bytes, shorter than its 8-byte magic",
                            {whole(source)}});
        return false;
    }
    if (!hasMagic(head, magic)) {
        problems.push_back({"SL-MAGIC",
                            std::string(what) + " does not start with its magic",
                            {{&source, 0, kMagicSize}}});
        return false;
    }
    if (source.size() < headerSize) {
        problems.push_back({"SL-TRUNCATED",
                            std::string(what) + " is " + std::to_string(source.size()) +
                                " bytes, shorter than its " + std::to_string(headerSize) +
                                "-byte header",
                            {whole(source)}});
        return false;
    }
    return true;
}

// Compares the length the header implies with the real one.
void checkLength(const ByteSource& source, std::optional<std::uint64_t> expected, Region cause,
                 const char* what, std::vector<BinaryProblem>& problems) {
    const std::uint64_t size = source.size();
    if (!expected) {
        problems.push_back({"SL-TRUNCATED",
                            std::string(what) +
                                ": the header implies a length beyond 2^64 bytes; the file has " +
                                std::to_string(size),
                            {cause}});
    } else if (*expected > size) {
        problems.push_back({"SL-TRUNCATED",
                            std::string(what) + " is truncated: the header implies " +
                                std::to_string(*expected) + " bytes, the file has " +
                                std::to_string(size),
                            {cause, {&source, size, 0}}});
    } else if (*expected < size) {
        problems.push_back({"SL-TRAILING",
                            std::to_string(size - *expected) + " bytes after the end of the " +
                                what + " (expected length " + std::to_string(*expected) + ")",
                            {{&source, *expected, size - *expected}, cause}});
    }
}

std::optional<std::uint64_t> addAll(std::initializer_list<std::optional<std::uint64_t>> parts) {
    std::uint64_t total = 0;
    for (const auto& part : parts) {
        if (!part) {
            return std::nullopt;
        }
        const auto next = checkedAdd(total, *part);
        if (!next) {
            return std::nullopt;
        }
        total = *next;
    }
    return total;
}

std::uint64_t completeItems(std::uint64_t offset, std::uint64_t itemSize, std::uint64_t declared,
                            std::uint64_t fileSize) {
    if (itemSize == 0 || offset > fileSize) {
        return 0;
    }
    return std::min(declared, (fileSize - offset) / itemSize);
}

void computeShardLayout(ShardLayout& layout) {
    layout.centroidsOffset = layout.headerSize;
    layout.centroidBytes = std::uint64_t{layout.dims} * 4;
    layout.recordSize = 8 + (layout.isPq() ? std::uint64_t{layout.pqM} : layout.centroidBytes);
    const auto centroidTotal = checkedMul(layout.centroidCount, layout.centroidBytes);
    const auto recordsOffset = addAll({layout.headerSize, centroidTotal});
    // Centroids alone cannot overflow (2^32 × 2^34), but keep the check uniform.
    layout.recordsOffset = recordsOffset.value_or(~std::uint64_t{0});
    layout.expectedSize =
        addAll({recordsOffset, checkedMul(layout.vectorCount, layout.recordSize)});
    layout.layoutKnown = recordsOffset.has_value();
}

void checkShardPq(const ShardLayout& layout, const HeaderReader& reader,
                  std::vector<BinaryProblem>& problems) {
    if (layout.pqK == 0 || layout.pqK > kMaxPqK) {
        problems.push_back({"SL-PQ",
                            "pq_k is " + std::to_string(layout.pqK) + "; it must be in 1..256",
                            {reader.regionOf("pq_k")}});
    }
    if (layout.pqM == 0) {
        problems.push_back({"SL-PQ", "pq_m is 0", {reader.regionOf("pq_m")}});
    } else if (layout.dims != 0 && layout.dims % layout.pqM != 0) {
        problems.push_back({"SL-PQ",
                            "dims " + std::to_string(layout.dims) + " is not a multiple of pq_m " +
                                std::to_string(layout.pqM),
                            {reader.regionOf("pq_m")}});
    }
}

}  // namespace

std::uint64_t ShardLayout::centroidsPresent() const {
    return layoutKnown ? completeItems(centroidsOffset, centroidBytes, centroidCount, fileSize) : 0;
}

std::uint64_t ShardLayout::recordsPresent() const {
    return layoutKnown ? completeItems(recordsOffset, recordSize, vectorCount, fileSize) : 0;
}

std::uint64_t CoarseLayout::centroidsPresent() const {
    return layoutKnown ? completeItems(kCoarseHeaderSize, centroidBytes, clusters, fileSize) : 0;
}

std::uint64_t CodebookLayout::codewordsPresent() const {
    return layoutKnown ? completeItems(kCodebookHeaderSize, codewordBytes, codewordCount, fileSize)
                       : 0;
}

RecordReader::RecordReader(const ByteSource& source, std::uint64_t recordsOffset,
                           std::uint64_t recordSize, std::uint64_t count, std::size_t bufferBytes)
    : source_(&source),
      recordsOffset_(recordsOffset),
      recordSize_(std::max<std::uint64_t>(recordSize, 1)),
      count_(count),
      perBuffer_(std::max<std::uint64_t>(1, bufferBytes / recordSize_)) {}

const std::uint8_t* RecordReader::record(std::uint64_t i) {
    if (i >= count_) {
        return nullptr;
    }
    if (i >= first_ && i - first_ < held_) {
        return buffer_.data() + (i - first_) * recordSize_;
    }
    // A full buffer when reading on from where the last one ended (or first), else one record.
    const bool inOrder = held_ == 0 || i == first_ + held_;
    const std::uint64_t n = std::min(inOrder ? perBuffer_ : 1, count_ - i);
    buffer_.resize(static_cast<std::size_t>(n * recordSize_));
    first_ = i;
    held_ = source_->read(recordsOffset_ + i * recordSize_, buffer_) / recordSize_;
    return held_ > 0 ? buffer_.data() : nullptr;
}

std::uint64_t RecordReader::id(std::uint64_t i) {
    const std::uint8_t* r = recordSize_ >= 8 ? record(i) : nullptr;
    return r != nullptr ? decodeLe<std::uint64_t>(r) : 0;
}

ShardParse parseShard(const ByteSource& source) {
    ShardParse out;
    HeaderReader reader(source, out.fields);
    if (!checkStart(source, reader.head(), kShardMagic, kShardHeaderV1Size, "shard",
                    out.problems)) {
        return out;
    }
    reader.addMagic();
    ShardLayout layout;
    layout.fileSize = source.size();
    layout.version = reader.take<std::uint32_t>("format_version");
    layout.shardId = reader.take<std::uint32_t>("shard_id");
    layout.dims = reader.take<std::uint32_t>("dims");
    layout.centroidCount = reader.take<std::uint32_t>("centroid_count");
    layout.vectorCount = reader.take<std::uint64_t>("vector_count");
    layout.headerSize = kShardHeaderV1Size;
    if (layout.version != 1 && layout.version != 2) {
        out.problems.push_back({"SL-VERSION",
                                "unsupported shard format version " +
                                    std::to_string(layout.version) + " (1 = raw, 2 = PQ)",
                                {reader.regionOf("format_version")}});
        out.layout = layout;
        return out;
    }
    if (layout.isPq()) {
        if (source.size() < kShardHeaderV2Size) {
            out.problems.push_back({"SL-TRUNCATED",
                                    "PQ shard is " + std::to_string(source.size()) +
                                        " bytes, shorter than its 40-byte header",
                                    {whole(source)}});
            out.layout = layout;
            return out;
        }
        layout.pqM = reader.take<std::uint32_t>("pq_m");
        layout.pqK = reader.take<std::uint32_t>("pq_k");
        layout.headerSize = kShardHeaderV2Size;
        checkShardPq(layout, reader, out.problems);
    }
    if (layout.dims == 0) {
        out.problems.push_back({"SL-DIMS", "shard dims is 0", {reader.regionOf("dims")}});
    }
    computeShardLayout(layout);
    checkLength(source, layout.expectedSize, reader.regionOf("vector_count"), "shard",
                out.problems);
    out.layout = layout;
    return out;
}

CoarseParse parseCoarseQuantizer(const ByteSource& source) {
    CoarseParse out;
    HeaderReader reader(source, out.fields);
    if (!checkStart(source, reader.head(), kCoarseQuantizerMagic, kCoarseHeaderSize,
                    "coarse quantizer", out.problems)) {
        return out;
    }
    reader.addMagic();
    CoarseLayout layout;
    layout.fileSize = source.size();
    layout.version = reader.take<std::uint32_t>("version");
    layout.dims = reader.take<std::uint32_t>("dims");
    layout.clusters = reader.take<std::uint32_t>("num_clusters");
    if (layout.version != 1) {
        out.problems.push_back(
            {"SL-VERSION",
             "unsupported coarse quantizer version " + std::to_string(layout.version),
             {reader.regionOf("version")}});
        out.layout = layout;
        return out;
    }
    if (layout.dims == 0) {
        out.problems.push_back(
            {"SL-DIMS", "coarse quantizer dims is 0", {reader.regionOf("dims")}});
    }
    if (layout.clusters == 0) {
        out.problems.push_back(
            {"SL-CENTROIDS", "coarse quantizer has 0 clusters", {reader.regionOf("num_clusters")}});
    }
    layout.centroidBytes = std::uint64_t{layout.dims} * 4;
    layout.layoutKnown = true;
    layout.expectedSize =
        addAll({kCoarseHeaderSize, checkedMul(layout.clusters, layout.centroidBytes)});
    checkLength(source, layout.expectedSize, reader.regionOf("num_clusters"), "coarse quantizer",
                out.problems);
    out.layout = layout;
    return out;
}

CodebookParse parseCodebook(const ByteSource& source) {
    CodebookParse out;
    HeaderReader reader(source, out.fields);
    if (!checkStart(source, reader.head(), kPqCodebookMagic, kCodebookHeaderSize, "PQ codebook",
                    out.problems)) {
        return out;
    }
    reader.addMagic();
    CodebookLayout layout;
    layout.fileSize = source.size();
    layout.version = reader.take<std::uint32_t>("version");
    layout.dims = reader.take<std::uint32_t>("dims");
    layout.m = reader.take<std::uint32_t>("num_subspaces");
    layout.k = reader.take<std::uint32_t>("codebook_size");
    layout.subDims = reader.take<std::uint32_t>("sub_dims");
    if (layout.version != 1) {
        out.problems.push_back({"SL-VERSION",
                                "unsupported PQ codebook version " + std::to_string(layout.version),
                                {reader.regionOf("version")}});
        out.layout = layout;
        return out;
    }
    if (layout.dims == 0) {
        out.problems.push_back({"SL-DIMS", "PQ codebook dims is 0", {reader.regionOf("dims")}});
    }
    if (layout.m == 0 || layout.k == 0 || layout.k > kMaxPqK) {
        out.problems.push_back({"SL-PQ",
                                "PQ codebook has M = " + std::to_string(layout.m) +
                                    ", K = " + std::to_string(layout.k) + " (M > 0, K in 1..256)",
                                {reader.regionOf("num_subspaces")}});
    }
    if (std::uint64_t{layout.m} * layout.subDims != layout.dims) {
        out.problems.push_back({"SL-PQ",
                                "PQ codebook sub_dims " + std::to_string(layout.subDims) + " × M " +
                                    std::to_string(layout.m) + " is not dims " +
                                    std::to_string(layout.dims),
                                {reader.regionOf("sub_dims")}});
    }
    layout.codewordBytes = std::uint64_t{layout.subDims} * 4;
    layout.codewordCount = std::uint64_t{layout.m} * layout.k;
    layout.layoutKnown = true;
    layout.expectedSize =
        addAll({kCodebookHeaderSize, checkedMul(layout.codewordCount, layout.codewordBytes)});
    checkLength(source, layout.expectedSize, reader.regionOf("codebook_size"), "PQ codebook",
                out.problems);
    out.layout = layout;
    return out;
}

void decodeF32s(std::span<const std::uint8_t> bytes, std::span<float> out) {
    const std::size_t count = std::min(out.size(), bytes.size() / 4);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t bits = decodeLe<std::uint32_t>(bytes.data() + 4 * i);
        std::memcpy(&out[i], &bits, sizeof bits);
    }
}

std::vector<float> readF32s(const ByteSource& source, std::uint64_t offset, std::uint64_t count) {
    const auto bytes = checkedMul(count, 4);
    if (!bytes || !rangeFits(offset, *bytes, source.size())) {
        return {};
    }
    const ByteView view = source.view(offset, *bytes);
    std::vector<float> out(static_cast<std::size_t>(count));
    decodeF32s(view.bytes, out);
    return out;
}

std::string formatVector(std::span<const float> values, std::size_t shown) {
    std::string out = "[";
    const std::size_t count = std::min(values.size(), shown);
    for (std::size_t i = 0; i < count; ++i) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%s%.6g", i == 0 ? "" : ", ",
                      static_cast<double>(values[i]));
        out += buffer;
    }
    if (values.size() > count) {
        out += ", … (" + std::to_string(values.size()) + " values)";
    }
    return out + "]";
}

}  // namespace strata::shardlake
