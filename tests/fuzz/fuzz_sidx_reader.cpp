// Fuzzes the Shardlake readers: any bytes as a .sidx shard, a coarse quantizer and a PQ
// codebook (parsing, the lazy tree's header, centroids, first and last records, and the
// single-file validators), and as a manifest / alias JSON document. Nothing may crash, throw,
// hang or allocate what a hostile header claims.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/shardlake/shardlake_binary.h"
#include "formats/shardlake/shardlake_json.h"
#include "formats/shardlake/shardlake_manifest.h"
#include "formats/shardlake/shardlake_store.h"
#include "formats/shardlake/shardlake_tree.h"
#include "formats/shardlake/shardlake_validator.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

// Visits a node's first and last few children, two levels down.
void walk(const strata::Node& node, int depth) {
    (void)node.fields();
    if (depth == 0) {
        return;
    }
    const std::uint64_t count = node.childCount();
    for (std::uint64_t i = 0; i < count && i < 3; ++i) {
        walk(*node.child(i), depth - 1);
    }
    if (count > 3) {
        walk(*node.child(count - 1), depth - 1);
    }
}

void validate(const std::shared_ptr<const strata::shardlake::Store>& store,
              strata::shardlake::ValidationScope scope, const strata::ByteSourcePtr& source) {
    strata::CollectingSink sink;
    strata::ValidationOptions options;
    options.threads = 1;
    options.maxPerCode = 16;
    strata::shardlake::makeShardlakeValidator(store, {scope, "fuzz", source})->run(sink, options);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace strata::shardlake;
    const auto source = strata::makeBufferSource(std::vector<std::uint8_t>(data, data + size));
    const ShardParse shard = parseShard(*source);
    if (shard.layout) {
        check(shard.layout->recordsPresent() <= shard.layout->vectorCount);
        check(shard.layout->recordsPresent() == 0 ||
              shard.layout->recordOffset(shard.layout->recordsPresent() - 1) +
                      shard.layout->recordSize <=
                  size);
    }
    walk(*makeShardNode(source, "fuzz.sidx"), 3);
    walk(*makeCoarseQuantizerNode(source, "fuzz.cq"), 3);
    walk(*makeCodebookNode(source, "fuzz.bin"), 3);
    const JsonDoc doc = loadJson(source);
    if (doc.parsed) {
        std::vector<strata::Diagnostic> found;
        (void)readIndexManifest(doc, found);
        (void)readAlias(doc, found);
        (void)readDatasetInfo(doc, found);
    }
    walk(*makeJsonNode(source, "shardlake.manifest", "fuzz.json"), 2);
    walk(*makeJsonNode(source, "shardlake.alias", "fuzz.json"), 2);
    static const auto store = std::make_shared<const Store>("/nonexistent-strata-fuzz-root");
    validate(store, ValidationScope::Manifest, source);
    validate(store, ValidationScope::Shard, source);
    validate(store, ValidationScope::CoarseQuantizer, source);
    validate(store, ValidationScope::Codebook, source);
    return 0;
}
