// The validator's checks of a `.zds` archive: that it opens as a ZIP, and each member's name,
// method, CRC-32 and size.
#include <cstring>
#include <string>
#include <unordered_map>

#include "formats/common/zip_member_source.h"
#include "zds_reader.h"
#include "zds_validator_parts.h"

namespace strata::zds {

namespace {

bool pathEscapes(std::string_view name) {
    if (name.empty() || name.front() == '/' || name.find('\\') != std::string_view::npos ||
        (name.size() >= 2 && name[1] == ':')) {
        return true;
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto slash = name.find('/', start);
        const auto seg =
            name.substr(start, slash == std::string_view::npos ? name.npos : slash - start);
        if (seg == "..") {
            return true;
        }
        if (slash == std::string_view::npos) {
            break;
        }
        start = slash + 1;
    }
    return false;
}

}  // namespace

// The archive through libzip (with or without its consistency checks): the file on disk,
// or a remote file read by range.
void ZdsValidator::openWithLibzip(const ByteSourcePtr& raw, bool checkConsistency) const {
    if (tree_) {
        ZipArchive::open(raw, checkConsistency);
    } else {
        ZipArchive::open(path_, checkConsistency);
    }
}

bool ZdsValidator::openArchive(Reporter& r) {
    ByteSourcePtr raw = rawKeep_;
    if (ds_ && ds_->archive()) {
        raw = ds_->archive()->archiveSource();
    }
    if (!raw) {
        try {
            raw = tree_ ? tree_->open(location()) : openMappedFile(path_);
        } catch (const StoreError& e) {
            if (!e.missing()) {
                throw;
            }
            r.error("ZDS-ZIP-CORRUPT", e.what(), {}, path_.string());
            return false;
        } catch (const SourceError& e) {
            r.error("ZDS-ZIP-CORRUPT", e.what(), {}, path_.string());
            return false;
        }
    }
    std::uint8_t sig[4] = {};
    const std::size_t got = raw->read(0, sig);
    const bool zipLike = got == 4 && sig[0] == 'P' && sig[1] == 'K' &&
                         ((sig[2] == 3 && sig[3] == 4) || (sig[2] == 5 && sig[3] == 6));
    if (!zipLike) {
        r.error("ZDS-NOT-ZIP",
                "a .zds dataset must be a ZIP archive, and this file does not start with a "
                "ZIP header",
                Region{raw.get(), 0, 4}.clipped());
        rawKeep_ = raw;
        return false;
    }
    rawKeep_ = raw;
    try {
        openWithLibzip(raw, true);
    } catch (const ZipError& e) {
        // Try without the consistency check: a readable archive is still worth checking.
        try {
            openWithLibzip(raw, false);
            std::string reason = e.what();
            const auto colon = reason.rfind(": ");
            reason = colon == std::string::npos ? reason : reason.substr(colon + 2);
            r.error("ZDS-ZIP-CORRUPT", "the archive fails libzip's consistency check: " + reason,
                    {}, path_.string());
        } catch (const StoreError&) {
            throw;
        } catch (const SourceError& e2) {
            r.error("ZDS-ZIP-CORRUPT", e2.what(), Region{raw.get(), 0, raw->size()});
            return false;
        }
    }
    if (path_.extension() != ".zds") {
        r.warning("ZDS-ZIP-EXTENSION",
                  "a ZDS archive should be named .zds (the reference refuses other names)", {},
                  path_.string());
    }
    return true;
}

bool ZdsValidator::checkArchive(Reporter& r, const ValidationOptions& opt) {
    const ZipArchive& za = *ds_->archive();
    const ByteSource* src = za.archiveSource().get();
    std::unordered_map<std::string, std::uint64_t> seen;
    const auto& members = za.members();
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (opt.cancelled()) {
            return false;
        }
        const ZipMember& m = members[i];
        const Region header = Region{src, m.localHeaderOffset, 30 + m.name.size()}.clipped();
        if (!seen.emplace(m.name, i).second) {
            r.error("ZDS-ZIP-DUPLICATE",
                    "member " + quoteName(m.name) +
                        " appears more than once; readers disagree "
                        "on which copy wins (Strata reads the last)",
                    header);
        }
        if (pathEscapes(m.name)) {
            r.error("ZDS-ZIP-PATH",
                    "member name " + quoteName(m.name) +
                        " is absolute, uses backslashes or "
                        "'..': unpacking it would write outside the target folder",
                    header);
        }
        if (m.isDirectory()) {
            continue;
        }
        if (!m.dataOffset) {
            r.error("ZDS-ZIP-CORRUPT",
                    "member " + quoteName(m.name) + " has no valid local header at offset " +
                        std::to_string(m.localHeaderOffset),
                    header);
            continue;
        }
        const Region data{src, *m.dataOffset, m.compressedSize};
        if (m.method != kZipMethodStore && m.method != kZipMethodDeflate) {
            r.error("ZDS-ZIP-METHOD",
                    "member " + quoteName(m.name) + " uses compression method " +
                        std::to_string(m.method) + "; only STORE and DEFLATE are readable",
                    header);
            continue;
        }
        if (m.method == kZipMethodDeflate &&
            (m.name.ends_with("/meta/data.jsonl") || m.name.ends_with("/meta/index.bin"))) {
            r.warning("ZDS-ZIP-DEFLATED",
                      "member " + quoteName(m.name) +
                          " is DEFLATE-compressed: it cannot be read "
                          "in place, so random access means inflating it (STORE is preferred)",
                      header);
        }
        const ZipCrcCheck check = za.checkCrc(m);
        if (!check.problem.empty()) {
            r.error("ZDS-ZIP-CORRUPT", "member " + quoteName(m.name) + ": " + check.problem,
                    data.clipped());
        } else if (check.actualCrc != m.crc) {
            char buf[96];
            std::snprintf(buf, sizeof buf, ": CRC-32 is 0x%08x, the directory says 0x%08x",
                          check.actualCrc, m.crc);
            r.error("ZDS-ZIP-CRC", "member " + quoteName(m.name) + buf, data.clipped());
        } else if (check.produced != m.uncompressedSize) {
            r.error("ZDS-ZIP-SIZE",
                    "member " + quoteName(m.name) + " holds " + std::to_string(check.produced) +
                        " bytes but the directory claims " + std::to_string(m.uncompressedSize),
                    data.clipped());
        }
    }
    return true;
}

}  // namespace strata::zds
