// Fuzzes the ZS reader: open from a buffer, validate, walk the lazy tree a bounded amount, run
// a prefix query and iterate records, on one thread and on several (formatRecords), and past
// damage (ZsBlockFinder). Checks: no
// crash, no hang, no unbounded allocation (the per-block decode limit is lowered to 1 MiB),
// every diagnostic region stays sane, and both readers give the same records and error.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/zs/zs_block_finder.h"
#include "formats/zs/zs_parallel_reader.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_tree.h"
#include "formats/zs/zs_validator.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

// Depth and fan-out bounds keep the walk finite even on an index that loops.
void walk(const strata::Node& node, int depth, int& budget) {
    if (depth > 6 || budget <= 0) {
        return;
    }
    const std::uint64_t count = node.childCount();
    for (std::uint64_t i = 0; i < count && i < 32 && budget > 0; ++i) {
        --budget;
        const strata::Node* child = node.child(i);
        check(child != nullptr);
        check(child->parent() == &node);
        walk(*child, depth + 1, budget);
    }
}

// Output of the first kOutputCap bytes of records, one thread or several, and the error that
// ended the reading (empty if none).
constexpr std::size_t kOutputCap = 4u << 20;

std::pair<std::string, std::string> serialRecords(const std::shared_ptr<strata::zs::ZsFile>& file) {
    std::string out;
    try {
        strata::zs::ZsRecordIterator records(file);
        while (const auto record = records.next()) {
            if (out.size() >= kOutputCap) {
                return {out, ""};
            }
            out.append(record->begin(), record->end());
            out += '\n';
        }
    } catch (const strata::zs::ZsReadError& e) {
        return {out, e.what()};
    }
    return {out, ""};
}

std::pair<std::string, std::string> parallelRecords(const strata::zs::ZsFile& file) {
    std::string out;
    strata::CancelToken enough;
    strata::zs::ParallelReadOptions options;
    options.threads = 2;
    options.cancel = &enough;
    try {
        strata::zs::formatRecords(
            file, {}, options,
            [](std::span<const std::uint8_t> record, std::string& text) {
                text.append(record.begin(), record.end());
                text += '\n';
            },
            [&](std::string_view text) {
                out += text;
                if (out.size() >= kOutputCap) {
                    enough.cancel();
                }
            });
    } catch (const strata::zs::ZsReadError& e) {
        return {out, e.what()};
    }
    return {out, ""};
}

// Where reading goes on after damage is always past it and inside the file, and a walk that
// goes on past every damaged stretch ends.
void checkFinder(const std::shared_ptr<strata::zs::ZsFile>& file, std::size_t size) {
    strata::zs::ZsBlockFinder finder(file, size);
    for (const std::uint64_t at :
         {file->blocksBegin(), std::uint64_t{size / 3}, std::uint64_t{size / 2}}) {
        if (at < file->blocksBegin() || at >= size) {
            continue;
        }
        const auto next = finder.resumeAfter(at);
        check(next && *next > at && *next <= size);
        if (const auto frame = finder.frameFilling(at, *next)) {
            check(frame->offset == at && frame->end() == *next);
        }
    }
    try {
        strata::zs::ZsRecordIterator records(file);
        for (int steps = 0; steps < 10000; ++steps) {
            try {
                if (!records.next()) {
                    break;
                }
            } catch (const strata::zs::ZsReadError&) {
                const auto damage = records.skipDamage();
                check(damage.length > 0 || !damage.canContinue);
                if (!damage.canContinue) {
                    break;
                }
            }
        }
    } catch (const strata::zs::ZsReadError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto source = strata::makeBufferSource(std::vector<std::uint8_t>(data, data + size), "fuzz.zs");
    const auto file = strata::zs::ZsFile::open(source, strata::zs::ReadLimits{1u << 20});

    strata::CollectingSink sink;
    strata::ValidationOptions options;
    options.threads = 1;
    options.maxPerCode = 50;
    strata::zs::ZsValidator(file).run(sink, options);
    for (const auto& d : sink.diagnostics()) {
        check(!d.code.empty());
        for (const auto& r : d.regions) {
            check(r.source == nullptr || r.source == source.get());
        }
    }

    auto root = strata::zs::buildZsTree(file);
    int budget = 400;
    walk(*root, 0, budget);
    if (size > 0) {
        (void)root->deepestAt(size / 2);
    }

    try {
        std::size_t found = 0;
        file->search({std::nullopt, std::nullopt, std::string("a")},
                     [&](std::span<const std::uint8_t> record) {
                         check(record.size() <= size * 1024 + (1u << 20));
                         return ++found < 1000;
                     });
        strata::zs::ZsRecordIterator records(file);
        for (int i = 0; i < 1000 && records.next(); ++i) {
        }
    } catch (const strata::zs::ZsReadError&) {
        // Damage where the query reads is reported, not hidden.
    }

    if (file->readable()) {
        checkFinder(file, size);
        const auto serial = serialRecords(file);
        const auto parallel = parallelRecords(*file);
        const std::size_t common = std::min(serial.first.size(), parallel.first.size());
        check(serial.first.compare(0, common, parallel.first, 0, common) == 0);
        if (serial.first.size() < kOutputCap && parallel.first.size() < kOutputCap) {
            check(serial == parallel);
        }
    }
    return 0;
}
