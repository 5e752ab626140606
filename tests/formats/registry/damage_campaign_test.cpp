// The repair campaign: for each format, generated valid inputs are damaged at random (flipped
// bytes, zeroed pages, cuts, duplicated and swapped chunks, garbage lines, removed files) and
// repaired through the registry, as `strata-cli repair` does, and every case is held to the
// rules of docs/repair.md:
//   - the input is only read (its bytes are the same after the repair);
//   - a refused repair leaves nothing behind (no output, no stage);
//   - "complete" (exit 0) means Strata's own diff of the input and the output finds no content
//     difference;
//   - the output holds nothing that is neither in the input nor in the original: an item that
//     differs from the original's differs in the damaged input too (damage can make another
//     valid item of bytes no checksum protects, never of bytes one does);
//   - the format's own checks (ZS and ZDS: every record or line in untouched bytes is kept).
// CI runs a few dozen cases per format; STRATA_CAMPAIGN_CASES=10000 runs more (see
// tests/bench/damage_campaign.sh), STRATA_CAMPAIGN_FIRST and _KEEP replay and keep one case.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>

#include "campaign_inputs.h"
#include "damage_campaign.h"
#include "formats/builtin/builtin_formats.h"
#include "formats/builtin/format_diff.h"
#include "formats/builtin/format_repair.h"
#include "formats/registry/format_registry.h"
#include "scratch_dir.h"

namespace strata::test {
namespace {

namespace fs = std::filesystem;

struct CollectedDiff : DiffSink {
    std::vector<Difference> differences;
    bool add(Difference d) override {
        differences.push_back(std::move(d));
        return differences.size() < 100000;
    }
};

struct Comparison {
    std::vector<Difference> differences;
    DiffSummary summary;
    std::string error;  // set when the two could not be compared
};

Comparison compare(const fs::path& a, const fs::path& b) {
    Comparison c;
    try {
        const auto left = builtinFormats().open(a);
        const auto right = builtinFormats().open(b);
        const auto differ = makeDiffer(*left, *right);
        CollectedDiff sink;
        DiffOptions options;
        options.threads = 1;
        options.answerQueries = 0;
        differ->run(sink, options);
        c.differences = std::move(sink.differences);
        c.summary = differ->summary();
    } catch (const std::exception& e) {
        c.error = e.what();
    }
    return c;
}

bool content(const Difference& d) {
    return d.kind != DiffKind::Encoding;
}
// An item only in the output, or changed in a way that is not only parts of it left out.
bool addsOrChanges(const Difference& d) {
    const bool onlyRemovals =
        !d.fields.empty() && std::all_of(d.fields.begin(), d.fields.end(), [](const DiffField& f) {
            return f.kind == DiffKind::Removed;
        });
    return d.kind == DiffKind::Added || (d.kind == DiffKind::Changed && !onlyRemovals);
}

std::string shown(const Difference& d) {
    return std::string(diffKindName(d.kind)) + " " + d.path + ": " + d.description;
}

bool stageLeft(const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().filename().string().find(".strata-repair") != std::string::npos) {
            return true;
        }
    }
    return false;
}

struct Tally {
    std::uint64_t cases = 0, refused = 0, complete = 0, partial = 0, failing = 0;
    std::map<std::string, std::uint64_t> violations;  // first words of each kind -> count
};

class CampaignCase {
public:
    CampaignCase(const CampaignFormat& format, std::uint64_t seed, const fs::path& dir)
        : format_(format), rng_(seed), dir_(dir) {}

    std::vector<std::string> run() {
        files_.original = format_.generate(rng_, dir_ / "original");
        files_.input = dir_ / "input" / files_.original.filename();
        fs::create_directories(files_.input.parent_path());
        fs::copy(files_.original, files_.input, fs::copy_options::recursive);
        damage();
        files_.output =
            files_.input.parent_path() / ("repaired-" + files_.input.filename().string());
        const auto before = snapshotTree(files_.input);
        repair();
        if (snapshotTree(files_.input) != before) {
            violations_.push_back("the repair changed its input");
        }
        if (stageLeft(files_.input.parent_path())) {
            violations_.push_back("a stage was left beside the output");
        }
        return violations_;
    }

    const CaseFiles& files() const { return files_; }
    const std::optional<RepairReport>& report() const { return report_; }
    const std::string& refusal() const { return refusal_; }

private:
    void damage() {
        const std::vector<fs::path> all = filesUnder(files_.input);
        const bool folder = fs::is_directory(files_.input);
        for (std::uint64_t n = 1 + rng_() % 2; n > 0; --n) {
            std::vector<fs::path> present;
            std::copy_if(all.begin(), all.end(), std::back_inserter(present),
                         [](const fs::path& p) { return fs::exists(p); });
            if (present.empty()) {
                break;
            }
            const fs::path file = present[rng_() % present.size()];
            DamageKind kind = allDamageKinds()[rng_() % allDamageKinds().size()];
            if (kind == DamageKind::RemoveFile && (!folder || present.size() < 2)) {
                kind = DamageKind::FlipBytes;
            }
            files_.damage.damages.push_back(damageFile(file, kind, rng_));
        }
    }

    void repair() {
        try {
            report_ = repairPath(files_.input, files_.output);
        } catch (const RepairError& e) {
            refusal_ = e.what();
            if (fs::exists(files_.output)) {
                violations_.push_back("refused (" + refusal_ + ") but left an output");
            }
            return;
        } catch (const std::exception& e) {
            violations_.push_back(std::string("the repair threw: ") + e.what());
            return;
        }
        if (!report_->written || !fs::exists(files_.output)) {
            violations_.push_back("the report says nothing was written");
            return;
        }
        checkAgainstInput();
        checkAgainstOriginal();
        try {
            format_.checkOutput(files_, *report_, violations_);
        } catch (const std::exception& e) {
            violations_.push_back(std::string("the output cannot be read: ") + e.what());
        }
    }

    // Exit 0 only when Strata's diff of input and output finds no content difference.
    void checkAgainstInput() {
        if (!report_->complete()) {
            return;
        }
        const Comparison c = compare(files_.input, files_.output);
        if (!c.error.empty()) {
            violations_.push_back("complete, but the input cannot be compared with the output: " +
                                  c.error);
            return;
        }
        const auto found = std::find_if(c.differences.begin(), c.differences.end(), content);
        if (found != c.differences.end()) {
            violations_.push_back("complete, but the diff of input and output finds " +
                                  shown(*found));
        }
    }

    // Every item of the output that differs from the original's differs in the input too, and
    // never where a checksum protects it.
    void checkAgainstOriginal() {
        const Comparison out = compare(files_.original, files_.output);
        if (!out.error.empty()) {
            violations_.push_back("the original cannot be compared with the output: " + out.error);
            return;
        }
        std::set<std::pair<DiffKind, std::string>> inInput;
        bool inputCompared = false;
        for (const Difference& d : out.differences) {
            if (!addsOrChanges(d)) {
                continue;
            }
            const ContentRule rule = format_.ruleFor(d, files_);
            if (rule == ContentRule::FormatCheck) {
                continue;
            }
            if (rule == ContentRule::Protected) {
                violations_.push_back("the output holds what no checksum vouches for: " + shown(d));
                return;
            }
            if (!inputCompared) {
                const Comparison in = compare(files_.original, files_.input);
                for (const Difference& i : in.differences) {
                    inInput.emplace(i.kind, i.path);
                }
                inputCompared = true;
            }
            if (!inInput.contains({d.kind, d.path})) {
                violations_.push_back(
                    "the output holds what neither the input nor the original "
                    "holds: " +
                    shown(d));
                return;
            }
        }
    }

    const CampaignFormat& format_;
    std::mt19937_64 rng_;
    fs::path dir_;
    CaseFiles files_;
    std::optional<RepairReport> report_;
    std::string refusal_;
    std::vector<std::string> violations_;
};

std::uint64_t formatSeed(const std::string& name, std::uint64_t seed) {
    return std::hash<std::string>{}(name) ^ (seed * 0x9E3779B97F4A7C15ull);
}

void keepCase(const CampaignSettings& settings, const std::string& format, std::uint64_t number,
              const fs::path& dir) {
    if (settings.keep.empty()) {
        return;
    }
    const fs::path target = settings.keep / (format + "-" + std::to_string(number));
    fs::remove_all(target);
    fs::create_directories(target.parent_path());
    fs::copy(dir, target, fs::copy_options::recursive);
}

void tally(Tally& t, const CampaignCase& c, const std::vector<std::string>& violations) {
    ++t.cases;
    if (!c.report()) {
        ++t.refused;
    } else if (c.report()->complete()) {
        ++t.complete;
    } else {
        ++t.partial;
    }
    if (!violations.empty()) {
        ++t.failing;
    }
    for (const std::string& v : violations) {
        ++t.violations[v.substr(0, v.find(':'))];
    }
}

void runCampaign(const std::string& formatName) {
    const CampaignFormat& format =
        *std::find_if(campaignFormats().begin(), campaignFormats().end(),
                      [&](const CampaignFormat& f) { return f.name == formatName; });
    const CampaignSettings settings = CampaignSettings::fromEnvironment(40);
    ScratchDir scratch("campaign_" + formatName);
    Tally t;
    std::uint64_t reported = 0;
    for (std::uint64_t n = settings.first; n < settings.first + settings.cases; ++n) {
        const fs::path dir = scratch.path() / std::to_string(n);
        CampaignCase c(format, formatSeed(format.name, settings.seed) + n, dir);
        std::vector<std::string> violations;
        try {
            violations = c.run();
        } catch (const std::exception& e) {
            violations.push_back(std::string("the case could not be set up: ") + e.what());
        }
        tally(t, c, violations);
        if (!violations.empty()) {
            keepCase(settings, format.name, n, dir);
            if (reported++ < 10) {
                ADD_FAILURE() << format.name << " case " << n << " (" << c.files().damage.describe()
                              << "): " << violations.front()
                              << (violations.size() > 1 ? " (and more)" : "");
            }
        }
        fs::remove_all(dir);
    }
    std::cout << "campaign " << format.name << ": " << t.cases << " cases, " << t.complete
              << " complete, " << t.partial << " with losses, " << t.refused << " refused, "
              << t.failing << " breaking a rule\n";
    for (const auto& [what, count] : t.violations) {
        std::cout << "  " << count << " x " << what << '\n';
    }
    EXPECT_EQ(t.failing, 0u);
}

// Cases that longer runs found breaking a rule, replayed on every run (each was fixed): an
// index block whose length field alone was damaged, left out without a word (ZS); an older
// version of a document moved to where its index entry points (ZDS); a `.zds` whose first local
// header is damaged, read through its central directory though readers do not take it for an
// archive (ZDS, seed 7); a manifest whose swapped bytes put a file where an index folder belongs
// (Shardlake, which threw); a comment holding a separator byte (OZDF, the campaign's own count).
TEST(DamageCampaign, CasesThatOnceBrokeARule) {
    struct Replay {
        std::string format;
        std::uint64_t seed, number;
    };
    const std::vector<Replay> cases = {{"ZS", 20261127, 2441},        {"ZS", 20261127, 6331},
                                       {"ZDS", 20261127, 7731},       {"ZDS", 7, 410},
                                       {"Shardlake", 20261127, 5979}, {"OZDF", 20261127, 6969}};
    ScratchDir scratch("campaign_replay");
    for (const Replay& r : cases) {
        const CampaignFormat& format =
            *std::find_if(campaignFormats().begin(), campaignFormats().end(),
                          [&](const CampaignFormat& f) { return f.name == r.format; });
        CampaignCase c(format, formatSeed(r.format, r.seed) + r.number,
                       scratch.path() / (r.format + std::to_string(r.number)));
        const std::vector<std::string> violations = c.run();
        EXPECT_TRUE(violations.empty()) << r.format << " case " << r.number << " of seed " << r.seed
                                        << ": " << violations.front();
    }
}

TEST(DamageCampaign, Zs) {
    runCampaign("ZS");
}
TEST(DamageCampaign, Zds) {
    runCampaign("ZDS");
}
TEST(DamageCampaign, ZTensor) {
    runCampaign("zTensor");
}
TEST(DamageCampaign, Shardlake) {
    runCampaign("Shardlake");
}
TEST(DamageCampaign, Ozdf) {
    runCampaign("OZDF");
}

}  // namespace
}  // namespace strata::test
