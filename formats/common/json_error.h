// The text of a JSON library error as a person reads it: nlohmann's messages start with a tag
// ("[json.exception.parse_error.101] ") that names the library's error id, not the problem.
#pragma once

#include <string>
#include <string_view>

namespace strata {

inline std::string jsonErrorText(std::string_view what) {
    constexpr std::string_view kTag = "[json.exception.";
    if (what.starts_with(kTag)) {
        const auto end = what.find("] ");
        if (end != std::string_view::npos) {
            what.remove_prefix(end + 2);
        }
    }
    return std::string(what);
}

}  // namespace strata
