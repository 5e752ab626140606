#include "offset_expression.h"

#include <QObject>

#include "formats/common/bounds.h"

namespace strata::gui {
namespace {

// An unsigned number in hex ("0x" prefix) or decimal; nothing on junk or overflow.
std::optional<std::uint64_t> parseNumber(QStringView text) {
    int base = 10;
    if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        base = 16;
        text = text.mid(2);
    }
    if (text.isEmpty()) {
        return std::nullopt;
    }
    bool ok = false;
    const qulonglong value = text.toULongLong(&ok, base);
    if (!ok) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

OffsetParseResult parseOffsetExpression(const QString& text, std::uint64_t current,
                                        std::uint64_t size) {
    QString compact = text.trimmed();
    compact.remove(QLatin1Char('_'));
    compact.remove(QLatin1Char(' '));
    if (compact.isEmpty()) {
        return {std::nullopt, QObject::tr("Enter an offset, e.g. 0x1000, 4096, +16 or -0x10.")};
    }
    const QChar sign = compact.front();
    const bool relative = sign == QLatin1Char('+') || sign == QLatin1Char('-');
    const auto number = parseNumber(relative ? QStringView(compact).mid(1) : compact);
    if (!number) {
        return {std::nullopt, QObject::tr("\"%1\" is not a number.").arg(text.trimmed())};
    }
    std::optional<std::uint64_t> target = *number;
    if (relative && sign == QLatin1Char('+')) {
        target = checkedAdd(current, *number);
    } else if (relative) {
        target = *number <= current ? std::optional(current - *number) : std::nullopt;
    }
    const bool inside = target && (*target < size || (size == 0 && *target == 0));
    if (!inside) {
        return {std::nullopt, QObject::tr("The offset lies outside the file (0x0 to 0x%1).")
                                  .arg(size == 0 ? 0 : size - 1, 0, 16)};
    }
    return {target, {}};
}

}  // namespace strata::gui
