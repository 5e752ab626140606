// The diagnostic codes of OZDF (listed with their meaning in docs/formats-ozdf.md) and the
// helper the reader uses to record them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/diagnostic.h"

namespace strata::ozdf {

namespace codes {
inline constexpr std::string_view kUtf8 = "OZDF-UTF8";
inline constexpr std::string_view kBom = "OZDF-BOM";
inline constexpr std::string_view kContentBeforeHeader = "OZDF-CONTENT-BEFORE-HEADER";
inline constexpr std::string_view kHeader = "OZDF-HEADER";
inline constexpr std::string_view kItemMarker = "OZDF-ITEM-MARKER";
inline constexpr std::string_view kReservedLine = "OZDF-RESERVED-LINE";
inline constexpr std::string_view kItemOutsideList = "OZDF-ITEM-OUTSIDE-LIST";
inline constexpr std::string_view kBlankLine = "OZDF-BLANK-LINE";
inline constexpr std::string_view kDuplicateBlock = "OZDF-DUPLICATE-BLOCK";
inline constexpr std::string_view kDuplicateList = "OZDF-DUPLICATE-LIST";
inline constexpr std::string_view kExternalInStandalone = "OZDF-EXTERNAL-IN-STANDALONE";
inline constexpr std::string_view kWritingMarker = "OZDF-WRITING-MARKER";
inline constexpr std::string_view kNoMetadata = "OZDF-NO-METADATA";
inline constexpr std::string_view kPartsWithoutMetadata = "OZDF-PARTS-WITHOUT-METADATA";
inline constexpr std::string_view kIo = "OZDF-IO";
inline constexpr std::string_view kPartName = "OZDF-PART-NAME";
inline constexpr std::string_view kPartStart = "OZDF-PART-START";
inline constexpr std::string_view kPartGap = "OZDF-PART-GAP";
inline constexpr std::string_view kPartDuplicate = "OZDF-PART-DUPLICATE";
inline constexpr std::string_view kPartNoData = "OZDF-PART-NO-DATA";
inline constexpr std::string_view kPartUnicodeDigits = "OZDF-PART-UNICODE-DIGITS";
inline constexpr std::string_view kPartMissing = "OZDF-PART-MISSING";
inline constexpr std::string_view kPartIgnored = "OZDF-PART-IGNORED";
inline constexpr std::string_view kPartExtraBlock = "OZDF-PART-EXTRA-BLOCK";
inline constexpr std::string_view kCorpusSkipped = "OZDF-CORPUS-SKIPPED";
inline constexpr std::string_view kCorpusEmpty = "OZDF-CORPUS-EMPTY";
inline constexpr std::string_view kNestedDocument = "OZDF-NESTED-DOCUMENT";
inline constexpr std::string_view kNameCase = "OZDF-NAME-CASE";
inline constexpr std::string_view kBrackets = "OZDF-BRACKETS";
inline constexpr std::string_view kWhitespace = "OZDF-WHITESPACE";
inline constexpr std::string_view kTruncated = "OZDF-TRUNCATED";
}  // namespace codes

// Appends diagnostics to a list, keeping at most kPerCodeLimit of each code (then one
// OZDF-TRUNCATED note), so a file with a million bad lines still reads in bounded memory.
class Reporter {
public:
    static constexpr std::size_t kPerCodeLimit = 200;

    explicit Reporter(std::vector<Diagnostic>& out) : out_(out) {}

    void error(std::string_view code, std::string message, Region region);
    void warning(std::string_view code, std::string message, Region region);
    void info(std::string_view code, std::string message, Region region);
    void errorInFile(std::string_view code, std::string message, std::string file);
    void warningInFile(std::string_view code, std::string message, std::string file);
    void infoInFile(std::string_view code, std::string message, std::string file);

private:
    void add(Severity severity, std::string_view code, std::string message, Region region,
             std::string file);

    std::vector<Diagnostic>& out_;
    std::map<std::string, std::size_t, std::less<>> counts_;
};

}  // namespace strata::ozdf
