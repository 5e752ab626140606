// A count with its noun in the right number: "1 tensor", "2 tensors", "0 bytes", "1 loss",
// "3 losses". The one helper for the messages of the validators, repairs and strata-cli;
// the GUI uses it through model/core/counted_text.h. Never "tensor(s)" or "1 bytes".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// The noun for `count`: `singular` for 1, else `plural`, or when `plural` is empty the
// regular English plural of `singular` ("byte" → "bytes", "loss" → "losses", "match" →
// "matches", "entry" → "entries"). A noun of several words is made plural at its last word
// ("damaged stretch" → "damaged stretches"); irregular ones ("field was" / "fields were") are
// given whole.
std::string nounFor(std::uint64_t count, std::string_view singular, std::string_view plural = {});

// The count, a space and nounFor(count, ...).
std::string counted(std::uint64_t count, std::string_view singular, std::string_view plural = {});

}  // namespace strata
