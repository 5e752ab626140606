// Checks of a file-per-document collection's metadata (meta/doc_index.jsonl, order.ids,
// schemas.jsonl, journal.log) against each other and against the files in docs/. Part of the
// ZDS validator; every code is listed in docs/formats-zds.md.
#pragma once

#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/common/region.h"
#include "zds_reader.h"

namespace strata {

using ZdsReport = std::function<void(Severity, const std::string& code, std::string message,
                                     std::vector<Region> regions, std::string file)>;

// `files`: ids that have a docs/<id>.json. `strict`: manifest.json says "strict": true.
void checkZdsDocsMetadata(const ZdsCollection& c, const std::unordered_set<std::string>& files,
                          bool strict, const ZdsReport& report);

}  // namespace strata
