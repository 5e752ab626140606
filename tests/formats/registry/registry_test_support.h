// Shared by the registry tests: where the corpus is, and scratch folders for synthetic files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "test_corpus.h"

namespace strata::test {

// STRATA_CORPUS_DIR from the environment, else the path compiled in; empty when neither exists.
std::filesystem::path corpusDir();

// Regular files directly in `folder` whose extension (lower-case) is `extension`, sorted.
std::vector<std::filesystem::path> filesWithExtension(const std::filesystem::path& folder,
                                                      std::string_view extension);
// Sub-folders directly in `folder` whose name does not start with '_' or '.', sorted.
std::vector<std::filesystem::path> subfolders(const std::filesystem::path& folder);

// A fresh folder under the system temp folder, removed with everything in it on destruction.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, std::string_view bytes) const;
    std::filesystem::path write(const std::string& name,
                                const std::vector<std::uint8_t>& bytes) const;
    std::filesystem::path makeFolder(const std::string& name) const;

private:
    std::filesystem::path path_;
};

}  // namespace strata::test
