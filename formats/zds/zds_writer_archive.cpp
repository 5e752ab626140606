// The archive target of a write: a new `.zds` built in the stage folder from the original's
// members and the staged files, then renamed over the target.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <system_error>

#include "formats/common/zip_library.h"
#include "zds_writer_parts.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

// libzip does not flush what it writes: before the rename makes the archive visible.
void syncFile(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int error = errno;
        if (fd >= 0) {
            ::close(fd);
        }
        throw ZdsWriteError("cannot flush " + file.string() + ": " + std::strerror(error));
    }
    ::close(fd);
}

struct ZipHandle {
    const ZipLibrary& libzip;
    zip_t* z = nullptr;
    ~ZipHandle() {
        if (z != nullptr) {
            libzip.discard(z);
        }
    }
};

int zipCancelled(zip_t*, void* ud) {
    return static_cast<Progress*>(ud)->cancelled() ? 1 : 0;
}

void zipProgress(zip_t*, double fraction, void* ud) {
    auto* p = static_cast<Progress*>(ud);
    p->options.reportProgress(0.95 + 0.05 * fraction, "writing archive");
}

void addToZip(const ZipLibrary& libzip, zip_t* z, const std::string& name, zip_source_t* src,
              bool storeOrDeflate, bool deflate) {
    if (src == nullptr) {
        throw ZdsWriteError("cannot add " + name + ": " + libzip.strerror(z));
    }
    const zip_int64_t idx =
        libzip.fileAdd(z, name.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (idx < 0) {
        libzip.sourceFree(src);
        throw ZdsWriteError("cannot add " + name + ": " + libzip.strerror(z));
    }
    if (storeOrDeflate) {
        libzip.setFileCompression(z, static_cast<zip_uint64_t>(idx),
                                  deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    }
}

// Folders of `storage` under `rel` (relative paths, without the trailing '/').
void listDirectories(const ZdsStorage& storage, const std::string& rel,
                     std::vector<std::string>& out) {
    for (const std::string& d : storage.directories(rel)) {
        const std::string path = joinRel(rel, d);
        if (d.find(kStagePrefix) != std::string::npos || !safeRelPath(path)) {
            continue;
        }
        out.push_back(path);
        listDirectories(storage, path, out);
    }
}

// Every folder of a member name: "a/b/c" gives "a/" and "a/b/".
void addParentFolders(const std::string& name, std::set<std::string>& folders) {
    for (auto slash = name.find('/'); slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
        folders.insert(name.substr(0, slash + 1));
    }
}

// A member to add: copied from the original archive, or from a file on disk.
struct PendingMember {
    std::string name;
    std::optional<zip_uint64_t> archiveIndex;
    std::string path;
};

}  // namespace

ZdsWriteResult writeArchive(const ZdsDataset* original, std::vector<StagedCollection>& staged,
                            const fs::path& stageRoot, const fs::path& target, Progress& progress) {
    const ZipLibrary& libzip = zipLibrary();
    int err = 0;
    ZipHandle src{libzip};
    if (original != nullptr && original->archive()) {
        src.z = libzip.open(original->archive()->path().c_str(), ZIP_RDONLY, &err);
        if (src.z == nullptr) {
            throw ZdsWriteError("cannot reopen " + original->archive()->path().string());
        }
    }
    // Built inside the stage folder (libzip writes `archive.zds.XXXXXX` next to it until
    // zip_close), so a write cut short leaves nothing beside the target but the stage, which the
    // next write removes and validators report; then renamed over the target.
    const fs::path building = stageRoot / "archive.zds";
    ZipHandle out{libzip};
    out.z = libzip.open(building.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (out.z == nullptr) {
        zip_error_t e;
        libzip.errorInitWithCode(&e, err);
        const std::string why = libzip.errorStrerror(&e);
        libzip.errorFini(&e);
        throw ZdsWriteError("cannot create " + target.string() + ": " + why);
    }
    const bool deflate = progress.options.deflate;
    // A pack (nothing rewritten) copies the files as they are, zds.json (if any) included.
    const bool keepZdsJson = staged.empty();
    std::vector<PendingMember> members;
    // Folders get entries of their own, as the reference writes them: an empty collection or
    // an empty dataset survives a round trip through the archive.
    std::set<std::string> folders{"collections/"};
    // Where a path of the original goes in the archive ("" when the write replaces it).
    auto outputName = [&](const std::string& rel) -> std::string {
        const StagedCollection* owner = nullptr;
        for (const StagedCollection& s : staged) {
            if (s.previous != nullptr &&
                (s.previous->dir().empty() || rel.starts_with(s.previous->dir() + "/"))) {
                owner = &s;
            }
        }
        if (owner != nullptr) {
            const std::string inColl = owner->previous->dir().empty()
                                           ? rel
                                           : rel.substr(owner->previous->dir().size() + 1);
            return ownedByWrite(*owner, inColl) ? std::string() : joinRel(owner->dirRel, inColl);
        }
        if (original->singleCollection) {
            return "collections/" + original->collections.at(0)->name() + "/" + rel;
        }
        return rel;
    };
    // Everything of the original that the write does not replace, copied as stored.
    if (original != nullptr) {
        std::vector<std::string> all;
        listTree(original->storage(), "", all);
        for (const std::string& rel : all) {
            const std::string outName = outputName(rel);
            if (outName.empty() || (rel == "zds.json" && !keepZdsJson) || !safeRelPath(rel) ||
                rel.find(kStagePrefix) != rel.npos || progress.options.leftOut(rel)) {
                continue;
            }
            PendingMember m{outName, std::nullopt, {}};
            if (src.z != nullptr) {
                const ZipMember* zm = original->archive()->find(rel);
                if (zm == nullptr) {
                    throw ZdsWriteError("cannot add " + outName + ": not in the archive");
                }
                m.archiveIndex = zm->index;
            } else {
                m.path = original->storage().displayPath(rel);
            }
            members.push_back(std::move(m));
        }
        std::vector<std::string> dirs;
        listDirectories(original->storage(), "", dirs);
        if (original->singleCollection) {
            dirs.push_back("");
        }
        for (const std::string& rel : dirs) {
            const std::string outName =
                original->singleCollection
                    ? joinRel("collections/" + original->collections.at(0)->name(), rel)
                    : rel;
            const bool replaced = std::any_of(staged.begin(), staged.end(), [&](auto& s) {
                return s.previous != nullptr && !s.dirRel.empty() &&
                       (outName == s.dirRel || outName.starts_with(s.dirRel + "/"));
            });
            if (!replaced && !progress.options.leftOut(rel + "/")) {
                folders.insert(outName + "/");
            }
        }
    }
    for (const StagedCollection& s : staged) {
        std::vector<std::string> dirs;
        const auto stagedTree = makeFolderStorage(s.dir);
        listDirectories(*stagedTree, "", dirs);
        folders.insert(s.dirRel + "/");
        for (const std::string& d : dirs) {
            folders.insert(joinRel(s.dirRel, d) + "/");
        }
        for (const std::string& rel : s.generated) {
            members.push_back({joinRel(s.dirRel, rel), std::nullopt, (s.dir / rel).string()});
        }
    }
    if (!keepZdsJson) {
        const fs::path zdsJson = stageRoot / "zds.json";
        writeWholeFile(zdsJson, zdsJsonText(original, staged, target, progress.options));
        members.push_back({"zds.json", std::nullopt, zdsJson.string()});
    }
    for (const PendingMember& m : members) {
        addParentFolders(m.name, folders);
    }
    for (const std::string& folder : folders) {
        if (folder != "/" && libzip.dirAdd(out.z, folder.c_str(), ZIP_FL_ENC_UTF_8) < 0 &&
            libzip.errorCodeZip(libzip.getError(out.z)) != ZIP_ER_EXISTS) {
            throw ZdsWriteError("cannot add " + folder + ": " + libzip.strerror(out.z));
        }
    }
    for (const PendingMember& m : members) {
        if (m.archiveIndex) {
            addToZip(libzip, out.z, m.name,
                     libzip.sourceZip(out.z, src.z, *m.archiveIndex, 0, 0, -1), false, false);
        } else {
            addToZip(libzip, out.z, m.name, libzip.sourceFile(out.z, m.path.c_str(), 0, -1), true,
                     deflate);
        }
    }
    std::uint64_t written = 0;
    for (const StagedCollection& s : staged) {
        written += s.count;
    }

    libzip.registerProgressCallback(out.z, 0.01, zipProgress, nullptr, &progress);
    libzip.registerCancelCallback(out.z, zipCancelled, nullptr, &progress);
    if (libzip.close(out.z) != 0) {
        const bool cancelled = progress.cancelled();
        const std::string why = libzip.strerror(out.z);
        if (cancelled) {
            return {true, 0, {}};
        }
        throw ZdsWriteError("cannot write " + target.string() + ": " + why);
    }
    out.z = nullptr;
    if (!fs::exists(building)) {  // libzip writes no file for an archive without members
        throw ZdsWriteError("cannot write " + target.string() + ": nothing to put in it");
    }
    struct stat existing {};
    if (::stat(target.c_str(), &existing) == 0) {
        ::chmod(building.c_str(), existing.st_mode & 07777);  // a replaced archive keeps its mode
    }
    syncFile(building);
    std::error_code ec;
    fs::rename(building, target, ec);
    if (ec) {
        throw ZdsWriteError("cannot replace " + target.string() + ": " + ec.message());
    }
    syncDirectory(target.parent_path().empty() ? fs::path(".") : target.parent_path());
    return {false, written, {}};
}

}  // namespace strata::zds
