// What the repair campaign (damage_campaign_test.cpp) knows of each format: how to generate a
// valid input at random, which differences a checksum rules out, and the format's own checks
// of a repaired output (for ZS and ZDS: every record or line in untouched bytes is kept).
#pragma once

#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "damage_campaign.h"
#include "formats/common/diff.h"
#include "formats/common/repair.h"

namespace strata::test {

// One case's files: the generated original, its damaged copy (the repair's input) and the
// repair's output (when one was written).
struct CaseFiles {
    std::filesystem::path original;
    std::filesystem::path input;
    std::filesystem::path output;
    CaseDamage damage;
};

enum class ContentRule {
    // It must differ so in the damaged input too: damage made another valid item of bytes no
    // checksum protects, and the repair kept it.
    InTheInput,
    // It may not differ at all: a checksum protects its bytes, so damage cannot have made
    // another valid item of them.
    Protected,
    // The format's own check judges it (metadata that describes what was kept, such as counts
    // and fingerprints rewritten after a loss, or content the diff matches by position).
    FormatCheck,
};

struct CampaignFormat {
    std::string name;
    // Writes a valid input under `dir` and returns it (a file or a folder).
    std::function<std::filesystem::path(std::mt19937_64& rng, const std::filesystem::path& dir)>
        generate;
    // How an item in which the output differs from the original (added or changed) is
    // judged, by its difference from the original.
    std::function<ContentRule(const Difference& originalVersusOutput, const CaseFiles& files)>
        ruleFor;
    // The format's own checks of a written output; each failure is one line in `violations`.
    std::function<void(const CaseFiles& files, const RepairReport& report,
                       std::vector<std::string>& violations)>
        checkOutput;
};

const std::vector<CampaignFormat>& campaignFormats();

}  // namespace strata::test
