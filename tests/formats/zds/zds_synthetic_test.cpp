// Validator codes on small datasets made here, one defect each: the kinds of damage the corpus
// shows, and those it does not (a repeated key, an id of the wrong type, a text index, a stale
// line, metadata naming the wrong collection or count, docs/ files outside order.ids, an
// unknown ZIP compression method).
#include <gtest/gtest.h>
#include <zip.h>

#include <map>
#include <string>
#include <vector>

#include "formats/zds/zds_line_index.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using zds_test::ScratchDir;
using zds_test::writeAll;

struct Case {
    const char* name;
    std::map<std::string, std::string> files;  // path in the dataset → bytes
    const char* code;
    Severity severity;
};

std::string zdxFor(const std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t>>& e) {
    std::string out = zds::encodeZdxHeader(e.size());
    for (const auto& [id, offset, length] : e) {
        zds::appendZdxEntry(out, id, offset, length);
    }
    return out;
}

const std::string kData = "collections/default/meta/data.jsonl";
const std::string kIndex = "collections/default/meta/index.bin";

std::vector<Case> cases() {
    const std::string ab = "{\"_id\":\"a\",\"v\":1}\n{\"_id\":\"a\",\"v\":2}\n";
    return {
        {"duplicate_key",
         {{kData, "{\"_id\":\"a\",\"x\":1,\"x\":2}\n"}},
         "ZDS-DUPLICATE-KEY",
         Severity::Warning},
        {"id_number", {{kData, "{\"_id\":5}\n"}}, "ZDS-ID-TYPE", Severity::Error},
        {"id_empty", {{kData, "{\"_id\":\"\"}\n"}}, "ZDS-ID-EMPTY", Severity::Error},
        {"not_object", {{kData, "[1,2]\n"}}, "ZDS-NOT-OBJECT", Severity::Error},
        {"not_json", {{kData, "{\"_id\":\"a\",}\n"}}, "ZDS-JSON", Severity::Error},
        {"id_long",
         {{kData, "{\"_id\":\"" + std::string(300, 'a') + "\"}\n"}},
         "ZDS-ID-LENGTH",
         Severity::Warning},
        {"id_chars", {{kData, "{\"_id\":\"a b\"}\n"}}, "ZDS-ID-CHARS", Severity::Warning},
        {"bad_utf8",
         {{kData, "{\"_id\":\"a\",\"t\":\"\xc3\x28\"}\n"}},
         "ZDS-UTF8",
         Severity::Error},
        {"text_index",
         {{kData, "{\"_id\":\"a\"}\n"}, {kIndex, "a\t0\t12\n"}},
         "ZDS-ZDX-TEXT",
         Severity::Warning},
        {"superseded",
         {{kData, ab}, {kIndex, zdxFor({{"a", 18, 18}})}},
         "ZDS-ZDX-SUPERSEDED",
         Severity::Info},
        {"uncovered",
         {{kData, ab + "{\"_id\":\"b\"}\n"}, {kIndex, zdxFor({{"a", 18, 18}})}},
         "ZDS-ZDX-UNCOVERED",
         Severity::Warning},
        {"entry_id_differs",
         {{kData, ab}, {kIndex, zdxFor({{"a", 0, 18}, {"z", 18, 18}})}},
         "ZDS-ZDX-ID",
         Severity::Warning},
        {"offset_mid_line",
         {{kData, ab}, {kIndex, zdxFor({{"a", 5, 13}})}},
         "ZDS-ZDX-OFFSET",
         Severity::Error},
        {"meta_count",
         {{kData, "{\"_id\":\"a\"}\n"},
          {"zds.json", R"({"version":"1.0","collections":{"default":{"count":5}}})"}},
         "ZDS-META-COUNT",
         Severity::Warning},
        {"meta_collection",
         {{kData, "{\"_id\":\"a\"}\n"},
          {"zds.json",
           R"({"version":"1.0","collections":{"default":{"count":1},"ghost":{"count":1}}})"}},
         "ZDS-META-COLLECTION",
         Severity::Warning},
        {"meta_not_object",
         {{kData, "{\"_id\":\"a\"}\n"}, {"zds.json", "[1]"}},
         "ZDS-META-JSON",
         Severity::Error},
        {"manifest_name",
         {{kData, "{\"_id\":\"a\"}\n"},
          {"collections/default/meta/manifest.json", R"({"collection":"other","doc_count":1})"}},
         "ZDS-MANIFEST-NAME",
         Severity::Warning},
        {"manifest_not_json",
         {{kData, "{\"_id\":\"a\"}\n"}, {"collections/default/meta/manifest.json", "{oops"}},
         "ZDS-MANIFEST-JSON",
         Severity::Error},
        {"empty_collection",
         {{kData, "{\"_id\":\"a\"}\n"}, {"collections/empty/readme.txt", "nothing here"}},
         "ZDS-EMPTY-COLLECTION",
         Severity::Warning},
        {"docs_name",
         {{"collections/default/docs/a.json", "{\"v\":1}"},
          {"collections/default/docs/notes.txt", "not a document"},
          {"collections/default/meta/order.ids", "a\n"}},
         "ZDS-DOCS-NAME",
         Severity::Warning},
        {"docs_unlisted",
         {{"collections/default/docs/a.json", "{\"v\":1}"},
          {"collections/default/docs/b.json", "{\"v\":2}"},
          {"collections/default/meta/order.ids", "a\n"}},
         "ZDS-ORDER-UNLISTED",
         Severity::Warning},
        {"docs_id",
         {{"collections/default/docs/a.json", "{\"_id\":\"b\",\"v\":1}"},
          {"collections/default/meta/order.ids", "a\n"}},
         "ZDS-DOCS-ID",
         Severity::Error},
    };
}

bool hasCode(const CollectingSink& sink, const std::string& code, Severity severity) {
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.code == code && d.severity == severity) {
            return true;
        }
    }
    return false;
}

TEST(ZdsSyntheticDamage, EachDefectGetsItsCode) {
    ScratchDir dir("synthetic");
    for (const Case& c : cases()) {
        const fs::path root = dir.path() / c.name;
        for (const auto& [path, bytes] : c.files) {
            writeAll(root / path, bytes);
        }
        fs::create_directories(root / "collections");
        CollectingSink sink;
        zds_test::validate(root, sink);
        EXPECT_TRUE(hasCode(sink, c.code, c.severity)) << c.name << " wants " << c.code << ":\n"
                                                       << zds_test::describe(sink);
    }
}

// A STORE'd archive whose one member's method is patched to 18 (IBM TERSE) in both headers.
TEST(ZdsSyntheticDamage, UnknownZipMethod) {
    ScratchDir dir("method");
    const fs::path zip = dir.path() / "m.zds";
    const std::string data = "{\"_id\":\"a\"}\n";
    int err = 0;
    zip_t* z = zip_open(zip.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr);
    zip_source_t* s = zip_source_buffer(z, data.data(), data.size(), 0);
    const zip_int64_t i = zip_file_add(z, kData.c_str(), s, 0);
    ASSERT_GE(i, 0);
    zip_set_file_compression(z, static_cast<zip_uint64_t>(i), ZIP_CM_STORE, 0);
    ASSERT_EQ(zip_close(z), 0);
    std::string bytes = zds_test::readAll(zip);
    ASSERT_EQ(bytes.compare(0, 4, "PK\x03\x04"), 0);
    bytes[8] = 18;  // local header: compression method (IBM TERSE)
    const auto central = bytes.find("PK\x01\x02");
    ASSERT_NE(central, std::string::npos);
    bytes[central + 10] = 18;  // central directory: compression method
    writeAll(zip, bytes);
    CollectingSink sink;
    zds_test::validate(zip, sink);
    EXPECT_TRUE(hasCode(sink, "ZDS-ZIP-METHOD", Severity::Error)) << zds_test::describe(sink);
}

// DEFLATE'd data warns (no random access), and still reads.
TEST(ZdsSyntheticDamage, DeflatedDataWarns) {
    ScratchDir dir("deflated");
    const fs::path zip = dir.path() / "d.zds";
    const std::string data = "{\"_id\":\"a\"}\n{\"_id\":\"b\"}\n";
    int err = 0;
    zip_t* z = zip_open(zip.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr);
    zip_source_t* s = zip_source_buffer(z, data.data(), data.size(), 0);
    const zip_int64_t i = zip_file_add(z, kData.c_str(), s, 0);
    ASSERT_GE(i, 0);
    zip_set_file_compression(z, static_cast<zip_uint64_t>(i), ZIP_CM_DEFLATE, 9);
    ASSERT_EQ(zip_close(z), 0);
    CollectingSink sink;
    zds_test::validate(zip, sink);
    EXPECT_TRUE(hasCode(sink, "ZDS-ZIP-DEFLATED", Severity::Warning)) << zds_test::describe(sink);
    EXPECT_EQ(sink.countOf(Severity::Error), 0u) << zds_test::describe(sink);
}

}  // namespace
}  // namespace strata
