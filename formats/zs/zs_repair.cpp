#include "zs_repair.h"

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "formats/common/diagnostic.h"
#include "formats/common/ordered_pool.h"
#include "zs_block_finder.h"
#include "zs_reader.h"
#include "zs_repair_quarantine.h"
#include "zs_validator.h"
#include "zs_writer.h"

namespace strata::zs {

namespace {

namespace fs = std::filesystem;

// A record for a message: printable, cut after 60 bytes.
std::string shown(const std::string& record) {
    return printableBytes(asBytes(record), 60);
}

bool lessOrEqual(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    return compareBytes(a, b) <= 0;
}

std::string text(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::string hex64(std::uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
    return buffer;
}

// One stretch of the input in file order, as the scan found it: a data block kept, or bytes
// left out (a block frame, or bytes where no block could be read) and why. Records themselves
// are never kept: a repair holds a few blocks at a time, whatever the size of the file.
struct ScannedBlock {
    Region region;
    bool framed = true;  // a block frame; else bytes where no block could be read
    std::uint8_t level = 0;
    bool kept = false;
    std::string first, last;  // kept: its first and last records
    std::uint64_t count = 0;  // kept: its records; left out: the records quarantined
    std::string problem;      // left out: why
    std::string note;         // kept: how it was read, when not as its own frame says
};

// What a worker makes of one stretch: the block as far as it can tell on its own, and the
// decoded payload (a view of the decoder's buffer, kept alive with it) to copy and hash when the
// block is kept, or to quarantine when it is not.
struct DecodedBlock {
    ScannedBlock block;
    BlockFrame frame;
    bool crcOk = false;
    bool recordsInOrder = false;  // the payload decodes and reads completely as records in order
    bool indexEntries = false;    // the payload decodes and reads as index entries
    std::vector<std::uint64_t> children;
    ByteView payload;
};

// Decodes a block and reads its payload as records, and as index entries when it is not records.
DecodedBlock decodeBlock(const ByteSource& source, const BlockFrame& frame, bool crcOk, Codec codec,
                         const ReadLimits& limits) {
    DecodedBlock out;
    out.frame = frame;
    out.crcOk = crcOk;
    ScannedBlock& block = out.block;
    block.region = Region{&source, frame.offset, frame.totalLength()};
    block.level = frame.level;
    if (!crcOk) {
        const CrcCheck crc = checkBlockCrc(source, frame);
        block.problem = "its CRC does not match (stored " + hex64(crc.stored) + ", computed " +
                        hex64(crc.computed) + ")";
    }
    Payload payload = decodePayload(source, frame, codec, limits);
    out.payload = std::move(payload.bytes);
    if (payload.status != DecodeStatus::Ok) {
        block.problem += std::string(block.problem.empty() ? "its" : ", and its") +
                         " payload does not decode: " + payload.message;
        return out;
    }
    RecordCursor cursor(out.payload.bytes);
    std::span<const std::uint8_t> previous;
    std::uint64_t count = 0;
    bool ordered = true;
    while (auto record = cursor.next()) {
        if (count++ == 0) {
            block.first = text(*record);
        } else if (!lessOrEqual(previous, *record)) {
            ordered = false;
        }
        previous = *record;
    }
    const bool readable = count > 0 && !cursor.problem();
    out.recordsInOrder = readable && ordered;
    // Read as index entries too, unless the level byte says data and the records read: a data
    // payload may happen to parse as entries as well.
    const IndexPayload index = parseIndexPayload(out.payload.bytes);
    out.indexEntries = !index.problem && !index.entries.empty() && (frame.level != 0 || !readable);
    for (const IndexEntry& e : index.entries) {
        out.children.push_back(e.childOffset);
    }
    if (out.recordsInOrder) {
        block.last = text(previous);
        block.count = count;
        return out;
    }
    block.first.clear();
    if (frame.level == 0 && crcOk) {
        block.problem = out.indexEntries ? "it is marked as data but holds index entries"
                        : cursor.problem()
                            ? "its records cannot be read: " + cursor.problem()->message
                        : !ordered ? "its records are out of order"
                                   : "it holds no record";
    }
    return out;
}

// The header's metadata, as JSON and byte for byte (the writer stores the bytes: parsing and
// encoding again could change them).
std::pair<nlohmann::ordered_json, std::string> metadataOf(const Header& header,
                                                          const ByteSource& source) {
    const ByteView v = source.view(header.metadataRegion.offset, header.metadataRegion.length);
    auto parsed = nlohmann::ordered_json::parse(v.data(), v.data() + v.size(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        throw RepairError("the header's metadata is not a JSON object; nothing to copy it from");
    }
    return {std::move(parsed), std::string(reinterpret_cast<const char*>(v.data()), v.size())};
}

// An intact data block (its CRC matches, its records read in order) as a link of a chain.
struct ChainCandidate {
    std::uint64_t offset = 0;
    std::string first, last;
    std::uint64_t count = 0;
};

// Of the blocks in file order, the chain whose records are in order across blocks (each block's
// first record not before the last of the block ahead of it) holding the most records, and its
// weight: a weighted longest non-decreasing subsequence, O(n log n). `best` holds, by last
// record, the heaviest chain ending there, as a staircase: weights rise with the key, so the
// heaviest chain a block can follow is the entry at or before its first record.
std::pair<std::uint64_t, std::set<std::uint64_t>> heaviestChain(
    const std::vector<ChainCandidate>& blocks) {
    struct Link {
        std::uint64_t weight = 0;
        std::size_t block = 0;
    };
    std::map<std::string, Link> best;
    std::vector<std::optional<std::size_t>> previous(blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        Link link{blocks[i].count, i};
        auto after = best.upper_bound(blocks[i].first);
        if (after != best.begin()) {
            const Link& ahead = std::prev(after)->second;
            link.weight += ahead.weight;
            previous[i] = ahead.block;
        }
        auto at = best.upper_bound(blocks[i].last);
        if (at != best.begin() && std::prev(at)->second.weight >= link.weight) {
            continue;  // a chain as heavy ends at or before this block's last record
        }
        at = best.insert_or_assign(blocks[i].last, link).first;
        for (auto next = std::next(at); next != best.end() && next->second.weight <= link.weight;) {
            next = best.erase(next);
        }
    }
    std::pair<std::uint64_t, std::set<std::uint64_t>> chain;
    if (best.empty()) {
        return chain;
    }
    const Link& heaviest = std::prev(best.end())->second;
    chain.first = heaviest.weight;
    for (std::optional<std::size_t> i = heaviest.block; i; i = previous[*i]) {
        chain.second.insert(blocks[*i].offset);
    }
    return chain;
}

class ZsSalvage {
public:
    ZsSalvage(std::shared_ptr<const ZsFile> file, const RepairOptions& options,
              fs::path quarantineName)
        : file_(std::move(file)), options_(options), quarantineName_(std::move(quarantineName)) {}

    // Scans every block from the first to the end of the file, decoding them on every core; with
    // a writer, each block kept is copied into it as it is found (its stored bytes unchanged: the
    // codec is the same), and the records of blocks left out go to the quarantine. Where the
    // chain of blocks breaks, the scan goes on at the next intact block (ZsBlockFinder).
    void scan(ZsWriter* writer, ZsQuarantine& quarantine) {
        const ByteSource& source = file_->source();
        const std::uint64_t end = source.size();
        ZsBlockFinder finder(file_, end);
        const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
        OrderedPool<DecodedBlock> pool(threads, 2 * std::size_t{threads}, options_.cancel);
        const auto take = [&] {
            if (auto decoded = pool.next()) {
                consume(std::move(*decoded), writer, quarantine);
            }
        };
        const auto submit = [&](std::function<DecodedBlock()> work) {
            if (pool.full()) {
                take();
            }
            pool.submit(std::move(work));
        };
        std::uint64_t at = file_->blocksBegin();
        while (at < end) {
            requireNotCancelled();
            options_.reportProgress(double(at) / double(end),
                                    "block at byte " + std::to_string(at));
            const FrameRead frame = readFrame(source, at, end);
            if (frame.usable() && checkBlockCrc(source, frame.frame).ok()) {
                levels_[at] = frame.frame.level;
                if (frame.frame.kind() != BlockKind::Extension) {  // readers skip those
                    submit(decodeTask(frame.frame, true));
                }
                at = frame.frame.end();
                continue;
            }
            const auto next = finder.resumeAfter(at, options_.cancel, options_.progress);
            if (!next) {
                throw JobCancelled();
            }
            submitDamage(finder, at, *next, submit);
            at = *next;
        }
        while (pool.inFlight() > 0) {
            take();
        }
        requireNotCancelled();
        keptSha256_ = copiedSha_.finish();
    }

    // Losses, actions and the count of records kept into the report.
    void account(RepairReport& report) const {
        const bool proven = completenessProven();
        const auto [before, after] = keptNeighbours();
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            const ScannedBlock& b = blocks_[i];
            if (b.kept) {
                report.recovered += b.count;
                if (!b.note.empty()) {  // its records are whole, but readers of the input
                                        // cannot read them: the output holds more
                    report.losses.push_back({"kept " + describe(b) + ": " + b.note +
                                                 "; readers of the input cannot read it, so the "
                                                 "output differs from what they find",
                                             b.region});
                }
                continue;
            }
            // Left-out bytes are a loss even when the records kept prove the original whole
            // (they hash to the header's data SHA-256): the input held these bytes too, and
            // what they hold cannot be vouched for (a damaged copy, blocks out of order).
            std::string what = describe(b) + ": " + b.problem + cutNote(b);
            report.losses.push_back(
                {what +
                     (proven ? "; not copied (the records kept hash to the header's data "
                               "SHA-256, so no record of the original is missing)"
                             : "; records there are lost: " + keyRange(before[i], after[i])) +
                     quarantined(b),
                 b.region});
        }
        accountExtensionChildren(report);
        accountCut(report, proven);
        accountHeader(report, proven);
        report.actions.push_back({"index rebuilt from the " + std::to_string(kept()) +
                                      " data blocks kept (" + std::to_string(indexBlocks_) +
                                      " index blocks in the input not used)",
                                  {}});
    }

    // The data blocks written, as copies, for the output's final check.
    ZsCopiedData takeCopied() {
        copied_.dataSha256 = keptSha256_;
        return std::move(copied_);
    }

    // When intact blocks came out of order (a chunk of the file copied or moved elsewhere), the
    // scan kept the first in order and left out the rest, which may hold far more records: the
    // offsets of the run of intact blocks in order that holds the most records, when it holds
    // more than the scan kept. A second scan then keeps exactly those.
    std::optional<std::set<std::uint64_t>> betterChain() const {
        std::uint64_t kept = 0;
        for (const ScannedBlock& b : blocks_) {
            kept += b.kept ? b.count : 0;
        }
        const auto [best, chain] = heaviestChain(candidates_);
        if (chosen_ || best <= kept) {
            return std::nullopt;
        }
        return chain;
    }

    // Forgets the scan, to scan again keeping exactly the blocks at `chosen`.
    void restart(std::set<std::uint64_t> chosen) {
        blocks_.clear();
        candidates_.clear();
        lastKept_.reset();
        levels_.clear();
        referenced_.clear();
        indexBlocks_ = 0;
        copied_ = {};
        copiedSha_ = Sha256();
        chosen_ = std::move(chosen);
    }

private:
    std::function<DecodedBlock()> decodeTask(const BlockFrame& frame, bool crcOk,
                                             std::string note = {}) const {
        return [&source = file_->source(), frame, crcOk, codec = *file_->header().codec,
                limits = file_->limits(), note = std::move(note)] {
            DecodedBlock decoded = decodeBlock(source, frame, crcOk, codec, limits);
            decoded.block.note = note;
            return decoded;
        };
    }

    // The damaged stretch [at, next): one block whose length field alone is damaged, or block
    // by block where frames chain through it (each decoded for the quarantine), then the bytes
    // where no frame could be read.
    template <typename Submit>
    void submitDamage(ZsBlockFinder& finder, std::uint64_t at, std::uint64_t next,
                      const Submit& submit) {
        if (const auto filling = finder.frameFilling(at, next)) {
            levels_[at] = filling->level;
            if (filling->kind() != BlockKind::Extension) {
                submit(decodeTask(*filling, true, lengthRepairNote(at, next)));
            }
            return;
        }
        const auto indexed = finder.indexedLength(at);
        std::string why;
        std::uint64_t p = at;
        for (FrameRead frame; p < next; p = frame.frame.end()) {
            frame = readFrame(file_->source(), p, next);
            if (!frame.usable() || (indexed && p == at && frame.frame.end() != next)) {
                why = frame.usable()
                          ? "its length field says " + std::to_string(frame.frame.totalLength()) +
                                " bytes, the index " + std::to_string(*indexed)
                          : frame.message;
                break;
            }
            submit(decodeTask(frame.frame, false));
        }
        if (p < next) {
            submit(gapTask(Region{&file_->source(), p, next - p},
                           indexed && p == at ? placedBlockProblem(at, why)
                                              : "no block can be read there (" + why + ")"));
        }
    }

    // A block read as the bytes [at, next) because its own length field says otherwise.
    std::string lengthRepairNote(std::uint64_t at, std::uint64_t next) const {
        const FrameRead claimed = readFrame(file_->source(), at, file_->source().size());
        return "its length field is damaged (" +
               (claimed.usable()
                    ? "it says " + std::to_string(claimed.frame.totalLength()) + " bytes"
                    : claimed.message) +
               "); read as the " + std::to_string(next - at) +
               " bytes up to the next block, its CRC matches";
    }

    std::string placedBlockProblem(std::uint64_t at, const std::string& why) const {
        const bool root = at == file_->header().rootIndexOffset;
        return std::string(root ? "the root index block the header" : "the block the index") +
               " places there cannot be read (" + why + ")";
    }

    static std::function<DecodedBlock()> gapTask(const Region& region, std::string problem) {
        return [region, problem = std::move(problem)] {
            DecodedBlock d;
            d.block.region = region;
            d.block.framed = false;
            d.block.problem = problem;
            return d;
        };
    }

    // Takes the next stretch in file order: a data block is kept only if its CRC matches, it
    // decodes to records in order, and they follow the last block kept.
    void consume(DecodedBlock decoded, ZsWriter* writer, ZsQuarantine& quarantine) {
        ScannedBlock& block = decoded.block;
        const bool intact = block.framed && decoded.crcOk;
        if (intact && blockKindOf(block.level) == BlockKind::Index && decoded.indexEntries) {
            ++indexBlocks_;  // an index block: the new index replaces it
            referenced_.insert(decoded.children.begin(), decoded.children.end());
            if (!block.note.empty()) {  // readers of the input cannot read past it: a loss
                block.problem = "an index block, " + block.note + " (the new index replaces it)";
                block.note.clear();
                blocks_.push_back(std::move(block));
            }
            return;
        }
        if (intact && block.level == 0 && decoded.recordsInOrder) {
            candidates_.push_back({block.region.offset, block.first, block.last, block.count});
            if (chosen_ ? chosen_->contains(block.region.offset)
                        : !lastKept_ || lessOrEqual(asBytes(*lastKept_), asBytes(block.first))) {
                keep(decoded, writer);
                blocks_.push_back(std::move(block));
                return;
            }
            block.problem =
                chosen_ ? "its records [" + shown(block.first) + " .. " + shown(block.last) +
                              "] are out of order with the blocks kept, the run of "
                              "intact blocks in order that holds the most records"
                        : "its first record '" + shown(block.first) +
                              "' sorts before the last record kept, '" + shown(*lastKept_) + "'";
        } else if (intact && block.level != 0) {
            block.problem =
                decoded.recordsInOrder
                    ? "it is marked as an index block but holds records, not index "
                      "entries: readers skip it"
                    : "it is an index block that cannot be used: " +
                          (block.problem.empty() ? "its payload reads neither as index entries nor "
                                                   "as records"
                                                 : block.problem);
        }
        block.first.clear();
        block.last.clear();
        block.count = 0;
        if (block.framed && !decoded.indexEntries && (block.level == 0 || decoded.recordsInOrder)) {
            block.count = quarantine.addBlock(quarantineNote(block), decoded.payload.bytes);
        }
        blocks_.push_back(std::move(block));
    }

    void keep(DecodedBlock& decoded, ZsWriter* writer) {
        ScannedBlock& block = decoded.block;
        lastKept_ = block.last;
        // What the final check needs to verify this block without decoding it again: the bytes
        // copied, what they decode to, and the hash of the payloads in order (kept apart from
        // the writer's, which the check is there to verify). The hash is also what proves a
        // repair complete, so a dry run takes it too.
        copiedSha_.update(decoded.payload.bytes);
        block.kept = true;
        if (writer == nullptr) {
            return;
        }
        const BlockFrame& f = decoded.frame;
        const ByteView stored = file_->source().view(f.payloadOffset(), f.payloadLength());
        writer->addEncodedBlock(stored.bytes, decoded.payload.bytes, block.first, block.last);
        copied_.blocks.push_back({&file_->source(), f.payloadOffset(), f.payloadLength(),
                                  block.count, block.first, block.last});
    }

    std::string quarantineNote(const ScannedBlock& b) const {
        return describe(b) + " of " + file_->source().name() + ": " + b.problem;
    }

    std::string describe(const ScannedBlock& b) const {
        if (!b.framed) {
            const std::uint64_t end = b.region.offset + b.region.length;
            return "bytes " + std::to_string(b.region.offset) + " to " + std::to_string(end) +
                   (end == file_->source().size() ? " (the end of the file)" : "");
        }
        return "the " + std::string(b.level == 0 ? "data block" : "block") + " at byte " +
               std::to_string(b.region.offset) + " (" + std::to_string(b.region.length) +
               " bytes, level " + std::to_string(b.level) + ")";
    }

    std::string quarantined(const ScannedBlock& b) const {
        if (b.count == 0) {
            return "";
        }
        return "; the " + std::to_string(b.count) + " records it reads as are in " +
               quarantineName_.string() + ", unverified";
    }

    // Whether the output holds every record the input held: the header is intact (its CRC
    // matches) and the records kept hash to its data SHA-256, and no block the index lists was
    // hidden under an extension level.
    bool completenessProven() const {
        return !headerDoubt() && extensionChildren().empty() &&
               keptSha256_ == file_->header().dataSha256;
    }

    std::uint64_t cutShortBy() const {
        const std::uint64_t declared = file_->header().totalFileLength;
        const std::uint64_t size = file_->source().size();
        // The header says the file is longer and the root index it names (written last) is not
        // there: the file was cut, perhaps at a block boundary.
        if (declared > size && !levels_.contains(file_->header().rootIndexOffset)) {
            return declared - size;
        }
        return 0;
    }

    // A note for the stretch left out at the very end of a file cut short.
    std::string cutNote(const ScannedBlock& b) const {
        const std::uint64_t missing = cutShortBy();
        if (missing == 0 || b.kept || &b != &blocks_.back() ||
            b.region.offset + b.region.length != file_->source().size()) {
            return "";
        }
        return "; the file is " + std::to_string(missing) +
               " bytes shorter than its header says, so the blocks after it are missing too";
    }

    void accountCut(RepairReport& report, bool proven) const {
        const std::uint64_t missing = cutShortBy();
        const bool noted = !blocks_.empty() && !cutNote(blocks_.back()).empty();
        if (missing == 0 || noted) {
            return;
        }
        const std::uint64_t end = file_->source().size();
        const std::string what = "the file is " + std::to_string(missing) +
                                 " bytes shorter than its header says (" +
                                 std::to_string(file_->header().totalFileLength) +
                                 "): blocks after byte " + std::to_string(end) + " are missing";
        if (proven) {
            report.actions.push_back(
                {what + "; no records were there: the records kept hash to the header's data "
                        "SHA-256",
                 Region{&file_->source(), end, 0}});
            return;
        }
        const std::string* last = lastKept_ ? &*lastKept_ : nullptr;
        report.losses.push_back({what + "; records after " +
                                     (last != nullptr ? "'" + shown(*last) + "'" : "the start") +
                                     " that were there are lost",
                                 Region{&file_->source(), end, 0}});
    }

    // Without a proof of completeness, an output that seems to lack nothing is still not
    // reported complete: the header's hash or the header itself says otherwise.
    void accountHeader(RepairReport& report, bool proven) const {
        const Header& header = file_->header();
        if (const auto doubt = headerDoubt()) {
            report.losses.push_back(
                {"the header cannot be trusted (" + doubt->message +
                     "): its metadata is not carried over (the output's is {}; the bytes as "
                     "they read are in " +
                     quarantineName_.string() +
                     "), and its data SHA-256 cannot prove that no records are missing",
                 doubt->regions.empty() ? header.region() : doubt->regions.front()});
        } else if (!proven && report.losses.empty()) {
            report.losses.push_back(
                {"the records kept do not hash to the header's data SHA-256: either records are "
                 "missing that no damaged bytes account for, or the hash itself is wrong",
                 header.shaRegion});
        }
    }

    // Why the header's fields cannot be taken at their word: its CRC fails, or a fault that
    // makes it unusable for readers (the metadata overrunning it, say).
    std::optional<HeaderProblem> headerDoubt() const {
        const Header& header = file_->header();
        if (!header.crcMatches || header.fatal) {
            for (const HeaderProblem& p : header.problems) {
                if (p.severity == Severity::Error) {
                    return p;
                }
            }
            return HeaderProblem{
                Severity::Error, "ZS-HEADER-CRC", "its CRC does not match", {}, {}};
        }
        return std::nullopt;
    }

    // Children the input's index lists whose level byte says extension (readers skip those):
    // whatever records they held are lost.
    std::vector<std::uint64_t> extensionChildren() const {
        std::vector<std::uint64_t> out;
        for (const std::uint64_t child : referenced_) {
            const auto level = levels_.find(child);
            if (level != levels_.end() && blockKindOf(level->second) == BlockKind::Extension) {
                out.push_back(child);
            }
        }
        return out;
    }

    void accountExtensionChildren(RepairReport& report) const {
        for (const std::uint64_t child : extensionChildren()) {
            report.losses.push_back({"the index lists the block at byte " + std::to_string(child) +
                                         " as a child, but its level byte says extension (" +
                                         std::to_string(levels_.at(child)) +
                                         "), so readers skip it; whatever records it held are lost",
                                     Region{&file_->source(), child, 1}});
        }
    }

    std::size_t kept() const {
        std::size_t n = 0;
        for (const auto& b : blocks_) {
            n += b.kept ? 1 : 0;
        }
        return n;
    }

    // For each stretch, the last record kept before it and the first kept after it.
    std::pair<std::vector<const std::string*>, std::vector<const std::string*>> keptNeighbours()
        const {
        std::vector<const std::string*> before(blocks_.size()), after(blocks_.size());
        const std::string* last = nullptr;
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            before[i] = last;
            last = blocks_[i].kept ? &blocks_[i].last : last;
        }
        const std::string* first = nullptr;
        for (std::size_t i = blocks_.size(); i-- > 0;) {
            after[i] = first;
            first = blocks_[i].kept ? &blocks_[i].first : first;
        }
        return {std::move(before), std::move(after)};
    }

    static std::string keyRange(const std::string* before, const std::string* after) {
        if (before == nullptr && after == nullptr) {
            return "any key";
        }
        if (before == nullptr) {
            return "keys up to '" + shown(*after) + "'";
        }
        if (after == nullptr) {
            return "keys from '" + shown(*before) + "' on";
        }
        return "keys between '" + shown(*before) + "' and '" + shown(*after) + "'";
    }

    void requireNotCancelled() const {
        if (options_.cancel != nullptr && options_.cancel->cancelled()) {
            throw JobCancelled();
        }
    }

    std::shared_ptr<const ZsFile> file_;
    const RepairOptions& options_;
    fs::path quarantineName_;
    std::vector<ScannedBlock> blocks_;
    std::vector<ChainCandidate> candidates_;         // every intact data block, in file order
    std::optional<std::set<std::uint64_t>> chosen_;  // set: keep exactly these blocks
    std::optional<std::string> lastKept_;            // the last record of the last block kept
    std::map<std::uint64_t, std::uint8_t> levels_;   // every intact block: offset → level
    std::set<std::uint64_t> referenced_;             // children named by intact index blocks
    std::size_t indexBlocks_ = 0;
    ZsCopiedData copied_;        // every data block written, in order
    Sha256 copiedSha_;           // the decoded payloads of the blocks kept, in order
    Sha256Digest keptSha256_{};  // ... once the scan is done
};

// The output's final check: the ZS validator in full, except that each data block, a copy of
// an input block the scan decoded and checked, is compared byte for byte with the input's bytes
// (after its CRC is checked) instead of being decoded a second time.
void validateOutput(const fs::path& stage, const ZsCopiedData& copied,
                    const RepairOptions& options) {
    ZsValidator validator(ZsFile::open(openMappedFile(stage)), &copied);
    requireValidOutput(validator, options);
}

void requireRecords(const RepairReport& report, const fs::path& input) {
    if (report.recovered == 0) {
        throw RepairError(input.string() + ": no record could be recovered");
    }
}

void addQuarantineSummary(RepairReport& report, const ZsQuarantine& quarantine,
                          const fs::path& path) {
    if (quarantine.holdsMetadata() && quarantine.blocks() == 0) {
        report.actions.push_back(
            {"quarantined in " + path.string() + ": the header's metadata, unverified", {}});
    } else if (quarantine.blocks() > 0) {
        report.actions.push_back(
            {"quarantined in " + path.string() + ": the " + std::to_string(quarantine.records()) +
                 " records of " + std::to_string(quarantine.blocks()) + " blocks left out" +
                 (quarantine.holdsMetadata() ? " and the header's metadata" : "") + ", unverified",
             {}});
    }
}

}  // namespace

RepairReport repairZsFile(const fs::path& input, const fs::path& output,
                          const RepairOptions& options) {
    const fs::path quarantinePath = zsQuarantinePath(output);
    RepairReport report = beginRepair("records", output, options, quarantinePath);
    auto file = ZsFile::open(openMappedFile(input));
    const Header& header = file->header();
    if (!header.hasFields || !header.codec) {
        throw RepairError(input.string() +
                          ": the header cannot be read (no codec and no metadata to rebuild from)");
    }
    // A header that fails its CRC cannot vouch for its metadata: the output gets none ({}),
    // the quarantine the bytes as they read.
    const bool headerVouches = header.crcMatches && !header.fatal;
    // Not a structured binding: the stage's lambda below refers to both (clang 14 cannot
    // capture bindings).
    const auto metadataRead = headerVouches
                                  ? metadataOf(header, file->source())
                                  : std::pair{nlohmann::ordered_json::object(), std::string("{}")};
    const nlohmann::ordered_json& metadata = metadataRead.first;
    const std::string& metadataBytes = metadataRead.second;
    const auto quarantineMetadata = [&](ZsQuarantine& quarantine) {
        const Region& r = header.metadataRegion;
        if (!headerVouches && r.valid() && r.offset + r.length <= file->source().size()) {
            quarantine.addMetadata(
                "the metadata of " + input.string() + "'s header, which fails its CRC",
                file->source().view(r.offset, r.length).bytes);
        }
    };
    ZsSalvage salvage(file, options, quarantinePath);
    if (options.dryRun) {
        std::optional<ZsQuarantine> counting;
        counting.emplace(fs::path(), input.string());
        quarantineMetadata(*counting);
        salvage.scan(nullptr, *counting);
        if (auto chain = salvage.betterChain()) {
            salvage.restart(std::move(*chain));
            counting.emplace(fs::path(), input.string());
            quarantineMetadata(*counting);
            salvage.scan(nullptr, *counting);
        }
        salvage.account(report);
        addQuarantineSummary(report, *counting, quarantinePath);
        requireRecords(report, input);
        return report;
    }
    // The output is written while the input is scanned, so no block is decoded twice and only
    // a few are held at a time; the stage is removed again unless it is whole and valid.
    runInRepairStage(output, [&](const fs::path& stage) {
        const fs::path staged = stage / output.filename();
        const fs::path stagedQuarantine = stage / "quarantine.txt";
        WriterOptions writerOptions;
        writerOptions.codec = *header.codec;
        writerOptions.verbatimMetadata = metadataBytes;
        std::optional<ZsWriter> writer;
        std::optional<ZsQuarantine> quarantine;
        writer.emplace(staged, metadata, writerOptions);
        quarantine.emplace(stagedQuarantine, input.string());
        quarantineMetadata(*quarantine);
        salvage.scan(&*writer, *quarantine);
        if (auto chain = salvage.betterChain()) {  // rare: blocks out of order
            writer.reset();                        // removes the unfinished file
            quarantine.reset();
            salvage.restart(std::move(*chain));
            writer.emplace(staged, metadata, writerOptions);
            quarantine.emplace(stagedQuarantine, input.string());
            quarantineMetadata(*quarantine);
            salvage.scan(&*writer, *quarantine);
        }
        salvage.account(report);
        addQuarantineSummary(report, *quarantine, quarantinePath);
        requireRecords(report, input);
        writer->finish();
        quarantine->commit();
        const ZsCopiedData copied = salvage.takeCopied();
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(staged);
        }
        validateOutput(staged, copied, options);
        publishRepairWithQuarantine(staged, output, stagedQuarantine, quarantinePath);
    });
    report.written = true;
    return report;
}

}  // namespace strata::zs
