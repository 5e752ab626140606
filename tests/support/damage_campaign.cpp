#include "damage_campaign.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace strata::test {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kToTheEnd = std::numeric_limits<std::uint64_t>::max();

void writeAll(const fs::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        throw std::runtime_error("cannot write " + file.string());
    }
}

std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
    return n == 0 ? 0 : rng() % n;
}

std::string at(std::uint64_t offset) {
    return " at byte " + std::to_string(offset);
}

FileDamage flipBytes(std::string& bytes, std::mt19937_64& rng, FileDamage d) {
    for (std::uint64_t n = 1 + below(rng, 4); n > 0; --n) {
        const std::uint64_t p = below(rng, bytes.size());
        bytes[p] = static_cast<char>(static_cast<unsigned char>(bytes[p]) ^ (1 + below(rng, 255)));
        d.changed.emplace_back(p, p + 1);
        d.description += at(p);
    }
    return d;
}

FileDamage zeroPage(std::string& bytes, std::mt19937_64& rng, FileDamage d) {
    const std::uint64_t page = rng() % 2 == 0 ? 512 : 4096;
    const std::uint64_t begin = below(rng, bytes.size()) / page * page;
    const std::uint64_t end = std::min<std::uint64_t>(begin + page, bytes.size());
    std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(begin),
              bytes.begin() + static_cast<std::ptrdiff_t>(end), '\0');
    d.changed.emplace_back(begin, end);
    d.description += " bytes " + std::to_string(begin) + " to " + std::to_string(end);
    return d;
}

FileDamage truncate(std::string& bytes, std::mt19937_64& rng, FileDamage d) {
    const std::uint64_t cut = below(rng, bytes.size());
    bytes.resize(cut);
    d.changed.emplace_back(cut, kToTheEnd);
    d.description += at(cut);
    return d;
}

FileDamage insert(std::string& bytes, std::uint64_t where, const std::string& inserted,
                  FileDamage d) {
    bytes.insert(where, inserted);
    d.insertedAt = where;
    d.insertedLength = inserted.size();
    d.description += " " + std::to_string(inserted.size()) + " bytes" + at(where);
    return d;
}

FileDamage duplicateChunk(std::string& bytes, std::mt19937_64& rng, FileDamage d) {
    const std::uint64_t length = 1 + below(rng, std::min<std::uint64_t>(bytes.size(), 4096));
    const std::uint64_t from = below(rng, bytes.size() - length + 1);
    const std::uint64_t where = below(rng, bytes.size() + 1);
    d.description += " (a copy of byte " + std::to_string(from) + " on)";
    return insert(bytes, where, bytes.substr(from, length), std::move(d));
}

FileDamage swapChunks(std::string& bytes, std::mt19937_64& rng, FileDamage d) {
    const std::uint64_t length = 1 + below(rng, std::min<std::uint64_t>(bytes.size() / 2, 2048));
    const std::uint64_t a = below(rng, bytes.size() - 2 * length + 1);
    const std::uint64_t b = a + length + below(rng, bytes.size() - a - 2 * length + 1);
    std::swap_ranges(bytes.begin() + static_cast<std::ptrdiff_t>(a),
                     bytes.begin() + static_cast<std::ptrdiff_t>(a + length),
                     bytes.begin() + static_cast<std::ptrdiff_t>(b));
    d.changed.emplace_back(a, a + length);
    d.changed.emplace_back(b, b + length);
    d.description += " " + std::to_string(length) + " bytes" + at(a) + " and" + at(b);
    return d;
}

bool looksLikeText(const std::string& bytes) {
    const auto printable = std::count_if(bytes.begin(), bytes.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == '\n' || u == '\t' || u >= 0x20;
    });
    return !bytes.empty() && printable == static_cast<std::ptrdiff_t>(bytes.size());
}

std::string garbage(std::mt19937_64& rng, bool text) {
    static constexpr std::string_view kPieces[] = {
        "{", "}", "\"_id\"", ":", ",", "####", "====", "[", "]", "\"", "\\", "null", "\xff", "é"};
    std::string line;
    for (std::uint64_t n = 1 + below(rng, 12); n > 0; --n) {
        if (rng() % 3 == 0) {
            line += kPieces[below(rng, std::size(kPieces))];
        } else {
            line += static_cast<char>(text ? 0x20 + below(rng, 95) : below(rng, 256));
        }
    }
    return line + '\n';
}

FileDamage garbageLine(std::string& bytes, std::mt19937_64& rng, FileDamage d) {
    const bool text = looksLikeText(bytes);
    std::uint64_t where = below(rng, bytes.size() + 1);
    if (text) {  // at the start of a line
        const std::size_t newline = bytes.rfind('\n', where == 0 ? 0 : where - 1);
        where = where == 0 || newline == std::string::npos ? 0 : newline + 1;
    }
    return insert(bytes, where, garbage(rng, text), std::move(d));
}

}  // namespace

std::string_view damageName(DamageKind kind) {
    switch (kind) {
        case DamageKind::FlipBytes:
            return "flipped";
        case DamageKind::ZeroPage:
            return "zeroed";
        case DamageKind::Truncate:
            return "cut";
        case DamageKind::DuplicateChunk:
            return "duplicated";
        case DamageKind::SwapChunks:
            return "swapped";
        case DamageKind::GarbageLine:
            return "inserted a garbage line";
        case DamageKind::RemoveFile:
            return "removed";
    }
    return "?";
}

const std::vector<DamageKind>& allDamageKinds() {
    static const std::vector<DamageKind> kinds = {
        DamageKind::FlipBytes,      DamageKind::ZeroPage,   DamageKind::Truncate,
        DamageKind::DuplicateChunk, DamageKind::SwapChunks, DamageKind::GarbageLine,
        DamageKind::RemoveFile};
    return kinds;
}

std::optional<std::uint64_t> FileDamage::untouchedAt(std::uint64_t offset,
                                                     std::uint64_t length) const {
    if (removed) {
        return std::nullopt;
    }
    const std::uint64_t end = offset + length;
    for (const auto& [b, e] : changed) {
        if (b < end && offset < e) {
            return std::nullopt;
        }
    }
    if (!insertedAt) {
        return offset;
    }
    // Bytes inserted inside the range split it; inserted right before or after it they may
    // join it (a line or a file that now begins or ends with other bytes).
    if (*insertedAt >= offset && *insertedAt <= end) {
        return std::nullopt;
    }
    return *insertedAt < offset ? offset + insertedLength : offset;
}

std::optional<std::uint64_t> CaseDamage::untouchedAt(const fs::path& file, std::uint64_t offset,
                                                     std::uint64_t length) const {
    std::optional<std::uint64_t> now = offset;
    for (const FileDamage& d : damages) {
        if (now && d.file == file) {
            now = d.untouchedAt(*now, length);
        }
    }
    return now;
}

std::string CaseDamage::describe() const {
    std::string text;
    for (const FileDamage& d : damages) {
        text += (text.empty() ? "" : "; ") + d.description;
    }
    return text;
}

FileDamage damageFile(const fs::path& file, DamageKind kind, std::mt19937_64& rng) {
    FileDamage d;
    d.file = file;
    d.kind = kind;
    d.description = std::string(damageName(kind)) + " " + file.filename().string();
    if (kind == DamageKind::RemoveFile) {
        fs::remove(file);
        d.removed = true;
        return d;
    }
    std::string bytes = fileBytes(file);
    if (bytes.empty()) {
        d = insert(bytes, 0, garbage(rng, true), std::move(d));
    } else if (kind == DamageKind::ZeroPage) {
        d = zeroPage(bytes, rng, std::move(d));
    } else if (kind == DamageKind::Truncate) {
        d = truncate(bytes, rng, std::move(d));
    } else if (kind == DamageKind::DuplicateChunk) {
        d = duplicateChunk(bytes, rng, std::move(d));
    } else if (kind == DamageKind::SwapChunks && bytes.size() >= 2) {
        d = swapChunks(bytes, rng, std::move(d));
    } else if (kind == DamageKind::GarbageLine) {
        d = garbageLine(bytes, rng, std::move(d));
    } else {
        d.kind = DamageKind::FlipBytes;
        d = flipBytes(bytes, rng, std::move(d));
    }
    writeAll(file, bytes);
    return d;
}

std::vector<fs::path> filesUnder(const fs::path& root) {
    std::vector<fs::path> files;
    if (fs::is_regular_file(root)) {
        files.push_back(root);
        return files;
    }
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.is_regular_file()) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::map<std::string, std::string> snapshotTree(const fs::path& root) {
    std::map<std::string, std::string> snapshot;
    for (const fs::path& file : filesUnder(root)) {
        snapshot[fs::relative(file, fs::is_directory(root) ? root : root.parent_path()).string()] =
            fileBytes(file);
    }
    return snapshot;
}

std::string fileBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

CampaignSettings CampaignSettings::fromEnvironment(std::uint64_t fallbackCases) {
    const auto number = [](const char* name, std::uint64_t fallback) {
        const char* text = std::getenv(name);
        return text != nullptr && *text != '\0' ? std::stoull(text) : fallback;
    };
    CampaignSettings s;
    s.cases = number("STRATA_CAMPAIGN_CASES", fallbackCases);
    s.seed = number("STRATA_CAMPAIGN_SEED", 20261127);
    s.first = number("STRATA_CAMPAIGN_FIRST", 0);
    if (const char* keep = std::getenv("STRATA_CAMPAIGN_KEEP"); keep != nullptr && *keep) {
        s.keep = keep;
    }
    return s;
}

}  // namespace strata::test
