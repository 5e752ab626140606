#include "campaign_inputs.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_writer.h"
#include "formats/zs/zs_block.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_writer.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/zt_writer.h"

namespace strata::test {

namespace fs = std::filesystem;

namespace {

std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
    return rng() % n;
}

void writeText(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

std::string bytesText(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A path of the original's tree moved to the damaged copy's.
fs::path inInput(const CaseFiles& files, const std::string& originalPath) {
    return files.input / fs::relative(originalPath, files.original);
}

// --- ZS ------------------------------------------------------------------------------------

std::string zsKey(std::mt19937_64& rng) {
    std::string key;
    for (std::uint64_t n = 1 + below(rng, 20); n > 0; --n) {
        key += below(rng, 5) == 0 ? static_cast<char>(below(rng, 256))
                                  : static_cast<char>('a' + below(rng, 26));
    }
    return key;
}

fs::path generateZs(std::mt19937_64& rng, const fs::path& dir) {
    static constexpr zs::Codec kCodecs[] = {zs::Codec::None, zs::Codec::Deflate, zs::Codec::Lzma2};
    fs::create_directories(dir);
    const fs::path path = dir / "records.zs";
    zs::WriterOptions options;
    options.codec = kCodecs[below(rng, 3)];
    options.threads = 1;
    std::vector<std::size_t> sizes(3 + below(rng, 14));
    std::vector<std::string> records;
    for (std::size_t& size : sizes) {
        size = 5 + below(rng, 40);
        for (std::size_t i = 0; i < size; ++i) {
            records.push_back(zsKey(rng));
        }
    }
    std::sort(records.begin(), records.end());
    zs::ZsWriter writer(path, {{"name", "campaign"}, {"records", records.size()}}, options);
    auto next = records.begin();
    for (const std::size_t size : sizes) {
        writer.addBlock({next, next + static_cast<std::ptrdiff_t>(size)});
        next += static_cast<std::ptrdiff_t>(size);
    }
    writer.finish();
    return path;
}

struct ZsDataBlock {
    std::uint64_t offset = 0, length = 0;
    std::vector<std::string> records;
};

// The data blocks of an intact file with their records, and where its blocks begin.
std::vector<ZsDataBlock> zsDataBlocks(const fs::path& path, std::uint64_t* blocksBegin) {
    const auto file = zs::ZsFile::open(openMappedFile(path));
    *blocksBegin = file->blocksBegin();
    std::vector<ZsDataBlock> blocks;
    zs::ZsRecordIterator it(file);
    while (auto record = it.next()) {
        if (blocks.empty() || blocks.back().offset != it.blockOffset()) {
            const zs::FrameRead frame =
                zs::readFrame(file->source(), it.blockOffset(), file->blocksEnd());
            blocks.push_back({it.blockOffset(), frame.frame.totalLength(), {}});
        }
        blocks.back().records.push_back(bytesText(*record));
    }
    return blocks;
}

std::vector<std::string> zsRecords(const fs::path& path) {
    std::vector<std::string> records;
    zs::ZsRecordIterator it(zs::ZsFile::open(openMappedFile(path)));
    while (auto record = it.next()) {
        records.push_back(bytesText(*record));
    }
    return records;
}

// Every record of every untouched data block is in the output, in order; the output holds only
// records of the original (each block's CRC rules out anything else); the count is reported.
void checkZsOutput(const CaseFiles& files, const RepairReport& report,
                   std::vector<std::string>& violations) {
    std::uint64_t blocksBegin = 0;
    const std::vector<ZsDataBlock> blocks = zsDataBlocks(files.original, &blocksBegin);
    const std::vector<std::string> out = zsRecords(files.output);
    if (report.recovered != out.size()) {
        violations.push_back("the report counts " + std::to_string(report.recovered) +
                             " records, the output holds " + std::to_string(out.size()));
    }
    std::multiset<std::string> original;
    for (const ZsDataBlock& b : blocks) {
        original.insert(b.records.begin(), b.records.end());
    }
    for (const std::string& r : out) {
        const auto found = original.find(r);
        if (found == original.end()) {
            violations.push_back(
                "the output holds a record the original does not: " +
                nlohmann::json(r).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
            break;
        }
        original.erase(found);
    }
    if (!files.damage.untouchedAt(files.input, 0, blocksBegin)) {
        return;  // no header: the repair may refuse
    }
    // Blocks copied or moved elsewhere come out of order, and a ZS file is sorted: the repair
    // keeps the run of blocks in order that holds the most records, at least as many as the
    // untouched blocks hold (they are in order), not always those blocks.
    const bool reordered = std::any_of(
        files.damage.damages.begin(), files.damage.damages.end(), [](const FileDamage& d) {
            return d.kind == DamageKind::DuplicateChunk || d.kind == DamageKind::SwapChunks;
        });
    std::uint64_t untouched = 0;
    for (const ZsDataBlock& b : blocks) {
        untouched +=
            files.damage.untouchedAt(files.input, b.offset, b.length) ? b.records.size() : 0;
    }
    if (reordered) {
        if (out.size() < untouched) {
            violations.push_back("the untouched data blocks hold " + std::to_string(untouched) +
                                 " records in order, the output only " +
                                 std::to_string(out.size()));
        }
        return;
    }
    for (const ZsDataBlock& b : blocks) {
        if (files.damage.untouchedAt(files.input, b.offset, b.length) &&
            std::search(out.begin(), out.end(), b.records.begin(), b.records.end()) == out.end()) {
            violations.push_back("the data block at byte " + std::to_string(b.offset) +
                                 " is untouched, but its " + std::to_string(b.records.size()) +
                                 " records are not all in the output");
        }
    }
}

// --- ZDS -----------------------------------------------------------------------------------

std::string zdsValue(std::mt19937_64& rng, int depth) {
    static constexpr std::string_view kWords[] = {"alpha",      "naïve",      "straße",
                                                  "日本語",     "Ωμέγα",      "tab\\tbed",
                                                  "quote\\\"d", "emoji 🙂", "zero"};
    switch (below(rng, depth > 1 ? 4 : 6)) {
        case 0:
            return std::to_string(static_cast<std::int64_t>(rng() % 2000000) - 1000000);
        case 1:
            return "\"" + std::string(kWords[below(rng, std::size(kWords))]) + "\"";
        case 2:
            return below(rng, 2) ? "true" : "null";
        case 3:
            return std::to_string(below(rng, 1000)) + "." + std::to_string(below(rng, 100));
        case 4:
            return "[" + zdsValue(rng, depth + 1) + "," + zdsValue(rng, depth + 1) + "]";
        default:
            return "{\"k\":" + zdsValue(rng, depth + 1) + "}";
    }
}

std::string zdsDocument(std::mt19937_64& rng, const std::string& id) {
    std::string text = "{\"_id\":\"" + id + "\"";
    for (std::uint64_t n = below(rng, 5); n > 0; --n) {
        text += ",\"f" + std::to_string(n) + "\":" + zdsValue(rng, 0);
    }
    return text + "}";
}

// A dataset folder with collections of JSONL lines: some documents written more than once
// (older lines superseded), some deleted (no index entry), the index listing the live lines.
fs::path generateZdsFolder(std::mt19937_64& rng, const fs::path& dir) {
    const fs::path root = dir / "dataset";
    for (std::uint64_t c = 0, collections = 1 + below(rng, 2); c < collections; ++c) {
        const std::string name = "c" + std::to_string(c);
        std::string data;
        std::map<std::string, zds::ZdsLineEntry> live;
        std::vector<std::string> order;
        for (std::uint64_t n = 0, lines = 5 + below(rng, 60); n < lines; ++n) {
            const std::string id = "d" + std::to_string(below(rng, lines));
            const std::string line = zdsDocument(rng, id) + "\n";
            if (!live.contains(id)) {
                order.push_back(id);
            }
            live[id] = {id, data.size(), line.size(), true};
            data += line;
        }
        std::vector<zds::ZdsLineEntry> entries;
        for (const std::string& id : order) {
            if (below(rng, 8) != 0) {  // else deleted: its lines stay, unlisted
                entries.push_back(live[id]);
            }
        }
        std::sort(entries.begin(), entries.end(),
                  [](const auto& a, const auto& b) { return a.offset < b.offset; });
        const fs::path meta = root / "collections" / name / "meta";
        writeText(meta / "data.jsonl", data);
        writeText(meta / "index.bin", zds::encodeZdx(entries));
        writeText(meta / "manifest.json", "{\"collection\":\"" + name + "\",\"doc_count\":" +
                                              std::to_string(entries.size()) + "}");
    }
    return root;
}

fs::path generateZdsWritten(std::mt19937_64& rng, const fs::path& dir, bool archive) {
    zds::ZdsCollectionWrite w;
    w.name = "main";
    w.layout = archive || below(rng, 2) ? zds::ZdsLayout::Jsonl : zds::ZdsLayout::Docs;
    for (std::uint64_t i = 0, n = 3 + below(rng, 50); i < n; ++i) {
        w.documents.push_back(zds::ZdsWriteDoc::text(zdsDocument(rng, "doc" + std::to_string(i))));
    }
    fs::create_directories(dir);
    const fs::path target = dir / (archive ? "dataset.zds" : "dataset");
    zds::writeZdsDataset(nullptr, {w}, target);
    return target;
}

fs::path generateZds(std::mt19937_64& rng, const fs::path& dir) {
    switch (below(rng, 3)) {
        case 0:
            return generateZdsFolder(rng, dir);
        case 1:
            return generateZdsWritten(rng, dir, true);
        default:
            return generateZdsWritten(rng, dir, false);
    }
}

// Every live document of the original whose bytes are untouched in the input is a live
// document of the output with those bytes; in an archive (where each member has a CRC-32) the
// output holds no document the original does not.
void checkZdsOutput(const CaseFiles& files, const RepairReport&,
                    std::vector<std::string>& violations) {
    const auto original = zds::ZdsDataset::open(files.original);
    std::map<std::string, std::set<std::string>> outDocs;  // collection -> document bytes
    const auto repaired = zds::ZdsDataset::open(files.output);
    for (const auto& c : repaired->collections) {
        for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
            outDocs[c->name()].insert(bytesText(c->documentBytes(i).bytes));
        }
    }
    const bool archive = fs::is_regular_file(files.original);
    for (const auto& c : original->collections) {
        // Which documents are live is the index's word (or order.ids', doc_index.jsonl's):
        // damage there may lose an untouched line, but not silently (a reported loss).
        const bool listDamaged = std::any_of(
            files.damage.damages.begin(), files.damage.damages.end(), [&](const FileDamage& d) {
                const std::string name = d.file.filename().string();
                return (name == "index.bin" || name == "order.ids" || name == "doc_index.jsonl" ||
                        name == "journal.log") &&
                       d.file.string().find("/" + c->name() + "/") != std::string::npos;
            });
        std::set<std::string> originalDocs;
        for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
            const zds::ZdsDocument doc = c->document(i);
            const std::string bytes = bytesText(c->documentBytes(doc).bytes);
            originalDocs.insert(bytes);
            if (archive || listDamaged) {
                continue;  // members move in an archive; the subset check below covers them
            }
            // A line with the line end before it: a damaged line end joins two lines.
            const fs::path file = inInput(files, doc.region.source->name());
            const std::uint64_t before = doc.region.offset > 0 ? 1 : 0;
            if (files.damage.untouchedAt(file, doc.region.offset - before,
                                         doc.region.length + before) &&
                !outDocs[c->name()].contains(bytes)) {
                violations.push_back("document " + doc.id + " of " + c->name() +
                                     " is untouched, but not in the output");
            }
        }
        if (archive) {
            for (const std::string& bytes : outDocs[c->name()]) {
                if (!originalDocs.contains(bytes)) {
                    violations.push_back(
                        "the output's " + c->name() +
                        " holds a document the original does not: " + bytes.substr(0, 80));
                }
            }
        }
    }
}

// --- zTensor -------------------------------------------------------------------------------

fs::path generateZTensor(std::mt19937_64& rng, const fs::path& dir) {
    static constexpr ztensor::ZtDType kTypes[] = {
        ztensor::ZtDType::Float32, ztensor::ZtDType::Int32, ztensor::ZtDType::UInt8,
        ztensor::ZtDType::Float64, ztensor::ZtDType::Int64};
    static constexpr std::size_t kSizes[] = {4, 4, 1, 8, 8};
    const std::uint64_t count = 1 + below(rng, 8);
    std::vector<std::vector<std::uint8_t>> data(count);
    std::vector<ztensor::ZtWriterTensor> tensors(count);
    for (std::uint64_t t = 0; t < count; ++t) {
        const std::size_t type = below(rng, std::size(kTypes));
        ztensor::ZtWriterTensor& tensor = tensors[t];
        tensor.name = "layer" + std::to_string(t) + (below(rng, 4) == 0 ? ".weight" : ".bias");
        tensor.dtype = kTypes[type];
        tensor.shape = {1 + below(rng, 40), 1 + below(rng, 6)};
        data[t].resize(tensor.shape[0] * tensor.shape[1] * kSizes[type]);
        for (auto& byte : data[t]) {
            byte = static_cast<std::uint8_t>(below(rng, 16));  // finite floats, compressible
        }
        ztensor::ZtWriterComponent component;
        component.role = "data";
        component.data = data[t];
        component.encoding = below(rng, 2) ? ztensor::ZtEncoding::Zstd : ztensor::ZtEncoding::Raw;
        component.digest =
            below(rng, 2) ? ztensor::ZtDigestAlgorithm::Sha256 : ztensor::ZtDigestAlgorithm::Crc32c;
        tensor.components.push_back(component);
    }
    ztensor::ZtWriterOptions options;
    options.attributes = {{"model", "campaign"}, {"seed", std::to_string(below(rng, 1000))}};
    fs::create_directories(dir);
    const fs::path path = dir / "model.zt";
    ztensor::ztWriteFile(path, tensors, options);
    return path;
}

// --- Shardlake -----------------------------------------------------------------------------

fs::path generateShardlake(std::mt19937_64& rng, const fs::path& dir) {
    using namespace shardlake;
    static constexpr Metric kMetrics[] = {Metric::Cosine, Metric::Euclidean, Metric::InnerProduct};
    const std::uint32_t dims = 2 + static_cast<std::uint32_t>(below(rng, 10));
    std::string text;
    for (std::uint64_t id = 1, n = 20 + below(rng, 200); id <= n; ++id) {
        text += "{\"id\":" + std::to_string(id * 3) + ",\"vector\":[";
        for (std::uint32_t j = 0; j < dims; ++j) {
            char number[32];
            std::snprintf(number, sizeof number, "%.3f",
                          static_cast<double>(below(rng, 4000)) / 1000.0 - 2.0);
            text += (j ? "," : "") + std::string(number);
        }
        text += "]}\n";
    }
    fs::create_directories(dir);
    writeText(dir / "input.jsonl", text);
    const fs::path root = dir / "store";
    IngestRequest ingest;
    ingest.root = root;
    ingest.input = dir / "input.jsonl";
    ingest.datasetVersion = "ds1";
    ingest.timestamp = "2026-01-01T00:00:00Z";
    if (!ingestVectors(ingest).ok) {
        throw std::runtime_error("ingest failed");
    }
    fs::remove(dir / "input.jsonl");
    for (std::uint64_t i = 0, indexes = 1 + below(rng, 2); i < indexes; ++i) {
        BuildRequest build;
        build.root = root;
        build.datasetVersion = "ds1";
        build.indexVersion = "idx" + std::to_string(i);
        build.metric = kMetrics[below(rng, 3)];
        build.numShards = 1 + static_cast<std::uint32_t>(below(rng, 4));
        build.timestamp = "2026-01-02T00:00:00Z";
        build.threads = 1;
        if (const BuildOutcome built = buildIndex(build); !built.ok) {
            throw std::runtime_error("build failed: " + built.error);
        }
    }
    return root;
}

// --- OZDF ----------------------------------------------------------------------------------

std::string ozdfParagraph(std::mt19937_64& rng) {
    static constexpr std::string_view kWords[] = {"the",   "rain",   "fell",  "softly", "on",
                                                  "naïve", "Straße", "café",  "日本",   "sea",
                                                  "and",   "light",  "Ωmega", "we",     "went"};
    std::string text;
    for (std::uint64_t n = 1 + below(rng, 25), column = 0; n > 0; --n) {
        const std::string_view word = kWords[below(rng, std::size(kWords))];
        if (column > 0 && column + word.size() > 60) {
            text += '\n';
            column = 0;
        } else if (column > 0) {
            text += ' ';
            ++column;
        }
        text += word;
        column += word.size();
    }
    return text;
}

std::string ozdfParagraphs(std::mt19937_64& rng) {
    std::string text;
    for (std::uint64_t n = 1 + below(rng, 3); n > 0; --n) {
        text += ozdfParagraph(rng) + "\n\n";
    }
    return text;
}

std::string ozdfItems(std::mt19937_64& rng) {
    std::string text;
    for (std::uint64_t i = 0, n = below(rng, 4); i < n; ++i) {
        text += below(rng, 4) == 0 ? "====\n" : "==== Part " + std::to_string(i + 1) + "\n";
        text += ozdfParagraphs(rng);
    }
    return text;
}

// The text of a document; with `external` set, a directory document's metadata whose external
// list's parts are written into `folder`.
std::string ozdfDocument(std::mt19937_64& rng, const fs::path* folder) {
    std::string text = "#### TITLE\n" + ozdfParagraph(rng) + "\n\n";
    if (below(rng, 2)) {
        text += "#### COMMENT\nwritten for the repair campaign\n\n";
    }
    text += "#### [CHAPTERS]\n" + ozdfItems(rng);
    if (folder != nullptr) {
        text += "#### [[BOOK PARTS]]\n\n";
        for (std::uint64_t p = 1, parts = 1 + below(rng, 4); p <= parts; ++p) {
            std::string part;
            if (below(rng, 3)) {
                part += "#### NAME\nPart " + std::to_string(p) + "\n\n";
            }
            part += "#### DATA\n" + ozdfParagraphs(rng);
            writeText(*folder / ("BOOK_PARTS-" + std::to_string(p) + ".ozdp"), part);
        }
    }
    return text + "#### AUTHOR\n" + ozdfParagraph(rng) + "\n";
}

fs::path generateOzdf(std::mt19937_64& rng, const fs::path& dir) {
    const fs::path corpus = dir / "corpus";
    fs::create_directories(corpus);
    for (std::uint64_t d = 0, documents = 1 + below(rng, 5); d < documents; ++d) {
        const std::string name = "doc" + std::to_string(d);
        if (below(rng, 2)) {
            const fs::path folder = corpus / name;
            fs::create_directories(folder);
            writeText(folder / "_metadata.ozdf", ozdfDocument(rng, &folder));
        } else {
            writeText(corpus / (name + ".ozdf"), ozdfDocument(rng, nullptr));
        }
    }
    return corpus;
}

// Adds the words of `text` under `document`: split at whitespace and at the ASCII separators
// (0x1c to 0x1f) readers also take for whitespace, as Python's str.split() does.
void addWords(std::multiset<std::string>& words, const std::string& document, std::string text) {
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c >= 0x1c && c <= 0x1f; }, ' ');
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        words.insert(document + "/" + word);
    }
}

// The words of a corpus's text (paragraphs and comments), by document. A repair's mends of
// structure (a header given its space, a blank line added) may move text into another block or
// split a paragraph, and are listed when they change what readers read; they never make text.
std::multiset<std::string> ozdfWords(const fs::path& corpus) {
    std::multiset<std::string> words;
    const auto add = [&](const std::string& document, const std::string& text) {
        addWords(words, document, text);
    };
    for (const ozdf::Document& d : ozdf::readCorpus(corpus).documents) {
        for (const ozdf::Element& e : d.elements) {
            add(d.filename, e.text);
            for (const ozdf::Paragraph& p : e.paragraphs) {
                add(d.filename, p.text);
            }
            for (const ozdf::Item& item : e.items) {
                for (const ozdf::Paragraph& p : item.paragraphs) {
                    add(d.filename, p.text);
                }
            }
        }
    }
    return words;
}

// The words of every file of a corpus as bytes, by document (its top-level file or folder):
// nothing protects OZDF text, so a repair may read back whatever the damaged files hold, also
// where readers refuse to (a folder of parts without its metadata, a line after a bad header).
std::multiset<std::string> ozdfFileWords(const fs::path& corpus) {
    std::multiset<std::string> words;
    for (const fs::path& file : filesUnder(corpus)) {
        const std::string document = fs::relative(file, corpus).begin()->string();
        addWords(words, document, fileBytes(file));
    }
    return words;
}

// Every word of the output's text is the original's or one of the damaged input's files'.
void checkOzdfOutput(const CaseFiles& files, const RepairReport&,
                     std::vector<std::string>& violations) {
    const std::multiset<std::string> original = ozdfWords(files.original);
    const std::multiset<std::string> input = ozdfFileWords(files.input);
    const std::multiset<std::string> output = ozdfWords(files.output);
    for (auto it = output.begin(); it != output.end(); it = output.upper_bound(*it)) {
        if (output.count(*it) > std::max(original.count(*it), input.count(*it))) {
            violations.push_back(
                "the output's text holds words neither the input nor the "
                "original holds: " +
                it->substr(0, 120));
            return;
        }
    }
}

ContentRule zsRule(const Difference&, const CaseFiles&) {
    return ContentRule::Protected;
}

// Documents; manifests and counts describe what was kept.
ContentRule zdsRule(const Difference& d, const CaseFiles&) {
    return d.path.ends_with("manifest.json") || d.path.ends_with("zds.json")
               ? ContentRule::FormatCheck
               : ContentRule::InTheInput;
}

// Whether every component of tensor `name` in the damaged input carries a digest.
bool digestedInInput(const CaseFiles& files, std::string_view name) {
    try {
        const auto file = ztensor::ZtFile::open(openMappedFile(files.input));
        for (const ztensor::ZtTensor& t : file->tensors()) {
            if (t.name == name) {
                return std::all_of(t.components.begin(), t.components.end(), [&](std::size_t c) {
                    return file->components()[c].digest.has_value();
                });
            }
        }
    } catch (const std::exception&) {
    }
    return false;
}

// A tensor's values are protected by its digests (every generated component has one; damage
// to the manifest may take one away); its name, dtype and shape live in the manifest, which
// nothing protects.
ContentRule zTensorRule(const Difference& d, const CaseFiles& files) {
    const bool values = std::any_of(d.fields.begin(), d.fields.end(), [](const DiffField& f) {
        return f.path != "dtype" && f.path != "shape" && f.path != "format";
    });
    if (d.kind != DiffKind::Changed || !d.path.starts_with("tensor/") ||
        d.path.ends_with("/manifest") || !values) {
        return ContentRule::InTheInput;
    }
    return digestedInInput(files, std::string_view(d.path).substr(7)) ? ContentRule::Protected
                                                                      : ContentRule::InTheInput;
}

// Index vectors are protected by their shard's fingerprint (or vouched for by the dataset);
// manifests, quantizers, shard files as bytes and answers describe what was kept.
ContentRule shardlakeRule(const Difference& d, const CaseFiles&) {
    if (d.path.starts_with("indexes/") && d.path.find("/vectors/") != std::string::npos) {
        return ContentRule::Protected;
    }
    const bool dataset =
        d.path.starts_with("datasets/") && d.path.find("vectors.jsonl/") != std::string::npos;
    return dataset ? ContentRule::InTheInput : ContentRule::FormatCheck;
}

// Lists are compared by position, so an item lost moves the others, and a mended header moves
// text into a new block: checkOzdfOutput judges the text word by word; only whole documents
// are judged here.
ContentRule ozdfRule(const Difference& d, const CaseFiles&) {
    return d.path.find('/') == std::string::npos ? ContentRule::InTheInput
                                                 : ContentRule::FormatCheck;
}

void noFormatChecks(const CaseFiles&, const RepairReport&, std::vector<std::string>&) {}

}  // namespace

const std::vector<CampaignFormat>& campaignFormats() {
    static const std::vector<CampaignFormat> formats = {
        {"ZS", generateZs, zsRule, checkZsOutput},
        {"ZDS", generateZds, zdsRule, checkZdsOutput},
        {"zTensor", generateZTensor, zTensorRule, noFormatChecks},
        {"Shardlake", generateShardlake, shardlakeRule, noFormatChecks},
        {"OZDF", generateOzdf, ozdfRule, checkOzdfOutput},
    };
    return formats;
}

}  // namespace strata::test
