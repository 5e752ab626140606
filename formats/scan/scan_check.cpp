#include "scan_check.h"

#include <chrono>
#include <cstdio>

#include "formats/common/checksums.h"
#include "scan_shard.h"

namespace strata::scan {

namespace {

// Counts what a validator reports and keeps the first few errors and warnings.
class SummarySink final : public DiagnosticSink {
public:
    SummarySink(std::size_t keep, std::string entryName)
        : keep_(keep), entryName_(std::move(entryName)) {}

    void finish(ScanResult& out) {
        out.errors = errors_;
        out.warnings = warnings_;
        out.diagnostics = std::move(firstErrors_);
        for (ScanDiagnostic& d : firstWarnings_) {
            if (out.diagnostics.size() >= keep_) {
                break;
            }
            out.diagnostics.push_back(std::move(d));
        }
    }

protected:
    void accept(Diagnostic d) override {
        if (d.severity == Severity::Info) {
            return;
        }
        const bool error = d.severity == Severity::Error;
        ++(error ? errors_ : warnings_);
        std::vector<ScanDiagnostic>& kept = error ? firstErrors_ : firstWarnings_;
        if (kept.size() >= keep_) {
            return;
        }
        ScanDiagnostic s{d.severity, d.code, d.message, std::nullopt, d.fileName()};
        if (!d.regions.empty() && d.regions.front().valid()) {
            s.offset = d.regions.front().offset;
        }
        if (s.file == entryName_) {
            s.file.clear();  // the entry itself: its location says it already
        }
        kept.push_back(std::move(s));
    }

private:
    std::size_t keep_;
    std::string entryName_;
    std::size_t errors_ = 0, warnings_ = 0;
    std::vector<ScanDiagnostic> firstErrors_, firstWarnings_;
};

Verdict verdictOf(const ScanResult& r) {
    return r.errors > 0 ? Verdict::Damaged : r.warnings > 0 ? Verdict::Warnings : Verdict::Valid;
}

// Opens and validates a detected entry; throws what opening and reading throw.
CheckStatus validate(const CheckSettings& settings, const ProbeInput& input,
                     const Detection& detection, ScanResult& out) {
    const std::unique_ptr<OpenedDocument> document = settings.formats->open(input, detection);
    std::unique_ptr<Validator> validator =
        document && document->makeValidator ? document->makeValidator() : nullptr;
    if (validator == nullptr) {
        out.verdict = Verdict::Valid;  // a format without a validator has nothing to say
        return CheckStatus::Done;
    }
    ValidationOptions options;
    options.cancel = settings.cancel;
    options.threads = settings.validatorThreads;
    options.maxPerCode = settings.maxPerCode;
    SummarySink sink(settings.keptDiagnostics, out.entry.location.text());
    if (validator->run(sink, options) == JobOutcome::Cancelled) {
        return CheckStatus::Cancelled;
    }
    sink.finish(out);
    out.verdict = verdictOf(out);
    return CheckStatus::Done;
}

CheckStatus detectAndValidate(const CheckSettings& settings, std::optional<Probed>& probed,
                              ScanResult& out) {
    if (!probed) {
        ProbeInput input = ProbeInput::fromTree(settings.tree, out.entry.location);
        const Detection detection = settings.formats->detect(input);
        probed = Probed{std::move(input), detection};
    }
    const Detection& detection = probed->detection;
    if (settings.onlyFormat && !(detection.format == *settings.onlyFormat)) {
        return CheckStatus::Skipped;
    }
    out.description = detection.description;
    if (detection.format == kRawBinaryFormat) {
        out.verdict = Verdict::UnknownFormat;
        return CheckStatus::Done;
    }
    out.format = std::string(formatName(detection.format));
    return validate(settings, probed->input, detection, out);
}

}  // namespace

CheckStatus checkEntry(const CheckSettings& settings, const ScanEntry& entry,
                       std::optional<Probed> probed, ScanResult& out) {
    const auto started = std::chrono::steady_clock::now();
    out = ScanResult{};
    out.entry = entry;
    CheckStatus status = CheckStatus::Done;
    try {
        status = detectAndValidate(settings, probed, out);
    } catch (const SourceError& e) {
        out.verdict = Verdict::Unreadable;
        out.problem = e.what();
    } catch (const std::exception& e) {
        // The format gave up on the bytes it read: damage beyond what its validator reports.
        out.verdict = Verdict::Damaged;
        out.errors = std::max<std::size_t>(out.errors, 1);
        out.problem = e.what();
    }
    if (settings.cancel != nullptr && settings.cancel->cancelled()) {
        return CheckStatus::Cancelled;  // a read stopped by the cancel is no finding
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return status;
}

namespace {

void addToFingerprint(Fnv1a64& hash, std::string_view text) {
    hash.update({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    hash.update(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>("\n"), 1));
}

void describeFolder(const FileTree& tree, const Location& folder, const std::string& prefix,
                    unsigned depthLeft, const CancelToken* cancel, Fnv1a64& hash,
                    std::uint64_t& total) {
    throwIfCancelled(cancel);
    for (const FileTreeEntry& e : tree.list(folder)) {
        const std::string path = prefix + e.name;
        if (e.isDirectory) {
            addToFingerprint(hash, path + "/");
            if (depthLeft > 0) {
                describeFolder(tree, folder.child(e.name), path + "/", depthLeft - 1, cancel, hash,
                               total);
            }
            continue;
        }
        total += e.size;
        addToFingerprint(hash,
                         path + '\t' + std::to_string(e.size) + '\t' + e.etag + '\t' + e.modified);
    }
}

}  // namespace

void describeFolderUnit(const FileTree& tree, ScanEntry& entry, unsigned maxDepth,
                        const CancelToken* cancel) {
    Fnv1a64 hash;
    std::uint64_t total = 0;
    describeFolder(tree, entry.location, "", maxDepth, cancel, hash, total);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash.value()));
    entry.size = total;
    entry.etag = std::string("tree:") + hex;
    entry.modified.clear();
}

}  // namespace strata::scan
