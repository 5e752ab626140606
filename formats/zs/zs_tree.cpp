#include "zs_tree.h"

#include <algorithm>
#include <vector>

#include "formats/common/checksums.h"

namespace strata::zs {

std::string blockLabel(BlockKind kind, std::uint64_t offset) {
    return std::string(blockKindName(kind)) + " @" + std::to_string(offset);
}

namespace {

using FilePtr = std::shared_ptr<const ZsFile>;

// A decoded payload seen as a byte source, so records of compressed blocks have regions too.
class PayloadSource final : public ByteSource {
public:
    PayloadSource(ByteView bytes, std::string name)
        : bytes_(std::move(bytes)), name_(std::move(name)) {}
    const std::string& name() const override { return name_; }
    std::uint64_t size() const override { return bytes_.size(); }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        const std::uint64_t n = clippedLength(offset, length, bytes_.size());
        if (n == 0) {
            return {};
        }
        return {bytes_.bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(n)),
                bytes_.keepAlive};
    }

private:
    ByteView bytes_;
    std::string name_;
};

std::string hex64(std::uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(value));
    return buffer;
}

// Where payload bytes live for regions: the file itself for codec none, else a PayloadSource.
struct PayloadPlace {
    std::shared_ptr<const ByteSource> decoded;  // null for codec none
    const ByteSource* source = nullptr;
    std::uint64_t base = 0;  // offset of the payload in `source`

    Region at(std::uint64_t offset, std::uint64_t length) const {
        return {source, base + offset, length};
    }
};

PayloadPlace placePayload(const ZsFile& file, const BlockFrame& frame, const Payload& payload) {
    PayloadPlace place;
    if (file.header().codec == Codec::None) {
        place.source = &file.source();
        place.base = frame.payloadOffset();
        return place;
    }
    place.decoded = std::make_shared<PayloadSource>(
        payload.bytes, file.source().name() + "@" + std::to_string(frame.offset) + " (decoded)");
    place.source = place.decoded.get();
    return place;
}

void addFrameFields(Node& node, const ZsFile& file, const BlockFrame& frame) {
    const FrameRegions r = frameRegions(file.source(), frame);
    node.addField("length", frame.bodyLength, r.length);
    node.addField("level", std::uint64_t{frame.level}, r.level);
    node.addField("payload", frame.payloadLength(), r.payload,
                  std::to_string(frame.payloadLength()) + " bytes stored");
    node.addField("block length", frame.totalLength(), r.whole);
}

// Records the CRC and decode outcome on a block node (fields, status, value).
void noteIntegrity(Node& node, const ZsFile& file, const BlockRead& block) {
    const FrameRegions r = frameRegions(file.source(), block.frame.frame);
    auto& crc = node.addField("crc", block.crc->stored, r.crc, hex64(block.crc->stored));
    if (!block.crc->ok()) {
        crc.status = Status::Error;
        crc.display += " (computed " + hex64(block.crc->computed) + ")";
        node.setStatus(Status::Error);
    }
    if (block.payload && !block.payload->ok()) {
        node.setStatus(Status::Error);
        node.setValue(block.payload->message);
    }
    if (block.frame.status == FrameStatus::NonShortest) {
        node.setStatus(Status::Error);
    }
}

std::unique_ptr<Node> makeBlockNode(const FilePtr& file, std::uint64_t offset,
                                    std::vector<std::uint64_t> ancestors,
                                    std::optional<std::uint8_t> parentLevel, std::string label);

class DataBlockNode final : public Node {
public:
    DataBlockNode(FilePtr file, const BlockFrame& frame, std::string label)
        : Node("zs.data_block", std::move(label), frameRegions(file->source(), frame).whole),
          file_(std::move(file)),
          frame_(frame) {
        addFrameFields(*this, *file_, frame_);
        setValue(std::to_string(frame_.totalLength()) + " bytes");
    }

protected:
    bool hasLazyChildren() const override { return true; }

    std::uint64_t lazyChildCount() const override {
        BlockRead block = file_->readBlock(frame_.offset);
        auto* self = const_cast<DataBlockNode*>(this);  // integrity is known only now
        noteIntegrity(*self, *file_, block);
        if (!block.payload || !block.payload->complete()) {
            return 0;
        }
        payload_ = *block.payload;
        place_ = placePayload(*file_, frame_, payload_);
        RecordCursor cursor(payload_.bytes.bytes);
        std::uint64_t count = 0;
        for (;;) {
            const std::uint64_t at = cursor.position();
            if (!cursor.next()) {
                break;
            }
            if (count % kCheckpoint == 0) {
                checkpoints_.push_back(at);
            }
            ++count;
        }
        if (cursor.problem()) {
            self->setStatus(Status::Error);
            self->setValue(cursor.problem()->message);
        } else if (count == 0) {
            self->setStatus(Status::Error);
            self->setValue("empty data block");
        } else {
            self->setValue(std::to_string(count) + " records, " +
                           std::to_string(payload_.bytes.size()) + " bytes decoded");
        }
        self->addField("records", count);
        return count;
    }

    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const auto bytes = payload_.bytes.bytes;
        const std::uint64_t base = checkpoints_[static_cast<std::size_t>(index / kCheckpoint)];
        RecordCursor cursor(bytes.subspan(static_cast<std::size_t>(base)));
        std::optional<std::span<const std::uint8_t>> record;
        for (std::uint64_t i = 0; i <= index % kCheckpoint; ++i) {
            record = cursor.next();
        }
        if (!record) {
            return nullptr;
        }
        const std::uint64_t prefix = base + cursor.recordStart();
        const std::uint64_t start = static_cast<std::uint64_t>(record->data() - bytes.data());
        auto node = std::make_unique<Node>("zs.record", "record " + std::to_string(index),
                                           place_.at(prefix, start + record->size() - prefix));
        node->setValue(printableBytes(*record, 80));
        node->addField("length", std::uint64_t{record->size()}, place_.at(prefix, start - prefix));
        node->addField("bytes", printableBytes(*record, 4096), place_.at(start, record->size()));
        node->addField("payload offset", prefix);
        return node;
    }

private:
    static constexpr std::uint64_t kCheckpoint = 16;
    FilePtr file_;
    BlockFrame frame_;
    mutable Payload payload_;
    mutable PayloadPlace place_;
    mutable std::vector<std::uint64_t> checkpoints_;
};

class IndexBlockNode final : public Node {
public:
    IndexBlockNode(FilePtr file, const BlockRead& block, std::vector<std::uint64_t> ancestors,
                   bool expandable, std::string label)
        : Node("zs.index_block", std::move(label),
               frameRegions(file->source(), block.frame.frame).whole),
          file_(std::move(file)),
          frame_(block.frame.frame),
          ancestors_(std::move(ancestors)) {
        addFrameFields(*this, *file_, frame_);
        noteIntegrity(*this, *file_, block);
        if (!expandable || !block.payload || !block.payload->complete()) {
            return;
        }
        payload_ = *block.payload;
        place_ = placePayload(*file_, frame_, payload_);
        index_ = parseIndexPayload(payload_.bytes.bytes);
        addField("entries", std::uint64_t{index_.entries.size()});
        if (index_.problem) {
            setStatus(Status::Error);
            setValue(index_.problem->message);
        } else if (index_.entries.empty()) {
            setStatus(Status::Error);
            setValue("empty index block");
        } else if (status() == Status::Ok) {
            setValue("level " + std::to_string(frame_.level) + ", " +
                     std::to_string(index_.entries.size()) + " entries");
        }
        for (std::size_t i = 1; i < index_.entries.size(); ++i) {
            sorted_ = sorted_ && index_.entries[i - 1].childOffset < index_.entries[i].childOffset;
        }
        ancestors_.push_back(frame_.offset);
    }

protected:
    bool hasLazyChildren() const override { return !index_.entries.empty(); }
    std::uint64_t lazyChildCount() const override { return index_.entries.size(); }
    bool childrenSortedByOffset() const override { return sorted_; }

    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const IndexEntry& e = index_.entries[static_cast<std::size_t>(index)];
        const auto key = payload_.bytes.bytes.subspan(static_cast<std::size_t>(e.keyOffset),
                                                      static_cast<std::size_t>(e.keyLength));
        std::unique_ptr<Node> node;
        if (std::find(ancestors_.begin(), ancestors_.end(), e.childOffset) != ancestors_.end()) {
            node =
                std::make_unique<Node>("zs.index_block", "block @" + std::to_string(e.childOffset),
                                       Region{&file_->source(), e.childOffset, 0});
            node->setStatus(Status::Error);
            node->setValue("refers back to a block above it (index cycle)");
        } else {
            node = makeBlockNode(file_, e.childOffset, ancestors_, frame_.level, {});
        }
        node->addField("key", printableBytes(key, 4096), place_.at(e.keyOffset, e.keyLength));
        node->addField("entry", std::uint64_t{index}, place_.at(e.entryOffset, e.entryLength));
        node->addField("entry offset", e.childOffset);
        auto& length = node->addField("entry length", e.childLength);
        if (node->region().length != e.childLength) {
            length.status = Status::Error;
            node->setStatus(Status::Error);
        }
        return node;
    }

private:
    FilePtr file_;
    BlockFrame frame_;
    std::vector<std::uint64_t> ancestors_;
    Payload payload_;
    PayloadPlace place_;
    IndexPayload index_;
    bool sorted_ = true;
};

std::unique_ptr<Node> makeBlockNode(const FilePtr& file, std::uint64_t offset,
                                    std::vector<std::uint64_t> ancestors,
                                    std::optional<std::uint8_t> parentLevel, std::string label) {
    const FrameRead frame = readFrame(file->source(), offset, file->source().size());
    if (!frame.usable()) {
        auto node = std::make_unique<Node>("zs.bad_block", std::move(label), frame.problem);
        node->setStatus(Status::Error);
        node->setValue(frame.message);
        return node;
    }
    const BlockFrame& f = frame.frame;
    if (label.empty()) {
        label = blockLabel(f.kind(), offset);
    }
    std::unique_ptr<Node> node;
    switch (f.kind()) {
        case BlockKind::Data:
            node = std::make_unique<DataBlockNode>(file, f, std::move(label));
            break;
        case BlockKind::Index: {
            // Expand only downwards: a child at the same or a higher level could loop forever.
            const bool expandable = !parentLevel || f.level < *parentLevel;
            const bool isRoot = offset == file->header().rootIndexOffset && file->rootBlock();
            node = std::make_unique<IndexBlockNode>(
                file, isRoot ? *file->rootBlock() : file->readBlock(offset), std::move(ancestors),
                expandable, std::move(label));
            break;
        }
        case BlockKind::Extension:
            node = std::make_unique<Node>("zs.extension_block", std::move(label),
                                          frameRegions(file->source(), f).whole);
            addFrameFields(*node, *file, f);
            node->setValue("level " + std::to_string(f.level) + " (ignored by readers)");
            break;
    }
    if (parentLevel && f.level + 1 != *parentLevel) {
        node->setStatus(Status::Error);
        node->setValue("level " + std::to_string(f.level) + " under a level " +
                       std::to_string(*parentLevel) + " index block");
    }
    return node;
}

// Every block in file order, found by following the length prefixes.
class BlocksNode final : public Node {
public:
    explicit BlocksNode(FilePtr file)
        : Node(
              "zs.blocks", kBlocksLabel,
              Region{&file->source(), file->blocksBegin(),
                     file->source().size() - std::min(file->blocksBegin(), file->source().size())}),
          file_(std::move(file)) {}

protected:
    bool hasLazyChildren() const override { return region().length > 0; }

    std::uint64_t lazyChildCount() const override {
        const std::uint64_t end = file_->source().size();
        std::uint64_t pos = file_->blocksBegin();
        while (pos < end && offsets_.size() < kMaxListed) {
            const FrameRead frame = readFrame(file_->source(), pos, end);
            offsets_.push_back(pos);
            if (!frame.usable()) {
                break;  // the rest cannot be framed; the last child says why
            }
            pos = frame.frame.end();
        }
        return offsets_.size();
    }

    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        const std::uint64_t offset = offsets_[static_cast<std::size_t>(index)];
        auto node = makeBlockNode(file_, offset, {}, std::nullopt, {});
        if (node->kind() == "zs.bad_block") {
            // Cover everything from here to the end so every byte maps to some node.
            auto rest = std::make_unique<Node>(
                "zs.unparsed", "unparsed @" + std::to_string(offset),
                Region{&file_->source(), offset, file_->source().size() - offset});
            rest->setStatus(Status::Error);
            rest->setValue(node->value());
            return rest;
        }
        return node;
    }

private:
    static constexpr std::size_t kMaxListed = 16u << 20;
    FilePtr file_;
    mutable std::vector<std::uint64_t> offsets_;
};

class FileNode final : public Node {
public:
    explicit FileNode(FilePtr file)
        : Node("zs.file", file->displayName(), Region{&file->source(), 0, file->source().size()}),
          file_(std::move(file)) {}

protected:
    // Children overlap (the root index also appears under "blocks"), so no binary search.
    bool childrenSortedByOffset() const override { return false; }

private:
    FilePtr file_;
};

std::string magicText(ZsMagicKind kind) {
    switch (kind) {
        case ZsMagicKind::Complete:
            return "\\xabZSfiLe\\x01 (ZS file)";
        case ZsMagicKind::Incomplete:
            return "\\xabZStoBe\\x01 (incomplete ZS file)";
        case ZsMagicKind::UnknownVersion:
            return "unknown ZS version";
        case ZsMagicKind::Truncated:
            return "truncated";
        case ZsMagicKind::None:
            break;
    }
    return "not a ZS magic";
}

void addHeaderField(Node& header, const std::string& name, FieldValue value, Region region,
                    std::string display, Status status) {
    auto& field = header.addField(name, value, region, display);
    field.status = status;
    auto child = std::make_unique<Node>("zs.header.field", name, region);
    child->setValue(field.text());
    child->setStatus(status);
    header.appendChild(std::move(child));
}

std::unique_ptr<Node> buildHeader(const ZsFile& file) {
    const Header& h = file.header();
    auto node = std::make_unique<Node>("zs.header", kHeaderLabel, h.region().clipped());
    const auto statusOf = [&h](const std::string& field) {
        Status status = Status::Ok;
        for (const auto& p : h.problems) {
            if (p.field == field) {
                status = worse(status, p.severity == Severity::Error     ? Status::Error
                                       : p.severity == Severity::Warning ? Status::Warning
                                                                         : Status::Info);
            }
        }
        return status;
    };
    const auto add = [&](const std::string& name, FieldValue value, Region region,
                         std::string display = {}) {
        addHeaderField(*node, name, std::move(value), region, std::move(display), statusOf(name));
    };
    if (h.hasLength) {
        add("header length", h.headerLength, h.lengthRegion);
    }
    if (h.hasFields) {
        add("root index offset", h.rootIndexOffset, h.rootOffsetRegion);
        add("root index length", h.rootIndexLength, h.rootLengthRegion);
        add("total file length", h.totalFileLength, h.totalLengthRegion);
        add("data sha256", toHex(h.dataSha256), h.shaRegion);
        add("codec", printableBytes(asBytes(h.codecText)), h.codecRegion);
        add("metadata length", h.metadataLength, h.metadataLengthRegion);
        std::string metadata = h.metadata ? h.metadata->dump() : std::string("(not parsed)");
        if (metadata.size() > 4096) {
            metadata = metadata.substr(0, 4096) + "...";
        }
        add("metadata", metadata, h.metadataRegion.clipped());
        if (h.extensionRegion.length > 0) {
            add("extension bytes", h.extensionRegion.length, h.extensionRegion);
        }
    }
    if (h.hasCrc) {
        add("header crc", h.storedCrc, h.crcRegion,
            hex64(h.storedCrc) + (h.crcMatches ? "" : " (computed " + hex64(h.computedCrc) + ")"));
    }
    Status status = Status::Ok;
    for (const auto& p : h.problems) {
        if (p.field != kMagicLabel && p.severity == Severity::Error) {
            status = Status::Error;
        }
    }
    node->setStatus(status);
    node->setValue(h.codec ? std::string(codecHeaderName(*h.codec)) : std::string());
    return node;
}

}  // namespace

std::unique_ptr<Node> buildZsTree(FilePtr file) {
    auto root = std::make_unique<FileNode>(file);
    const Header& h = file->header();
    auto magic = std::make_unique<Node>("zs.magic", kMagicLabel, h.magicRegion.clipped());
    magic->setValue(magicText(h.magic));
    if (h.magic != ZsMagicKind::Complete) {
        magic->setStatus(Status::Error);
    }
    root->appendChild(std::move(magic));
    if (!h.hasLength) {
        root->setStatus(Status::Error);
        return root;
    }
    auto header = buildHeader(*file);
    const Status headerStatus = header->status();
    root->appendChild(std::move(header));
    if (h.hasFields && !h.hasProblem("ZS-HEADER-LENGTH")) {
        auto index = makeBlockNode(file, h.rootIndexOffset, {}, std::nullopt, kRootLabel);
        if (index->kind() != "zs.index_block") {
            index->setStatus(Status::Error);
        }
        root->appendChild(std::move(index));
        root->appendChild(std::make_unique<BlocksNode>(file));
    }
    if (h.magic != ZsMagicKind::Complete || headerStatus == Status::Error) {
        root->setStatus(Status::Error);
    }
    return root;
}

}  // namespace strata::zs
