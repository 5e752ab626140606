#include "location.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace strata {

namespace {

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

// Length of "scheme://authority" in a remote text (the part `parent()` never removes).
std::size_t rootLength(std::string_view text) {
    const auto scheme = text.find("://");
    if (scheme == std::string_view::npos) {
        return 0;
    }
    const auto slash = text.find('/', scheme + 3);
    return slash == std::string_view::npos ? text.size() : slash;
}

}  // namespace

Location Location::parse(std::string_view text) {
    Location loc;
    if (startsWithNoCase(text, "http://")) {
        loc.scheme_ = Scheme::Http;
    } else if (startsWithNoCase(text, "https://")) {
        loc.scheme_ = Scheme::Https;
    } else if (startsWithNoCase(text, "s3://")) {
        loc.scheme_ = Scheme::S3;
    } else {
        if (startsWithNoCase(text, "file://")) {
            text.remove_prefix(7);
        }
        loc.text_ = std::string(text);
        return loc;
    }
    loc.text_ = std::string(text);
    while (loc.text_.size() > rootLength(loc.text_) && loc.text_.back() == '/') {
        loc.text_.pop_back();
    }
    return loc;
}

Location Location::local(const std::filesystem::path& path) {
    Location loc;
    loc.text_ = path.string();
    return loc;
}

std::string Location::bucket() const {
    if (scheme_ != Scheme::S3) {
        return {};
    }
    const std::string_view rest = std::string_view(text_).substr(5);
    return std::string(rest.substr(0, rest.find('/')));
}

std::string Location::key() const {
    if (scheme_ != Scheme::S3) {
        return {};
    }
    const std::string_view rest = std::string_view(text_).substr(5);
    const auto slash = rest.find('/');
    return slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash + 1));
}

std::string Location::fileName() const {
    if (!isRemote()) {
        return localPath().filename().string();
    }
    const std::string_view path = text_;
    const auto root = rootLength(path);
    const auto slash = path.rfind('/');
    if (slash == std::string_view::npos || slash < root) {
        return {};
    }
    return std::string(path.substr(slash + 1));
}

std::string Location::extension() const {
    const std::string name = fileName();
    const auto dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0) {
        return {};
    }
    std::string ext = name.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

Location Location::child(std::string_view name) const {
    if (name.empty() || name.front() == '/' || name.find('\\') != std::string_view::npos) {
        throw std::invalid_argument("not a relative name: " + std::string(name));
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto slash = name.find('/', start);
        const auto part =
            name.substr(start, slash == std::string_view::npos ? name.npos : slash - start);
        if (part == "..") {
            throw std::invalid_argument("a name may not go up a folder: " + std::string(name));
        }
        if (slash == std::string_view::npos) {
            break;
        }
        start = slash + 1;
    }
    if (!isRemote()) {
        return local(localPath() / std::filesystem::path(std::string(name)));
    }
    Location loc = *this;
    if (loc.text_.back() != '/') {
        loc.text_ += '/';
    }
    loc.text_ += std::string(name);
    while (loc.text_.back() == '/') {
        loc.text_.pop_back();
    }
    return loc;
}

Location Location::parent() const {
    if (!isRemote()) {
        return local(localPath().parent_path());
    }
    Location loc = *this;
    const auto root = rootLength(loc.text_);
    const auto slash = loc.text_.rfind('/');
    if (slash != std::string::npos && slash >= root) {
        loc.text_.resize(std::max(slash, root));
    }
    return loc;
}

}  // namespace strata
