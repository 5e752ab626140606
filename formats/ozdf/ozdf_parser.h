// Reads OZDF documents (standalone `.ozdf` files and directory documents with their `.ozdp`
// parts) and corpora the way the reference does, keeping the bytes every element came from.
// Reading never stops at the first problem: everything the reference would refuse is recorded
// as an Error diagnostic and the rest of the input is still read, so a damaged document still
// shows a tree.
#pragma once

#include <filesystem>
#include <string>

#include "ozdf_document.h"

namespace strata::ozdf {

enum class Grammar {
    Document,  // .ozdf files and _metadata.ozdf: blocks, lists, comments, external lists
    DataPart,  // .ozdp files: plain blocks and comments only
};

// A file or a directory document. Throws SourceError when the path is neither or cannot be
// opened; every other problem becomes a diagnostic.
Document readDocument(const std::filesystem::path& path);

// A standalone document (or a data part, with Grammar::DataPart) held in `source`.
Document readDocumentSource(ByteSourcePtr source, std::string filename,
                            Grammar grammar = Grammar::Document);

// A folder of documents: `.ozdf` files and folders holding `_metadata.ozdf` (or the interrupted
// save marker), sorted by full path. Throws SourceError when the folder cannot be listed.
Corpus readCorpus(const std::filesystem::path& folder);

// Whether a folder is read as one directory document rather than as a corpus: it holds
// `_metadata.ozdf` or the interrupted save marker, or it holds `.ozdp` part files and no
// documents (a directory document that lost its metadata, reported as such).
bool opensAsDocument(const std::filesystem::path& folder);

// The part file key of an external list: its upper-cased name with every space turned into '_'.
std::string partFileKey(std::string_view listName);

}  // namespace strata::ozdf
