// Checks a ZDS dataset (folder or `.zds` archive) against the format's rules; every code is
// listed with its meaning and severity in docs/formats-zds.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/common/validator.h"

namespace strata {

class ZdsDataset;

// Checks `dataset` when given (diagnostic regions then point into its sources, which the opened
// document keeps alive); otherwise opens the dataset itself, and its regions stay valid while
// the validator lives. ZIP archives are also opened with libzip's consistency checks, so
// archives that cannot be opened at all are reported too; `rawFile`, when given, is the mapped
// file such diagnostics point into. `tree`, when given and remote, is where `path` (then a
// URL's text) is read from; the temporary files of killed writes are only looked for on disk.
std::unique_ptr<Validator> makeZdsValidator(const std::filesystem::path& path,
                                            std::shared_ptr<ZdsDataset> dataset = nullptr,
                                            ByteSourcePtr rawFile = nullptr,
                                            FileTreePtr tree = nullptr);

// The id rules: non-empty, at most 255 bytes, only [A-Za-z0-9_.-].
bool zdsIdCharsOk(std::string_view id);

// Offset of the first byte that is not part of valid UTF-8, or npos.
std::size_t firstInvalidUtf8(std::span<const std::uint8_t> bytes);

}  // namespace strata
