// The folder target of a write: each staged collection, completed with what the original
// keeps, swapped into the dataset in one atomic rename.
#include <fcntl.h>
#include <stdio.h>

#include <algorithm>
#include <system_error>

#include "formats/common/atomic_file.h"
#include "zds_writer_parts.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

void copySource(const ByteSource& src, AtomicFile& out) {
    for (std::uint64_t at = 0; at < src.size(); at += kCopyChunk) {
        const ByteView v = src.view(at, kCopyChunk);
        if (v.empty()) {
            break;
        }
        out.write(v.bytes);
    }
}

// Puts `fresh` where `current` is in one atomic step when the system allows it; the old tree
// ends up at `fresh`.
void swapInto(const fs::path& fresh, const fs::path& current) {
    std::error_code ec;
    if (!fs::exists(current, ec)) {
        fs::create_directories(current.parent_path(), ec);
        fs::rename(fresh, current, ec);
        if (ec) {
            throw ZdsWriteError("cannot move " + fresh.string() + " to " + current.string() + ": " +
                                ec.message());
        }
        return;
    }
    if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, current.c_str(), RENAME_EXCHANGE) == 0) {
        return;
    }
    // No exchange on this file system: two renames, with a short window between them (a kill
    // there leaves the old tree at `<stage>/c-NAME.old`, which validators report and the next
    // write refuses to delete).
    const fs::path old = fresh.string() + ".old";
    fs::rename(current, old, ec);
    if (ec) {
        throw ZdsWriteError("cannot replace " + current.string() + ": " + ec.message());
    }
    fs::rename(fresh, current, ec);
    if (ec) {
        std::error_code back;
        fs::rename(old, current, back);  // put the old tree back before the stage is removed
        throw ZdsWriteError("cannot replace " + current.string() + ": " + ec.message() +
                            (back ? "; the previous version is in " + old.string() : ""));
    }
    fs::rename(old, fresh, ec);
    if (ec) {
        fs::remove_all(old, ec);  // the new tree is in place: the old one is no longer needed
    }
}

void copyStorageFile(const ZdsStorage& storage, const std::string& rel, const fs::path& to,
                     bool tryLink) {
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (tryLink && !storage.isArchive()) {
        fs::create_hard_link(storage.displayPath(rel), to, ec);
        if (!ec) {
            return;
        }
    }
    const ByteSourcePtr src = storage.open(rel);
    if (!src) {
        throw ZdsWriteError("cannot read " + storage.displayPath(rel));
    }
    AtomicFile out(to);
    copySource(*src, out);
    out.commit();
}

}  // namespace

ZdsWriteResult writeFolder(const ZdsDataset* original, std::vector<StagedCollection>& staged,
                           const fs::path& stageRoot, const fs::path& target, bool single,
                           bool inPlace, Progress& progress) {
    std::error_code ec;
    fs::create_directories(target, ec);
    if (original != nullptr && !inPlace) {
        std::vector<std::string> all;
        listTree(original->storage(), "", all);
        for (const std::string& rel : all) {
            const bool inWritten = std::any_of(staged.begin(), staged.end(), [&](auto& s) {
                return !s.dirRel.empty() && rel.starts_with(s.dirRel + "/");
            });
            if (inWritten || (rel == "zds.json" && !staged.empty()) || !safeRelPath(rel) ||
                single || rel.find(kStagePrefix) != std::string::npos ||
                progress.options.leftOut(rel)) {
                continue;
            }
            copyStorageFile(original->storage(), rel, target / rel, false);
        }
    }
    if (progress.cancelled()) {
        return {true, 0, {}};
    }
    std::uint64_t written = 0;
    for (StagedCollection& s : staged) {
        if (s.previous != nullptr) {  // the rest of the old collection comes along
            std::vector<std::string> files;
            listTree(original->storage(), s.previous->dir(), files);
            for (const std::string& rel : files) {
                const std::string inColl =
                    s.previous->dir().empty() ? rel : rel.substr(s.previous->dir().size() + 1);
                if (!ownedByWrite(s, inColl) && safeRelPath(inColl) &&
                    inColl.find(kStagePrefix) == std::string::npos &&
                    !progress.options.leftOut(rel)) {
                    copyStorageFile(original->storage(), rel, s.dir / inColl, inPlace);
                }
            }
        }
        if (s.deferredWrites) {
            syncFileSystemOf(s.dir);
        }
        syncDirectory(s.dir);
        const fs::path dest = s.dirRel.empty() ? target : target / s.dirRel;
        swapInto(s.dir, dest);
        syncDirectory(dest.parent_path());
        written += s.count;
    }
    if (!single && !staged.empty()) {
        writeWholeFile(target / "zds.json",
                       zdsJsonText(original, staged, target, progress.options));
    }
    (void)stageRoot;
    return {false, written, {}};
}

}  // namespace strata::zds
