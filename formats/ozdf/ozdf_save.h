// Safe saving of OZDF documents and corpora. Every file goes through AtomicFile, so each file
// on disk is always wholly old or wholly new; files whose bytes are already right are not
// touched. A directory document being changed carries the `.ozdf_writing` marker (the
// reference's interrupted-save marker, which both readers refuse) until all its new files are
// complete and its obsolete part files are gone. Documents removed from a corpus are deleted
// last, after every kept document is complete.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/common/validator.h"
#include "ozdf_document.h"
#include "ozdf_writer.h"

namespace strata::ozdf {

// What a save needs to know about a document as it was on disk: its name, its kind and the
// part file keys of its external lists (whose old part files may become obsolete).
struct DocumentFootprint {
    std::string filename;
    bool isDirectory = false;
    std::vector<std::string> partKeys;
};

DocumentFootprint footprintOf(const Document& document);
std::vector<DocumentFootprint> footprintsOf(const Corpus& corpus);

struct SaveOptions {
    // Only report what would be written and removed.
    bool dryRun = false;
    // Documents done / total; called between documents.
    ProgressCallback progress;
    // saveCorpusToFolder only (a new folder, so stopping half-way loses nothing): checked
    // before each document; once cancelled, the save removes what it wrote and throws
    // JobCancelled.
    const CancelToken* cancel = nullptr;
    // Items named "" keep their empty NAME block (see EmptyItemNames).
    EmptyItemNames emptyItemNames = EmptyItemNames::AsTheReference;
};

struct SaveReport {
    std::vector<std::filesystem::path> written;  // created or replaced (dry run: would be)
    std::vector<std::filesystem::path> removed;  // obsolete parts and documents
    std::size_t unchanged = 0;                   // files that already held the right bytes

    bool changed() const { return !written.empty() || !removed.empty(); }
};

// Writes `document` into `folder` (the folder that holds it). `previous` describes the document
// as it was read from there (nullptr for a new document). Throws WriteError (before anything is
// written) when the document cannot be written faithfully, FileWriteError on I/O failure.
SaveReport saveDocumentInPlace(const Document& document, const std::filesystem::path& folder,
                               const DocumentFootprint* previous, const SaveOptions& options = {});

// Saves `corpus` into `folder`, the corpus folder it was read from. `previous` lists the
// documents as they were read; those that `corpus` no longer holds are deleted at the end.
SaveReport saveCorpusInPlace(const Corpus& corpus, const std::filesystem::path& folder,
                             const std::vector<DocumentFootprint>& previous,
                             const SaveOptions& options = {});

// Writes `corpus` as a new corpus in `folder`, which must not exist or be empty (the input
// corpus is left untouched). Throws WriteError otherwise. The files are not synced one by one:
// one syncfs makes the whole new corpus durable before this returns. A save that fails or is
// cancelled half-way removes what it wrote (and the folder when it created it).
SaveReport saveCorpusToFolder(const Corpus& corpus, const std::filesystem::path& folder,
                              const SaveOptions& options = {});

}  // namespace strata::ozdf
