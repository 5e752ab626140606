#include "formats/common/counted.h"

namespace strata {
namespace {

bool isVowel(char c) {
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

std::string regularPlural(std::string_view word) {
    std::string out(word);
    const std::size_t n = out.size();
    if (n == 0) {
        return out;
    }
    const char last = out[n - 1];
    const char before = n >= 2 ? out[n - 2] : '\0';
    if (last == 's' || last == 'x' || last == 'z' ||
        (last == 'h' && (before == 'c' || before == 's'))) {
        return out + "es";
    }
    if (last == 'y' && n >= 2 && !isVowel(before)) {
        out.pop_back();
        return out + "ies";
    }
    return out + "s";
}

}  // namespace

std::string nounFor(std::uint64_t count, std::string_view singular, std::string_view plural) {
    if (count == 1) {
        return std::string(singular);
    }
    return plural.empty() ? regularPlural(singular) : std::string(plural);
}

std::string counted(std::uint64_t count, std::string_view singular, std::string_view plural) {
    return std::to_string(count) + " " + nounFor(count, singular, plural);
}

}  // namespace strata
