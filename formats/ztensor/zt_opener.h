// Reading a zTensor file's header and manifest into a ZtFile (zt_opener.cpp) and checking its
// tensors' layout (zt_layout_checks.cpp): what ZtFile::open runs. Internal to formats/ztensor.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "zt_cbor_scan.h"
#include "zt_file.h"

namespace strata::ztensor {

// Builds a ZtFile step by step; each step records what it finds wrong and carries on when it can.
class ZtOpener {
public:
    explicit ZtOpener(ByteSourcePtr source) : file_(new ZtFile()) {
        file_->source_ = std::move(source);
        file_->fileSize_ = file_->source_->size();
    }

    std::shared_ptr<const ZtFile> run();

private:
    const ByteSource* src() const { return file_->source_.get(); }
    Region at(std::uint64_t offset, std::uint64_t length) const { return {src(), offset, length}; }
    void report(Severity severity, std::string code, std::string message, Region region,
                std::string nodePath = {});
    void reportComponent(std::size_t index, Severity severity, std::string code,
                         std::string message, Region region);
    void reportTensor(std::size_t index, Severity severity, std::string code, std::string message,
                      Region region);

    bool readHeader();
    bool readManifestSize();
    bool locateManifest();
    bool decodeManifest();
    std::optional<CborScanResult> trySalvage(std::uint64_t declaredStart, std::uint64_t size);
    void readRoot();
    void readTensor(const std::string& name, const nlohmann::json& value);
    // The entries of a decoded map in the order they appear in the manifest.
    std::vector<std::pair<std::string, const nlohmann::json*>> inFileOrder(
        const nlohmann::json& map, const std::string& path) const;
    void readComponent(std::size_t tensorIndex, const std::string& role,
                       const nlohmann::json& value);
    void checkRequiredRoles(std::size_t tensorIndex);
    void checkLayout();
    void checkOverlaps();
    void buildLayoutEntries();

    // The region of a manifest entry by path; the whole manifest when it was not recorded.
    Region valueRegion(const std::string& path) const;
    Region entryRegion(const std::string& path) const;

    std::shared_ptr<ZtFile> file_;
    std::uint64_t sizeFieldOffset_ = 0;
    CborScanResult scan_;
};

}  // namespace strata::ztensor
