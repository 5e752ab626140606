// The validator's checks of a JSONL collection: each line of data.jsonl, index.bin against the
// lines, and a repair's copied lines against what was copied.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_live_set.h"
#include "zds_reader.h"
#include "zds_validator_parts.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kProgressEvery = 8192;

}  // namespace

// A repair's copy (ZdsCopiedData): every line the bytes copied there, every index entry
// its key and its line's place, in order, with nothing after them.
bool ZdsValidator::checkCopiedJsonl(Reporter& r, const ValidationOptions& opt,
                                    const ZdsCollection& c, const ZdsCopiedLines& copied) {
    const ByteSource& data = *c.data;
    const std::uint64_t n = copied.count();
    const ZdxIndex* zdx = copiedIndex(r, c, copied.listedCount());
    std::uint64_t at = 0;
    std::uint64_t entry = 0;
    bool linesMatch = true;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i % kProgressEvery == 0) {
            if (opt.cancelled()) {
                return false;
            }
            opt.reportProgress(
                base_ + span_ * static_cast<double>(i) / static_cast<double>(n),
                c.name() + ": line " + std::to_string(i) + " of " + std::to_string(n));
        }
        const ZdsCopiedLine line = copied.line(i);
        const std::uint64_t length = line.bytes.size() + 1;
        if (linesMatch && !sameLine(data, at, line.bytes.bytes)) {
            r.error("ZDS-COPY-MISMATCH",
                    "line " + std::to_string(i + 1) +
                        " of data.jsonl is not the copy of the input line written there (" +
                        std::to_string(length) + " bytes with its newline)",
                    Region{&data, at, length}.clipped());
            linesMatch = false;  // the places of the lines after it are unknown
        }
        if (zdx != nullptr && line.listed) {
            checkCopiedEntry(r, *zdx, entry, line.key, at, length);
        }
        entry += line.listed ? 1 : 0;
        at += length;
    }
    if (linesMatch && at != data.size()) {
        r.error("ZDS-COPY-MISMATCH",
                "data.jsonl is " + std::to_string(data.size()) + " bytes; the " +
                    std::to_string(n) + " lines copied there take " + std::to_string(at),
                Region{&data, std::min(at, data.size()), data.size() - std::min(at, data.size())});
    }
    copiedCounts_[&c] = copied.listedCount();
    return !opt.cancelled();
}

bool ZdsValidator::sameLine(const ByteSource& data, std::uint64_t at,
                            std::span<const std::uint8_t> bytes) {
    const ByteView v = data.view(at, bytes.size() + 1);
    return v.size() == bytes.size() + 1 && v.bytes.back() == '\n' &&
           std::equal(bytes.begin(), bytes.end(), v.bytes.begin());
}

// The copy's index, when it is a whole ZDX index of `n` entries (an error otherwise).
const ZdxIndex* ZdsValidator::copiedIndex(Reporter& r, const ZdsCollection& c, std::uint64_t n) {
    const ZdxIndex* zdx = c.zdx();
    if (zdx == nullptr || zdx->layout() != ZdxLayout::Binary || !zdx->headerComplete() ||
        zdx->version() != 1) {
        r.error("ZDS-COPY-MISMATCH",
                "meta/index.bin is not the version 1 ZDX index the repair wrote", whole(c.index),
                ds_->storage().displayPath(c.path("meta/index.bin")));
        return nullptr;
    }
    checkIndexCount(r, *zdx, c.index.get());
    if (zdx->entryCount() != n) {
        r.error("ZDS-COPY-MISMATCH",
                "meta/index.bin holds " + std::to_string(zdx->entryCount()) +
                    " entries; the repair wrote " + std::to_string(n),
                Region{c.index.get(), 8, 8});
    }
    return zdx;
}

void ZdsValidator::checkCopiedEntry(Reporter& r, const ZdxIndex& zdx, std::uint64_t i,
                                    const std::string& key, std::uint64_t offset,
                                    std::uint64_t length) {
    if (i >= zdx.entryCount()) {
        return;
    }
    const ZdxEntry e = zdx.entry(i);
    if (!e.parsed || e.id != key || e.offset != offset || e.length != length) {
        r.error("ZDS-COPY-MISMATCH",
                "index entry " + std::to_string(i + 1) +
                    " is not the one written: it should list " + quoteName(key) + " at offset " +
                    std::to_string(offset) + ", length " + std::to_string(length),
                e.entry);
    }
}

bool ZdsValidator::checkJsonl(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c) {
    const ByteSource& data = *c.data;
    const std::vector<std::uint64_t> starts = scanLineStarts(data);
    const std::uint64_t n = starts.size();
    std::vector<std::string> ids(n);
    std::vector<bool> blank(n, false);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i % kProgressEvery == 0) {
            if (opt.cancelled()) {
                return false;
            }
            opt.reportProgress(
                base_ + span_ * 0.8 * static_cast<double>(i) / static_cast<double>(n),
                c.name() + ": line " + std::to_string(i) + " of " + std::to_string(n));
        }
        const std::uint64_t end = i + 1 < n ? starts[i + 1] : data.size();
        const Region line{&data, starts[i], end - starts[i]};
        const ByteView v = data.view(line.offset, line.length);
        std::span<const std::uint8_t> text = v.bytes;
        const bool hasNewline = !text.empty() && text.back() == '\n';
        if (hasNewline) {
            text = text.first(text.size() - 1);
        } else {
            r.warning("ZDS-FINAL-NEWLINE",
                      "the last line has no terminating newline (every line must end "
                      "with \\n)",
                      Region{&data, end, 0});
        }
        if (!text.empty() && text.back() == '\r') {
            r.warning("ZDS-CRLF", "line ends with CR LF; ZDS lines end with LF alone",
                      Region{&data, line.offset + text.size() - 1, 1});
            text = text.first(text.size() - 1);
        }
        if (std::all_of(text.begin(), text.end(),
                        [](std::uint8_t ch) { return ch == ' ' || ch == '\t' || ch == '\r'; })) {
            blank[i] = true;
            r.warning("ZDS-BLANK-LINE", "blank line in data.jsonl", line);
            continue;
        }
        ids[i] = checkJsonText(r, text, line, true).id;
    }
    const bool indexed = c.index && c.zdx()->layout() != ZdxLayout::Unknown;
    std::uint64_t live = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        live += blank[i] ? 0 : 1;
    }
    if (c.index) {
        live = checkIndex(r, opt, c, starts, ids, blank);
    }
    if (!indexed) {
        checkDuplicateLines(r, c, starts, ids);
    }
    if (c.index) {
        const std::string problem = zdsIndexProblem(c);
        if (!problem.empty()) {
            r.warning("ZDS-LIVE-LINES",
                      "meta/index.bin is not used (" + problem +
                          "): the documents are the last line of each _id in data.jsonl, "
                          "as the reference reads them, so documents deleted only from the "
                          "index are live again",
                      whole(c.index));
        }
    }
    (void)live;
    return !opt.cancelled();
}

void ZdsValidator::checkDuplicateLines(Reporter& r, const ZdsCollection& c,
                                       const std::vector<std::uint64_t>& starts,
                                       const std::vector<std::string>& ids) {
    std::unordered_map<std::string_view, std::uint64_t> first;
    for (std::uint64_t i = 0; i < ids.size(); ++i) {
        if (ids[i].empty()) {
            continue;
        }
        const auto [it, inserted] = first.emplace(ids[i], i);
        if (!inserted) {
            const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : c.data->size();
            const std::uint64_t prevEnd = starts[it->second + 1];
            r.add(Severity::Warning, "ZDS-DUPLICATE-ID",
                  "_id " + quoteName(ids[i]) + " appears on line " +
                      std::to_string(it->second + 1) + " and again on line " +
                      std::to_string(i + 1) +
                      "; with no index the later line wins (an append-style update)",
                  {Region{c.data.get(), starts[i], end - starts[i]},
                   Region{c.data.get(), starts[it->second], prevEnd - starts[it->second]}});
            it->second = i;
        }
    }
}

// Returns the number of live documents (distinct lines the index reaches).
std::uint64_t ZdsValidator::checkIndex(Reporter& r, const ValidationOptions& opt,
                                       const ZdsCollection& c,
                                       const std::vector<std::uint64_t>& starts,
                                       const std::vector<std::string>& ids,
                                       const std::vector<bool>& blank) {
    const ZdxIndex& zdx = *c.zdx();
    const ByteSource* ix = c.index.get();
    const ByteSource* data = c.data.get();
    switch (zdx.layout()) {
        case ZdxLayout::Unknown:
            r.error("ZDS-ZDX-MAGIC",
                    "meta/index.bin does not start with the ZDX magic 'ISDZ' (49 53 44 5A); "
                    "the index must be rebuilt",
                    Region{ix, 0, 4}.clipped());
            return std::count(blank.begin(), blank.end(), false);
        case ZdxLayout::Text:
            r.warning("ZDS-ZDX-TEXT",
                      "meta/index.bin is a legacy text index (id, offset, length per line), "
                      "not the binary ZDX layout",
                      Region{ix, 0, ix->size()});
            break;
        case ZdxLayout::Binary:
            if (!zdx.headerComplete()) {
                r.error("ZDS-ZDX-TRUNCATED",
                        "meta/index.bin is shorter than the 16-byte ZDX header",
                        Region{ix, 0, ix->size()});
                return 0;
            }
            if (zdx.version() != 1) {
                r.error(
                    "ZDS-ZDX-VERSION",
                    "ZDX version " + std::to_string(zdx.version()) + " is not supported (only 1)",
                    Region{ix, 4, 4});
                return 0;
            }
            checkIndexCount(r, zdx, ix);
            break;
    }
    const std::uint64_t entries = zdx.entryCount();
    std::vector<std::uint32_t> coverage(starts.size(), 0);
    std::vector<std::uint64_t> coveredBy(starts.size(), 0);
    std::unordered_map<std::string, std::uint64_t> entryIds;  // id -> its first entry
    entryIds.reserve(entries);
    std::vector<char> idLanded(entries, 0);  // by first entry: an entry of the id landed
    for (std::uint64_t i = 0; i < entries; ++i) {
        if (i % kProgressEvery == 0) {
            if (opt.cancelled()) {
                return 0;
            }
            opt.reportProgress(
                base_ + span_ * (0.8 + 0.2 * static_cast<double>(i) / static_cast<double>(entries)),
                c.name() + ": index entry " + std::to_string(i));
        }
        const ZdxEntry e = zdx.entry(i);
        if (!e.parsed) {
            r.error("ZDS-ZDX-ENTRY",
                    "index line " + std::to_string(i + 1) + " is not id<TAB>offset<TAB>length",
                    e.entry);
            continue;
        }
        checkId(r, e.id, e.idRegion, true);
        const auto [it, inserted] = entryIds.emplace(e.id, i);
        if (!inserted) {
            r.add(Severity::Error, "ZDS-ZDX-DUPLICATE",
                  "id " + quoteName(e.id) + " has two index entries (" +
                      std::to_string(it->second) + " and " + std::to_string(i) + ")",
                  {e.entry, zdx.entry(it->second).entry});
        }
        const auto line = std::lower_bound(starts.begin(), starts.end(), e.offset);
        if (line == starts.end() || *line != e.offset) {
            r.error("ZDS-ZDX-OFFSET",
                    "entry " + quoteName(e.id) + ": offset " + std::to_string(e.offset) +
                        (e.offset >= data->size() ? " is past the end of data.jsonl (" +
                                                        std::to_string(data->size()) + " bytes)"
                                                  : " is not at the start of a line"),
                    e.offsetRegion);
            continue;
        }
        const auto li = static_cast<std::uint64_t>(line - starts.begin());
        const std::uint64_t lineEnd = li + 1 < starts.size() ? starts[li + 1] : data->size();
        const Region lineRegion{data, starts[li], lineEnd - starts[li]};
        if (e.length != lineEnd - e.offset) {
            r.add(Severity::Error, "ZDS-ZDX-LENGTH",
                  "entry " + quoteName(e.id) + ": length " + std::to_string(e.length) +
                      " does not match its line, which is " + std::to_string(lineEnd - e.offset) +
                      " bytes with its newline",
                  {e.lengthRegion, lineRegion});
        }
        if (blank[li]) {
            r.error("ZDS-ZDX-OFFSET", "entry " + quoteName(e.id) + " points at a blank line",
                    e.offsetRegion);
            continue;
        }
        idLanded[it->second] = 1;
        if (ids[li] != e.id) {
            r.add(Severity::Warning, "ZDS-ZDX-ID",
                  "entry " + quoteName(e.id) + " points at the line whose _id is " +
                      quoteName(ids[li]),
                  {e.idRegion, lineRegion});
        }
        if (coverage[li]++ > 0) {
            r.add(Severity::Error, "ZDS-ZDX-OVERLAP",
                  "entries " + quoteName(zdx.entry(coveredBy[li]).id) + " and " + quoteName(e.id) +
                      " both point at line " + std::to_string(li + 1),
                  {e.entry, lineRegion});
        } else {
            coveredBy[li] = i;
        }
    }
    std::uint64_t live = 0;
    for (std::uint64_t li = 0; li < starts.size(); ++li) {
        if (coverage[li] > 0) {
            ++live;
            continue;
        }
        if (blank[li]) {
            continue;
        }
        const std::uint64_t end = li + 1 < starts.size() ? starts[li + 1] : data->size();
        const Region lineRegion{data, starts[li], end - starts[li]};
        const auto entry = ids[li].empty() ? entryIds.end() : entryIds.find(ids[li]);
        if (entry != entryIds.end() && idLanded[entry->second] != 0) {
            r.info("ZDS-ZDX-SUPERSEDED",
                   "line " + std::to_string(li + 1) + " (_id " + quoteName(ids[li]) +
                       ") is an older version the index no longer points at",
                   lineRegion);
        } else {
            r.warning("ZDS-ZDX-UNCOVERED",
                      "line " + std::to_string(li + 1) + " (_id " + quoteName(ids[li]) +
                          ") has no index entry: a deleted document, or the index is "
                          "incomplete",
                      lineRegion);
        }
    }
    return live;
}

void ZdsValidator::checkIndexCount(Reporter& r, const ZdxIndex& zdx, const ByteSource* ix) {
    if (zdx.truncated()) {
        r.error("ZDS-ZDX-TRUNCATED",
                "meta/index.bin ends in the middle of entry " + std::to_string(zdx.entryCount()) +
                    " (the header declares " + std::to_string(zdx.declaredCount()) + ")",
                Region{ix, zdx.truncatedAt(), ix->size() - zdx.truncatedAt()});
    } else if (zdx.entryCount() < zdx.declaredCount()) {
        r.error("ZDS-ZDX-COUNT",
                "the header declares " + std::to_string(zdx.declaredCount()) +
                    " entries but the file holds " + std::to_string(zdx.entryCount()),
                Region{ix, 8, 8});
    } else if (zdx.entriesEnd() < ix->size()) {
        r.add(Severity::Error, "ZDS-ZDX-COUNT",
              std::to_string(ix->size() - zdx.entriesEnd()) + " bytes follow the " +
                  std::to_string(zdx.declaredCount()) +
                  " declared entries: the count is too low or the file has junk at its end",
              {Region{ix, 8, 8}, Region{ix, zdx.entriesEnd(), ix->size() - zdx.entriesEnd()}});
    }
}

}  // namespace strata::zds
