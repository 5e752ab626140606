#include "scan_test_support.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <stdexcept>

#include "../registry/campaign_inputs.h"
#include "formats/builtin/builtin_formats.h"

namespace strata::scan::test {

namespace fs = std::filesystem;

namespace {

struct Variant {
    fs::path source;
    ExpectedEntry expected;
};

// The file a damage goes to: the input itself, or the largest file of a folder input.
fs::path damageTarget(const fs::path& input) {
    if (fs::is_regular_file(input)) {
        return input;
    }
    fs::path largest;
    std::uintmax_t size = 0;
    for (const auto& e : fs::recursive_directory_iterator(input)) {
        if (e.is_regular_file() && e.file_size() >= size) {
            largest = e.path();
            size = e.file_size();
        }
    }
    return largest;
}

// Two damages a validator sees in every format: a cut in half (lengths, CRCs, footers,
// digests), and bytes that are neither UTF-8 nor any magic (text formats).
void damage(const fs::path& input, int how) {
    const fs::path file = damageTarget(input);
    if (how == 0) {
        fs::resize_file(file, fs::file_size(file) / 2);
        return;
    }
    std::fstream out(file, std::ios::in | std::ios::out | std::ios::binary);
    out.write("\xff\xfe\x00", 3);
}

fs::path copyOf(const fs::path& source, const fs::path& target) {
    fs::create_directories(target.parent_path());
    fs::copy(source, target, fs::copy_options::recursive);
    return target;
}

Variant damagedVariant(const fs::path& valid, const fs::path& dir) {
    for (int how = 0; how < 2; ++how) {
        const fs::path copy = copyOf(valid, dir / std::to_string(how) / valid.filename());
        damage(copy, how);
        const ExpectedEntry expected = validateDirectly(copy);
        if (expected.verdict == Verdict::Damaged) {
            return {copy, expected};
        }
    }
    throw std::runtime_error("no damage the validator sees in " + valid.string());
}

// Two valid inputs and a damaged one of a campaign format.
std::vector<Variant> variantsOf(const strata::test::CampaignFormat& format, std::mt19937_64& rng,
                                const fs::path& dir) {
    std::vector<Variant> variants;
    for (int i = 0; i < 2; ++i) {
        const fs::path made = format.generate(rng, dir / ("valid" + std::to_string(i)));
        variants.push_back({made, validateDirectly(made)});
    }
    variants.push_back(damagedVariant(variants.front().source, dir / "damaged"));
    return variants;
}

const strata::test::CampaignFormat& campaignFormat(const std::string& name) {
    const auto& all = strata::test::campaignFormats();
    return *std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.name == name; });
}

// `count` copies of the format's variants under `folder`; one in eight is the damaged one.
void addCopies(GeneratedTree& tree, const std::string& format, const std::string& folder,
               std::size_t count, std::mt19937_64& rng, const fs::path& work) {
    if (count == 0) {
        return;
    }
    const std::vector<Variant> variants = variantsOf(campaignFormat(format), rng, work / format);
    const bool isFile = fs::is_regular_file(variants.front().source);
    for (std::size_t i = 0; i < count; ++i) {
        const Variant& v = variants[i % 8 == 7 ? 2 : i % 2];
        const std::string extension = v.source.extension().string();
        // Files spread over sub-folders (the walk goes deeper); folder units side by side.
        const std::string name =
            isFile ? "g" + std::to_string(i % 10) + "/e" + std::to_string(i) + extension
                   : "u" + std::to_string(i) + extension;
        const std::string relative = folder + "/" + name;
        copyOf(v.source, tree.root / relative);
        tree.expected[relative] = v.expected;
    }
}

void addUnknown(GeneratedTree& tree, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const std::string relative = "misc/notes" + std::to_string(i) + ".txt";
        fs::create_directories(tree.root / "misc");
        std::ofstream(tree.root / relative) << "notes of run " << i << "\n";
        tree.expected[relative] = {"", Verdict::UnknownFormat, false};
    }
}

}  // namespace

const FormatRegistry& builtinRegistry() {
    return builtinFormats();
}

ExpectedEntry validateDirectly(const fs::path& path) {
    ExpectedEntry expected;
    expected.isFolder = fs::is_directory(path);
    std::unique_ptr<OpenedDocument> document;
    try {
        document = builtinRegistry().open(path);
    } catch (const std::exception&) {
        expected.verdict = Verdict::Damaged;
        return expected;
    }
    expected.format = std::string(formatName(document->format));
    CollectingSink sink;
    ValidationOptions options;
    options.maxPerCode = 100;
    document->makeValidator()->run(sink, options);
    expected.verdict = sink.countOf(Severity::Error) > 0     ? Verdict::Damaged
                       : sink.countOf(Severity::Warning) > 0 ? Verdict::Warnings
                                                             : Verdict::Valid;
    return expected;
}

GeneratedTree generateTree(const fs::path& root, const TreeShape& shape, std::uint64_t seed) {
    GeneratedTree tree;
    tree.root = root / "tree";
    const fs::path work = root / "templates";
    std::mt19937_64 rng(seed);
    addCopies(tree, "ZS", "zs", shape.zs, rng, work);
    addCopies(tree, "zTensor", "zt", shape.ztensor, rng, work);
    addCopies(tree, "ZDS", "zds", shape.zds, rng, work);
    addCopies(tree, "Shardlake", "shardlake", shape.shardlake, rng, work);
    addCopies(tree, "OZDF", "ozdf", shape.ozdf, rng, work);
    addUnknown(tree, shape.unknown);
    return tree;
}

void CollectingScanSink::listed(const ScanEntry&) {
    ++listedCount;
    maxInFlight = std::max(maxInFlight, listedCount - results.size());
}

void CollectingScanSink::checked(const ScanResult& result) {
    results.push_back(result);
}

std::map<std::string, ScanResult> CollectingScanSink::byPath() const {
    std::map<std::string, ScanResult> out;
    for (const ScanResult& r : results) {
        out[r.entry.relativePath] = r;
    }
    return out;
}

ScanOutcome runScan(const FormatRegistry& formats, const ScanOptions& options,
                    const FileTreePtr& tree, const Location& root, CollectingScanSink& sink) {
    Scanner scanner(formats, options);
    return scanner.run(tree, root, sink);
}

// --- VirtualTree ---------------------------------------------------------------------------

VirtualTree::VirtualTree(std::vector<std::uint8_t> bytes, std::size_t count, std::size_t folders)
    : bytes_(std::move(bytes)), count_(count), folders_(std::max<std::size_t>(folders, 1)) {}

ByteSourcePtr VirtualTree::open(const Location& file) const {
    ++opened_;
    return makeBufferSource(bytes_, file.text());
}

namespace {

bool isFolderName(const std::string& name) {
    return name.size() > 1 && name[0] == 'f' &&
           name.find_first_not_of("0123456789", 1) == std::string::npos;
}

}  // namespace

std::optional<FileTreeEntry> VirtualTree::stat(const Location& location) const {
    const std::string name = location.fileName();
    const bool inFolder =
        location.parent().parent() == root() && isFolderName(location.parent().fileName());
    if (location == root() || (location.parent() == root() && isFolderName(name))) {
        return FileTreeEntry{name, true, 0, {}, {}};
    }
    const bool listed = (inFolder && name.starts_with("e") && name.ends_with(".zs")) ||
                        (location.parent() == root() &&
                         std::find(extraNames.begin(), extraNames.end(), name) != extraNames.end());
    if (!listed) {
        return std::nullopt;  // what a probe asks for by name (_metadata.ozdf...) is not here
    }
    return FileTreeEntry{name, false, bytes_.size(), "\"v1\"", {}};
}

std::vector<FileTreeEntry> VirtualTree::list(const Location& folder, std::size_t limit,
                                             bool* truncated) const {
    std::vector<FileTreeEntry> out;
    if (folder == root()) {
        for (std::size_t f = 0; f < folders_; ++f) {
            out.push_back({"f" + std::to_string(f), true, 0, {}, {}});
        }
        for (const std::string& name : extraNames) {
            out.push_back({name, false, bytes_.size(), "\"v1\"", {}});
        }
    } else {
        const std::size_t f = std::stoul(folder.fileName().substr(1));
        for (std::size_t i = f; i < count_; i += folders_) {
            out.push_back({"e" + std::to_string(i) + ".zs", false, bytes_.size(), "\"v1\"", {}});
        }
    }
    if (truncated != nullptr) {
        *truncated = limit != 0 && out.size() > limit;
    }
    if (limit != 0 && out.size() > limit) {
        out.resize(limit);
    }
    return out;
}

FileOrFolder VirtualTree::openOrList(const Location& location, std::size_t limit) const {
    const std::optional<FileTreeEntry> found = stat(location);
    if (!found) {
        throw StoreError(location.text() + ": no such object");
    }
    FileOrFolder out;
    if (found->isDirectory) {
        out.entries = list(location, limit, &out.truncated);
    } else {
        out.file = open(location);
    }
    return out;
}

}  // namespace strata::scan::test
