#include "registry_test_support.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "formats/registry/directory_listing.h"
#include "test_corpus.h"

namespace strata::test {

namespace fs = std::filesystem;

fs::path corpusDir() {
    return haveCorpus() ? corpusRoot() : fs::path();
}

std::vector<fs::path> filesWithExtension(const fs::path& folder, std::string_view extension) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.is_regular_file() && lowerExtension(entry.path()) == extension) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<fs::path> subfolders(const fs::path& folder) {
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory() && !name.starts_with('_') && !name.starts_with('.')) {
            folders.push_back(entry.path());
        }
    }
    std::sort(folders.begin(), folders.end());
    return folders;
}

ScratchDir::ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "strata-registry-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot make a scratch folder");
    }
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

fs::path ScratchDir::write(const std::string& name, std::string_view bytes) const {
    const fs::path file = path_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return file;
}

fs::path ScratchDir::write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    return write(name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

fs::path ScratchDir::makeFolder(const std::string& name) const {
    const fs::path folder = path_ / name;
    fs::create_directories(folder);
    return folder;
}

}  // namespace strata::test
