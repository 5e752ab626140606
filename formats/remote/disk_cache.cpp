#include "disk_cache.h"

#include <atomic>
#include <fstream>
#include <system_error>
#include <thread>

#include "formats/common/checksums.h"

namespace strata {

namespace {

std::string sha256Hex(const std::string& text) {
    const Sha256Digest digest =
        sha256({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (const std::uint8_t byte : digest) {
        out += hex[byte >> 4];
        out += hex[byte & 15];
    }
    return out;
}

}  // namespace

std::filesystem::path DiskCache::objectDir(const std::string& identity) const {
    return dir_ / sha256Hex(identity);
}

Block DiskCache::load(const std::filesystem::path& objectDir, std::uint64_t index,
                      std::size_t expectedSize) const {
    const auto path = objectDir / (std::to_string(index) + ".block");
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) != expectedSize || ec) {
        return nullptr;
    }
    std::ifstream in(path, std::ios::binary);
    auto bytes = std::make_shared<std::vector<std::uint8_t>>(expectedSize);
    in.read(reinterpret_cast<char*>(bytes->data()), static_cast<std::streamsize>(expectedSize));
    if (!in || static_cast<std::size_t>(in.gcount()) != expectedSize) {
        return nullptr;
    }
    return bytes;
}

void DiskCache::store(const std::filesystem::path& objectDir, std::uint64_t index,
                      const std::vector<std::uint8_t>& bytes) const {
    static std::atomic<std::uint64_t> counter{0};
    std::error_code ec;
    std::filesystem::create_directories(objectDir, ec);
    if (ec) {
        return;
    }
    const auto final = objectDir / (std::to_string(index) + ".block");
    const auto temp =
        objectDir / (std::to_string(index) + ".tmp" + std::to_string(counter.fetch_add(1)) + "-" +
                     std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id())));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            out.close();
            std::filesystem::remove(temp, ec);
            return;
        }
    }
    std::filesystem::rename(temp, final, ec);
    if (ec) {
        std::filesystem::remove(temp, ec);
    }
}

}  // namespace strata
