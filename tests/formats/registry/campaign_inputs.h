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

struct CampaignFormat {
    std::string name;
    // Writes a valid input under `dir` and returns it (a file or a folder).
    std::function<std::filesystem::path(std::mt19937_64& rng, const std::filesystem::path& dir)>
        generate;
    // The output may not hold an item that differs from the original's here (its bytes are
    // protected by a checksum, so damage cannot have made another valid item of them).
    std::function<bool(const Difference& originalVersusOutput)> protectedByChecksum;
    // The format's own checks of a written output; each failure is one line in `violations`.
    std::function<void(const CaseFiles& files, const RepairReport& report,
                       std::vector<std::string>& violations)>
        checkOutput;
};

const std::vector<CampaignFormat>& campaignFormats();

}  // namespace strata::test
