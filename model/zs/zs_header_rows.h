// What the header panel lists: every ZS header field decoded, with the bytes it came from and
// whether the validator would object to it.
#pragma once

#include <QList>
#include <QString>

#include "formats/common/node.h"
#include "formats/common/region.h"
#include "formats/zs/zs_header.h"

namespace strata::model {

struct ZsHeaderRow {
    QString field;
    QString value;
    strata::Region region;
    strata::Status status = strata::Status::Ok;
    QString problem;  // the header problems naming this field, one per line
};

// Magic, header length, root index offset and length, total file length, data SHA-256, codec,
// metadata length, metadata (compact JSON), extension bytes (when present) and header CRC; rows
// for parts the file is too short to hold are left out.
QList<ZsHeaderRow> zsHeaderRows(const zs::Header& header);

// The metadata JSON indented for reading; a note when it did not parse.
QString zsMetadataText(const zs::Header& header);

// "incomplete file: the writer never finished" and the like, for the magic row.
QString zsMagicDescription(strata::ZsMagicKind kind);

}  // namespace strata::model
