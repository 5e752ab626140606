// The GUI's side of formats/common/counted.h: "1 tensor", "2 tensors", "1 loss" as a QString,
// for item models, undo commands and the views. The same rules as strata-cli's messages.
#pragma once

#include <QString>

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace strata::model {

QString countedText(std::uint64_t count, const QString& singular, const QString& plural);
QString nounText(std::uint64_t count, const QString& singular, const QString& plural);

template <std::integral T>
std::uint64_t countOf(T count) {
    if constexpr (std::is_signed_v<T>) {
        return count < 0 ? 0 : std::uint64_t(count);
    } else {
        return std::uint64_t(count);
    }
}

// The count, a space and the noun in the right number (see strata::nounFor); a negative
// count counts as 0.
template <std::integral T>
QString counted(T count, const QString& singular, const QString& plural = {}) {
    return countedText(countOf(count), singular, plural);
}

// Only the noun for `count`.
template <std::integral T>
QString nounFor(T count, const QString& singular, const QString& plural = {}) {
    return nounText(countOf(count), singular, plural);
}

}  // namespace strata::model
