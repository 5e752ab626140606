#include "save_leftovers.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTempMarker = ".strata-";
constexpr std::size_t kTempSuffixLength = 12;  // AtomicFile's random part
constexpr std::string_view kStageMarker = "strata-stage-";
constexpr std::string_view kPartSuffix = ".part";
constexpr std::size_t kPartHexLength = 8;  // the app's ZS make job: ".%08x.part"
// Entries looked at inside one stage folder (its size, the files processes hold open).
constexpr std::size_t kFolderEntryLimit = 200000;

bool allOf(std::string_view text, bool (*accept)(char)) {
    return !text.empty() && std::all_of(text.begin(), text.end(), accept);
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isLowerAlnum(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z');
}

bool isLowerHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f');
}

// `.NAME.strata-XXXXXXXXXXXX` → NAME.
std::optional<std::string> tempTarget(std::string_view name) {
    const std::size_t at = name.rfind(kTempMarker);
    if (!name.starts_with('.') || at == std::string_view::npos || at < 2) {
        return std::nullopt;
    }
    const std::string_view suffix = name.substr(at + kTempMarker.size());
    if (suffix.size() != kTempSuffixLength || !allOf(suffix, isLowerAlnum)) {
        return std::nullopt;
    }
    return std::string(name.substr(1, at - 1));
}

// `.NAME.strata-stage-PID` → {NAME, PID}; `.strata-stage-PID` → {"", PID}. Early builds
// wrote `.NAMEstrata-stage-PID` beside archives and collection folders: read as NAME too.
std::optional<std::pair<std::string, std::int64_t>> stageTarget(std::string_view name) {
    const std::size_t at = name.rfind(kStageMarker);
    if (!name.starts_with('.') || at == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view pid = name.substr(at + kStageMarker.size());
    if (!allOf(pid, isDigit) || pid.size() > 9) {
        return std::nullopt;
    }
    std::string target;
    if (at != 1) {
        const bool dotted = name[at - 1] == '.';
        if (dotted && at < 3) {
            return std::nullopt;
        }
        target = std::string(name.substr(1, at - (dotted ? 2 : 1)));
    }
    return std::pair{target, std::stoll(std::string(pid))};
}

// `.NAME.strata-repair-PID` (formats/common/repair.h) → {NAME, PID}.
std::optional<std::pair<std::string, std::int64_t>> repairTarget(std::string_view name) {
    constexpr std::string_view kMarker = ".strata-repair-";
    const std::size_t at = name.rfind(kMarker);
    if (!name.starts_with('.') || at == std::string_view::npos || at < 2) {
        return std::nullopt;
    }
    const std::string_view pid = name.substr(at + kMarker.size());
    if (pid.empty() || !allOf(pid, isDigit) || pid.size() > 9) {
        return std::nullopt;
    }
    return std::pair{std::string(name.substr(1, at - 1)), std::stoll(std::string(pid))};
}

// `.NAME.XXXXXXXX.part` → NAME.
std::optional<std::string> partTarget(std::string_view name) {
    const std::size_t fixed = 1 + kPartHexLength + kPartSuffix.size();  // ".XXXXXXXX.part"
    if (!name.starts_with('.') || !name.ends_with(kPartSuffix) || name.size() < fixed + 2) {
        return std::nullopt;
    }
    const std::size_t dot = name.size() - fixed;
    const std::string_view hex = name.substr(dot + 1, kPartHexLength);
    if (name[dot] != '.' || !allOf(hex, isLowerHex)) {
        return std::nullopt;
    }
    return std::string(name.substr(1, dot - 1));
}

// `NAME.old` folders directly inside a stage folder.
std::vector<std::string> displacedIn(const fs::path& stage) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(stage, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeEc;
        if (name.ends_with(".old") && it->is_directory(typeEc) && !it->is_symlink(typeEc)) {
            out.push_back(name);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

struct FileId {
    dev_t device = 0;
    ino_t inode = 0;
    auto operator<=>(const FileId&) const = default;
};

// Every file some process holds open, by device and inode, read from /proc/PID/fd.
struct OpenFiles {
    std::map<FileId, std::vector<std::int64_t>> holders;
    bool procReadable = false;
    // Some process's descriptors could not be read (another user's, usually).
    bool complete = true;
};

bool allDigits(const char* text) {
    return *text != '\0' && allOf(text, isDigit);
}

void readDescriptorsOf(const std::string& pid, OpenFiles& out) {
    const std::string folder = "/proc/" + pid + "/fd";
    DIR* fds = ::opendir(folder.c_str());
    if (fds == nullptr) {
        out.complete = out.complete && errno == ENOENT;  // ENOENT: the process just exited
        return;
    }
    const std::int64_t id = std::stoll(pid);
    while (const dirent* entry = ::readdir(fds)) {
        if (!allDigits(entry->d_name)) {
            continue;
        }
        struct stat info {};
        if (::stat((folder + "/" + entry->d_name).c_str(), &info) == 0) {
            out.holders[{info.st_dev, info.st_ino}].push_back(id);
        }
    }
    ::closedir(fds);
}

OpenFiles openFilesOfAllProcesses() {
    OpenFiles out;
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) {
        out.complete = false;
        return out;
    }
    out.procReadable = true;
    while (const dirent* entry = ::readdir(proc)) {
        if (allDigits(entry->d_name)) {
            readDescriptorsOf(entry->d_name, out);
        }
    }
    ::closedir(proc);
    return out;
}

bool processRuns(std::int64_t pid) {
    if (pid <= 0 || pid > 0x7fffffff) {
        return false;
    }
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// When the system booted, in seconds since the epoch (/proc/stat `btime`).
std::optional<double> bootTime() {
    std::ifstream in("/proc/stat");
    std::string key;
    while (in >> key) {
        if (key == "btime") {
            double value = 0;
            return in >> value ? std::optional<double>(value) : std::nullopt;
        }
        in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return std::nullopt;
}

// When process `pid` started, in seconds since the epoch (field 22 of /proc/PID/stat).
std::optional<double> processStart(std::int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    const std::size_t close = line.rfind(')');  // the command name may hold spaces
    const std::optional<double> boot = bootTime();
    if (close == std::string::npos || !boot) {
        return std::nullopt;
    }
    std::istringstream fields(line.substr(close + 1));
    std::string field;
    for (int index = 3; index <= 22 && fields >> field; ++index) {
        if (index == 22) {
            const long ticks = ::sysconf(_SC_CLK_TCK);
            return ticks > 0 ? std::optional<double>(*boot + std::stod(field) / double(ticks))
                             : std::nullopt;
        }
    }
    return std::nullopt;
}

// Whether `pid`, alive, can be the process that last changed something at `changed` (seconds
// since the epoch): a process that started afterwards got a reused id. A little slack for the
// clock tick of /proc's start times.
bool mayBeWriter(std::int64_t pid, double changed) {
    if (!processRuns(pid)) {
        return false;
    }
    const std::optional<double> start = processStart(pid);
    return !start || *start <= changed + 0.05;
}

struct Footprint {
    std::vector<FileId> ids;
    std::uint64_t bytes = 0;
    uid_t owner = 0;
    double changed = 0;  // the leftover's own modification time, seconds since the epoch
};

// The leftover itself and, for a folder, everything in it (bounded), without following links.
Footprint footprintOf(const Leftover& leftover) {
    Footprint out;
    struct stat info {};
    if (::lstat(leftover.path.c_str(), &info) != 0) {
        return out;
    }
    out.owner = info.st_uid;
    out.changed = double(info.st_mtim.tv_sec) + double(info.st_mtim.tv_nsec) / 1e9;
    out.ids.push_back({info.st_dev, info.st_ino});
    if (!leftover.isFolder) {
        out.bytes = static_cast<std::uint64_t>(info.st_size);
        return out;
    }
    std::error_code ec;
    std::size_t seen = 0;
    for (fs::recursive_directory_iterator
             it(leftover.path, fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end && ++seen <= kFolderEntryLimit; it.increment(ec)) {
        if (::lstat(it->path().c_str(), &info) == 0) {
            out.ids.push_back({info.st_dev, info.st_ino});
            out.bytes += S_ISREG(info.st_mode) ? static_cast<std::uint64_t>(info.st_size) : 0;
        }
    }
    return out;
}

void checkUse(Leftover& leftover, const OpenFiles& open) {
    const Footprint footprint = footprintOf(leftover);
    leftover.bytes = footprint.bytes;
    std::set<std::int64_t> processes;
    for (const FileId& id : footprint.ids) {
        const auto found = open.holders.find(id);
        if (found != open.holders.end()) {
            processes.insert(found->second.begin(), found->second.end());
        }
    }
    if (mayBeWriter(leftover.writerPid, footprint.changed)) {
        processes.insert(leftover.writerPid);
    }
    leftover.processes.assign(processes.begin(), processes.end());
    const bool foreign = footprint.owner != ::geteuid() && ::geteuid() != 0;
    if (!leftover.processes.empty()) {
        leftover.use = LeftoverUse::InUse;
    } else if (!open.procReadable || (!open.complete && foreign)) {
        leftover.use = LeftoverUse::Unknown;
    } else {
        leftover.use = LeftoverUse::Unused;
    }
}

// `dir/` → `dir`; `.` and `..` → the absolute folder, so it has a name to look for beside it.
fs::path withoutTrailingSlash(const fs::path& path) {
    fs::path out = path.lexically_normal();
    if (out.filename().empty() && out.has_parent_path() && out != out.root_path()) {
        out = out.parent_path();
    }
    if (out.filename() == "." || out.filename() == "..") {
        std::error_code ec;
        out = fs::absolute(out, ec).lexically_normal();
        if (out.filename().empty() && out.has_parent_path() && out != out.root_path()) {
            out = out.parent_path();
        }
    }
    return out;
}

bool hasKind(const LeftoverScan& scan, LeftoverKind kind) {
    return (scan.kinds & static_cast<unsigned>(kind)) != 0;
}

void scanBeside(const fs::path& path, const LeftoverScan& scan, std::vector<Leftover>& out) {
    const std::string name = path.filename().string();
    const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        std::optional<Leftover> found = classifyLeftover(it->path());
        if (found && hasKind(scan, found->kind) && found->target == name) {
            out.push_back(std::move(*found));
        }
    }
}

void scanInside(const fs::path& root, const fs::path& relative, unsigned depth,
                const LeftoverScan& scan, std::vector<Leftover>& out) {
    std::error_code ec;
    for (fs::directory_iterator it(root / relative, ec), end; !ec && it != end; it.increment(ec)) {
        std::optional<Leftover> found = classifyLeftover(it->path());
        if (found) {
            if (hasKind(scan, found->kind)) {
                out.push_back(std::move(*found));
            }
            continue;  // nothing of a leftover is looked into
        }
        std::error_code typeEc;
        if (depth == 0 || !it->is_directory(typeEc) || it->is_symlink(typeEc)) {
            continue;
        }
        const fs::path child = relative / it->path().filename();
        if (!scan.descend || scan.descend(child)) {
            scanInside(root, child, depth - 1, scan, out);
        }
    }
}

std::string sizeText(const Leftover& leftover) {
    return std::to_string(leftover.bytes) + (leftover.bytes == 1 ? " byte" : " bytes");
}

std::string quoted(const std::string& name) {
    return "'" + name + "'";
}

std::string describe(const Leftover& l) {
    const bool running = l.use == LeftoverUse::InUse;
    if (l.repairOutput) {
        return running
                   ? "repaired copy being written as " + quoted(l.target)
                   : "unfinished repaired copy of an interrupted repair to " + quoted(l.target) +
                         " (" + sizeText(l) + "); nothing was written as " + quoted(l.target);
    }
    switch (l.kind) {
        case LeftoverKind::TempFile:
            return running ? "temporary file of a save of " + quoted(l.target) + " in progress"
                           : "temporary file of an interrupted save of " + quoted(l.target) + " (" +
                                 sizeText(l) + "); " + quoted(l.target) +
                                 " itself is whole, the old or the new version";
        case LeftoverKind::StageFolder: {
            const std::string what = l.target.empty() ? "this dataset" : quoted(l.target);
            if (!l.displaced.empty() && !running) {
                return "staging folder of an interrupted write of " + what + " holds " +
                       quoted(l.displaced.front()) +
                       ", data the write had moved out of the dataset to replace it: the "
                       "dataset lacks it until it is moved back (do not remove this folder)";
            }
            return running ? "staging folder of a write of " + what + " in progress"
                           : "staging folder of an interrupted write of " + what + " (" +
                                 sizeText(l) + "); nothing in it was moved into place";
        }
        case LeftoverKind::PartFile:
            return running ? "unfinished output of a ZS file being made as " + quoted(l.target)
                           : "unfinished output of an interrupted \"New ZS file\" job for " +
                                 quoted(l.target) + " (" + sizeText(l) + ")";
    }
    return {};
}

}  // namespace

std::string_view leftoverCodeSuffix(LeftoverKind kind) {
    switch (kind) {
        case LeftoverKind::TempFile:
            return "LEFTOVER-TEMP";
        case LeftoverKind::StageFolder:
            return "LEFTOVER-STAGE";
        case LeftoverKind::PartFile:
            return "LEFTOVER-PART";
    }
    return "LEFTOVER-TEMP";
}

std::string Leftover::useText() const {
    std::string list;
    for (const std::int64_t pid : processes) {
        list += (list.empty() ? "" : ", ") + std::to_string(pid);
    }
    const std::string plural = processes.size() == 1 ? "process " : "processes ";
    switch (use) {
        case LeftoverUse::Unused:
            return writerPid > 0 ? "its writer, process " + std::to_string(writerPid) +
                                       ", is no longer running"
                                 : "no running process has it open";
        case LeftoverUse::InUse:
            return writerPid > 0 && processes.size() == 1 && processes.front() == writerPid
                       ? "its writer, process " + list + ", is still running"
                       : "open in " + plural + list;
        case LeftoverUse::Unknown:
            return "owned by another user, whose processes cannot be checked: a save may be in "
                   "progress";
    }
    return {};
}

std::string Leftover::keepReason() const {
    if (use != LeftoverUse::Unused) {
        return useText();
    }
    if (!displaced.empty()) {
        return "holds " + displaced.front() +
               ", data an interrupted write moved out of the dataset: move it back first";
    }
    return {};
}

std::optional<Leftover> classifyLeftover(const fs::path& path) {
    const std::string name = path.filename().string();
    if (!name.starts_with('.')) {
        return std::nullopt;
    }
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) {
        return std::nullopt;
    }
    Leftover out;
    out.path = path;
    if (const auto repair = repairTarget(name);
        repair && (S_ISDIR(info.st_mode) || S_ISREG(info.st_mode))) {
        out.kind = S_ISDIR(info.st_mode) ? LeftoverKind::StageFolder : LeftoverKind::TempFile;
        out.isFolder = S_ISDIR(info.st_mode);
        out.target = repair->first;
        out.writerPid = repair->second;
        out.repairOutput = true;
        out.bytes = out.isFolder ? 0 : static_cast<std::uint64_t>(info.st_size);
        return out;
    }
    if (S_ISDIR(info.st_mode)) {
        const auto stage = stageTarget(name);
        if (!stage) {
            return std::nullopt;
        }
        out.kind = LeftoverKind::StageFolder;
        out.isFolder = true;
        out.target = stage->first;
        out.writerPid = stage->second;
        out.displaced = displacedIn(path);
        return out;
    }
    if (!S_ISREG(info.st_mode)) {
        return std::nullopt;
    }
    out.bytes = static_cast<std::uint64_t>(info.st_size);
    if (auto target = tempTarget(name)) {
        out.kind = LeftoverKind::TempFile;
        out.target = std::move(*target);
        return out;
    }
    if (auto target = partTarget(name)) {
        out.kind = LeftoverKind::PartFile;
        out.target = std::move(*target);
        return out;
    }
    return std::nullopt;
}

void checkLeftoverUse(std::vector<Leftover>& leftovers) {
    if (leftovers.empty()) {
        return;
    }
    const OpenFiles open = openFilesOfAllProcesses();
    for (Leftover& leftover : leftovers) {
        checkUse(leftover, open);
    }
}

std::vector<Leftover> findSaveLeftovers(const fs::path& path, const LeftoverScan& scan) {
    std::vector<Leftover> out;
    const fs::path clean = withoutTrailingSlash(path);
    std::error_code ec;
    const fs::file_status status = fs::status(clean, ec);
    if (clean.filename().empty()) {
        return out;  // the root folder
    }
    scanBeside(clean, scan, out);
    if (fs::is_directory(status)) {
        scanInside(clean, {}, scan.depth, scan, out);
    }
    std::sort(out.begin(), out.end(),
              [](const Leftover& a, const Leftover& b) { return a.path < b.path; });
    checkLeftoverUse(out);
    return out;
}

Diagnostic leftoverDiagnostic(const Leftover& leftover, std::string_view codePrefix) {
    Diagnostic d;
    d.severity = leftover.use == LeftoverUse::InUse ? Severity::Info
                 : leftover.displaced.empty()       ? Severity::Warning
                                                    : Severity::Error;
    d.code = std::string(codePrefix) + "-" + std::string(leftoverCodeSuffix(leftover.kind));
    d.message = describe(leftover) + " (" + leftover.useText() + ")";
    d.file = leftover.path.string();
    return d;
}

void reportSaveLeftovers(const fs::path& path, std::string_view codePrefix,
                         const LeftoverScan& scan, DiagnosticSink& sink) {
    for (const Leftover& leftover : findSaveLeftovers(path, scan)) {
        sink.report(leftoverDiagnostic(leftover, codePrefix));
    }
}

bool isLeftoverCode(std::string_view code) {
    for (const LeftoverKind kind :
         {LeftoverKind::TempFile, LeftoverKind::StageFolder, LeftoverKind::PartFile}) {
        const std::string_view suffix = leftoverCodeSuffix(kind);
        if (code.size() > suffix.size() && code.ends_with(suffix) &&
            code[code.size() - suffix.size() - 1] == '-') {
            return true;
        }
    }
    return false;
}

LeftoverRemoval removeLeftovers(const std::vector<fs::path>& paths) {
    LeftoverRemoval out;
    std::set<fs::path> done;
    for (const fs::path& path : paths) {
        if (!done.insert(path).second) {
            continue;
        }
        std::optional<Leftover> leftover = classifyLeftover(path);
        if (!leftover) {
            std::error_code ec;
            out.kept.emplace_back(path,
                                  fs::symlink_status(path, ec).type() == fs::file_type::not_found
                                      ? "no longer there"
                                      : "not the temporary file or folder of a save");
            continue;
        }
        std::vector<Leftover> one{std::move(*leftover)};
        checkLeftoverUse(one);
        if (!one.front().removable()) {
            out.kept.emplace_back(path, one.front().keepReason());
            continue;
        }
        std::error_code ec;
        if (one.front().isFolder) {
            fs::remove_all(path, ec);
        } else {
            fs::remove(path, ec);
        }
        if (ec) {
            out.kept.emplace_back(path, "cannot remove: " + ec.message());
        } else {
            out.removed.push_back(path);
        }
    }
    return out;
}

}  // namespace strata
