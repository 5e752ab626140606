#include "zt_repair.h"

#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "formats/common/atomic_file.h"
#include "zt_cbor_scan.h"
#include "zt_diff.h"
#include "zt_digest.h"
#include "zt_validator.h"
#include "zt_writer.h"

namespace strata::ztensor {

namespace {

const std::string kTensorPrefix = "manifest/tensors/";

// Faults of where the bytes are, not of the bytes: writing the components afresh mends them.
bool placementCode(const std::string& code) {
    return code == "ZT-ALIGN" || code == "ZT-OVERLAP";
}
bool digestCode(const std::string& code) {
    return code == "ZT-DIGEST" || code == "ZT-DIGEST-FORMAT";
}

// The errors the validator found, per tensor (by manifest path), and the rest.
struct Findings {
    std::vector<std::vector<const Diagnostic*>> perTensor;
    std::vector<const Diagnostic*> fileLevel;
};

// The tensor a diagnostic's node path names: "manifest/tensors/<name>" or
// ".../<name>/components/<role>"; names may hold '/', so the longest name that fits wins.
std::optional<std::size_t> tensorOf(const ZtFile& file, const std::string& path) {
    if (!path.starts_with(kTensorPrefix)) {
        return std::nullopt;
    }
    const std::string_view rest = std::string_view(path).substr(kTensorPrefix.size());
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < file.tensors().size(); ++i) {
        const std::string& name = file.tensors()[i].name;
        const bool fits = rest == name || (rest.starts_with(name) &&
                                           rest.substr(name.size()).starts_with("/components/"));
        if (fits && (!best || name.size() > file.tensors()[*best].name.size())) {
            best = i;
        }
    }
    return best;
}

Findings sortFindings(const ZtFile& file, const std::vector<Diagnostic>& diagnostics) {
    Findings out;
    out.perTensor.resize(file.tensors().size());
    for (const Diagnostic& d : diagnostics) {
        if (d.severity != Severity::Error) {
            continue;
        }
        if (const auto t = tensorOf(file, d.nodePath)) {
            out.perTensor[*t].push_back(&d);
        } else {
            out.fileLevel.push_back(&d);
        }
    }
    return out;
}

Region tensorBytes(const ZtFile& file, const ZtTensor& tensor) {
    for (const std::size_t c : tensor.components) {
        const ZtComponent& component = file.components()[c];
        if (component.data.valid()) {
            return component.data;
        }
    }
    return tensor.entry;
}

// Manifest members no reader uses, kept by the copy byte for byte (their CBOR as found in the
// input; re-encoded from the decoded value only where the scan did not record them).
class UnusedMembers {
public:
    explicit UnusedMembers(const ZtFile& file)
        : manifest_(file.source()->view(file.manifest().offset, file.manifest().length)),
          scan_(scanCbor(manifest_.bytes)),
          unused_(ztUnusedManifestKeys(file)) {}

    ZtExtraMembers top() const { return members(unused_["top"], {}); }
    ZtExtraMembers tensor(const std::string& name) const {
        const auto it = unused_["tensors"].find(name);
        return it == unused_["tensors"].end() ? ZtExtraMembers{} : members(*it, {"tensors", name});
    }
    ZtExtraMembers component(const std::string& name, const std::string& role) const {
        const auto it = unused_["tensors"].find(name);
        if (it == unused_["tensors"].end() || !it->contains("components") ||
            !(*it)["components"].contains(role)) {
            return {};
        }
        return members((*it)["components"][role], {"tensors", name, "components", role});
    }

private:
    ZtExtraMembers members(const nlohmann::json& object, std::vector<std::string> at) const {
        ZtExtraMembers out;
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (at.size() == 2 && it.key() == "components") {
                continue;  // the components' own unused members, not a member of the tensor
            }
            at.push_back(it.key());
            out.emplace_back(it.key(), encoded(at, *it));
            at.pop_back();
        }
        return out;
    }

    std::vector<std::uint8_t> encoded(const std::vector<std::string>& at,
                                      const nlohmann::json& value) const {
        std::string path;
        for (const std::string& segment : at) {
            path += (path.empty() ? "" : std::string(1, kCborPathSeparator)) + segment;
        }
        const auto it = scan_.entries.find(path);
        if (it == scan_.entries.end() ||
            it->second.value.offset + it->second.value.length > manifest_.size()) {
            return nlohmann::json::to_cbor(value);
        }
        const auto bytes =
            manifest_.bytes.subspan(it->second.value.offset, it->second.value.length);
        return {bytes.begin(), bytes.end()};
    }

    ByteView manifest_;
    CborScanResult scan_;
    nlohmann::json unused_;
};

// The attributes as the output can hold them: text only (readers refuse any other value). What
// cannot be kept as it is, is a loss.
std::vector<std::pair<std::string, std::string>> keptAttributes(const ZtFile& file,
                                                                RepairReport& report) {
    std::vector<std::pair<std::string, std::string>> out;
    const nlohmann::json& m = file.manifestJson();
    const bool typed = m.is_object() && m.contains("attributes") && m["attributes"].is_object();
    for (const auto& [key, value] : file.attributes()) {
        if (!ztIsValidText(key) || !ztIsValidText(value)) {
            report.losses.push_back({"the attribute '" + key +
                                         "' is left out: it is not UTF-8 text, which readers "
                                         "refuse",
                                     file.manifest()});
            continue;
        }
        if (typed && m["attributes"].contains(key) && !m["attributes"][key].is_string()) {
            report.losses.push_back({"the attribute '" + key + "' is written as the text " + value +
                                         ": it holds a " + m["attributes"][key].type_name() +
                                         ", and readers accept only text",
                                     file.manifest()});
        }
        out.emplace_back(key, value);
    }
    return out;
}

class ZtSalvage {
public:
    ZtSalvage(std::shared_ptr<const ZtFile> file, const RepairOptions& options)
        : file_(std::move(file)), options_(options) {}

    void plan(RepairReport& report) {
        CollectingSink sink;
        ValidationOptions validation;
        validation.cancel = options_.cancel;
        validation.maxPerCode = std::numeric_limits<std::size_t>::max();
        validation.progress = [this](double fraction, const std::string& text) {
            options_.reportProgress(fraction * 0.5, text);
        };
        makeZtValidator(file_)->run(sink, validation);
        if (options_.cancel != nullptr && options_.cancel->cancelled()) {
            throw JobCancelled();
        }
        const Findings findings = sortFindings(*file_, sink.diagnostics());
        for (std::size_t i = 0; i < file_->tensors().size(); ++i) {
            decide(i, findings.perTensor[i], report);
        }
        attributes_ = keptAttributes(*file_, report);
        for (const Diagnostic* d : findings.fileLevel) {
            report.actions.push_back({"not carried over: " + d->code + " " + d->message,
                                      d->regions.empty() ? Region{} : d->regions.front()});
        }
        if (file_->version() != "1.0") {
            report.actions.push_back(
                {"written as zTensor 1.0 (the input says version '" + file_->version() + "')",
                 file_->versionField()});
        }
    }

    void write(const std::filesystem::path& stage) const {
        AtomicFile out(stage);
        ZtWriterOptions options;
        options.attributes = attributes_;
        options.extra = unused_.top();
        if (!file_->generator().empty() && ztIsValidText(file_->generator())) {
            options.generator = file_->generator();  // a copy: who made the file stays said
        }
        ZtWriter writer([&out](std::span<const std::uint8_t> bytes) { out.write(bytes); }, options);
        for (std::size_t i = 0; i < keep_.size(); ++i) {
            if (options_.cancel != nullptr && options_.cancel->cancelled()) {
                throw JobCancelled();
            }
            writer.addStored(stored(file_->tensors()[keep_[i]]));
            options_.reportProgress(0.5 + 0.4 * double(i + 1) / double(keep_.size()),
                                    "writing tensors");
        }
        writer.finish();
        out.commit();
    }

    bool recomputedDigests() const { return !recompute_.empty(); }

private:
    // Keeps or loses one tensor, saying why in the report.
    void decide(std::size_t index, const std::vector<const Diagnostic*>& errors,
                RepairReport& report) {
        const ZtTensor& tensor = file_->tensors()[index];
        const Region bytes = tensorBytes(*file_, tensor);
        const std::string why = lossReason(tensor, errors);
        if (!why.empty()) {
            report.losses.push_back({"tensor '" + tensor.name + "' is lost: " + why, bytes});
            return;
        }
        keep_.push_back(index);
        ++report.recovered;
        if (const std::string placement = firstOf(errors, placementCode); !placement.empty()) {
            report.actions.push_back({"tensor '" + tensor.name +
                                          "': its components are written at new, aligned offsets "
                                          "that overlap nothing (" +
                                          placement + ")",
                                      bytes});
        }
        if (const std::string digest = firstOf(errors, digestCode); !digest.empty()) {
            recompute_.insert(index);
            report.actions.push_back(
                {"tensor '" + tensor.name + "': digests recomputed as asked (" + digest +
                     "); the new digests vouch for bytes that no digest protected",
                 bytes});
        }
    }

    // Why a tensor cannot be kept, or "".
    std::string lossReason(const ZtTensor& tensor,
                           const std::vector<const Diagnostic*>& errors) const {
        for (const Diagnostic* d : errors) {
            if (!placementCode(d->code) && !digestCode(d->code)) {
                return d->code + ": " + d->message;
            }
        }
        if (!tensor.dtype) {
            return "its dtype '" + tensor.dtypeName + "' is unknown";
        }
        const std::string digest = firstOf(errors, digestCode);
        if (!digest.empty() && !options_.recomputeDigests) {
            return digest +
                   " (its bytes or its digest are damaged; asking for digests to be "
                   "recomputed keeps it with new ones)";
        }
        // Bytes shared with the magic, the manifest or another component are its own only if a
        // digest says so.
        if (overlaps(errors) && (!digest.empty() || !allDigested(tensor))) {
            return firstOf(errors, placementCode) +
                   ", and no matching digest shows which bytes "
                   "are its own";
        }
        return {};
    }

    static bool overlaps(const std::vector<const Diagnostic*>& errors) {
        for (const Diagnostic* d : errors) {
            if (d->code == "ZT-OVERLAP") {
                return true;
            }
        }
        return false;
    }

    // Every component carries a digest (which the validator then found to match).
    bool allDigested(const ZtTensor& tensor) const {
        for (const std::size_t c : tensor.components) {
            if (!file_->components()[c].digest) {
                return false;
            }
        }
        return !tensor.components.empty();
    }

    static std::string firstOf(const std::vector<const Diagnostic*>& errors,
                               bool (*matches)(const std::string&)) {
        for (const Diagnostic* d : errors) {
            if (matches(d->code)) {
                return d->code + ": " + d->message;
            }
        }
        return {};
    }

    ZtStoredTensor stored(const ZtTensor& tensor) const {
        ZtStoredTensor out{tensor.name,  *tensor.dtype,
                           tensor.shape, tensor.formatName,
                           {},           unused_.tensor(tensor.name)};
        const bool recompute = recompute_.contains(indexOf(tensor));
        for (const std::size_t c : tensor.components) {
            const ZtComponent& component = file_->components()[c];
            const ByteView view = file_->source()->view(*component.offset, *component.length);
            std::string digest = component.digest.value_or("");
            if (recompute && !digest.empty()) {
                const ZtDigestSpec spec = parseZtDigest(digest);
                digest = ztDigestText(spec.usable() ? spec.algorithm : ZtDigestAlgorithm::Sha256,
                                      view.bytes);
            }
            out.components.push_back({component.role, view.bytes, component.encoding, digest,
                                      unused_.component(tensor.name, component.role)});
        }
        return out;
    }

    std::size_t indexOf(const ZtTensor& tensor) const {
        return static_cast<std::size_t>(&tensor - file_->tensors().data());
    }

    std::shared_ptr<const ZtFile> file_;
    const RepairOptions& options_;
    UnusedMembers unused_{*file_};
    std::vector<std::pair<std::string, std::string>> attributes_;
    std::vector<std::size_t> keep_;  // tensors written, in manifest order
    std::set<std::size_t> recompute_;
};

void validateOutput(const std::filesystem::path& path, const RepairOptions& options) {
    requireValidOutput(*makeZtValidator(ZtFile::open(openMappedFile(path))), options);
}

}  // namespace

RepairReport repairZtFile(const std::filesystem::path& input, const std::filesystem::path& output,
                          const RepairOptions& options) {
    RepairReport report = beginRepair("tensors", output, options);
    std::error_code ec;
    auto file = ZtFile::open(openMappedFile(input));
    if (!file->manifestDecoded()) {
        throw RepairError(input.string() +
                          ": the manifest cannot be read, so no tensor's name, type or shape is "
                          "known; nothing can be recovered");
    }
    ZtSalvage salvage(file, options);
    salvage.plan(report);
    // A tensor lost to its digest is kept by recomputing it; the app offers that for any loss.
    report.recomputingDigestsKeepsMore = !report.losses.empty();
    if (report.recovered == 0 && !file->tensors().empty()) {
        throw RepairError(input.string() + ": no tensor could be recovered");
    }
    if (options.dryRun) {
        return report;
    }
    const auto stage = repairStagePath(output);
    try {
        salvage.write(stage);
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(stage);
        }
        validateOutput(stage, options);
        const auto differ = makeZtDiffer(file, ZtFile::open(openMappedFile(stage)));
        // Both files' digests were checked (the input's by the plan, the copy's just now), but
        // recomputed ones differ from the input's by design: then values are compared.
        listContentDifferences(*differ, report, options,
                               {input.string(), !salvage.recomputedDigests()});
    } catch (const RepairError&) {
        std::filesystem::remove(stage, ec);
        throw;
    } catch (const JobCancelled&) {
        std::filesystem::remove(stage, ec);
        throw;
    } catch (const std::exception& e) {
        std::filesystem::remove(stage, ec);
        throw RepairError(output.string() + ": " + e.what());
    }
    publishRepairOutput(stage, output);
    options.reportProgress(1.0, "done");
    report.written = true;
    return report;
}

}  // namespace strata::ztensor
