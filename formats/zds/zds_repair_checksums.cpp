#include "zds_repair_checksums.h"

#include <cstdio>

#include "zds_jobs.h"

namespace strata {

namespace {

constexpr std::size_t kProgressEvery = 64;  // members

// A member's local header and data in the archive.
Region memberBytes(const ByteSource* archive, const ZipMember& m) {
    const std::uint64_t end =
        m.dataOffset ? *m.dataOffset + m.compressedSize : m.localHeaderOffset + 30 + m.name.size();
    return Region{archive, m.localHeaderOffset, end - m.localHeaderOffset}.clipped();
}

}  // namespace

std::string zdsCrcMismatch(std::uint32_t actual, std::uint32_t recorded) {
    char text[96];
    std::snprintf(text, sizeof text, "fails its CRC-32 (0x%08x, the archive records 0x%08x)",
                  actual, recorded);
    return text;
}

std::set<std::string> ZdsUntrusted::paths() const {
    std::set<std::string> out;
    for (const auto& [path, why] : files) {
        out.insert(path);
    }
    return out;
}

ZdsUntrusted checkZdsArchiveMembers(const ZipArchive& archive, const RepairOptions& options,
                                    RepairReport& report) {
    ZdsUntrusted untrusted;
    const auto& members = archive.members();
    const ByteSource* source = archive.archiveSource().get();
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (options.cancel != nullptr && options.cancel->cancelled()) {
            throw RepairError("cancelled");
        }
        if (i % kProgressEvery == 0) {
            options.reportProgress(double(i) / double(members.size()),
                                   "checking the CRC-32 of " + members[i].name);
        }
        const ZipMember& m = members[i];
        if (m.isDirectory()) {
            continue;
        }
        if (!zdsSafeMemberName(m.name)) {
            report.losses.push_back({"archive member '" + m.name +
                                         "': its name would leave the dataset (absolute, '..', a "
                                         "backslash or a drive letter); not copied",
                                     memberBytes(source, m)});
            continue;
        }
        if (archive.find(m.name) != &m) {
            report.actions.push_back(
                {"archive member '" + m.name + "' (local header at byte " +
                     std::to_string(m.localHeaderOffset) +
                     ") appears again later in the archive; readers use the later copy, so this "
                     "one is left out",
                 memberBytes(source, m)});
            continue;
        }
        const ZipCrcCheck check = archive.checkCrc(m, options.cancel);
        if (check.cancelled) {
            throw RepairError("cancelled");
        }
        if (!check.problem.empty()) {
            untrusted.files[m.name] = "cannot be read whole (" + check.problem + ")";
        } else if (check.actualCrc != m.crc) {
            untrusted.files[m.name] = zdsCrcMismatch(check.actualCrc, m.crc);
        }
    }
    return untrusted;
}

}  // namespace strata
