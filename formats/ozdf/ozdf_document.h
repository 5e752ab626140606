// What an OZDF reader makes of a document or corpus: the elements the reference reads, each
// with the bytes it came from, plus every problem found on the way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/common/region.h"

namespace strata::ozdf {

struct Paragraph {
    // Normalised: lines joined, whitespace runs collapsed to one space.
    std::string text;
    // From the first byte of its first line to the last text byte of its last line.
    Region region;
};

struct Item {
    // Unset for `====` without a name (and for parts without a NAME block); list item names
    // keep their case.
    std::optional<std::string> name;
    std::vector<Paragraph> paragraphs;
    // The item from its marker line to the line before the next marker or header; for an item
    // read from a part, the DATA block of that part.
    Region region;
    Region markerRegion;
    // Set for items of external lists: the part file the item came from.
    std::string partFile;
    std::uint64_t partIndex = 0;
    // The whole part file (external lists only).
    Region partRegion;
};

enum class ElementKind { Block, List, ExternalList, Comment };

struct Element {
    ElementKind kind = ElementKind::Block;
    // Upper-cased (blocks and lists); empty for comments.
    std::string name;
    // The name as written in the header.
    std::string writtenName;
    std::vector<Paragraph> paragraphs;  // blocks
    std::vector<Item> items;            // lists and external lists
    std::string text;                   // comments: lines joined with '\n', not normalised
    // From the header line to the line before the next header.
    Region region;
    Region headerRegion;
};

std::string_view elementKindName(ElementKind kind);

struct Document {
    // File name (standalone) or folder name (directory document).
    std::string filename;
    bool isDirectory = false;
    std::filesystem::path path;
    std::vector<Element> elements;
    // The file itself, or `_metadata.ozdf` followed by the part files read.
    std::vector<ByteSourcePtr> sources;
    // Everything found while reading, in reading order. Errors mean the reference refuses the
    // document.
    std::vector<Diagnostic> diagnostics;
    // Read through a remote tree (`path` holds a URL): nothing beside it is looked at on disk.
    bool remote = false;

    bool accepted() const;
    const ByteSource* mainSource() const { return sources.empty() ? nullptr : sources[0].get(); }
};

struct Corpus {
    std::filesystem::path path;
    // Sorted by full path, as the reference loads them.
    std::vector<Document> documents;
    // About the corpus folder itself (skipped sub-folders, unreadable entries).
    std::vector<Diagnostic> diagnostics;
    // Read through a remote tree (`path` holds a URL).
    bool remote = false;

    // False when any document (or the corpus itself) has an error: the reference then refuses
    // to load the whole corpus.
    bool accepted() const;
};

}  // namespace strata::ozdf
