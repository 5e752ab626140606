// What the parts of the ZDS validator share: the Reporter and the ZdsValidator class, whose
// checks of an archive, of data.jsonl and index.bin, and of docs/ files have files of their own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "formats/common/location.h"
#include "zds_live_set.h"
#include "zds_reader.h"
#include "zds_validator.h"

namespace strata::zds {

inline constexpr std::uint64_t kMaxMetadataSize = 64ull << 20;

// Builds diagnostics and passes them through the per-code cap of the options.
class Reporter {
public:
    Reporter(DiagnosticSink& sink, const ValidationOptions& options)
        : capped_(sink, options.maxPerCode) {}

    void add(Severity severity, const std::string& code, std::string message,
             std::vector<Region> regions = {}, std::string file = {}) {
        Diagnostic d;
        d.severity = severity;
        d.code = code;
        d.message = std::move(message);
        for (Region& r : regions) {
            if (r.valid()) {
                d.regions.push_back(r);
            }
        }
        d.file = std::move(file);
        capped_.report(std::move(d));
    }
    // A diagnostic made by another Reporter (work done in parallel), passed on in order.
    void forward(Diagnostic diagnostic) { capped_.report(std::move(diagnostic)); }
    void error(const std::string& code, std::string message, Region region = {},
               std::string file = {}) {
        add(Severity::Error, code, std::move(message), {region}, std::move(file));
    }
    void warning(const std::string& code, std::string message, Region region = {},
                 std::string file = {}) {
        add(Severity::Warning, code, std::move(message), {region}, std::move(file));
    }
    void info(const std::string& code, std::string message, Region region = {},
              std::string file = {}) {
        add(Severity::Info, code, std::move(message), {region}, std::move(file));
    }

    void finish() { capped_.finish(); }

private:
    CappedSink capped_;
};

std::string quoteName(std::string_view s);
Region whole(const ByteSourcePtr& src);

class ZdsValidator final : public Validator {
public:
    ZdsValidator(std::filesystem::path path, std::shared_ptr<ZdsDataset> dataset,
                 ByteSourcePtr rawFile, FileTreePtr tree)
        : path_(std::move(path)),
          ds_(std::move(dataset)),
          rawKeep_(std::move(rawFile)),
          tree_(tree && tree->remote() ? std::move(tree) : nullptr) {}
    ZdsValidator(std::filesystem::path path, const ZdsCopiedData* copied)
        : path_(std::move(path)), copied_(copied) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override;

private:
    bool runChecks(Reporter& r, const ValidationOptions& opt);

    // ---- container (the archive's checks: zds_validator_archive.cpp) ----

    Location location() const;
    bool isFile() const;
    void openWithLibzip(const ByteSourcePtr& raw, bool checkConsistency) const;
    bool openArchive(Reporter& r);
    bool checkArchive(Reporter& r, const ValidationOptions& opt);
    void checkLayout(Reporter& r);

    // ---- zds.json / manifest.json ----

    std::optional<nlohmann::json> parseMetadata(Reporter& r, const ByteSourcePtr& src,
                                                const std::string& code);
    void checkZdsJson(Reporter& r);
    const ZdsCollection* findCollection(const std::string& name) const;
    std::uint64_t liveCount(const ZdsCollection& c);
    bool manifestStrict(const ZdsCollection& c);
    void checkManifest(Reporter& r, const ZdsCollection& c);

    // ---- documents ----

    void checkId(Reporter& r, std::string_view id, Region region, bool fromIndex);

    struct LineResult {
        std::string id;
        bool hasId = false;
    };
    LineResult checkJsonText(Reporter& r, std::span<const std::uint8_t> text, Region region,
                             bool lineMode);
    bool checkCollection(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c);
    const ZdsCopiedLines* copiedLines(const ZdsCollection& c) const;

    // ---- data.jsonl and index.bin (zds_validator_jsonl.cpp) ----

    bool checkCopiedJsonl(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c,
                          const ZdsCopiedLines& copied);
    static bool sameLine(const ByteSource& data, std::uint64_t at,
                         std::span<const std::uint8_t> bytes);
    const ZdxIndex* copiedIndex(Reporter& r, const ZdsCollection& c, std::uint64_t n);
    void checkCopiedEntry(Reporter& r, const ZdxIndex& zdx, std::uint64_t i, const std::string& key,
                          std::uint64_t offset, std::uint64_t length);
    bool checkJsonl(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c);
    void checkDuplicateLines(Reporter& r, const ZdsCollection& c,
                             const std::vector<std::uint64_t>& starts,
                             const std::vector<std::string>& ids);
    std::uint64_t checkIndex(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c,
                             const std::vector<std::uint64_t>& starts,
                             const std::vector<std::string>& ids, const std::vector<bool>& blank);
    void checkIndexCount(Reporter& r, const ZdxIndex& zdx, const ByteSource* ix);

    // ---- docs/ files (zds_validator_docs.cpp) ----

    // What checking a run of docs/ files found: their diagnostics in order, the ids their
    // names give, and each read file's size and shape.
    struct DocsChunk {
        std::vector<Diagnostic> diagnostics;
        std::vector<std::string> ids;
        struct Facts {
            std::string id;
            std::uint64_t size = 0;
            std::optional<std::string> shape;
        };
        std::vector<Facts> facts;
    };
    DocsChunk checkDocFiles(const ZdsCollection& c, std::span<const std::string> names,
                            bool wantShapes);
    void checkDocFile(Reporter& r, const std::string& rel, const std::string& name, std::string id,
                      const FileReadOnce& file, bool wantShapes, DocsChunk& out);
    bool checkDocs(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c);
    std::uint64_t checkOrder(Reporter& r, const ZdsCollection& c,
                             const std::unordered_set<std::string>& files);

    std::filesystem::path path_;
    std::shared_ptr<ZdsDataset> ds_;
    ByteSourcePtr rawKeep_;
    FileTreePtr tree_;  // null: the local file system
    const ZdsCopiedData* copied_ = nullptr;
    std::map<const ZdsCollection*, std::uint64_t> copiedCounts_;
    double base_ = 0;
    double span_ = 1;
};

}  // namespace strata::zds
