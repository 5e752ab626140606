// Fuzzes the ZDS line indexer, ZDX encoder, search matchers and the safe unpacker. The input is
// taken as JSONL: the parallel indexer must agree with the single-threaded one, every indexed
// line must give the same id to jsonLineId, the encoded ZDX must read back with the same entries,
// and the matchers must not crash on any line. An input that starts with "PK" is also unpacked
// as a `.zds`: nothing may be written outside the target folder and nothing may exceed the size
// limit, whatever the archive claims.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/common/byte_source.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_search.h"

namespace {

namespace fs = std::filesystem;

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

struct WorkDir {
    fs::path path =
        fs::temp_directory_path() / ("strata_fuzz_zdsjobs_" + std::to_string(::getpid()));
    ~WorkDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const fs::path& workDir() {
    static const WorkDir dir;
    return dir.path;
}

void indexAndSearch(const strata::ByteSourcePtr& data) {
    strata::zds::ZdsIndexOptions one;
    one.threads = 1;
    strata::zds::ZdsIndexOptions three;
    three.threads = 3;
    const auto a = strata::zds::indexJsonLines(*data, one);
    const auto b = strata::zds::indexJsonLines(*data, three);
    check(a && b && a->size() == b->size());
    std::vector<strata::zds::ZdsLineEntry> indexable;
    for (std::size_t i = 0; i < a->size(); ++i) {
        const strata::zds::ZdsLineEntry& e = (*a)[i];
        check(e.id == (*b)[i].id && e.offset == (*b)[i].offset && e.length == (*b)[i].length);
        check(e.offset + e.length <= data->size());
        if (e.hasId && e.id.size() <= 65535) {
            indexable.push_back(e);
        }
    }
    const std::string zdx = strata::zds::encodeZdx(indexable);
    // The fast builds (no line table) give the same bytes as the line table.
    const auto all = strata::zds::buildZdxFromJsonl(*data, three);
    const auto live = strata::zds::buildLiveZdx(*data, three);
    check(all && live);
    std::string allBytes;
    for (const std::string& part : all->parts) {
        allBytes += part;
    }
    check(allBytes == zdx);
    if (live->complete) {
        std::string liveBytes;
        for (const std::string& part : live->parts) {
            liveBytes += part;
        }
        check(liveBytes == strata::zds::encodeZdx(strata::zds::liveLines(indexable)));
    }
    const strata::zds::ZdxIndex index(strata::makeBufferSource(zdx));
    check(index.entryCount() == indexable.size());
    for (std::size_t i = 0; i < indexable.size() && i < 64; ++i) {
        const strata::zds::ZdxEntry e = index.entry(i);
        check(e.id == indexable[i].id && e.offset == indexable[i].offset);
    }

    using Q = strata::zds::ZdsQuery;
    static const std::vector<Q> queries = {
        {Q::Target::Field, Q::Op::Equals, "/a", "1"},
        {Q::Target::Field, Q::Op::Less, "a", "\"m\""},
        {Q::Target::Field, Q::Op::Contains, "/a/0", "x"},
        {Q::Target::Field, Q::Op::Regex, "/a", "^(x|y)+z"},
        {Q::Target::Text, Q::Op::Regex, "", "\"_id\":\"[a-z]+\""},
        {Q::Target::Text, Q::Op::Contains, "", "AB", true},
        {Q::Target::Id, Q::Op::Greater, "", "k"},
    };
    for (const Q& q : queries) {
        const auto m = strata::zds::ZdsMatcher::compile(q, nullptr);
        check(m.has_value());
        for (std::size_t i = 0; i < a->size() && i < 32; ++i) {
            const strata::ByteView line = data->view((*a)[i].offset, (*a)[i].length);
            std::string snippet;
            (void)m->matches((*a)[i].id, line.bytes, &snippet);
        }
    }
}

void unpack(const std::uint8_t* data, std::size_t size) {
    const fs::path root = workDir() / "unpack";
    std::error_code ec;
    fs::remove_all(root, ec);
    fs::create_directories(root / "inner");
    const fs::path archive = root / "inner" / "in.zds";
    {
        std::ofstream out(archive, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    strata::zds::ZdsJobOptions options;
    options.maxUnpackedBytes = 1u << 20;
    try {
        strata::zds::unpackZds(archive, root / "inner" / "out", options);
    } catch (const std::exception&) {
    }
    // Only the archive and the target folder may exist, and no more than the limit was written.
    std::uint64_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(root / "inner")) {
        const fs::path rel = fs::relative(e.path(), root / "inner");
        const std::string first = rel.begin()->string();
        check(first == "in.zds" || first == "out");
        if (e.is_regular_file() && first == "out") {
            bytes += e.file_size();
        }
    }
    check(bytes <= options.maxUnpackedBytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    indexAndSearch(
        strata::makeBufferSource(std::vector<std::uint8_t>(data, data + size), "fuzz.jsonl"));
    if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
        unpack(data, size);
    }
    return 0;
}
