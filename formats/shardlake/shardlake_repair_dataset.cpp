// The Shardlake repair of one dataset (see shardlake_repair.h): copied when it validates, else
// its vectors, metadata and info kept or rebuilt from one another or from a raw index.
#include "shardlake_repair_parts.h"

namespace strata::shardlake::repair {

namespace {

struct DatasetScan {
    bool usable = false;
    std::string problem;
    std::uint64_t count = 0;
    std::uint64_t dims = 0;
};

DatasetScan scanVectors(const ByteSource& source) {
    DatasetScan scan;
    std::vector<std::uint64_t> ids;
    bool ok = true;
    forEachDatasetLine(source, [&](const DatasetLine& line) {
        if (!line.error.empty() || !line.id || !line.hasValues || line.nonFinite ||
            line.values.empty()) {
            scan.problem = "line " + std::to_string(line.lineNumber) + " is not a usable vector" +
                           (line.error.empty() ? "" : " (" + line.error + ")");
            ok = false;
            return false;
        }
        if (scan.count == 0) {
            scan.dims = line.values.size();
        } else if (line.values.size() != scan.dims) {
            scan.problem = "line " + std::to_string(line.lineNumber) + " has " +
                           std::to_string(line.values.size()) + " values, not " +
                           std::to_string(scan.dims);
            ok = false;
            return false;
        }
        ids.push_back(*line.id);
        ++scan.count;
        return true;
    });
    if (ok) {
        std::sort(ids.begin(), ids.end());
        if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) {
            scan.problem = "an id appears twice";
            ok = false;
        }
    }
    scan.usable = ok && scan.count > 0;
    if (ok && scan.count == 0) {
        scan.problem = "it holds no vector";
    }
    return scan;
}

// What a raw index holds of a dataset: the source of a rebuilt vectors.jsonl.
struct IndexedVectors {
    std::string version;
    std::uint64_t count = 0;
    std::uint32_t dims = 0;
    std::function<void(std::ostream&)> generate;
};

// The vectors of dataset `name` as a raw index of it holds them, when its every shard matches its
// fingerprint and reads cleanly and its ids are distinct (and, when `count` is known, exactly that
// many): lines {"id", "data", "metadata"} as ingest writes them, values as the shortest text of
// their f32, the metadata from `meta`, in id order (the original order is recorded nowhere).
std::optional<IndexedVectors> vectorsFromIndex(Context& ctx, const std::string& vectorsKey,
                                               std::optional<std::uint64_t> count,
                                               std::shared_ptr<const ojson> meta) {
    const Store& in = *ctx.store;
    struct Ref {
        std::uint64_t id;
        std::uint32_t shard;
        std::uint64_t offset;
    };
    for (const std::string& version : in.folders("indexes")) {
        const JsonDoc doc = loadJson(in.source("indexes/" + version + "/manifest.json"));
        if (!doc.parsed) {
            continue;
        }
        std::vector<Diagnostic> findings;
        const IndexManifest m = readIndexManifest(doc, findings);
        if (m.vectorsKey != vectorsKey || m.compression.pqShards() || !m.dims || *m.dims == 0 ||
            *m.dims > kMaxDims || m.shards.empty()) {
            continue;
        }
        auto shards = std::make_shared<std::vector<ByteSourcePtr>>();
        auto refs = std::make_shared<std::vector<Ref>>();
        bool ok = true;
        for (const ShardEntry& e : m.shards) {
            const ByteSourcePtr source =
                keyProblem(e.artifactKey).empty() ? in.source(e.artifactKey) : nullptr;
            const ShardParse parse = source ? parseShard(*source) : ShardParse{};
            ok = source && parse.problems.empty() && parse.layout && parse.layout->layoutKnown &&
                 parse.layout->version == 1 && parse.layout->dims == *m.dims &&
                 e.fingerprint == hex16(fingerprintOf(*source, ctx.options.cancel));
            if (!ok) {
                break;
            }
            const ShardLayout& l = *parse.layout;
            RecordReader records(*source, l);
            for (std::uint64_t i = 0; i < l.recordsPresent(); ++i) {
                refs->push_back(
                    {records.id(i), static_cast<std::uint32_t>(shards->size()), l.recordOffset(i)});
            }
            shards->push_back(source);
        }
        if (!ok || refs->empty() || (count && refs->size() != *count)) {
            continue;
        }
        std::sort(refs->begin(), refs->end(),
                  [](const Ref& a, const Ref& b) { return a.id < b.id; });
        if (std::adjacent_find(refs->begin(), refs->end(), [](const Ref& a, const Ref& b) {
                return a.id == b.id;
            }) != refs->end()) {
            continue;
        }
        IndexedVectors found;
        found.version = version;
        found.count = refs->size();
        found.dims = static_cast<std::uint32_t>(*m.dims);
        found.generate = [shards, refs, meta, d = found.dims](std::ostream& out) {
            // Records are read in id order, across the shards: each shard is mapped for the
            // pass, since a read of a file read on demand is an open and a close each. Past
            // kMappedShards (kept well below the kernel's ~65,000 mappings) a record is read on
            // its own.
            constexpr std::size_t kMappedShards = 16384;
            std::vector<ByteSourcePtr> mapped(shards->size());
            for (std::size_t i = 0; i < shards->size() && shards->size() <= kMappedShards; ++i) {
                mapped[i] = mappedForScan(*(*shards)[i]);
            }
            std::string line;
            std::vector<float> values(d);
            for (const Ref& r : *refs) {
                const ByteSource& shard = mapped[r.shard] ? *mapped[r.shard] : *(*shards)[r.shard];
                const ByteView view = shard.view(r.offset + 8, std::uint64_t{4} * d);
                decodeF32s(view.bytes, values);
                line = "{\"id\":" + std::to_string(r.id) + ",\"data\":[";
                for (std::uint32_t i = 0; i < d; ++i) {
                    if (i != 0) {
                        line += ',';
                    }
                    appendF32(line, values[i]);
                }
                line += "],\"metadata\":";
                const auto entry = meta->find(std::to_string(r.id));
                if (entry != meta->end()) {
                    appendCompactJson(*entry, line);
                } else {
                    line += "null";
                }
                line += "}\n";
                out.write(line.data(), static_cast<std::streamsize>(line.size()));
            }
        };
        return found;
    }
    return std::nullopt;
}

// metadata.json from the "metadata" of each line of a usable vectors.jsonl: {"<id>": metadata}
// for every line whose metadata is not null, keys in sorted order, as ingest writes it.
std::string metadataFromVectors(const ByteSource& vectors) {
    std::map<std::string, ojson> entries;
    const ByteSourcePtr mapped = mappedForScan(vectors);  // not all of it copied into memory
    const ByteView view = (mapped ? *mapped : vectors).view(0, vectors.size());
    const std::string_view text(reinterpret_cast<const char*>(view.data()), view.size());
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        const ojson value = ojson::parse(line.begin(), line.end(), nullptr, false);
        if (value.is_object() && value.contains("id") && value["id"].is_number_unsigned() &&
            value.contains("metadata") && !value["metadata"].is_null()) {
            entries[std::to_string(value["id"].get<std::uint64_t>())] = value["metadata"];
        }
    }
    return prettyJson(objectOfUniqueKeys(std::move(entries)));
}

// The usable lines of a vectors.jsonl that has bad ones: each line kept when it is a JSON object
// with an id and the values of the dims most lines have, all finite, and an id no other line
// has; the others are losses (consecutive lines with one reason reported together).
struct LineSalvage {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> kept;  // offset, length of each line
    std::uint64_t dims = 0;
    std::set<std::uint64_t> repeated;
};

std::optional<LineSalvage> salvageLines(Context& ctx, const std::string& key,
                                        const ByteSourcePtr& vectors) {
    enum class Fault : std::uint8_t { None, Unreadable, NoId, NoValues, NonFinite, Dims, Repeated };
    struct Line {
        std::uint64_t number;
        std::uint64_t offset;
        std::uint64_t length;
        std::uint64_t id;
        std::uint64_t dims;
        Fault fault;
    };
    std::vector<Line> lines;
    forEachDatasetLine(*vectors, [&](const DatasetLine& l) {
        Fault fault = Fault::None;
        if (!l.error.empty()) {
            fault = Fault::Unreadable;
        } else if (!l.id) {
            fault = Fault::NoId;
        } else if (!l.hasValues || l.values.empty()) {
            fault = Fault::NoValues;
        } else if (l.nonFinite) {
            fault = Fault::NonFinite;
        }
        lines.push_back({l.lineNumber, l.region.offset, l.region.length, l.id.value_or(0),
                         l.values.size(), fault});
        return !ctx.options.cancel || !ctx.options.cancel->cancelled();
    });
    std::map<std::uint64_t, std::size_t> dimsCount;
    for (const Line& l : lines) {
        dimsCount[l.dims] += l.fault == Fault::None ? 1 : 0;
    }
    LineSalvage out;
    std::size_t best = 0;
    for (const auto& [d, n] : dimsCount) {
        if (n > best) {
            out.dims = d;
            best = n;
        }
    }
    std::vector<std::uint64_t> ids;
    for (Line& l : lines) {
        if (l.fault == Fault::None && l.dims != out.dims) {
            l.fault = Fault::Dims;
        }
        if (l.fault == Fault::None) {
            ids.push_back(l.id);
        }
    }
    std::sort(ids.begin(), ids.end());
    for (std::size_t i = 1; i < ids.size(); ++i) {
        if (ids[i] == ids[i - 1]) {
            out.repeated.insert(ids[i]);
        }
    }
    for (Line& l : lines) {
        if (l.fault == Fault::None && out.repeated.contains(l.id)) {
            l.fault = Fault::Repeated;
        }
    }
    auto reason = [&](const Line& l) -> std::string {
        switch (l.fault) {
            case Fault::Unreadable:
                return "not a JSON object with \"id\" and \"data\"";
            case Fault::NoId:
                return "no usable id";
            case Fault::NoValues:
                return "no values";
            case Fault::NonFinite:
                return "a value beyond f32";
            case Fault::Dims:
                return "not " + std::to_string(out.dims) + " values";
            case Fault::Repeated:
                return "an id another line has too (every copy dropped: which one is right "
                       "cannot be told)";
            case Fault::None:
                break;
        }
        return {};
    };
    for (std::size_t i = 0; i < lines.size();) {
        if (lines[i].fault == Fault::None) {
            out.kept.emplace_back(lines[i].offset, lines[i].length);
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        while (j < lines.size() && lines[j].fault == lines[i].fault &&
               lines[j].number == lines[j - 1].number + 1) {
            ++j;
        }
        const Line& first = lines[i];
        const Line& last = lines[j - 1];
        ctx.loss(key + ": " +
                     (j - i == 1 ? "line " + std::to_string(first.number)
                                 : "lines " + std::to_string(first.number) + " to " +
                                       std::to_string(last.number)) +
                     " dropped: " + reason(first),
                 {vectors.get(), first.offset, last.offset + last.length - first.offset});
        i = j;
    }
    if (out.kept.empty()) {
        return std::nullopt;
    }
    return out;
}

// A dataset is copied when it validates. Otherwise each of its three files is kept when it is
// sound and rebuilt from the others when it is not: vectors.jsonl from a raw index that holds it
// all, metadata.json from the vectors' lines, info.json from the vectors. A dataset whose vectors
// can be neither read nor rebuilt is a loss.
}  // namespace

void repairDataset(Context& ctx, const std::string& name) {
    const Store& in = *ctx.store;
    const std::string base = "datasets/" + name;
    if (!nameProblem(name).empty()) {
        ctx.action(base + ": left out (the folder name cannot be a dataset version)");
        return;
    }
    CollectingSink sink;
    ValidationOptions validation;
    validation.cancel = ctx.options.cancel;
    makeShardlakeValidator(ctx.store, {ValidationScope::Dataset, name, nullptr})
        ->run(sink, validation);
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.severity == Severity::Error) {
            errors.push_back(d);
        }
    }
    std::vector<OutFile> copies;
    for (const std::string& file : in.files(base)) {
        if (isLeftoverName(file)) {
            ctx.action(base + "/" + file + ": left out (a leftover of an interrupted save)",
                       wholeOf(in.source(base + "/" + file)));
            continue;
        }
        if (ByteSourcePtr source = in.source(base + "/" + file)) {
            copies.push_back({base + "/" + file, source, {}, {}, 0, 0, {}, {}});
        }
    }
    const ByteSourcePtr infoSource = in.source(base + "/info.json");
    const std::optional<ojson> info =
        infoSource ? parseObject(textOf(*infoSource)) : std::optional<ojson>();
    if (errors.empty()) {
        for (OutFile& f : copies) {
            ctx.add(std::move(f));
        }
        ctx.datasets.insert(name);
        ctx.datasetInfo[name] = info.value_or(ojson::object());
        return;
    }
    const std::string why =
        errors.front().code + ": " + errors.front().message +
        (errors.size() > 1
             ? " (and " + counted(errors.size() - 1, "more error", "more errors") + ")"
             : "");
    // The files: where info.json says, when that is a clean key inside the dataset that exists.
    auto keyOf = [&](const char* field, const char* file) {
        const std::string k = info ? stringAt(*info, field) : std::string();
        return !k.empty() && keyProblem(k).empty() && k.starts_with(base + "/") && in.exists(k)
                   ? k
                   : base + "/" + file;
    };
    const std::string vectorsKey = keyOf("vectors_key", "vectors.jsonl");
    const std::string metadataKey = keyOf("metadata_key", "metadata.json");
    const std::string infoKey = base + "/info.json";
    const ByteSourcePtr vectors = in.source(vectorsKey);
    const ByteSourcePtr metadata = in.source(metadataKey);
    const DatasetScan scan = vectors ? scanVectors(*vectors) : DatasetScan{};
    std::shared_ptr<const ojson> meta;
    bool metadataIntact = false;
    if (metadata && metadata->size() > kMaxJsonBytes) {
        // Too large to load (it grows with the vectors): checked in one pass, kept as it is.
        metadataIntact = holdsJsonObject(*metadata);
    } else if (metadata) {
        if (auto parsed = parseObject(textOf(*metadata))) {
            meta = std::make_shared<const ojson>(std::move(*parsed));
            metadataIntact = true;
        }
    }
    std::vector<OutFile> planned;
    std::uint64_t count = scan.count;
    std::uint64_t dims = scan.dims;
    if (scan.usable) {
        planned.push_back({vectorsKey, vectors, {}, {}, 0, 0, {}, {}});
    } else {
        const auto infoCount = info ? unsignedAt(*info, "vector_count") : std::nullopt;
        auto rebuilt = meta ? vectorsFromIndex(ctx, vectorsKey, infoCount, meta) : std::nullopt;
        std::optional<LineSalvage> salvage;
        if (!rebuilt && vectors) {
            salvage = salvageLines(ctx, vectorsKey, vectors);
        }
        if (!rebuilt && salvage) {
            count = salvage->kept.size();
            dims = salvage->dims;
            ctx.repeatedIds[name] = salvage->repeated;
            ctx.action(vectorsKey + " cannot be read whole (" + scan.problem + "): its " +
                           counted(count, "usable line", "usable lines") +
                           " are kept (no raw index whose shards all match their fingerprints "
                           "holds the vectors)",
                       wholeOf(vectors));
            OutFile file;
            file.key = vectorsKey;
            file.generate = [vectors, kept = std::make_shared<decltype(salvage->kept)>(
                                          std::move(salvage->kept))](std::ostream& out) {
                for (const auto& [offset, length] : *kept) {
                    const ByteView view = vectors->view(offset, length);
                    out.write(reinterpret_cast<const char*>(view.data()),
                              static_cast<std::streamsize>(view.size()));
                    out.put('\n');
                }
            };
            planned.push_back(std::move(file));
        } else if (!rebuilt) {
            ctx.loss(
                "dataset " + name + " not written: " + why + "; its vectors " +
                    (vectors ? "cannot be read (" + scan.problem + ")"
                             : std::string("file is missing")) +
                    " and no raw index whose shards all match their fingerprints holds "
                    "them" +
                    (meta             ? ""
                     : metadataIntact ? " (and metadata.json is too large to load to rebuild "
                                        "them with)"
                                      : " (nor is metadata.json readable to rebuild them with)"),
                vectors ? wholeOf(vectors) : wholeOf(infoSource));
            return;
        } else {
            count = rebuilt->count;
            dims = rebuilt->dims;
            ctx.action(vectorsKey +
                           (vectors ? " cannot be read (" + scan.problem + ")"
                                    : std::string(" is missing")) +
                           ": rebuilt from the " + counted(count, "record", "records") +
                           " of index " + rebuilt->version +
                           " (raw f32 vectors, every shard matching its fingerprint" +
                           (infoCount ? ", exactly the dataset's vector_count"
                                      : "; info.json does not say how many vectors the dataset "
                                        "holds") +
                           ") with the metadata of " + metadataKey +
                           "; the lines are in id order, as the original order is recorded nowhere",
                       vectors ? wholeOf(vectors) : Region{});
            OutFile file;
            file.key = vectorsKey;
            file.generate = std::move(rebuilt->generate);
            planned.push_back(std::move(file));
        }
    }
    if (metadataIntact) {
        planned.push_back({metadataKey, metadata, {}, {}, 0, 0, {}, {}});
    } else {
        ctx.action(metadataKey + (metadata ? " is not a JSON object" : std::string(" is missing")) +
                       ": rebuilt from the metadata of the lines of " + vectorsKey +
                       " (lines whose metadata is null get no entry: the two cannot be told "
                       "apart)",
                   wholeOf(metadata));
        planned.push_back({metadataKey, nullptr, metadataFromVectors(*vectors), {}, 0, 0, {}, {}});
    }
    ojson rebuilt = info.value_or(ojson::object());
    std::vector<std::string> changes;
    auto set = [&](const char* key, const ojson& value) {
        if (!rebuilt.contains(key) || rebuilt[key] != value) {
            changes.push_back(std::string(key) + " " +
                              (rebuilt.contains(key) ? shown(rebuilt[key]) : "(absent)") + " → " +
                              shown(value));
            rebuilt[key] = value;
        }
    };
    // manifest_version and embedding_version are kept as read, or left out (both optional):
    // nothing else records them.
    set("dataset_version", name);
    set("dims", dims);
    if (rebuilt.contains("count")) {
        rebuilt.erase("count");
        changes.push_back("count removed (vector_count is what real files write)");
    }
    set("vector_count", count);
    set("vectors_key", vectorsKey);
    set("metadata_key", metadataKey);
    if (info && changes.empty()) {
        planned.push_back({infoKey, infoSource, {}, {}, 0, 0, {}, {}});
    } else {
        std::string joined;
        for (const std::string& c : changes) {
            joined += (joined.empty() ? "" : "; ") + c;
        }
        ctx.action(infoKey + " rebuilt from the dataset's " + counted(count, "vector", "vectors") +
                       " (" + why + "): " + joined,
                   wholeOf(infoSource));
        planned.push_back({infoKey, nullptr, prettyJson(rebuilt), {}, 0, 0, {}, {}});
    }
    for (OutFile& f : copies) {
        if (f.key != vectorsKey && f.key != metadataKey && f.key != infoKey) {
            planned.push_back(std::move(f));
        }
    }
    for (OutFile& f : planned) {
        ctx.add(std::move(f));
    }
    ctx.datasets.insert(name);
    ctx.datasetInfo[name] = rebuilt;
}

}  // namespace strata::shardlake::repair
