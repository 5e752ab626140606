// Checks a ZDS dataset (folder or `.zds` archive) against the format's rules; every code is
// listed with its meaning and severity in docs/formats-zds.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>

#include "formats/common/validator.h"

namespace strata {

// Opens the dataset itself (ZIP archives with libzip's consistency checks), so it also reports
// archives that cannot be opened at all.
std::unique_ptr<Validator> makeZdsValidator(const std::filesystem::path& path);

// The id rules: non-empty, at most 255 bytes, only [A-Za-z0-9_.-].
bool zdsIdCharsOk(std::string_view id);

// Offset of the first byte that is not part of valid UTF-8, or npos.
std::size_t firstInvalidUtf8(std::span<const std::uint8_t> bytes);

}  // namespace strata
