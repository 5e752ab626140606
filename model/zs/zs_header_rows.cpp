#include "zs_header_rows.h"

#include "formats/common/checksums.h"
#include "formats/zs/zs_block.h"

namespace strata::model {

namespace {

QString hexBytes(const strata::ByteSource& source, const strata::Region& region,
                 std::uint64_t max = 64) {
    const strata::ByteView view = source.view(region.offset, std::min(region.length, max));
    QByteArray raw(reinterpret_cast<const char*>(view.data()), qsizetype(view.size()));
    QString text = QString::fromLatin1(raw.toHex(' '));
    return region.length > max ? text + QStringLiteral(" …") : text;
}

strata::Status statusOf(strata::Severity severity) {
    switch (severity) {
        case strata::Severity::Error:
            return strata::Status::Error;
        case strata::Severity::Warning:
            return strata::Status::Warning;
        case strata::Severity::Info:
            return strata::Status::Info;
    }
    return strata::Status::Error;
}

// Attaches the header problems that name `row.field` (by the formats layer's field label).
void attachProblems(ZsHeaderRow& row, const zs::Header& header, const std::string& label) {
    for (const zs::HeaderProblem& p : header.problems) {
        if (p.field != label) {
            continue;
        }
        row.status = strata::worse(row.status, statusOf(p.severity));
        if (!row.problem.isEmpty()) {
            row.problem += QLatin1Char('\n');
        }
        row.problem += QString::fromStdString(p.code + ": " + p.message);
    }
}

}  // namespace

QString zsMagicDescription(strata::ZsMagicKind kind) {
    switch (kind) {
        case strata::ZsMagicKind::Complete:
            return QStringLiteral("\\xabZSfiLe\\x01 (ZS file)");
        case strata::ZsMagicKind::Incomplete:
            return QStringLiteral("\\xabZStoBe\\x01: incomplete file: the writer never finished");
        case strata::ZsMagicKind::UnknownVersion:
            return QStringLiteral("ZS magic with an unknown version byte");
        case strata::ZsMagicKind::Truncated:
            return QStringLiteral("truncated inside the magic");
        case strata::ZsMagicKind::None:
            break;
    }
    return QStringLiteral("not a ZS magic");
}

QList<ZsHeaderRow> zsHeaderRows(const zs::Header& h) {
    QList<ZsHeaderRow> rows;
    if (!h.source) {
        return rows;
    }
    const auto add = [&](const char* label, QString value, strata::Region region) {
        ZsHeaderRow row{
            QString::fromLatin1(label), std::move(value), region.clipped(), strata::Status::Ok, {}};
        attachProblems(row, h, label);
        rows.append(row);
    };
    add("magic", zsMagicDescription(h.magic), h.magicRegion);
    if (h.magic != strata::ZsMagicKind::Complete) {
        rows.back().status = strata::Status::Error;
    }
    if (!h.hasLength) {
        return rows;
    }
    add("header length", QString::number(h.headerLength), h.lengthRegion);
    if (h.hasFields) {
        add("root index offset", QString::number(h.rootIndexOffset), h.rootOffsetRegion);
        add("root index length", QString::number(h.rootIndexLength), h.rootLengthRegion);
        add("total file length",
            QStringLiteral("%1 (the file has %2 bytes)").arg(h.totalFileLength).arg(h.fileSize),
            h.totalLengthRegion);
        add("data sha256", QString::fromStdString(strata::toHex(h.dataSha256)), h.shaRegion);
        const std::string codec = zs::printableBytes(zs::asBytes(h.codecText), 64);
        add("codec",
            QString::fromStdString(codec) +
                (h.codec ? QString() : QStringLiteral(" (not a ZS 0.10 codec)")),
            h.codecRegion);
        add("metadata length", QString::number(h.metadataLength), h.metadataLengthRegion);
        QString metadata = h.metadata ? QString::fromStdString(h.metadata->dump())
                                      : QStringLiteral("(not valid JSON)");
        if (metadata.size() > 4096) {
            metadata = metadata.left(4096) + QStringLiteral(" …");
        }
        add("metadata", metadata, h.metadataRegion);
        if (h.extensionRegion.length > 0) {
            add("extension bytes",
                QStringLiteral("%1 bytes: %2")
                    .arg(h.extensionRegion.length)
                    .arg(hexBytes(*h.source, h.extensionRegion.clipped())),
                h.extensionRegion);
        }
    }
    if (h.hasCrc) {
        QString crc = QStringLiteral("0x%1").arg(h.storedCrc, 16, 16, QLatin1Char('0'));
        crc +=
            h.crcMatches
                ? QStringLiteral(" (matches)")
                : QStringLiteral(" (computed 0x%1)").arg(h.computedCrc, 16, 16, QLatin1Char('0'));
        add("header crc", crc, h.crcRegion);
        if (!h.crcMatches) {
            rows.back().status = strata::worse(rows.back().status, strata::Status::Error);
        }
    }
    // Problems about the header as a whole (field empty) go on the header length row.
    for (ZsHeaderRow& row : rows) {
        if (row.field == QLatin1String("header length")) {
            attachProblems(row, h, "");
        }
    }
    return rows;
}

QString zsMetadataText(const zs::Header& h) {
    if (h.metadata) {
        return QString::fromStdString(h.metadata->dump(2));
    }
    if (!h.hasFields) {
        return QStringLiteral("(the header is too short to hold metadata)");
    }
    if (h.metadataLength > zs::kMaxParsedMetadata) {
        return QStringLiteral("(%1 bytes of metadata: too large to show)").arg(h.metadataLength);
    }
    return QStringLiteral("(the metadata is not valid JSON)");
}

}  // namespace strata::model
