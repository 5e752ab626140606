// A repair killed (SIGKILL) at any of its progress reports leaves nothing under the output's
// name or its quarantine's, or (killed after publishing) a whole output that validates: one
// damaged corpus case per format, repaired through the registry as strata-cli repair does.
#include <gtest/gtest.h>

#include <string>

#include "formats/builtin/builtin_formats.h"
#include "formats/builtin/format_repair.h"
#include "formats/common/repair.h"
#include "formats/registry/format_registry.h"
#include "killed_repair.h"
#include "registry_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::size_t validationErrors(const fs::path& path) {
    const auto document = builtinFormats().open(path);
    auto validator = document->makeValidator();
    CollectingSink sink;
    validator->run(sink, ValidationOptions{});
    std::size_t errors = 0;
    for (const Diagnostic& d : sink.diagnostics()) {
        errors += d.severity == Severity::Error ? 1 : 0;
    }
    return errors;
}

// What a repair publishes besides its output: the quarantine of ZDS (a file) or OZDF (a folder).
bool anythingPublished(const fs::path& output) {
    for (const char* suffix : {"", ".quarantine", ".quarantine.jsonl"}) {
        fs::path p = output;
        p += suffix;
        std::error_code ec;
        if (fs::exists(fs::symlink_status(p, ec))) {
            return true;
        }
    }
    return false;
}

// Runs the repair in a child killed at progress report `killAt`; true when it ran to the end.
bool repairKilledAt(const fs::path& input, const fs::path& output, int killAt) {
    const test::KilledRepair run = test::repairKilledAt(
        killAt, [&](const RepairOptions& options) { repairPath(input, output, options); });
    EXPECT_EQ(run.exitCode, 0);
    return run.finished;
}

TEST(RepairKilled, EveryFormatLeavesNothingOrAWholeOutput) {
    const fs::path corpus = test::corpusDir();
    if (corpus.empty()) {
        GTEST_SKIP() << test::missingCorpusMessage();
    }
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"zs/corrupt/data-payload-bitflip.zs", "out.zs"},
        {"zds/corrupt/jsonl_line_not_json_with_id_pattern", "out"},
        {"ztensor/corrupt/csr_indices_out_of_range.zt", "out.zt"},
        {"ozdf/corrupt/corpus_one_bad_doc", "out"},
        {"shardlake/corrupt/shard_truncated", "out"},
    };
    for (const auto& [relative, name] : cases) {
        SCOPED_TRACE(relative);
        const fs::path input = corpus / relative;
        ASSERT_TRUE(fs::exists(input));
        test::ScratchDir scratch;
        int killAt = 1;
        for (; killAt <= 200; ++killAt) {
            SCOPED_TRACE("killed at progress report " + std::to_string(killAt));
            const fs::path output = scratch.path() / (std::to_string(killAt) + "-" + name);
            if (repairKilledAt(input, output, killAt)) {
                EXPECT_EQ(validationErrors(output), 0u);
                break;
            }
            if (fs::exists(output)) {
                EXPECT_EQ(validationErrors(output), 0u);  // killed after publishing
            } else {
                EXPECT_FALSE(anythingPublished(output));
            }
        }
        EXPECT_GT(killAt, 1) << "the repair reported no progress before it finished";
        EXPECT_LE(killAt, 200) << "the repair never finished";
    }
}

}  // namespace
}  // namespace strata
