#include "zs_repair.h"

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "formats/common/diagnostic.h"
#include "formats/common/ordered_pool.h"
#include "zs_reader.h"
#include "zs_validator.h"
#include "zs_writer.h"

namespace strata::zs {

namespace {

// A record for a message: printable, cut after 60 bytes.
std::string shown(const std::string& record) {
    return printableBytes(asBytes(record), 60);
}

bool lessOrEqual(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    const std::size_t n = std::min(a.size(), b.size());
    const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
    return c < 0 || (c == 0 && a.size() <= b.size());
}

std::string text(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// One data block found by scanning: its first and last records and how many it holds when
// intact (or decodable in order), else why not. Records themselves are never kept: a repair
// holds a few blocks at a time, whatever the size of the file.
struct ScannedBlock {
    Region region;
    std::uint8_t level = 0;  // 0, or an index level whose payload was not index entries
    bool indexLike = false;  // marked as data, but its payload reads as index entries
    std::string first, last;
    std::uint64_t count = 0;
    bool usable = false;
    bool crcMismatch = false;
    std::string problem;
};

// What a worker makes of one block: the block as far as it can tell on its own (its records in
// order among themselves), and the decoded payload to hash if the block is kept (not copied:
// a view of the decoder's buffer, kept alive with it).
struct DecodedBlock {
    ScannedBlock block;
    BlockFrame frame;
    ByteView payload;
};

bool holdsIndexEntries(std::span<const std::uint8_t> payload) {
    const IndexPayload index = parseIndexPayload(payload);
    return !index.problem && !index.entries.empty();
}

DecodedBlock decodeBlock(const ByteSource& source, const BlockFrame& frame, Codec codec,
                         const ReadLimits& limits) {
    DecodedBlock out;
    out.frame = frame;
    ScannedBlock& block = out.block;
    block.region = Region{&source, frame.offset, frame.totalLength()};
    block.level = frame.level;
    block.crcMismatch = !checkBlockCrc(source, frame).ok();
    Payload payload = decodePayload(source, frame, codec, limits);
    if (payload.status != DecodeStatus::Ok) {
        block.problem = "does not decode: " + payload.message;
        return out;
    }
    const auto bytes = payload.bytes.bytes;
    RecordCursor cursor(bytes);
    std::span<const std::uint8_t> previous;
    while (auto record = cursor.next()) {
        if (block.count++ == 0) {
            block.first = text(*record);
        } else if (!lessOrEqual(previous, *record)) {
            block.problem = "its records are out of order";
        }
        previous = *record;
    }
    if (block.problem.empty() && cursor.problem()) {
        block.problem = "its records cannot be read: " + cursor.problem()->message;
    }
    if (!block.problem.empty()) {
        block.count = 0;
        block.first.clear();
        block.indexLike = block.level == 0 && holdsIndexEntries(bytes);
        return out;
    }
    block.last = text(previous);
    block.usable = true;  // so far: the order after the previous block is checked in turn
    out.payload = std::move(payload.bytes);
    return out;
}

// The metadata as the input stores it (copied unchanged: no number is re-spelt or rounded).
std::string metadataTextOf(const Header& header, const ByteSource& source) {
    const ByteView v = source.view(header.metadataRegion.offset, header.metadataRegion.length);
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

nlohmann::ordered_json metadataOf(const Header& header, const ByteSource& source) {
    const ByteView v = source.view(header.metadataRegion.offset, header.metadataRegion.length);
    auto parsed = nlohmann::ordered_json::parse(v.data(), v.data() + v.size(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        throw RepairError("the header's metadata is not a JSON object; nothing to copy it from");
    }
    return parsed;
}

class ZsSalvage {
public:
    ZsSalvage(std::shared_ptr<const ZsFile> file, const RepairOptions& options)
        : file_(std::move(file)), options_(options) {}

    // Scans every block from the first to the end of the file, decoding data blocks on every
    // core; with a writer, each block kept is copied into it as it is found (its stored bytes
    // unchanged: the codec is the same).
    void scan(RepairReport& report, ZsWriter* writer) {
        const ByteSource& source = file_->source();
        const Codec codec = *file_->header().codec;
        std::uint64_t at = file_->blocksBegin();
        const std::uint64_t end = source.size();
        std::size_t indexBlocks = 0;
        const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
        OrderedPool<DecodedBlock> pool(threads, 2 * std::size_t{threads}, options_.cancel);
        auto take = [&] {
            if (auto decoded = pool.next()) {
                keep(std::move(*decoded), writer);
            }
        };
        while (at < end) {
            if (options_.cancel != nullptr && options_.cancel->cancelled()) {
                throw RepairError("cancelled");
            }
            options_.reportProgress(double(at) / double(end),
                                    "block at byte " + std::to_string(at));
            const FrameRead frame = readFrame(source, at, end);
            if (!frame.usable()) {
                while (pool.inFlight() > 0) {
                    take();
                }
                lostTail(report, at, end, frame);
                return;
            }
            at = frame.frame.end();
            levels_[frame.frame.offset] = frame.frame.level;
            if (frame.frame.kind() == BlockKind::Extension) {
                continue;  // valid anywhere; readers skip them
            }
            if (frame.frame.kind() == BlockKind::Index && readIndex(frame.frame, codec)) {
                ++indexBlocks;
                continue;
            }
            if (pool.full()) {
                take();
            }
            pool.submit([&source, f = frame.frame, codec, limits = file_->limits()] {
                return decodeBlock(source, f, codec, limits);
            });
        }
        while (pool.inFlight() > 0) {
            take();
        }
        if (options_.cancel != nullptr && options_.cancel->cancelled()) {
            throw RepairError("cancelled");
        }
        // Cut at a block boundary: the header says the file is longer and the root index it
        // names (written last) is not there.
        const std::uint64_t declared = file_->header().totalFileLength;
        if (declared > end && !levels_.contains(file_->header().rootIndexOffset)) {
            const std::string* last = lastKept();
            report.losses.push_back(
                {"the file is " + std::to_string(declared - end) +
                     " bytes shorter than its header says (" + std::to_string(declared) +
                     "): blocks after byte " + std::to_string(end) +
                     " are missing; records after " +
                     (last != nullptr ? "'" + shown(*last) + "'" : "the start") +
                     " that were there are lost",
                 Region{&source, end, 0}});
        }
        report.actions.push_back({"index rebuilt from the " + std::to_string(kept()) +
                                      " data blocks kept (" + std::to_string(indexBlocks) +
                                      " index blocks in the input not used)",
                                  {}});
    }

    // Takes the next block in file order: usable only if its records follow the last block kept.
    void keep(DecodedBlock decoded, ZsWriter* writer) {
        ScannedBlock& block = decoded.block;
        if (block.usable && block.count > 0 && lastKept_ &&
            !lessOrEqual(asBytes(*lastKept_), asBytes(block.first))) {
            block.usable = false;
            block.problem = "its records are out of order";
            block.first.clear();
            block.last.clear();
            block.count = 0;
            block.indexLike = block.level == 0 && holdsIndexEntries(decoded.payload.bytes);
        }
        if (block.usable && block.count > 0) {
            lastKept_ = block.last;
            if (writer != nullptr) {
                const BlockFrame& f = decoded.frame;
                const ByteView stored = file_->source().view(f.payloadOffset(), f.payloadLength());
                writer->addEncodedBlock(stored.bytes, decoded.payload.bytes, block.first,
                                        block.last);
                // What the final check needs to verify this block without decoding it again:
                // the bytes copied, what they decode to, and the hash of the payloads in order
                // (kept apart from the writer's, which the check is there to verify).
                copied_.blocks.push_back({&file_->source(), f.payloadOffset(), f.payloadLength(),
                                          block.count, block.first, block.last});
                copiedSha_.update(decoded.payload.bytes);
            }
        }
        blocks_.push_back(std::move(block));
    }

    // Losses and kept blocks into the report, key ranges from the neighbours.
    void account(RepairReport& report) const {
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            const ScannedBlock& b = blocks_[i];
            if (b.usable) {
                report.recovered += b.count;
                if (b.level != 0) {
                    report.actions.push_back({"kept the block at byte " +
                                                  std::to_string(b.region.offset) +
                                                  " marked as level " + std::to_string(b.level) +
                                                  ": its payload is not index entries but " +
                                                  std::to_string(b.count) + " records in order",
                                              b.region});
                }
                if (b.crcMismatch) {
                    report.actions.push_back({"kept the data block at byte " +
                                                  std::to_string(b.region.offset) +
                                                  ": its CRC does not match, but it decodes to " +
                                                  std::to_string(b.count) + " records in order",
                                              b.region});
                }
                continue;
            }
            if (b.level != 0 || b.indexLike) {
                // An index block, damaged or under the wrong level: the index is rebuilt anyway.
                report.actions.push_back({"left out the block at byte " +
                                              std::to_string(b.region.offset) + " (level " +
                                              std::to_string(b.level) + "): " +
                                              (b.indexLike ? "it holds index entries, not records"
                                                           : "a damaged index block") +
                                              "; the new index replaces it",
                                          b.region});
                continue;
            }
            report.losses.push_back({"the data block at byte " + std::to_string(b.region.offset) +
                                         " (" + std::to_string(b.region.length) + " bytes) " +
                                         (b.crcMismatch ? "fails its CRC and " : "") + b.problem +
                                         "; its records are lost: " + keyRange(i),
                                     b.region});
        }
        // Children the input's index lists that were not kept as data and are not index blocks:
        // an extension block where data was (readers skip it), so what it held is lost too.
        for (const std::uint64_t child : referenced_) {
            const auto level = levels_.find(child);
            if (level == levels_.end() || blockKindOf(level->second) != BlockKind::Extension) {
                continue;
            }
            report.losses.push_back({"the index lists the block at byte " + std::to_string(child) +
                                         " as a child, but its level byte says extension (" +
                                         std::to_string(level->second) +
                                         "), so readers skip it; whatever records it held are lost",
                                     Region{&file_->source(), child, 1}});
        }
    }

private:
    // An index block whose payload reads as index entries: its children are noted, so a child
    // that turns out not to be data can be reported.
    bool readIndex(const BlockFrame& frame, Codec codec) {
        const Payload payload = decodePayload(file_->source(), frame, codec, file_->limits());
        if (payload.status != DecodeStatus::Ok) {
            return true;  // a damaged index block loses nothing: the index is rebuilt anyway
        }
        const IndexPayload index = parseIndexPayload(payload.bytes.bytes);
        if (index.problem || index.entries.empty()) {
            return false;  // not index entries: perhaps records under the wrong level
        }
        for (const IndexEntry& e : index.entries) {
            referenced_.insert(e.childOffset);
        }
        return true;
    }

    const std::string* lastKept() const { return lastKept_ ? &*lastKept_ : nullptr; }

public:
    // The data blocks written, as copies, for the output's final check.
    ZsCopiedData takeCopied() {
        copied_.dataSha256 = copiedSha_.finish();
        return std::move(copied_);
    }

private:
    std::size_t kept() const {
        std::size_t n = 0;
        for (const auto& b : blocks_) {
            n += b.usable ? 1 : 0;
        }
        return n;
    }

    std::string keyRange(std::size_t lost) const {
        const std::string* before = nullptr;
        const std::string* after = nullptr;
        for (std::size_t i = lost; i-- > 0;) {
            if (blocks_[i].usable && blocks_[i].count > 0) {
                before = &blocks_[i].last;
                break;
            }
        }
        for (std::size_t i = lost + 1; i < blocks_.size(); ++i) {
            if (blocks_[i].usable && blocks_[i].count > 0) {
                after = &blocks_[i].first;
                break;
            }
        }
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

    void lostTail(RepairReport& report, std::uint64_t at, std::uint64_t end,
                  const FrameRead& frame) const {
        const std::string* last = lastKept();
        report.losses.push_back({"bytes " + std::to_string(at) + " to " + std::to_string(end) +
                                     " (the end of the file) hold no complete block (" +
                                     frame.message + "); records after " +
                                     (last != nullptr ? "'" + shown(*last) + "'" : "the start") +
                                     " that were there are lost",
                                 Region{&file_->source(), at, end - at}});
    }

    std::shared_ptr<const ZsFile> file_;
    const RepairOptions& options_;
    std::vector<ScannedBlock> blocks_;
    std::optional<std::string> lastKept_;           // the last record of the last block kept
    std::map<std::uint64_t, std::uint8_t> levels_;  // every framed block: offset → level
    std::set<std::uint64_t> referenced_;            // children named by readable index blocks
    ZsCopiedData copied_;                           // every data block written, in order
    Sha256 copiedSha_;                              // their decoded payloads, in order
};

// The output's final check: the ZS validator in full, except that each data block, a copy of
// an input block the scan decoded and checked, is compared byte for byte with the input's bytes
// (after its CRC is checked) instead of being decoded a second time.
void validateOutput(const std::filesystem::path& stage, const ZsCopiedData& copied,
                    const RepairOptions& options) {
    auto file = ZsFile::open(openMappedFile(stage));
    CollectingSink sink;
    ValidationOptions validation;
    validation.cancel = options.cancel;
    ZsValidator(file, &copied).run(sink, validation);
    if (options.cancel != nullptr && options.cancel->cancelled()) {
        throw RepairError("cancelled");
    }
    requireValidOutput(sink.diagnostics());
}

}  // namespace

RepairReport repairZsFile(const std::filesystem::path& input, const std::filesystem::path& output,
                          const RepairOptions& options) {
    RepairReport report = beginRepair("records", output, options);
    std::error_code ec;
    auto file = ZsFile::open(openMappedFile(input));
    const Header& header = file->header();
    if (!header.hasFields || !header.codec) {
        throw RepairError(input.string() +
                          ": the header cannot be read (no codec and no metadata to rebuild from)");
    }
    const nlohmann::ordered_json metadata = metadataOf(header, file->source());
    ZsSalvage salvage(file, options);
    if (options.dryRun) {
        salvage.scan(report, nullptr);
        salvage.account(report);
        if (report.recovered == 0) {
            throw RepairError(input.string() + ": no record could be recovered");
        }
        return report;
    }
    // The stage is written while the input is scanned, so no block is decoded twice and only
    // a few are held at a time; it is removed again unless it is whole and valid.
    const auto stage = repairStagePath(output);
    try {
        WriterOptions writerOptions;
        writerOptions.codec = *header.codec;
        writerOptions.metadataText = metadataTextOf(header, file->source());
        ZsWriter writer(stage, metadata, writerOptions);
        salvage.scan(report, &writer);
        salvage.account(report);
        if (report.recovered == 0) {
            throw RepairError(input.string() + ": no record could be recovered");
        }
        writer.finish();
        const ZsCopiedData copied = salvage.takeCopied();
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(stage);
        }
        validateOutput(stage, copied, options);
    } catch (const ZsWriteError& e) {
        std::filesystem::remove(stage, ec);
        throw RepairError(output.string() + ": " + e.what());
    } catch (...) {
        std::filesystem::remove(stage, ec);
        throw;
    }
    publishRepairOutput(stage, output);
    report.written = true;
    return report;
}

}  // namespace strata::zs
