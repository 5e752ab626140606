#include "zs_validator.h"

#include <algorithm>
#include <map>

#include "formats/common/save_leftovers.h"
#include "zs_tree.h"
#include "zs_validator_run.h"

namespace strata::zs {

JobOutcome ValidationRun::run() {
    const JobOutcome outcome = runChecks();
    reporter_.finish();
    return outcome;
}

JobOutcome ValidationRun::runChecks() {
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

std::string ValidationRun::headerPath(const std::string& field) const {
    if (field == kMagicLabel) {
        return name_ + "/" + kMagicLabel;
    }
    return name_ + "/" + kHeaderLabel + (field.empty() ? "" : "/" + field);
}

std::string ValidationRun::blockPath(const BlockFrame& frame) const {
    return name_ + "/" + kBlocksLabel + "/" + blockLabel(frame.kind(), frame.offset);
}

std::string ValidationRun::blockPathAt(std::uint64_t offset) const {
    return name_ + "/" + kBlocksLabel + "/unparsed @" + std::to_string(offset);
}

Region ValidationRun::payloadRegion(const BlockFrame& frame, std::uint64_t offset,
                                    std::uint64_t length) const {
    if (header_.codec == Codec::None) {
        return {&source_, frame.payloadOffset() + offset, length};
    }
    return frameRegions(source_, frame).payload;
}

std::string ValidationRun::where(const BlockFrame& frame) const {
    return std::string(blockKindName(frame.kind())) + " at " + std::to_string(frame.offset);
}

void ValidationRun::report(Severity severity, const std::string& code, std::string message,
                           std::vector<Region> regions, std::string path) {
    Diagnostic d;
    d.severity = severity;
    d.code = code;
    d.message = std::move(message);
    d.regions = std::move(regions);
    d.nodePath = std::move(path);
    reporter_.report(std::move(d));
}

void ValidationRun::error(const std::string& code, std::string message, std::vector<Region> regions,
                          std::string path) {
    report(Severity::Error, code, std::move(message), std::move(regions), std::move(path));
}

void ValidationRun::note(const std::string& code, std::string message, std::vector<Region> regions,
                         std::string path) {
    report(Severity::Info, code, std::move(message), std::move(regions), std::move(path));
}

void ValidationRun::reportHeader() {
    for (const HeaderProblem& p : header_.problems) {
        report(p.severity, p.code, p.message, p.regions, headerPath(p.field));
    }
}

void ValidationRun::collectAnchors() {
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

std::optional<std::uint64_t> ValidationRun::anchorAfter(std::uint64_t offset,
                                                        std::uint64_t end) const {
    const auto it = anchors_.upper_bound(offset);
    if (it == anchors_.end() || *it >= end) {
        return std::nullopt;
    }
    return *it;
}

void ValidationRun::scanBlocks() {
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

void ValidationRun::submit(OrderedPool<Checked>& pool, const BlockFrame& frame) {
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
        pool.submit(
            [checked = std::make_shared<Checked>(std::move(copy))] { return std::move(*checked); });
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

void ValidationRun::reportFrameProblem(const FrameRead& frame, std::uint64_t pos,
                                       std::uint64_t resume) {
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
    error(code, message, {frame.problem, Region{&source_, pos, resume - pos}}, blockPathAt(pos));
}

void ValidationRun::consume(Checked checked) {
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

bool ValidationRun::reportDecode(const Checked& checked, const BlockFrame& frame,
                                 const std::string& path) {
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
            error("ZS-DECOMPRESS", "in the " + where(frame) + ": " + checked.decodeMessage, payload,
                  path);
            return false;
    }
}

void ValidationRun::reportPayloadProblem(const PayloadProblem& p, const BlockFrame& frame,
                                         const std::string& path) {
    error(p.code,
          "in the " + where(frame) + ", payload offset " + std::to_string(p.offset) + ": " +
              p.message,
          {payloadRegion(frame, p.offset, 1), whole(frame)}, path);
}

void ValidationRun::consumeData(BlockInfo& block, Checked& checked, const std::string& path) {
    const BlockFrame& frame = block.frame;
    if (copied_ != nullptr) {
        if (checked.copied) {
            ++dataCopied_;
        } else {
            error("ZS-COPY-MISMATCH",
                  "the " + where(frame) + " is not the copy it should be: " + checked.copyMismatch,
                  {whole(frame)}, path);
        }
    }
    sha_.update(checked.payload.bytes);
    if (checked.problem) {
        reportPayloadProblem(*checked.problem, frame, path);
        damaged_ = true;
    } else if (checked.records == 0) {
        error("ZS-EMPTY-BLOCK", "the " + where(frame) + " holds no records", {whole(frame)}, path);
    }
    for (const std::uint64_t at : checked.unsortedAt) {
        error(
            "ZS-RECORD-ORDER",
            "in the " + where(frame) + ", the record at payload offset " + std::to_string(at) +
                " sorts before the record ahead of it" +
                (checked.unsortedCount > checked.unsortedAt.size()
                     ? " (" + std::to_string(checked.unsortedCount) + " such records in this block)"
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
                      "the first record \"" + printableBytes(asBytes(block.first)) + "\" of the " +
                          where(frame) + " sorts before the last record \"" +
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

void ValidationRun::consumeIndex(BlockInfo& block, Checked& checked, const std::string& path) {
    const BlockFrame& frame = block.frame;
    if (checked.problem) {
        reportPayloadProblem(*checked.problem, frame, path);
        damaged_ = true;
        indexDamaged_ = true;
    } else if (checked.entries.empty()) {
        error("ZS-EMPTY-BLOCK", "the " + where(frame) + " holds no entries", {whole(frame)}, path);
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

JobOutcome ZsValidator::run(DiagnosticSink& sink, const ValidationOptions& options) {
    const JobOutcome outcome = ValidationRun(*file_, sink, options, copied_).run();
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
