// What this test process holds open now: scale tests count them before and after opening many
// files, to show a reader keeps no mapping or descriptor per file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>

namespace strata::test {

// Mappings (lines of /proc/self/maps).
inline std::size_t mappingCount() {
    std::ifstream maps("/proc/self/maps");
    std::size_t n = 0;
    for (std::string line; std::getline(maps, line);) {
        ++n;
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
