// What this test process holds open now: scale tests count them before and after opening many
// files, to show a reader keeps no mapping or descriptor per file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>

namespace strata::test {

// Mappings of files at or under `path` (lines of /proc/self/maps naming them): what a reader
// holds of those files. Not all mappings: those move with the allocator, a sanitizer's above all.
inline std::size_t mappingsUnder(const std::filesystem::path& path) {
    const std::string prefix = std::filesystem::weakly_canonical(path).string();
    std::ifstream maps("/proc/self/maps");
    std::size_t n = 0;
    for (std::string line; std::getline(maps, line);) {
        // The path is the sixth field, the only one that starts with '/'.
        const std::size_t at = line.find('/');
        n += at != std::string::npos && line.compare(at, prefix.size(), prefix) == 0 ? 1 : 0;
    }
    return n;
}

// Open file descriptors (entries of /proc/self/fd).
inline std::size_t descriptorCount() {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry :
         std::filesystem::directory_iterator("/proc/self/fd")) {
        ++n;
    }
    return n;
}

}  // namespace strata::test
