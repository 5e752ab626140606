// The ZS validator's one pass over a file (ValidationRun): the header, the file-order scan of
// every block (zs_validator.cpp), then the index graph, the key invariants and the data hash
// (zs_index_checks.cpp). Internal to formats/zs.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/common/checksums.h"
#include "formats/common/diagnostic.h"
#include "formats/common/ordered_pool.h"
#include "zs_block_check.h"
#include "zs_validator.h"

namespace strata::zs {

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

class ValidationRun {
public:
    ValidationRun(const ZsFile& file, DiagnosticSink& sink, const ValidationOptions& options,
                  const ZsCopiedData* copied)
        : file_(file),
          copied_(copied),
          source_(file.source()),
          header_(file.header()),
          options_(options),
          reporter_(sink, std::max<std::size_t>(options.maxPerCode, 1)),
          name_(file.displayName()) {}

    JobOutcome run();

private:
    JobOutcome runChecks();

    // ---- reporting helpers ----

    std::string headerPath(const std::string& field) const;
    std::string blockPath(const BlockFrame& frame) const;
    std::string blockPathAt(std::uint64_t offset) const;
    Region whole(const BlockFrame& frame) const { return frameRegions(source_, frame).whole; }
    // A region inside a block's decoded payload, as file bytes: exact for codec none, the
    // whole stored payload otherwise.
    Region payloadRegion(const BlockFrame& frame, std::uint64_t offset, std::uint64_t length) const;
    std::string where(const BlockFrame& frame) const;

    void report(Severity severity, const std::string& code, std::string message,
                std::vector<Region> regions, std::string path);
    void error(const std::string& code, std::string message, std::vector<Region> regions,
               std::string path);
    void note(const std::string& code, std::string message, std::vector<Region> regions,
              std::string path);

    // ---- header ----

    void reportHeader();

    // ---- anchors: block starts the index vouches for, used to resynchronise the scan ----

    void collectAnchors();

    std::optional<std::uint64_t> anchorAfter(std::uint64_t offset, std::uint64_t end) const;

    // ---- the file-order scan ----

    void scanBlocks();

    void submit(OrderedPool<Checked>& pool, const BlockFrame& frame);

    void reportFrameProblem(const FrameRead& frame, std::uint64_t pos, std::uint64_t resume);

    // Results arrive in file order.
    void consume(Checked checked);

    // False when the payload could not be decoded completely.
    bool reportDecode(const Checked& checked, const BlockFrame& frame, const std::string& path);

    void reportPayloadProblem(const PayloadProblem& p, const BlockFrame& frame,
                              const std::string& path);

    void consumeData(BlockInfo& block, Checked& checked, const std::string& path);

    void consumeIndex(BlockInfo& block, Checked& checked, const std::string& path);

    // ---- references: targets, levels, lengths, multiple references, reachability ----

    std::optional<std::size_t> blockAt(std::uint64_t offset) const;

    std::string describeMiss(std::uint64_t offset) const;

    Region entryRegion(const BlockInfo& parent, const Entry& e) const;

    void checkGraph();

    void reportMultipleReferences();

    // The root must not be referenced. A reference from inside the tree is a cycle (reported
    // by the walk); one from outside suggests the header names the wrong block.
    void checkRootReferences(std::size_t root, const std::vector<bool>& reached);

    std::optional<std::size_t> checkRoot();

    void checkEntries(std::size_t p);

    // Depth-first from the root; a reference back to a block on the current path is a cycle.
    void walkFrom(std::size_t root, std::vector<bool>& reached);

    // ---- key invariants ----

    // The data blocks a block spans, as positions in file order; memoised. Only follows
    // references one level down, so it terminates (levels strictly decrease).
    Span spanOf(std::size_t i);

    void checkKeys();

    void checkKey(const BlockInfo& parent, std::size_t k);

    // ---- data hash ----

    void checkSha();

    // The data blocks are copies: the header's hash must be that of the payloads copied, and
    // the file must hold every block copied (the blocks' own checks report the rest).
    void checkCopiedSha();

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

}  // namespace strata::zs
