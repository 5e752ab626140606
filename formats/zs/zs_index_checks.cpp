// The ZS validator's checks over the whole index once the scan is done: references (targets,
// levels, lengths, several references, reachability), the key order invariants, and the data
// SHA-256.
#include <algorithm>
#include <map>

#include "zs_tree.h"
#include "zs_validator_run.h"

namespace strata::zs {

std::optional<std::size_t> ValidationRun::blockAt(std::uint64_t offset) const {
    const auto it = byOffset_.find(offset);
    return it == byOffset_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

std::string ValidationRun::describeMiss(std::uint64_t offset) const {
    if (offset < file_.blocksBegin()) {
        return "it lies in the header";
    }
    if (offset >= source_.size()) {
        return "it lies past the end of the " + std::to_string(source_.size()) + "-byte file";
    }
    auto it =
        std::upper_bound(blocks_.begin(), blocks_.end(), offset,
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

Region ValidationRun::entryRegion(const BlockInfo& parent, const Entry& e) const {
    return payloadRegion(parent.frame, e.entryOffset, e.entryLength);
}

void ValidationRun::checkGraph() {
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

void ValidationRun::reportMultipleReferences() {
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

void ValidationRun::checkRootReferences(std::size_t root, const std::vector<bool>& reached) {
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

std::optional<std::size_t> ValidationRun::checkRoot() {
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
              {frameRegions(source_, b.frame).level, header_.rootOffsetRegion}, blockPath(b.frame));
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

void ValidationRun::checkEntries(std::size_t p) {
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
                  "the level " + std::to_string(parent.frame.level) + " " + where(parent.frame) +
                      " refers to the level " + std::to_string(child.frame.level) + " " +
                      where(child.frame) +
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

void ValidationRun::walkFrom(std::size_t root, std::vector<bool>& reached) {
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
                  "the " + where(b.frame) + " refers back to the " + where(blocks_[*target].frame) +
                      " above it: the index has a cycle",
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

Span ValidationRun::spanOf(std::size_t i) {
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

void ValidationRun::checkKeys() {
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

void ValidationRun::checkKey(const BlockInfo& parent, std::size_t k) {
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

void ValidationRun::checkSha() {
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

void ValidationRun::checkCopiedSha() {
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
                  ", the payloads of the data blocks copied hash to " + toHex(copied_->dataSha256),
              {header_.shaRegion}, headerPath("data sha256"));
    }
}

}  // namespace strata::zs
