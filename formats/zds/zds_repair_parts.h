// What the parts of the ZDS repair share: how a document's bytes are judged, and the planner
// of one collection (CollectionRepair), whose data.jsonl part is zds_repair_plan_jsonl.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/repair.h"
#include "zds_live_set.h"
#include "zds_reader.h"
#include "zds_repair_checksums.h"
#include "zds_repair_quarantine.h"
#include "zds_writer.h"

namespace strata::zds {

// Dropped lines (superseded, deleted) listed one by one per collection; the rest are counted.
inline constexpr std::size_t kListedDrops = 1000;
inline constexpr std::size_t kMaxZdxId = 65535;
inline constexpr std::uint64_t kCancelEvery = 8192;

// An id for a message: bytes that are not UTF-8 text as \xNN, cut after 60 bytes.
std::string shownId(std::string_view id);
std::span<const std::uint8_t> withoutLineEnd(std::span<const std::uint8_t> bytes);

// Whether a document's bytes can go into the output as they are: one JSON object in valid UTF-8
// with an `_id` that is a non-empty string an index entry can hold (docs/ files need no `_id`,
// but one they carry must be their name).
struct Verdict {
    std::string problem;  // empty when usable
    std::string id;
};

Verdict judge(std::span<const std::uint8_t> bytes, std::optional<std::string_view> fileId);
std::optional<nlohmann::json> readObject(const ByteSourcePtr& source);
// The documents a collection's write lists (lines kept as history are not documents).
std::uint64_t listedCount(const ZdsCollectionWrite& write);
Region wholeFile(const ByteSourcePtr& source);

// What the plans of all collections add to besides the report.
struct PlanState {
    std::vector<ZdsQuarantined> quarantine;
    std::set<std::string> handled;   // untrusted files a plan has reported
    std::set<std::string> leaveOut;  // files of the input the writer must not copy or reuse
};

// Plans the repair of one collection: what is written, what is dropped, what is lost.
class CollectionRepair {
public:
    CollectionRepair(const ZdsCollection& c, const RepairOptions& options, RepairReport& report,
                     const ZdsUntrusted& untrusted, PlanState& state)
        : c_(c),
          options_(options),
          report_(report),
          quarantine_(state.quarantine),
          untrusted_(untrusted),
          handled_(state.handled),
          leaveOut_(state.leaveOut) {
        write_.name = c.name();
        write_.source = &c;
    }

    ZdsCollectionWrite plan();

private:
    std::string where() const { return "collection '" + c_.name() + "': "; }

    void checkCancel() const {
        if (options_.cancel != nullptr && options_.cancel->cancelled()) {
            throw JobCancelled();
        }
    }

    void action(std::string text, const Region& region = {}) {
        report_.actions.push_back({where() + text, region});
    }
    void loss(std::string text, const Region& region = {}) {
        report_.losses.push_back({where() + text, region});
    }

    // Why a file of the collection fails its checksum (null when it does not).
    const std::string* untrusted(const std::string& rel) const {
        return untrusted_.why(c_.path(rel));
    }

    void quarantineFile(const std::string& rel, const ByteSourcePtr& source,
                        const std::string& why) {
        quarantine_.push_back({c_.name(), c_.path(rel), 0, wholeFile(source), rel + " " + why});
        handled_.insert(c_.path(rel));
    }

    // ---- data.jsonl + index.bin (zds_repair_plan_jsonl.cpp) ----

    Region lineRegion(std::size_t j) const;
    std::optional<std::size_t> lineAt(std::uint64_t offset) const;
    std::string lineText(std::size_t j) const;
    void planJsonl();
    void quarantineEveryLine(const std::string& why);
    void checkIndexTrust();
    std::string firstIndexFault();
    void keepUnlisted();
    void basisAction();
    void readTrailingEntries();
    void indexAction();
    void keepLive(std::uint64_t i);
    void keptUnderKey(const std::string& key, const std::string& at, const std::string& ownId,
                      const Region& region);
    static bool usableKey(std::string_view key);
    void keepUnderOwnId(std::uint64_t i, const std::string& key, const Region& region,
                        const std::string& at, const std::string& ownId, const std::string& why);
    void lostUnreadable(std::uint64_t i, const std::string& key);
    void sweepLines();
    std::string whyDropped(const std::string& id) const;

    // ---- neither data.jsonl nor docs/ ----

    void planOrphanIndex();
    void planOrphanDocIndex();

    // ---- docs/ files ----

    void planDocs();
    void checkJournal();
    bool keepDocsFile(const std::string& key, const Region& region);
    std::optional<std::string> untrustedBasis() const;
    void keepEveryDocsFile(const std::string& basis);
    void dropUnlistedFiles();

    // ---- manifest.json ----

    void manifestActions();

    const ZdsCollection& c_;
    const RepairOptions& options_;
    RepairReport& report_;
    std::vector<ZdsQuarantined>& quarantine_;
    ZdsCollectionWrite write_;
    std::shared_ptr<const ZdsLiveSet> live_;
    std::vector<std::uint64_t> starts_;    // every line of data.jsonl
    std::vector<bool> used_;               // per line: a live document's
    std::vector<std::uint64_t> liveLine_;  // per live document: its line number, 0 when none
    std::vector<bool> lostLive_;           // per live document: lost
    std::set<std::string> trailingIds_;    // ids after the index's declared entries
    std::vector<ZdsWriteDoc> unlisted_;    // lines kept as history (keepSuperseded)
    const ZdsUntrusted& untrusted_;
    std::set<std::string>& handled_;   // untrusted files a step has reported
    std::set<std::string>& leaveOut_;  // files the writer must not copy or reuse
    std::string indexDoubt_;           // why the index is not trusted over the lines; "" if it is
    std::set<std::string> ownIds_;     // ids documents took from their lines (keepUnderOwnId)
};

}  // namespace strata::zds
