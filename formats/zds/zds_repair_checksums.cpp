#include "zds_repair_checksums.h"

#include <algorithm>
#include <cstdio>
#include <span>

#include "zds_jobs.h"
#include "zds_validator.h"

namespace strata::zds {

namespace {

constexpr std::size_t kProgressEvery = 64;  // members

// A member's local header and data in the archive.
Region memberBytes(const ByteSource* archive, const ZipMember& m) {
    const std::uint64_t end =
        m.dataOffset ? *m.dataOffset + m.compressedSize : m.localHeaderOffset + 30 + m.name.size();
    return Region{archive, m.localHeaderOffset, end - m.localHeaderOffset}.clipped();
}

bool isControl(char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

void appendEscaped(std::string& out, char c) {
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(c));
    out += escaped;
}

}  // namespace

std::string zdsCrcMismatch(std::uint32_t actual, std::uint32_t recorded) {
    char text[96];
    std::snprintf(text, sizeof text, "fails its CRC-32 (0x%08x, the archive records 0x%08x)",
                  actual, recorded);
    return text;
}

bool zdsUsableName(std::string_view path) {
    const std::span bytes(reinterpret_cast<const std::uint8_t*>(path.data()), path.size());
    return firstInvalidUtf8(bytes) == std::string::npos &&
           std::none_of(path.begin(), path.end(), isControl);
}

std::string zdsShownName(std::string_view path) {
    std::string out;
    while (!path.empty()) {
        const std::span bytes(reinterpret_cast<const std::uint8_t*>(path.data()), path.size());
        const std::size_t bad = firstInvalidUtf8(bytes);
        for (const char c : path.substr(0, bad)) {
            if (isControl(c)) {
                appendEscaped(out, c);
            } else {
                out.push_back(c);
            }
        }
        if (bad == std::string::npos) {
            break;
        }
        appendEscaped(out, path[bad]);
        path.remove_prefix(bad + 1);
    }
    return out;
}

void distrustDamagedNames(const ZdsStorage& storage, ZdsUntrusted& untrusted) {
    const std::string why = "has a damaged name (not UTF-8 text, or a control character)";
    std::vector<std::string> folders{""};
    while (!folders.empty()) {
        const std::string folder = std::move(folders.back());
        folders.pop_back();
        const std::string prefix = folder.empty() ? "" : folder + "/";
        for (const std::string& f : storage.files(folder)) {
            if (!zdsUsableName(prefix + f)) {
                untrusted.files[prefix + f] = why;
            }
        }
        for (const std::string& d : storage.directories(folder)) {
            if (!zdsUsableName(prefix + d)) {
                untrusted.files[prefix + d + "/"] = why;
            }
            folders.push_back(prefix + d);
        }
    }
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
            throw JobCancelled();
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
            throw JobCancelled();
        }
        if (!check.problem.empty()) {
            untrusted.files[m.name] = "cannot be read whole (" + check.problem + ")";
        } else if (check.actualCrc != m.crc) {
            untrusted.files[m.name] = zdsCrcMismatch(check.actualCrc, m.crc);
        }
    }
    return untrusted;
}

}  // namespace strata::zds
