// What a scan writes and reads back: result JSON, merged JSON Lines outputs, the HTML report,
// and the shard split that must be the same on every machine.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "formats/scan/scan_json.h"
#include "formats/scan/scan_merge.h"
#include "formats/scan/scan_report.h"
#include "formats/scan/scan_shard.h"
#include "formats/scan/scan_tally.h"
#include "scratch_dir.h"

namespace strata::scan::test {

namespace {

namespace fs = std::filesystem;

ScanResult sampleResult(const std::string& path, Verdict verdict) {
    ScanResult r;
    r.entry = {3, Location::parse("/data/" + path), path, false, 1234, "\"e1\"", "1700"};
    r.format = "ZS";
    r.description = "ZS file";
    r.verdict = verdict;
    r.errors = verdict == Verdict::Damaged ? 2 : 0;
    r.diagnostics = {{Severity::Error, "ZS-BLOCK-CRC", "CRC <mismatch> & more", 77, ""},
                     {Severity::Warning, "ZS-META", "odd", std::nullopt, "inner.json"}};
    r.problem = verdict == Verdict::Unreadable ? "HTTP 503" : "";
    r.seconds = 0.25;
    return r;
}

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ScanJson, AResultRoundTrips) {
    const ScanResult r = sampleResult("a/b.zs", Verdict::Damaged);
    const std::optional<ScanResult> back = resultFromJson(Json::parse(jsonLine(resultJson(r))));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->entry.location, r.entry.location);
    EXPECT_EQ(back->entry.relativePath, "a/b.zs");
    EXPECT_EQ(back->entry.etag, "\"e1\"");
    EXPECT_EQ(back->verdict, Verdict::Damaged);
    EXPECT_EQ(back->errors, 2u);
    ASSERT_EQ(back->diagnostics.size(), 2u);
    EXPECT_EQ(back->diagnostics[0].offset, 77u);
    EXPECT_FALSE(back->diagnostics[1].offset);
    EXPECT_EQ(back->diagnostics[1].file, "inner.json");
}

TEST(ScanJson, OtherObjectsAreNoResults) {
    for (const char* text : {R"({"type":"summary","entries":3})", R"({"location":5})",
                             R"({"location":"/a","verdict":"splendid"})", R"([1,2])",
                             R"({"location":"/a","verdict":"valid","errors":-1})",
                             R"({"location":"/a","verdict":"valid","diagnostics":[{"code":1}]})"}) {
        EXPECT_FALSE(resultFromJson(Json::parse(text))) << text;
    }
}

TEST(ScanMerge, JoinsOutputsOnceEachAndSkipsWhatIsNotAResult) {
    strata::test::ScratchDir dir("scan_merge");
    {
        std::ofstream a(dir / "a.jsonl");
        a << jsonLine(resultJson(sampleResult("x.zs", Verdict::Valid))) << '\n'
          << jsonLine(resultJson(sampleResult("y.zs", Verdict::Damaged))) << '\n'
          << R"({"type":"summary","entries":2})" << '\n';
        std::ofstream b(dir / "b.jsonl");
        b << "not json at all\n\n"
          << std::string(2 << 20, '{') << '\n'
          << jsonLine(resultJson(sampleResult("z.zs", Verdict::Unreadable))) << '\n'
          << jsonLine(resultJson(sampleResult("x.zs", Verdict::Valid)));  // no final newline
    }
    std::vector<ScanResult> merged;
    const MergeStats stats = mergeScanOutputs({dir / "a.jsonl", dir / "b.jsonl"},
                                              [&](const ScanResult& r) { merged.push_back(r); });
    EXPECT_EQ(stats.files, 2u);
    EXPECT_EQ(stats.entries, 3u);
    EXPECT_EQ(stats.duplicates, 1u);
    EXPECT_EQ(stats.malformed, 2u);
    ASSERT_EQ(merged.size(), 3u);
    EXPECT_EQ(merged[2].verdict, Verdict::Unreadable);
    EXPECT_THROW(mergeScanOutputs({dir / "missing.jsonl"}, [](const ScanResult&) {}), SourceError);
}

TEST(ScanReport, IsOnePageWithEverythingEscaped) {
    strata::test::ScratchDir dir("scan_report");
    ScanTally tally;
    ScanReport report(dir / "report.html", "s3://bucket/<prefix>");
    for (const ScanResult& r : {sampleResult("ok.zs", Verdict::Valid),
                                sampleResult("bad<script>alert(1)</script>.zs", Verdict::Damaged),
                                sampleResult("gone.zs", Verdict::Unreadable)}) {
        report.add(r);
        tally.add(r);
    }
    EXPECT_FALSE(fs::exists(dir / "report.html"));
    report.finish(tally, "shard 1/4");
    const std::string html = readText(dir / "report.html");
    EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
    EXPECT_EQ(html.find("<script>alert"), std::string::npos);
    EXPECT_NE(html.find("bad&lt;script&gt;alert(1)&lt;/script&gt;.zs"), std::string::npos);
    EXPECT_NE(html.find("s3://bucket/&lt;prefix&gt;"), std::string::npos);
    EXPECT_NE(html.find("CRC &lt;mismatch&gt; &amp; more"), std::string::npos);
    EXPECT_NE(html.find("HTTP 503"), std::string::npos);
    EXPECT_NE(html.find("<table id=\"entries\">"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos) << "no external assets";
    EXPECT_EQ(html.find("href="), std::string::npos) << "no external assets";
    EXPECT_EQ(tally.problems(), 2u);
    EXPECT_EQ(tally.byFormat().at("ZS")[ScanTally::index(Verdict::Damaged)], 1u);
}

TEST(ScanShard, TheHashIsFixedArithmetic) {
    // The same values on every machine and compiler: shards computed on different machines
    // must agree. Changing the hash re-deals every shard; these pin it.
    EXPECT_EQ(stableHash(""), 0xf52a15e9a9b5e89bull);
    EXPECT_EQ(stableHash("a/b.zs"), 0xa699aa1002ea898cull);
}

TEST(ScanShard, SpecsAreParsedStrictly) {
    const ShardSpec spec = parseShardSpec("2/5");
    EXPECT_EQ(spec.index, 2u);
    EXPECT_EQ(spec.count, 5u);
    EXPECT_EQ(spec.text(), "2/5");
    for (const char* bad : {"", "3", "5/5", "1/0", "-1/4", "a/b", "1/4x", "1//4", " 1/4"}) {
        EXPECT_THROW(parseShardSpec(bad), std::invalid_argument) << bad;
    }
}

TEST(ScanShard, EveryPathIsInExactlyOneShardAndTheyAreEven) {
    constexpr unsigned kShards = 7;
    std::vector<std::size_t> sizes(kShards);
    for (int i = 0; i < 7000; ++i) {
        const std::string path = "data/part-" + std::to_string(i) + ".zs";
        unsigned holders = 0;
        for (unsigned s = 0; s < kShards; ++s) {
            if (ShardSpec{s, kShards}.holds(path)) {
                ++holders;
                ++sizes[s];
            }
        }
        ASSERT_EQ(holders, 1u) << path;
    }
    for (const std::size_t size : sizes) {
        EXPECT_GT(size, 800u);
        EXPECT_LT(size, 1200u);
    }
}

}  // namespace

}  // namespace strata::scan::test
