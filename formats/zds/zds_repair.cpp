#include "zds_repair.h"

#include <stdlib.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/common/diagnostic.h"
#include "zds_json_line.h"
#include "zds_repair_parts.h"
#include "zds_validator.h"
#include "zds_zip_salvage.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

// Entries of zds.json's `collections` for collections that do not exist: the writer keeps
// entries for existing collections only.
void droppedZdsJsonEntries(const ZdsDataset& dataset, const nlohmann::json& listed,
                           RepairReport& report) {
    for (auto it = listed.begin(); it != listed.end(); ++it) {
        const std::string& name = it.key();
        const bool exists = std::any_of(dataset.collections.begin(), dataset.collections.end(),
                                        [&](const auto& c) { return c->name() == name; });
        if (!exists) {
            report.actions.push_back({"zds.json lists collection '" + name +
                                          "', which does not exist: its entry " + it->dump() +
                                          " is dropped",
                                      wholeFile(dataset.zdsJson)});
        }
    }
}

// zds.json's counts, which the writer sets for every collection written.
void zdsJsonActions(const ZdsDataset& dataset, const std::vector<ZdsCollectionWrite>& writes,
                    const ZdsUntrusted& untrusted, RepairReport& report) {
    if (dataset.singleCollection || writes.empty() || untrusted.why("zds.json") != nullptr) {
        return;  // an untrusted zds.json is reported with the other untrusted files
    }
    if (!dataset.zdsJson) {
        report.actions.push_back(
            {"zds.json was missing: written with the counts of the "
             "collections",
             {}});
        return;
    }
    const auto old = readObject(dataset.zdsJson);
    if (!old) {
        report.actions.push_back(
            {"zds.json is not a JSON object: rewritten with the counts of the collections",
             wholeFile(dataset.zdsJson)});
        return;
    }
    const nlohmann::json* listed = old->contains("collections") && (*old)["collections"].is_object()
                                       ? &(*old)["collections"]
                                       : nullptr;
    for (const ZdsCollectionWrite& w : writes) {
        const std::uint64_t count = listedCount(w);
        std::string was = "absent";
        if (listed != nullptr && listed->contains(w.name)) {
            const auto& entry = (*listed)[w.name];
            if (entry.is_object() && entry.contains("count")) {
                if (entry["count"].is_number_unsigned() &&
                    entry["count"].get<std::uint64_t>() == count) {
                    continue;
                }
                was = entry["count"].dump();
            }
        }
        report.actions.push_back({"zds.json: the count of collection '" + w.name + "' " + was +
                                      " set to " + std::to_string(count),
                                  wholeFile(dataset.zdsJson)});
    }
    if (listed != nullptr) {
        droppedZdsJsonEntries(dataset, *listed, report);
    }
}

// The collection a dataset-relative path lies in ("" for the dataset's own files).
std::string collectionOf(const std::string& rel) {
    const std::string prefix = "collections/";
    if (!rel.starts_with(prefix)) {
        return {};
    }
    return rel.substr(prefix.size(), rel.find('/', prefix.size()) - prefix.size());
}

// Files that fail their checksum and that no collection's plan dealt with (zds.json, a journal,
// anything else the dataset holds): none reaches the output (the writer leaves them out, and
// writes zds.json afresh); each is a loss, its bytes quarantined.
void reportUntrustedFiles(const ZdsDataset& dataset, const ZdsUntrusted& untrusted,
                          const std::set<std::string>& handled,
                          std::vector<ZdsQuarantined>& quarantine, RepairReport& report) {
    for (const auto& [rel, why] : untrusted.files) {
        if (handled.contains(rel)) {
            continue;
        }
        if (rel.ends_with('/')) {  // a folder: nothing of its own to lose
            const std::string parent = rel.substr(0, rel.rfind('/', rel.size() - 2) + 1);
            if (untrusted.why(parent) != nullptr) {
                continue;  // said of the folder it lies in
            }
            report.actions.push_back(
                {"folder " + zdsShownName(rel) + " " + why + ": no entry is written for it", {}});
            continue;
        }
        const ByteSourcePtr source = dataset.storage().open(rel);
        const std::string outcome =
            rel == "zds.json"
                ? "written afresh with the counts of the collections (its other fields are not "
                  "kept)"
                : "not copied into the output";
        report.losses.push_back({zdsShownName(rel) + " " + why + ": " + outcome +
                                     (source ? "; its bytes are quarantined" : ""),
                                 wholeFile(source)});
        if (source) {
            quarantine.push_back({collectionOf(rel), rel, 0, wholeFile(source), rel + " " + why});
        }
    }
}

// The lines a JSONL collection's repair copies, as the writer writes them: a live document's
// line or a line of data.jsonl, without its final '\n', under the key the writer gives it.
class PlannedLines final : public ZdsCopiedLines {
public:
    explicit PlannedLines(const ZdsCollectionWrite& write)
        : write_(write), live_(write.source->liveSet()) {}

    std::uint64_t count() const override { return write_.documents.size(); }
    std::uint64_t listedCount() const override { return zds::listedCount(write_); }

    ZdsCopiedLine line(std::uint64_t n) const override {
        const ZdsWriteDoc& d = write_.documents[n];
        ZdsCopiedLine out;
        if (d.originalIndex) {
            const Region region = live_->region(*d.originalIndex);
            out.bytes = region.source->view(region.offset, region.length);
            out.key = live_->id(*d.originalIndex);
        } else if (d.dataRange) {
            out.bytes = write_.source->data->view(d.dataRange->first, d.dataRange->second);
        }
        if (!out.bytes.empty() && out.bytes.bytes.back() == '\n') {
            out.bytes.bytes = out.bytes.bytes.first(out.bytes.size() - 1);
        }
        if (d.dataRange && d.listed) {
            out.key = jsonLineId(withoutLineEnd(out.bytes.bytes)).value_or("");
        }
        out.listed = d.listed;
        return out;
    }

    // Whether every document of `write` is such a copy.
    static bool covers(const ZdsCollectionWrite& write) {
        return write.layout == ZdsLayout::Jsonl && write.source != nullptr &&
               write.source->mode() == ZdsStorageMode::Jsonl &&
               std::all_of(write.documents.begin(), write.documents.end(),
                           [](const ZdsWriteDoc& d) {
                               return (d.originalIndex || d.dataRange) && !d.severalLines;
                           });
    }

private:
    const ZdsCollectionWrite& write_;
    std::shared_ptr<const ZdsLiveSet> live_;
};

// The output's final check. When the writer wrote exactly the plan (no notes), the lines of
// each JSONL collection are compared with the input lines the plan checked instead of being
// parsed again (makeZdsCopyCheck); everything else is validated in full.
void validateOutput(const fs::path& target, const std::vector<ZdsCollectionWrite>& writes,
                    bool wroteThePlan, const RepairOptions& options) {
    std::vector<std::unique_ptr<PlannedLines>> planned;
    ZdsCopiedData copied;
    for (const ZdsCollectionWrite& w : writes) {
        if (wroteThePlan && PlannedLines::covers(w)) {
            planned.push_back(std::make_unique<PlannedLines>(w));
            copied.collections.emplace(w.name, planned.back().get());
        }
    }
    requireValidOutput(*makeZdsCopyCheck(target, &copied), options);
}

// Writes, validates and publishes: the dataset and the quarantine file are built in a stage
// folder beside the output and given their names only when the dataset validates.
void writeRepaired(const ZdsDataset& dataset, const std::vector<ZdsCollectionWrite>& writes,
                   const std::vector<ZdsQuarantined>& quarantine,
                   const std::set<std::string>& leaveOut, const fs::path& output,
                   const RepairOptions& options, RepairReport& report) {
    runInRepairStage(output, [&](const fs::path& stage) {
        const fs::path target = stage / output.filename();
        ZdsWriteOptions writeOptions;
        writeOptions.cancel = options.cancel;
        writeOptions.progress = options.progress;
        writeOptions.leaveOut = leaveOut;
        const ZdsWriteResult result = writeZdsDataset(&dataset, writes, target, writeOptions);
        if (result.cancelled) {
            throw JobCancelled();
        }
        for (const std::string& note : result.notes) {
            report.losses.push_back({note, {}});
        }
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(target);
        }
        validateOutput(target, writes, result.notes.empty(), options);
        const fs::path quarantined = stage / "quarantine.jsonl";
        if (!quarantine.empty()) {
            writeZdsQuarantine(quarantined, quarantine);
        }
        publishRepairWithQuarantine(target, output, quarantined, zdsQuarantinePath(output));
    });
}

// An archive libzip cannot open, its members recovered by scanning into a temporary folder
// (removed afterwards) that the planner then reads like any dataset folder.
class SalvagedArchive {
public:
    SalvagedArchive(const fs::path& archive, const std::string& why, const RepairOptions& options,
                    RepairReport& report)
        : archive_(archive) {
        std::string pattern = (fs::temp_directory_path() / "strata-zds-salvage-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw RepairError("cannot create a temporary folder for " + archive.string());
        }
        folder_ = pattern;
        try {
            scan(why, options, report);
        } catch (...) {
            std::error_code ec;
            fs::remove_all(folder_, ec);
            throw;
        }
    }
    ~SalvagedArchive() {
        std::error_code ec;
        fs::remove_all(folder_, ec);
    }
    SalvagedArchive(const SalvagedArchive&) = delete;
    SalvagedArchive& operator=(const SalvagedArchive&) = delete;

    const fs::path& folder() const { return folder_; }
    // The recovered members whose bytes fail their CRC-32.
    const ZdsUntrusted& untrusted() const { return untrusted_; }

    // Steps that name a recovered file name it as the archive's member instead.
    void renameSteps(RepairReport& report) const {
        const std::string prefix = folder_.string() + "/";
        for (auto* steps : {&report.actions, &report.losses}) {
            for (RepairStep& s : *steps) {
                if (s.bytes.file.starts_with(prefix)) {
                    s.bytes.file = archive_.string() + "!" + s.bytes.file.substr(prefix.size());
                }
            }
        }
    }

private:
    void scan(const std::string& why, const RepairOptions& options, RepairReport& report) {
        const fs::path& archive = archive_;
        const ByteSourcePtr bytes = openMappedFile(archive);
        ZipSalvage salvage = salvageZipMembers(*bytes, folder_, options.cancel);
        if (salvage.members == 0) {
            throw RepairError(archive.string() + ": cannot be read as a ZDS dataset (" + why +
                              ") and holds no ZIP member to recover");
        }
        // A loss even when every member passes its CRC-32: readers cannot open the input, so
        // no comparison of input and output can vouch for the recovery being whole.
        report.losses.push_back(
            {"the archive cannot be opened (" + why + "), so readers find nothing in it: " +
                 std::to_string(salvage.members) + (salvage.members == 1 ? " member" : " members") +
                 " recovered by scanning its local file headers",
             Region{bytes.get(), 0, bytes->size()}});
        for (auto& a : salvage.actions) {
            report.actions.push_back(std::move(a));
        }
        for (auto& l : salvage.losses) {
            report.losses.push_back(std::move(l));
        }
        untrusted_ = std::move(salvage.untrusted);
    }

    fs::path archive_;
    fs::path folder_;
    ZdsUntrusted untrusted_;
};

// An archive libzip reads through its central directory can still fail to start as a ZIP
// does (a damaged first local header): Strata's readers then take it for no archive at all, so
// what they find in it and the output differ.
void requireZipStart(const fs::path& input, RepairReport& report) {
    const ByteSourcePtr bytes = openMappedFile(input);
    const ByteView head = bytes->view(0, std::min<std::uint64_t>(4, bytes->size()));
    const std::string_view start(reinterpret_cast<const char*>(head.data()), head.size());
    if (start != std::string_view("PK\x03\x04", 4) && start != std::string_view("PK\x05\x06", 4)) {
        report.losses.push_back(
            {"the file does not start with a ZIP header, so readers do not open it as an archive "
             "(its members were read through its central directory)",
             Region{bytes.get(), 0, head.size()}});
    }
}

std::shared_ptr<ZdsDataset> openDataset(const fs::path& input, const RepairOptions& options,
                                        RepairReport& report,
                                        std::optional<SalvagedArchive>& salvaged) {
    try {
        return ZdsDataset::open(input);
    } catch (const std::exception& e) {
        std::error_code ec;
        if (!fs::is_regular_file(input, ec)) {
            throw RepairError(input.string() + ": cannot be read as a ZDS dataset: " + e.what());
        }
        salvaged.emplace(input, e.what(), options, report);
    }
    try {
        return ZdsDataset::open(salvaged->folder());
    } catch (const std::exception& e) {
        throw RepairError(input.string() +
                          ": the recovered members do not form a dataset: " + e.what());
    }
}

}  // namespace

fs::path zdsQuarantinePath(const fs::path& output) {
    fs::path p = output;
    p += ".quarantine.jsonl";
    return p;
}

RepairReport repairZdsDataset(const fs::path& input, const fs::path& output,
                              const RepairOptions& options) {
    RepairReport report = beginRepair("documents", output, options, zdsQuarantinePath(output));
    refuseOutputInsideInput(input, output);
    std::optional<SalvagedArchive> salvaged;
    const auto dataset = openDataset(input, options, report, salvaged);
    ZdsUntrusted untrusted = salvaged ? salvaged->untrusted()
                             : dataset->archive()
                                 ? checkZdsArchiveMembers(*dataset->archive(), options, report)
                                 : ZdsUntrusted{};
    distrustDamagedNames(dataset->storage(), untrusted);
    if (dataset->archive() && !salvaged) {
        requireZipStart(input, report);
    }
    PlanState state;
    std::vector<ZdsCollectionWrite> writes;
    try {
        for (const auto& c : dataset->collections) {
            if (zdsUsableName(c->name())) {
                writes.push_back(CollectionRepair(*c, options, report, untrusted, state).plan());
            } else {
                report.lostKnown += c->documentCount();
                report.losses.push_back({"collection '" + zdsShownName(c->name()) +
                                             "' has a damaged name (not UTF-8 text, or a control "
                                             "character): none of its " +
                                             std::to_string(c->documentCount()) +
                                             " documents is written, its files are quarantined",
                                         {}});
            }
        }
    } catch (const RepairError&) {
        throw;
    } catch (const JobCancelled&) {
        throw;
    } catch (const std::exception& e) {
        throw RepairError(input.string() + ": " + e.what());
    }
    if (writes.empty() && !dataset->hasCollectionsDir && !dataset->singleCollection) {
        throw RepairError(input.string() + ": no collection to recover (no collections/ folder)");
    }
    zdsJsonActions(*dataset, writes, untrusted, report);
    reportUntrustedFiles(*dataset, untrusted, state.handled, state.quarantine, report);
    if (!state.quarantine.empty()) {
        report.actions.push_back(
            {zdsQuarantineSummary(state.quarantine, zdsQuarantinePath(output)), {}});
    }
    if (report.recovered == 0 && !report.losses.empty()) {
        throw RepairError(input.string() + ": no document could be recovered");
    }
    if (!options.dryRun) {
        std::set<std::string> leaveOut = untrusted.paths();
        leaveOut.insert(state.leaveOut.begin(), state.leaveOut.end());
        writeRepaired(*dataset, writes, state.quarantine, leaveOut, output, options, report);
        report.written = true;
    }
    if (salvaged) {
        salvaged->renameSteps(report);
    }
    return report;
}

}  // namespace strata::zds
