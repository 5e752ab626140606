#include "directory_listing.h"

#include <algorithm>
#include <cctype>
#include <fstream>

namespace strata {

namespace fs = std::filesystem;

DirectoryListing listDirectory(const fs::path& folder, std::size_t limit) {
    DirectoryListing listing;
    std::error_code ec;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        listing.failed = true;
        return listing;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            break;
        }
        if (listing.entries.size() >= limit) {
            listing.truncated = true;
            break;
        }
        ProbeEntry entry;
        entry.name = it->path().filename().string();
        std::error_code typeError;
        entry.isDirectory = it->is_directory(typeError);
        entry.isRegularFile = !entry.isDirectory && it->is_regular_file(typeError);
        listing.entries.push_back(std::move(entry));
    }
    std::sort(listing.entries.begin(), listing.entries.end(),
              [](const ProbeEntry& a, const ProbeEntry& b) { return a.name < b.name; });
    return listing;
}

std::string readFileHead(const fs::path& file, std::size_t limit) {
    if (!isRegularFile(file)) {
        return {};
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return {};
    }
    std::string text(limit, '\0');
    in.read(text.data(), static_cast<std::streamsize>(limit));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return text;
}

bool isRegularFile(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

bool isDirectory(const fs::path& path) {
    std::error_code ec;
    return fs::is_directory(path, ec);
}

std::string lowerExtension(const fs::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension;
}

}  // namespace strata
