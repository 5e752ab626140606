// A fresh, empty folder under the system's temporary folder for one test, removed with
// everything in it when the test ends.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace strata::test {

class ScratchDir {
public:
    // "strata_<what>_<pid>_<n>": unique within the run and across concurrent test processes.
    explicit ScratchDir(const std::string& what) {
        static std::atomic<unsigned> made{0};
        path_ =
            std::filesystem::temp_directory_path() /
            ("strata_" + what + "_" + std::to_string(::getpid()) + "_" + std::to_string(made++));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

}  // namespace strata::test
