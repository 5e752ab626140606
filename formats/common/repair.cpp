#include "repair.h"

#include "byte_source.h"
#include "counted.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace strata {

RepairStep::RepairStep(std::string text, const Region& region) : description(std::move(text)) {
    if (region.valid()) {
        bytes = {region.source->name(), region.offset, region.length};
    }
}

std::string RepairReport::recoveredText() const {
    // itemName is the plural ("records"); its singular drops the s.
    std::string one = itemName;
    if (one.ends_with('s')) {
        one.pop_back();
    }
    return counted(recovered, one, itemName);
}

std::string RepairReport::lossesText() const {
    return counted(losses.size(), "loss");
}

RepairReport beginRepair(std::string itemName, const std::filesystem::path& output,
                         const RepairOptions& options, const std::filesystem::path& quarantine) {
    RepairReport report;
    report.itemName = std::move(itemName);
    report.dryRun = options.dryRun;
    report.output = output;
    if (options.dryRun) {
        return report;
    }
    for (const std::filesystem::path& p : {output, quarantine}) {
        std::error_code ec;
        if (!p.empty() && std::filesystem::exists(std::filesystem::symlink_status(p, ec))) {
            throw RepairError(p.string() + ": exists; a repair never replaces a file");
        }
    }
    return report;
}

void requireValidOutput(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error) {
            throw RepairError("the repaired output does not validate (" + d.code + ": " +
                              d.message + "); nothing was written");
        }
    }
}

void requireValidOutput(Validator& validator, const RepairOptions& options) {
    CollectingSink sink;
    ValidationOptions validation;
    validation.cancel = options.cancel;
    const JobOutcome outcome = validator.run(sink, validation);
    if (outcome == JobOutcome::Cancelled ||
        (options.cancel != nullptr && options.cancel->cancelled())) {
        throw JobCancelled();
    }
    requireValidOutput(sink.diagnostics());
}

std::filesystem::path repairStagePath(const std::filesystem::path& output) {
    return output.parent_path() /
           ("." + output.filename().string() + ".strata-repair-" + std::to_string(::getpid()));
}

void publishRepairOutput(const std::filesystem::path& staged, const std::filesystem::path& output) {
    if (::link(staged.c_str(), output.c_str()) != 0) {
        const int error = errno;
        std::error_code ec;
        std::filesystem::remove(staged, ec);
        throw RepairError(output.string() + ": " +
                          (error == EEXIST ? std::string("exists; a repair never replaces a file")
                                           : std::string(std::strerror(error))));
    }
    std::error_code ec;
    std::filesystem::remove(staged, ec);
}

void publishRepairFolder(const std::filesystem::path& staged, const std::filesystem::path& output) {
    if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, output.c_str(), RENAME_NOREPLACE) != 0) {
        const int error = errno;
        throw RepairError(output.string() + ": " +
                          (error == EEXIST ? std::string("exists; a repair never replaces a file")
                                           : std::string(std::strerror(error))));
    }
}

void runInRepairStage(const std::filesystem::path& output,
                      const std::function<void(const std::filesystem::path& stage)>& work) {
    const std::filesystem::path stage = repairStagePath(std::filesystem::absolute(output));
    std::error_code ec;
    std::filesystem::remove_all(stage, ec);  // a stage of this very process id can only be stale
    if (!std::filesystem::create_directory(stage, ec)) {
        throw RepairError("cannot create " + stage.string() + ": " + ec.message());
    }
    try {
        work(stage);
    } catch (const RepairError&) {
        std::filesystem::remove_all(stage, ec);
        throw;
    } catch (const JobCancelled&) {
        std::filesystem::remove_all(stage, ec);
        throw;
    } catch (const std::exception& e) {
        std::filesystem::remove_all(stage, ec);
        throw RepairError(output.string() + ": " + e.what());
    }
    std::filesystem::remove_all(stage, ec);
}

namespace {

void publishStaged(const std::filesystem::path& staged, const std::filesystem::path& output) {
    if (std::filesystem::is_directory(staged)) {
        publishRepairFolder(staged, output);
    } else {
        publishRepairOutput(staged, output);
    }
}

}  // namespace

void publishRepairWithQuarantine(const std::filesystem::path& staged,
                                 const std::filesystem::path& output,
                                 const std::filesystem::path& stagedQuarantine,
                                 const std::filesystem::path& quarantine) {
    std::error_code ec;
    if (!std::filesystem::exists(stagedQuarantine, ec)) {
        publishStaged(staged, output);
        return;
    }
    publishStaged(stagedQuarantine, quarantine);
    try {
        publishStaged(staged, output);
    } catch (...) {
        std::filesystem::remove_all(quarantine, ec);
        throw;
    }
}

void refuseOutputInsideInput(const std::filesystem::path& input,
                             const std::filesystem::path& output) {
    std::error_code ec;
    const std::filesystem::path in = std::filesystem::weakly_canonical(input, ec);
    const std::filesystem::path out = std::filesystem::weakly_canonical(output, ec);
    const auto [end, rest] = std::mismatch(in.begin(), in.end(), out.begin(), out.end());
    if (!ec && end == in.end()) {
        throw RepairError(output.string() + ": inside " + input.string() +
                          "; a repair never writes into its input");
    }
}

namespace {

// Keeps the differences of content, up to kMaxListedDifferences, and counts the rest.
class ContentDifferences final : public DiffSink {
public:
    bool add(Difference d) override {
        if (d.kind == DiffKind::Encoding) {
            return true;
        }
        if (kept.size() < kMaxListedDifferences) {
            kept.push_back(std::move(d));
        } else {
            ++more;
        }
        return true;
    }
    std::vector<Difference> kept;
    std::uint64_t more = 0;
};

std::string differenceText(const Difference& d) {
    std::string text = "the output differs from the input: " + std::string(diffKindName(d.kind)) +
                       " " + (d.path.empty() ? std::string(".") : d.path) + ": " + d.description;
    for (std::size_t i = 0; i < d.fields.size() && i < 3; ++i) {
        const DiffField& f = d.fields[i];
        text += (i == 0 ? " (" : "; ") + f.path + ": " + (f.a.empty() ? "(absent)" : f.a) + " → " +
                (f.b.empty() ? "(absent)" : f.b);
    }
    return text + (d.fields.empty() ? "" : d.fields.size() > 3 ? "; …)" : ")");
}

}  // namespace

void listContentDifferences(Differ& differ, RepairReport& report, const RepairOptions& options,
                            const IdentityCheck& check) {
    if (!report.complete()) {
        return;
    }
    ContentDifferences sink;
    DiffOptions diffOptions;
    diffOptions.cancel = options.cancel;
    diffOptions.quick = check.digestsChecked;
    diffOptions.answerQueries = 0;  // content, not search quality
    try {
        if (differ.run(sink, diffOptions) == JobOutcome::Cancelled) {
            throw JobCancelled();
        }
    } catch (const DiffError& e) {
        report.losses.push_back(
            {std::string("the output could not be compared with the input, so nothing shows "
                         "that it holds the same: ") +
                 e.what(),
             Region{}});
        return;
    }
    for (const Difference& d : sink.kept) {
        RepairStep step(differenceText(d), d.a.region.valid() ? d.a.region : Region{});
        if (!step.bytes.valid()) {
            step.bytes.file = check.inputFile;
        }
        report.losses.push_back(std::move(step));
    }
    if (sink.more > 0) {
        report.losses.push_back({"the output differs from the input in " +
                                     std::to_string(sink.more) +
                                     " more places (strata-cli diff lists them)",
                                 Region{}});
    }
}

}  // namespace strata
