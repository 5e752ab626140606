#include "zs_validator.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "formats/common/checksums.h"
#include "formats/common/ordered_pool.h"
#include "formats/common/save_leftovers.h"
#include "zs_block_check.h"
#include "zs_tree.h"

namespace strata::zs {
namespace {

struct BlockInfo {
    BlockFrame frame;
    bool crcOk = false;
    bool usable = false;  // CRC good and payload decoded and parsed without a fault
    // Data blocks.
    std::uint64_t records = 0;
    std::string first, last;
    // Index blocks.
    std::vector<Entry> entries;
};

struct Span {
    std::size_t lo = 0;  // positions in the file-order list of data blocks
    std::size_t hi = 0;
    bool known = false;
};

class Run {
public:
    Run(const ZsFile& file, DiagnosticSink& sink, const ValidationOptions& options,
        const ZsCopiedData* copied)
        : file_(file),
          copied_(copied),
          source_(file.source()),
          header_(file.header()),
          options_(options),
          reporter_(sink, std::max<std::size_t>(options.maxPerCode, 1)),
          name_(file.displayName()) {}

    JobOutcome run() {
        const JobOutcome outcome = runChecks();
        reporter_.finish();
        return outcome;
    }

private:
    JobOutcome runChecks() {
        reportHeader();
        if (header_.fatal || !header_.hasFields) {
            return JobOutcome::Completed;
        }
        if (!header_.codec) {
            note("ZS-NOT-CHECKED",
                 "block payloads, records and the index were not checked: the codec is unknown",
                 {header_.codecRegion}, headerPath("codec"));
        }
        collectAnchors();
        if (options_.cancelled()) {
            return JobOutcome::Cancelled;
        }
        scanBlocks();
        if (options_.cancelled()) {
            return JobOutcome::Cancelled;
        }
        if (decodeAttempts_ > 1 && payloadsUsable_ == 0) {
            error("ZS-CODEC",
                  "none of the " + std::to_string(decodeAttempts_) + " blocks decodes as \"" +
                      header_.codecText +
                      "\" into a readable payload: the codec field is probably wrong",
                  {header_.codecRegion}, headerPath("codec"));
        }
        options_.reportProgress(0.95, "checking the index");
        if (header_.codec) {
            checkGraph();
            checkKeys();
            checkSha();
        }
        options_.reportProgress(1.0, "done");
        return options_.cancelled() ? JobOutcome::Cancelled : JobOutcome::Completed;
    }

    // ---- reporting helpers ----

    std::string headerPath(const std::string& field) const {
        if (field == kMagicLabel) {
            return name_ + "/" + kMagicLabel;
        }
        return name_ + "/" + kHeaderLabel + (field.empty() ? "" : "/" + field);
    }
    std::string blockPath(const BlockFrame& frame) const {
        return name_ + "/" + kBlocksLabel + "/" + blockLabel(frame.kind(), frame.offset);
    }
    std::string blockPathAt(std::uint64_t offset) const {
        return name_ + "/" + kBlocksLabel + "/unparsed @" + std::to_string(offset);
    }
    Region whole(const BlockFrame& frame) const { return frameRegions(source_, frame).whole; }
    // A region inside a block's decoded payload, as file bytes: exact for codec none, the
    // whole stored payload otherwise.
    Region payloadRegion(const BlockFrame& frame, std::uint64_t offset,
                         std::uint64_t length) const {
        if (header_.codec == Codec::None) {
            return {&source_, frame.payloadOffset() + offset, length};
        }
        return frameRegions(source_, frame).payload;
    }
    std::string where(const BlockFrame& frame) const {
        return std::string(blockKindName(frame.kind())) + " at " + std::to_string(frame.offset);
    }

    void report(Severity severity, const std::string& code, std::string message,
                std::vector<Region> regions, std::string path) {
        Diagnostic d;
        d.severity = severity;
        d.code = code;
        d.message = std::move(message);
        d.regions = std::move(regions);
        d.nodePath = std::move(path);
        reporter_.report(std::move(d));
    }
    void error(const std::string& code, std::string message, std::vector<Region> regions,
               std::string path) {
        report(Severity::Error, code, std::move(message), std::move(regions), std::move(path));
    }
    void note(const std::string& code, std::string message, std::vector<Region> regions,
              std::string path) {
        report(Severity::Info, code, std::move(message), std::move(regions), std::move(path));
    }

    // ---- header ----

    void reportHeader() {
        for (const HeaderProblem& p : header_.problems) {
            report(p.severity, p.code, p.message, p.regions, headerPath(p.field));
        }
    }

    // ---- anchors: block starts the index vouches for, used to resynchronise the scan ----

    void collectAnchors() {
        const std::uint64_t end = file_.blocksEnd();
        std::vector<std::uint64_t> pending{header_.rootIndexOffset};
        std::set<std::uint64_t> visited;
        const auto frameAt = [&](std::uint64_t offset) -> std::optional<BlockFrame> {
            if (offset < file_.blocksBegin() || offset >= end) {
                return std::nullopt;
            }
            const FrameRead frame = readFrame(source_, offset, end);
            return frame.usable() ? std::optional<BlockFrame>(frame.frame) : std::nullopt;
        };
        if (const auto root = frameAt(header_.rootIndexOffset);
            root && root->totalLength() == header_.rootIndexLength) {
            anchors_.insert(root->offset);
        }
        while (!pending.empty() && !options_.cancelled() && header_.codec) {
            const std::uint64_t offset = pending.back();
            pending.pop_back();
            const auto frame = frameAt(offset);
            if (!frame || frame->kind() != BlockKind::Index || !visited.insert(offset).second) {
                continue;
            }
            Checked checked = checkBlock(file_, *frame);
            for (const Entry& e : checked.entries) {
                const auto child = frameAt(e.childOffset);
                if (child && child->totalLength() == e.childLength) {
                    anchors_.insert(e.childOffset);
                    if (child->kind() == BlockKind::Index && child->level < frame->level) {
                        pending.push_back(e.childOffset);
                    }
                }
            }
            cachedIndex_.emplace(offset, std::move(checked));
        }
    }

    std::optional<std::uint64_t> anchorAfter(std::uint64_t offset, std::uint64_t end) const {
        const auto it = anchors_.upper_bound(offset);
        if (it == anchors_.end() || *it >= end) {
            return std::nullopt;
        }
        return *it;
    }

    // ---- the file-order scan ----

    void scanBlocks() {
        const std::uint64_t begin = file_.blocksBegin();
        const std::uint64_t end = file_.blocksEnd();
        const unsigned threads = options_.threads != 0
                                     ? options_.threads
                                     : std::max(1u, std::thread::hardware_concurrency());
        OrderedPool<Checked> pool(threads, 2 * static_cast<std::size_t>(threads), options_.cancel);
        std::uint64_t pos = begin;
        while (pos < end && !options_.cancelled()) {
            const FrameRead frame = readFrame(source_, pos, end);
            if (!frame.usable()) {
                const auto next = anchorAfter(pos, end);
                reportFrameProblem(frame, pos, next.value_or(end));
                if (!next) {
                    break;
                }
                pos = *next;
                continue;
            }
            if (frame.status == FrameStatus::NonShortest) {
                error("ZS-ULEB128", frame.message, {frame.problem}, blockPath(frame.frame));
            }
            std::uint64_t next = frame.frame.end();
            // An anchor inside this block: either the block's length field or the index is
            // wrong. The length is not covered by the CRC, so a CRC failure decides it.
            if (const auto anchor = anchorAfter(pos, next);
                anchor && *anchor < next && !checkBlockCrc(source_, frame.frame).ok()) {
                error("ZS-BLOCK-LENGTH",
                      "the " + where(frame.frame) + " claims " +
                          std::to_string(frame.frame.totalLength()) +
                          " bytes and so overlaps the block at " + std::to_string(*anchor) +
                          " that the index refers to; its length field is probably wrong",
                      {frameRegions(source_, frame.frame).length, whole(frame.frame)},
                      blockPath(frame.frame));
                damaged_ = true;
                next = *anchor;
            }
            blocks_.push_back({frame.frame, false, false, 0, {}, {}, {}});
            submit(pool, frame.frame);
            pos = next;
            options_.reportProgress(
                std::min(0.95, 0.05 + 0.9 * static_cast<double>(pos - begin) /
                                          static_cast<double>(end - begin)),
                "block " + std::to_string(blocks_.size()) + " at " + std::to_string(pos));
        }
        while (consumed_ < blocks_.size()) {
            auto result = pool.next();
            if (!result) {
                break;  // cancelled
            }
            consume(std::move(*result));
        }
    }

    void submit(OrderedPool<Checked>& pool, const BlockFrame& frame) {
        while (pool.full()) {
            auto result = pool.next();
            if (!result) {
                return;
            }
            consume(std::move(*result));
        }
        const auto cached = cachedIndex_.find(frame.offset);
        if (cached != cachedIndex_.end() && frame.kind() == BlockKind::Index) {
            Checked copy = std::move(cached->second);
            cachedIndex_.erase(cached);
            pool.submit([checked = std::make_shared<Checked>(std::move(copy))] {
                return std::move(*checked);
            });
            return;
        }
        if (copied_ != nullptr && frame.kind() == BlockKind::Data) {
            const std::size_t k = dataSubmitted_++;
            const ZsCopiedBlock* copy = k < copied_->blocks.size() ? &copied_->blocks[k] : nullptr;
            pool.submit([this, frame, copy] { return checkCopiedBlock(file_, frame, copy); });
            return;
        }
        pool.submit([this, frame] { return checkBlock(file_, frame); });
    }

    void reportFrameProblem(const FrameRead& frame, std::uint64_t pos, std::uint64_t resume) {
        std::string code = "ZS-TRUNCATED";
        if (frame.status == FrameStatus::ZeroLength) {
            code = "ZS-BLOCK-LENGTH";
        } else if (frame.status == FrameStatus::LengthOverflow) {
            code = "ZS-ULEB128";
        }
        damaged_ = true;
        std::string message = frame.message;
        if (resume > pos) {
            message += "; bytes " + std::to_string(pos) + ".." + std::to_string(resume) +
                       " could not be read as blocks";
        }
        error(code, message, {frame.problem, Region{&source_, pos, resume - pos}},
              blockPathAt(pos));
    }

    // Results arrive in file order.
    void consume(Checked checked) {
        BlockInfo& block = blocks_[consumed_++];
        const BlockFrame& frame = block.frame;
        const std::string path = blockPath(frame);
        block.crcOk = checked.crc.ok();
        if (!block.crcOk) {
            char text[96];
            std::snprintf(text, sizeof text, "stored 0x%016llx, computed 0x%016llx",
                          static_cast<unsigned long long>(checked.crc.stored),
                          static_cast<unsigned long long>(checked.crc.computed));
            error("ZS-BLOCK-CRC", "CRC-64-xz mismatch in the " + where(frame) + ": " + text,
                  {frameRegions(source_, frame).crc, whole(frame)}, path);
            damaged_ = true;
        }
        if (frame.kind() == BlockKind::Extension) {
            note("ZS-EXTENSION-BLOCK",
                 "level " + std::to_string(frame.level) +
                     " extension block: readers skip it (valid anywhere)",
                 {whole(frame)}, path);
            return;
        }
        if (!checked.decodeAttempted) {
            return;
        }
        if (!reportDecode(checked, frame, path)) {
            damaged_ = true;
            indexDamaged_ = indexDamaged_ || frame.kind() == BlockKind::Index;
            return;
        }
        if (frame.kind() == BlockKind::Data) {
            consumeData(block, checked, path);
        } else {
            consumeIndex(block, checked, path);
        }
    }

    // False when the payload could not be decoded completely.
    bool reportDecode(const Checked& checked, const BlockFrame& frame, const std::string& path) {
        const std::vector<Region> payload{frameRegions(source_, frame).payload, whole(frame)};
        ++decodeAttempts_;
        switch (checked.decodeStatus) {
            case DecodeStatus::Ok:
                return true;
            case DecodeStatus::TrailingData:
                error("ZS-STREAM-TRAILING", "in the " + where(frame) + ": " + checked.decodeMessage,
                      payload, path);
                return true;
            case DecodeStatus::OutputLimit:
            case DecodeStatus::ResourceLimit:
                error("ZS-DECODE-LIMIT", "in the " + where(frame) + ": " + checked.decodeMessage,
                      payload, path);
                return false;
            default:
                error("ZS-DECOMPRESS", "in the " + where(frame) + ": " + checked.decodeMessage,
                      payload, path);
                return false;
        }
    }

    void reportPayloadProblem(const PayloadProblem& p, const BlockFrame& frame,
                              const std::string& path) {
        error(p.code,
              "in the " + where(frame) + ", payload offset " + std::to_string(p.offset) + ": " +
                  p.message,
              {payloadRegion(frame, p.offset, 1), whole(frame)}, path);
    }

    void consumeData(BlockInfo& block, Checked& checked, const std::string& path) {
        const BlockFrame& frame = block.frame;
        if (copied_ != nullptr) {
            if (checked.copied) {
                ++dataCopied_;
            } else {
                error("ZS-COPY-MISMATCH",
                      "the " + where(frame) +
                          " is not the copy it should be: " + checked.copyMismatch,
                      {whole(frame)}, path);
            }
        }
        sha_.update(checked.payload.bytes);
        if (checked.problem) {
            reportPayloadProblem(*checked.problem, frame, path);
            damaged_ = true;
        } else if (checked.records == 0) {
            error("ZS-EMPTY-BLOCK", "the " + where(frame) + " holds no records", {whole(frame)},
                  path);
        }
        for (const std::uint64_t at : checked.unsortedAt) {
            error("ZS-RECORD-ORDER",
                  "in the " + where(frame) + ", the record at payload offset " +
                      std::to_string(at) + " sorts before the record ahead of it" +
                      (checked.unsortedCount > checked.unsortedAt.size()
                           ? " (" + std::to_string(checked.unsortedCount) +
                                 " such records in this block)"
                           : ""),
                  {payloadRegion(frame, at, 1), whole(frame)}, path);
        }
        block.records = checked.records;
        block.first = std::move(checked.first);
        block.last = std::move(checked.last);
        block.usable = block.crcOk && !checked.problem && checked.records > 0;
        payloadsUsable_ += checked.problem ? 0 : 1;
        if (block.usable) {
            if (previousData_) {
                const BlockInfo& previous = blocks_[*previousData_];
                if (compareBytes(asBytes(block.first), asBytes(previous.last)) < 0) {
                    error("ZS-RECORD-ORDER",
                          "the first record \"" + printableBytes(asBytes(block.first)) +
                              "\" of the " + where(frame) + " sorts before the last record \"" +
                              printableBytes(asBytes(previous.last)) +
                              "\" of the data block before it, at " +
                              std::to_string(previous.frame.offset),
                          {whole(frame), whole(previous.frame)}, path);
                }
            }
            previousData_ = consumed_ - 1;
        } else {
            previousData_.reset();
        }
    }

    void consumeIndex(BlockInfo& block, Checked& checked, const std::string& path) {
        const BlockFrame& frame = block.frame;
        if (checked.problem) {
            reportPayloadProblem(*checked.problem, frame, path);
            damaged_ = true;
            indexDamaged_ = true;
        } else if (checked.entries.empty()) {
            error("ZS-EMPTY-BLOCK", "the " + where(frame) + " holds no entries", {whole(frame)},
                  path);
        }
        for (const std::uint64_t at : checked.unsortedAt) {
            error("ZS-INDEX-ORDER",
                  "in the " + where(frame) + ", the key of the entry at payload offset " +
                      std::to_string(at) + " sorts before the key ahead of it",
                  {payloadRegion(frame, at, 1), whole(frame)}, path);
        }
        block.entries = std::move(checked.entries);
        block.usable = block.crcOk && !checked.problem;
        payloadsUsable_ += checked.problem ? 0 : 1;
    }

    // ---- references: targets, levels, lengths, multiple references, reachability ----

    std::optional<std::size_t> blockAt(std::uint64_t offset) const {
        const auto it = byOffset_.find(offset);
        return it == byOffset_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }

    std::string describeMiss(std::uint64_t offset) const {
        if (offset < file_.blocksBegin()) {
            return "it lies in the header";
        }
        if (offset >= source_.size()) {
            return "it lies past the end of the " + std::to_string(source_.size()) + "-byte file";
        }
        auto it = std::upper_bound(
            blocks_.begin(), blocks_.end(), offset,
            [](std::uint64_t o, const BlockInfo& b) { return o < b.frame.offset; });
        if (it != blocks_.begin()) {
            --it;
            if (offset < it->frame.end()) {
                const std::uint64_t into = offset - it->frame.offset;
                return "it lies " + std::to_string(into) + (into == 1 ? " byte" : " bytes") +
                       " into the " + where(it->frame);
            }
        }
        return "no block starts there";
    }

    Region entryRegion(const BlockInfo& parent, const Entry& e) const {
        return payloadRegion(parent.frame, e.entryOffset, e.entryLength);
    }

    void checkGraph() {
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            byOffset_.emplace(blocks_[i].frame.offset, i);
        }
        refs_.assign(blocks_.size(), {});
        const auto root = checkRoot();
        for (std::size_t p = 0; p < blocks_.size(); ++p) {
            const BlockInfo& parent = blocks_[p];
            if (parent.frame.kind() != BlockKind::Index) {
                continue;
            }
            checkEntries(p);
        }
        std::vector<bool> reached(blocks_.size(), false);
        if (root) {
            walkFrom(*root, reached);
            checkRootReferences(*root, reached);
        }
        reportMultipleReferences();
        if (!root || blocks_[*root].frame.kind() != BlockKind::Index || !blocks_[*root].usable) {
            if (root && blocks_[*root].frame.kind() == BlockKind::Index) {
                note("ZS-NOT-CHECKED",
                     "which blocks the index reaches was not checked: the root index block "
                     "could not be read",
                     {whole(blocks_[*root].frame)}, blockPath(blocks_[*root].frame));
                return;
            }
        }
        // Unreachable islands: report the blocks nothing refers to (their subtrees follow
        // from them), then whatever is left (index cycles that nothing outside refers to).
        for (const bool orphansOnly : {true, false}) {
            for (std::size_t i = 0; i < blocks_.size(); ++i) {
                const BlockInfo& b = blocks_[i];
                if (reached[i] || b.frame.kind() == BlockKind::Extension ||
                    (orphansOnly && !refs_[i].empty())) {
                    continue;
                }
                // With an unreadable index block the reference may just be lost: a warning.
                report(indexDamaged_ ? Severity::Warning : Severity::Error, "ZS-UNREACHABLE",
                       "the " + where(b.frame) + " cannot be reached from the root index: " +
                           (refs_[i].empty() ? "no index block refers to it"
                                             : "only index blocks in a cycle refer to it") +
                           (indexDamaged_ ? " (an unreadable index block may refer to it)" : ""),
                       {whole(b.frame)}, blockPath(b.frame));
                walkFrom(i, reached);
            }
        }
    }

    void reportMultipleReferences() {
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            if (refs_[i].size() < 2) {
                continue;
            }
            const BlockInfo& b = blocks_[i];
            std::string list;
            std::vector<Region> regions{whole(b.frame)};
            for (const std::size_t r : refs_[i]) {
                list += (list.empty() ? "" : ", ") + std::to_string(blocks_[r].frame.offset);
                regions.push_back(whole(blocks_[r].frame));
            }
            error("ZS-INDEX-MULTIREF",
                  "the " + where(b.frame) + " is referenced " + std::to_string(refs_[i].size()) +
                      " times (by the index blocks at " + list +
                      "); every block but the root must be referenced exactly once",
                  regions, blockPath(b.frame));
        }
    }

    // The root must not be referenced. A reference from inside the tree is a cycle (reported
    // by the walk); one from outside suggests the header names the wrong block.
    void checkRootReferences(std::size_t root, const std::vector<bool>& reached) {
        for (const std::size_t r : refs_[root]) {
            if (reached[r]) {
                continue;
            }
            error("ZS-ROOT-OFFSET",
                  "the root block at " + std::to_string(blocks_[root].frame.offset) +
                      " is referenced by the " + where(blocks_[r].frame) +
                      ", which the root cannot reach: the header's root index offset probably "
                      "names the wrong block",
                  {header_.rootOffsetRegion, whole(blocks_[r].frame), whole(blocks_[root].frame)},
                  headerPath("root index offset"));
        }
    }

    std::optional<std::size_t> checkRoot() {
        const std::uint64_t offset = header_.rootIndexOffset;
        const auto root = blockAt(offset);
        const std::vector<Region> field{header_.rootOffsetRegion,
                                        Region{&source_, offset, header_.rootIndexLength}};
        if (!root) {
            error("ZS-ROOT-OFFSET",
                  "the header's root index offset " + std::to_string(offset) +
                      " does not name a block: " + describeMiss(offset),
                  field, headerPath("root index offset"));
            return std::nullopt;
        }
        const BlockInfo& b = blocks_[*root];
        if (b.frame.kind() != BlockKind::Index) {
            error("ZS-ROOT-LEVEL",
                  "the root block at " + std::to_string(offset) + " has level " +
                      std::to_string(b.frame.level) + "; the root must be an index block (1-63)",
                  {frameRegions(source_, b.frame).level, header_.rootOffsetRegion},
                  blockPath(b.frame));
        }
        if (b.frame.totalLength() != header_.rootIndexLength) {
            error("ZS-ROOT-LENGTH",
                  "the header's root index length is " + std::to_string(header_.rootIndexLength) +
                      ", but the root block is " + std::to_string(b.frame.totalLength()) +
                      " bytes long",
                  {header_.rootLengthRegion, whole(b.frame)}, headerPath("root index length"));
        }
        return root;
    }

    void checkEntries(std::size_t p) {
        const BlockInfo& parent = blocks_[p];
        const std::string path = blockPath(parent.frame);
        bool ascending = true;
        bool forward = false;
        for (std::size_t k = 0; k < parent.entries.size(); ++k) {
            const Entry& e = parent.entries[k];
            if (k > 0 && e.childOffset <= parent.entries[k - 1].childOffset) {
                ascending = false;
            }
            const Region here = entryRegion(parent, e);
            const auto target = blockAt(e.childOffset);
            if (!target) {
                error("ZS-INDEX-TARGET",
                      "entry " + std::to_string(k) + " of the " + where(parent.frame) +
                          " points at offset " + std::to_string(e.childOffset) + ", but " +
                          describeMiss(e.childOffset),
                      {here, whole(parent.frame),
                       Region{&source_, e.childOffset, std::max<std::uint64_t>(e.childLength, 1)}},
                      path);
                continue;
            }
            const BlockInfo& child = blocks_[*target];
            refs_[*target].push_back(p);
            forward = forward || child.frame.offset > parent.frame.offset;
            if (child.frame.totalLength() != e.childLength) {
                error("ZS-INDEX-LENGTH",
                      "entry " + std::to_string(k) + " of the " + where(parent.frame) +
                          " gives length " + std::to_string(e.childLength) + " for the " +
                          where(child.frame) + ", which is " +
                          std::to_string(child.frame.totalLength()) + " bytes long",
                      {here, whole(child.frame)}, path);
            }
            if (child.frame.level + 1 != parent.frame.level) {
                error("ZS-INDEX-LEVEL",
                      "the level " + std::to_string(parent.frame.level) + " " +
                          where(parent.frame) + " refers to the level " +
                          std::to_string(child.frame.level) + " " + where(child.frame) +
                          "; an index block of level n may only refer to blocks of level n-1",
                      {here, frameRegions(source_, child.frame).level, whole(parent.frame)}, path);
            }
        }
        if (!ascending) {
            note("ZS-INDEX-OFFSET-ORDER",
                 "the entries of the " + where(parent.frame) +
                     " do not point at ascending offsets (valid; reference zs rejects it)",
                 {whole(parent.frame)}, path);
        }
        if (forward) {
            note("ZS-INDEX-BEFORE-CHILD",
                 "the " + where(parent.frame) +
                     " comes before a block it refers to (valid; reference zs validate cannot "
                     "check such files)",
                 {whole(parent.frame)}, path);
        }
    }

    // Depth-first from the root; a reference back to a block on the current path is a cycle.
    void walkFrom(std::size_t root, std::vector<bool>& reached) {
        std::vector<bool> onPath(blocks_.size(), false);
        struct Frame {
            std::size_t block;
            std::size_t next;
        };
        std::vector<Frame> stack{{root, 0}};
        reached[root] = true;
        onPath[root] = true;
        while (!stack.empty()) {
            Frame& top = stack.back();
            const BlockInfo& b = blocks_[top.block];
            if (top.next >= b.entries.size()) {
                onPath[top.block] = false;
                stack.pop_back();
                continue;
            }
            const Entry& e = b.entries[top.next++];
            const auto target = blockAt(e.childOffset);
            if (!target) {
                continue;
            }
            if (onPath[*target]) {
                error("ZS-INDEX-CYCLE",
                      "the " + where(b.frame) + " refers back to the " +
                          where(blocks_[*target].frame) + " above it: the index has a cycle",
                      {entryRegion(b, e), whole(b.frame)}, blockPath(b.frame));
                continue;
            }
            if (reached[*target]) {
                continue;
            }
            reached[*target] = true;
            if (blocks_[*target].frame.kind() == BlockKind::Index) {
                onPath[*target] = true;
                stack.push_back({*target, 0});
            }
        }
    }

    // ---- key invariants ----

    // The data blocks a block spans, as positions in file order; memoised. Only follows
    // references one level down, so it terminates (levels strictly decrease).
    Span spanOf(std::size_t i) {
        if (spans_[i]) {
            return *spans_[i];
        }
        const BlockInfo& b = blocks_[i];
        Span span;
        if (b.frame.kind() == BlockKind::Data) {
            if (b.usable) {
                span = {dataPosition_[i], dataPosition_[i], true};
            }
        } else if (b.frame.kind() == BlockKind::Index && b.usable && !b.entries.empty()) {
            span.known = true;
            bool first = true;
            for (const Entry& e : b.entries) {
                const auto target = blockAt(e.childOffset);
                if (!target || blocks_[*target].frame.level + 1 != b.frame.level) {
                    span.known = false;
                    break;
                }
                const Span child = spanOf(*target);
                if (!child.known) {
                    span.known = false;
                    break;
                }
                span.lo = first ? child.lo : std::min(span.lo, child.lo);
                span.hi = first ? child.hi : std::max(span.hi, child.hi);
                first = false;
            }
        }
        spans_[i] = span;
        return span;
    }

    void checkKeys() {
        dataPosition_.assign(blocks_.size(), 0);
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            if (blocks_[i].frame.kind() == BlockKind::Data) {
                dataPosition_[i] = dataOrder_.size();
                dataOrder_.push_back(i);
            }
        }
        spans_.assign(blocks_.size(), std::nullopt);
        for (std::size_t p = 0; p < blocks_.size() && !options_.cancelled(); ++p) {
            const BlockInfo& parent = blocks_[p];
            if (parent.frame.kind() != BlockKind::Index || !parent.usable) {
                continue;
            }
            for (std::size_t k = 0; k < parent.entries.size(); ++k) {
                checkKey(parent, k);
            }
        }
    }

    void checkKey(const BlockInfo& parent, std::size_t k) {
        const Entry& e = parent.entries[k];
        const auto target = blockAt(e.childOffset);
        if (!target || blocks_[*target].frame.level + 1 != parent.frame.level) {
            return;
        }
        const Span span = spanOf(*target);
        if (!span.known) {
            return;
        }
        const BlockInfo& child = blocks_[*target];
        const BlockInfo& firstData = blocks_[dataOrder_[span.lo]];
        const auto key = asBytes(e.key);
        const std::string path = blockPath(parent.frame);
        if (compareBytes(key, asBytes(firstData.first)) > 0) {
            error("ZS-INDEX-KEY",
                  "entry " + std::to_string(k) + " of the " + where(parent.frame) + " has key \"" +
                      printableBytes(key) + "\", greater than the first record \"" +
                      printableBytes(asBytes(firstData.first)) + "\" spanned by the " +
                      where(child.frame),
                  {entryRegion(parent, e), whole(child.frame)}, path);
        }
        if (span.lo == 0) {
            return;
        }
        const BlockInfo& before = blocks_[dataOrder_[span.lo - 1]];
        if (before.usable && compareBytes(key, asBytes(before.last)) < 0) {
            error("ZS-INDEX-KEY",
                  "entry " + std::to_string(k) + " of the " + where(parent.frame) + " has key \"" +
                      printableBytes(key) + "\", less than the record \"" +
                      printableBytes(asBytes(before.last)) + "\" at the end of the " +
                      where(before.frame) + ", which comes before the records of the " +
                      where(child.frame),
                  {entryRegion(parent, e), whole(child.frame), whole(before.frame)}, path);
        }
    }

    // ---- data hash ----

    void checkSha() {
        if (copied_ != nullptr) {
            checkCopiedSha();
            return;
        }
        if (damaged_) {
            note("ZS-NOT-CHECKED",
                 "the data SHA-256 was not checked: some blocks could not be read or decoded",
                 {header_.shaRegion}, headerPath("data sha256"));
            return;
        }
        const Sha256Digest found = sha_.finish();
        if (found != header_.dataSha256) {
            error("ZS-SHA256",
                  "data SHA-256 mismatch: the header says " + toHex(header_.dataSha256) +
                      ", the data blocks hash to " + toHex(found),
                  {header_.shaRegion}, headerPath("data sha256"));
        }
    }

    // The data blocks are copies: the header's hash must be that of the payloads copied, and
    // the file must hold every block copied (the blocks' own checks report the rest).
    void checkCopiedSha() {
        const std::size_t expected = copied_->blocks.size();
        if (dataSubmitted_ < expected) {
            error("ZS-COPY-MISMATCH",
                  "the file holds " + std::to_string(dataSubmitted_) + " data blocks, but " +
                      std::to_string(expected) + " were copied into it",
                  {Region{&source_, file_.blocksBegin(), file_.blocksEnd() - file_.blocksBegin()}},
                  name_ + "/" + kBlocksLabel);
        }
        if (damaged_ || dataCopied_ != expected || dataSubmitted_ != expected) {
            note("ZS-NOT-CHECKED",
                 "the data SHA-256 was not checked: some data blocks are not the copies they "
                 "should be, or could not be read",
                 {header_.shaRegion}, headerPath("data sha256"));
            return;
        }
        if (copied_->dataSha256 != header_.dataSha256) {
            error("ZS-SHA256",
                  "data SHA-256 mismatch: the header says " + toHex(header_.dataSha256) +
                      ", the payloads of the data blocks copied hash to " +
                      toHex(copied_->dataSha256),
                  {header_.shaRegion}, headerPath("data sha256"));
        }
    }

    const ZsFile& file_;
    const ZsCopiedData* copied_ = nullptr;
    std::size_t dataSubmitted_ = 0;  // data blocks handed to the workers (copied mode)
    std::size_t dataCopied_ = 0;     // data blocks found to be their copies
    const ByteSource& source_;
    const Header& header_;
    const ValidationOptions& options_;
    CappedSink reporter_;  // at most maxPerCode of each code, then how many more
    std::string name_;

    std::set<std::uint64_t> anchors_;
    std::unordered_map<std::uint64_t, Checked> cachedIndex_;
    std::vector<BlockInfo> blocks_;  // file order
    std::size_t consumed_ = 0;
    std::optional<std::size_t> previousData_;  // the last intact data block consumed
    bool damaged_ = false;                     // some block failed its CRC, decoding or framing
    bool indexDamaged_ = false;                // some index block's entries are unknown
    std::uint64_t decodeAttempts_ = 0;
    std::uint64_t payloadsUsable_ = 0;  // decoded and parsed without a fault
    Sha256 sha_;

    std::unordered_map<std::uint64_t, std::size_t> byOffset_;
    std::vector<std::vector<std::size_t>> refs_;
    std::vector<std::size_t> dataPosition_;
    std::vector<std::size_t> dataOrder_;
    std::vector<std::optional<Span>> spans_;
};

}  // namespace

JobOutcome ZsValidator::run(DiagnosticSink& sink, const ValidationOptions& options) {
    const JobOutcome outcome = Run(*file_, sink, options, copied_).run();
    if (outcome == JobOutcome::Completed) {
        // Beside the file: temporary files of killed saves and "New ZS file" jobs.
        reportSaveLeftovers(file_->source().name(), "ZS",
                            {static_cast<unsigned>(LeftoverKind::TempFile) |
                             static_cast<unsigned>(LeftoverKind::PartFile)},
                            sink);
    }
    return outcome;
}

}  // namespace strata::zs
