#include "format_colors.h"

#include <cstdint>

namespace strata::model {

namespace {

std::uint32_t fnv1a(std::string_view text) {
    std::uint32_t h = 2166136261u;
    for (const char c : text) {
        h ^= std::uint8_t(c);
        h *= 16777619u;
    }
    return h;
}

}  // namespace

QColor colorForKind(std::string_view kind, bool dark) {
    // The format prefix ("zs.") picks a hue family, the rest of the kind a hue within it, so
    // one format's structures look related but stay distinguishable.
    const std::size_t dot = kind.find('.');
    const std::string_view prefix = dot == std::string_view::npos ? kind : kind.substr(0, dot);
    const std::string_view suffix =
        dot == std::string_view::npos ? std::string_view{} : kind.substr(dot + 1);
    const int family = int(fnv1a(prefix) % 12) * 30;
    const int offset = int(fnv1a(suffix) % 7) * 17 - 51;  // -51 .. +51 degrees
    const int hue = ((family + offset) % 360 + 360) % 360;
    const int saturation = 110 + int(fnv1a(suffix) / 7 % 4) * 25;
    return dark ? QColor::fromHsl(hue, saturation, 70) : QColor::fromHsl(hue, saturation, 210);
}

QColor colorForNode(const strata::Node& node, bool dark) {
    const QColor base = colorForKind(node.kind(), dark);
    for (const strata::Field& field : node.fields()) {
        const auto* level = std::get_if<std::uint64_t>(&field.value);
        if (field.name == "level" && level != nullptr && *level > 0) {
            // A quarter turn of hue per level, wrapping after four levels.
            const int hue = (base.hslHue() + int(*level % 4) * 90) % 360;
            return QColor::fromHsl(hue, base.hslSaturation(), base.lightness());
        }
    }
    return base;
}

QColor colorForStatus(strata::Status status) {
    switch (status) {
        case strata::Status::Ok:
            return {};
        case strata::Status::Info:
            return QColor(0x1f, 0x6f, 0xd0);
        case strata::Status::Warning:
            return QColor(0xc7, 0x7c, 0x02);
        case strata::Status::Error:
            return QColor(0xd0, 0x30, 0x30);
    }
    return {};
}

QColor colorForSeverity(strata::Severity severity) {
    switch (severity) {
        case strata::Severity::Info:
            return colorForStatus(strata::Status::Info);
        case strata::Severity::Warning:
            return colorForStatus(strata::Status::Warning);
        case strata::Severity::Error:
            return colorForStatus(strata::Status::Error);
    }
    return {};
}

QColor textColorOn(const QColor& background) {
    const double luma =
        0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
    return luma > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace strata::model
