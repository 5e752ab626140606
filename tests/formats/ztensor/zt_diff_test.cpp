// Comparing zTensor files: diff(A, A) is empty, the same values stored another way compare as
// the same content, a known set of edits is reported exactly, diff(B, A) mirrors diff(A, B), and
// the value statistics are right for every kind of dtype; random edits of random files are
// reported exactly and mirror.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/ztensor/zt_diff.h"
#include "formats/ztensor/zt_logical.h"
#include "formats/ztensor/zt_writer.h"
#include "zt_test_support.h"

namespace strata {
namespace {

struct Collected final : DiffSink {
    std::vector<Difference> all;
    bool add(Difference d) override {
        all.push_back(std::move(d));
        return true;
    }
    std::map<std::string, Difference> byPath() const {
        std::map<std::string, Difference> out;
        for (const Difference& d : all) {
            out[d.path] = d;
        }
        return out;
    }
};

template <typename T>
std::vector<std::uint8_t> bytesOf(const std::vector<T>& values) {
    std::vector<std::uint8_t> out(values.size() * sizeof(T));
    if (!out.empty()) {  // an empty vector's data() may be null
        std::memcpy(out.data(), values.data(), out.size());
    }
    return out;
}

struct Spec {
    Spec(std::string n, ztensor::ZtDType d, std::vector<std::uint64_t> s,
         std::vector<std::uint8_t> bytes, ztensor::ZtEncoding e = ztensor::ZtEncoding::Raw,
         std::optional<ztensor::ZtDigestAlgorithm> g = std::nullopt)
        : name(std::move(n)),
          dtype(d),
          shape(std::move(s)),
          data(std::move(bytes)),
          encoding(e),
          digest(g) {}
    std::string name;
    ztensor::ZtDType dtype;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint8_t> data;
    ztensor::ZtEncoding encoding;
    std::optional<ztensor::ZtDigestAlgorithm> digest;
};

std::shared_ptr<const ztensor::ZtFile> build(const std::vector<Spec>& tensors,
                                             ztensor::ZtWriterOptions options = {}) {
    std::vector<std::uint8_t> out;
    ztensor::ZtWriter writer(
        [&](std::span<const std::uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); },
        options);
    for (const Spec& s : tensors) {
        ztensor::ZtWriterTensor t;
        t.name = s.name;
        t.dtype = s.dtype;
        t.shape = s.shape;
        t.components.push_back({"data", s.data, s.encoding, s.digest});
        writer.add(t);
    }
    writer.finish();
    return ztensor::ZtFile::open(makeBufferSource(std::move(out), "test.zt"));
}

Collected diff(std::shared_ptr<const ztensor::ZtFile> a, std::shared_ptr<const ztensor::ZtFile> b,
               DiffOptions options = {}, DiffSummary* summary = nullptr) {
    auto differ = ztensor::makeZtDiffer(std::move(a), std::move(b));
    Collected sink;
    EXPECT_EQ(differ->run(sink, options), JobOutcome::Completed);
    if (summary != nullptr) {
        *summary = differ->summary();
    }
    return sink;
}

std::vector<float> ramp(std::size_t n) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = float(i) * 0.5f;
    }
    return v;
}

std::string formatRms(double meanSquare) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", std::sqrt(meanSquare));
    return buffer;
}

std::string field(const Difference& d, const std::string& path) {
    for (const auto& f : d.fields) {
        if (f.path == path) {
            return f.b;
        }
    }
    return "<none>";
}

// One entry of a sparse float32 matrix.
struct Entry {
    std::uint64_t row, col;
    float value;
};

// A float32 tensor of `shape` [rows, cols] from entries, written as "dense", "sparse_coo" (the
// entries in the order given) or "sparse_csr" (rows in order, each row's entries in the order
// given), raw or zstd.
std::shared_ptr<const ztensor::ZtFile> matrix(
    const std::string& format, std::vector<std::uint64_t> shape, const std::vector<Entry>& entries,
    ztensor::ZtEncoding encoding = ztensor::ZtEncoding::Raw) {
    std::vector<float> values;
    std::vector<std::uint64_t> a, b;  // coords (rows then cols) or indices / indptr
    std::vector<std::uint8_t> dense;
    ztensor::ZtWriterTensor t;
    t.name = "m";
    t.shape = shape;
    t.format = format;
    if (format == "dense") {
        std::vector<float> all(shape[0] * shape[1], 0.0f);
        for (const Entry& e : entries) {
            all[e.row * shape[1] + e.col] = e.value;
        }
        dense = bytesOf(all);
        t.components.push_back({"data", dense, encoding, std::nullopt});
    } else if (format == "sparse_coo") {
        std::vector<std::uint64_t> cols;
        for (const Entry& e : entries) {
            values.push_back(e.value);
            a.push_back(e.row);
            cols.push_back(e.col);
        }
        a.insert(a.end(), cols.begin(), cols.end());
    } else {
        b.push_back(0);
        for (std::uint64_t r = 0; r < shape[0]; ++r) {
            for (const Entry& e : entries) {
                if (e.row == r) {
                    values.push_back(e.value);
                    a.push_back(e.col);
                }
            }
            b.push_back(values.size());
        }
    }
    const auto vb = bytesOf(values), ab = bytesOf(a), bb = bytesOf(b);
    if (format == "sparse_coo") {
        t.components.push_back({"values", vb, encoding, std::nullopt});
        t.components.push_back({"coords", ab, encoding, std::nullopt});
    } else if (format == "sparse_csr") {
        t.components.push_back({"values", vb, encoding, std::nullopt});
        t.components.push_back({"indices", ab, encoding, std::nullopt});
        t.components.push_back({"indptr", bb, encoding, std::nullopt});
    }
    std::vector<std::uint8_t> out;
    ztensor::ZtWriter writer(
        [&](std::span<const std::uint8_t> bytes) {
            out.insert(out.end(), bytes.begin(), bytes.end());
        },
        {});
    writer.add(t);
    writer.finish();
    return ztensor::ZtFile::open(makeBufferSource(std::move(out), "sparse.zt"));
}

// The same values at the same coordinates compare equal whatever the order of the stored
// entries, the sparse layout, the encoding, or a dense side: one encoding difference at most.
TEST(ZtDiff, SparseTensorsAreComparedByCoordinates) {
    const std::vector<Entry> entries{{0, 1, 1.5f}, {0, 3, -2.0f}, {2, 0, 4.0f}, {2, 2, 0.25f}};
    const std::vector<Entry> shuffled{{2, 2, 0.25f}, {0, 3, -2.0f}, {2, 0, 4.0f}, {0, 1, 1.5f}};
    const std::vector<std::uint64_t> shape{3, 4};
    const auto coo = matrix("sparse_coo", shape, entries);
    const auto versions = {matrix("sparse_coo", shape, shuffled),
                           matrix("sparse_coo", shape, shuffled, ztensor::ZtEncoding::Zstd),
                           matrix("sparse_csr", shape, entries),
                           matrix("sparse_csr", shape, shuffled), matrix("dense", shape, entries)};
    EXPECT_TRUE(diff(coo, coo).all.empty());
    for (const auto& other : versions) {
        for (const auto& [x, y] : {std::pair{coo, other}, std::pair{other, coo}}) {
            DiffSummary summary;
            const Collected c = diff(x, y, {}, &summary);
            ASSERT_EQ(c.all.size(), 1u);
            EXPECT_EQ(c.all[0].kind, DiffKind::Encoding) << c.all[0].description;
            EXPECT_NE(c.all[0].description.find("the same values at the same coordinates"),
                      std::string::npos)
                << c.all[0].description;
            EXPECT_TRUE(summary.contentEqual());
        }
    }
    // An explicit zero is the same value as an entry not stored.
    auto withZero = entries;
    withZero.push_back({1, 1, 0.0f});
    const Collected z = diff(coo, matrix("sparse_csr", shape, withZero));
    ASSERT_EQ(z.all.size(), 1u);
    EXPECT_EQ(z.all[0].kind, DiffKind::Encoding);
}

// Values that differ at some coordinates: counted over every element of the shape, the first at
// the smallest row-major index, the largest differences and the RMS; the same from either side
// and whatever the layouts.
TEST(ZtDiff, SparseValueChangesAreCountedByCoordinates) {
    const std::vector<std::uint64_t> shape{3, 4};
    const std::vector<Entry> a{{0, 1, 1.5f}, {0, 3, -2.0f}, {2, 0, 4.0f}, {2, 2, 0.25f}};
    // (0, 3) removed: -2 → 0; (1, 2) added: 0 → 3; (2, 0) changed: 4 → 5. In another order.
    const std::vector<Entry> b{{2, 2, 0.25f}, {1, 2, 3.0f}, {2, 0, 5.0f}, {0, 1, 1.5f}};
    const auto check = [&](const Collected& c, bool layoutsDiffer) {
        ASSERT_EQ(c.all.size(), 1u);
        const Difference& d = c.all[0];
        EXPECT_EQ(d.kind, DiffKind::Changed);
        EXPECT_EQ(d.path, "tensor/m");
        EXPECT_EQ(field(d, "values.differing"), "3");
        EXPECT_EQ(field(d, "values.first_index"), "3");  // row 0, column 3
        EXPECT_EQ(field(d, "values.max_abs"), "3");
        EXPECT_EQ(field(d, "values.max_rel"), "1");
        EXPECT_EQ(field(d, "values.rms"), formatRms((4.0 + 9.0 + 1.0) / 12.0));
        EXPECT_EQ(field(d, "format") != "<none>", layoutsDiffer);
    };
    for (const char* fa : {"sparse_coo", "sparse_csr", "dense"}) {
        for (const char* fb : {"sparse_coo", "sparse_csr", "dense"}) {
            if (std::string(fa) == "dense" && std::string(fb) == "dense") {
                continue;  // dense against dense is compared as before, by `data`
            }
            SCOPED_TRACE(std::string(fa) + " against " + fb);
            const auto x = matrix(fa, shape, a), y = matrix(fb, shape, b);
            check(diff(x, y), std::string(fa) != fb);
            check(diff(y, x), std::string(fa) != fb);
        }
    }
}

// A sparse tensor that stores one coordinate twice is not compared by coordinates: its
// components are, and the description says why.
TEST(ZtDiff, DuplicateCoordinatesAreNotComparedByCoordinates) {
    const std::vector<std::uint64_t> shape{2, 2};
    const auto twice = matrix("sparse_coo", shape, {{0, 0, 1.0f}, {0, 0, 2.0f}});
    const auto once = matrix("sparse_coo", shape, {{0, 0, 3.0f}, {1, 1, 2.0f}});
    const Collected c = diff(twice, once);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Changed);
    EXPECT_NE(c.all[0].description.find("two entries at row-major index 0"), std::string::npos)
        << c.all[0].description;
    EXPECT_NE(field(c.all[0], "values.differing"), "<none>");  // the component comparison
}

TEST(ZtDiff, AFileEqualsItself) {
    const auto f =
        build({{"w", ztensor::ZtDType::Float32, {4, 3}, bytesOf(ramp(12))},
               {"b", ztensor::ZtDType::Int64, {2}, bytesOf(std::vector<std::int64_t>{1, -2})}});
    DiffSummary summary;
    EXPECT_TRUE(diff(f, f, {}, &summary).all.empty());
    EXPECT_EQ(summary.compared, 2u);
}

TEST(ZtDiff, SameValuesStoredAnotherWayAreOnlyEncoding) {
    const auto raw = build({{"w", ztensor::ZtDType::Float32, {1000}, bytesOf(ramp(1000))}});
    const auto packed = build({{"w",
                                ztensor::ZtDType::Float32,
                                {1000},
                                bytesOf(ramp(1000)),
                                ztensor::ZtEncoding::Zstd,
                                ztensor::ZtDigestAlgorithm::Sha256}});
    DiffSummary summary;
    const Collected c = diff(raw, packed, {}, &summary);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Encoding);
    EXPECT_EQ(c.all[0].path, "tensor/w");
    EXPECT_NE(c.all[0].description.find("raw in A, zstd in B"), std::string::npos);
    EXPECT_TRUE(summary.contentEqual());
}

TEST(ZtDiff, AKnownSetOfEditsIsReportedExactly) {
    std::vector<float> edited = ramp(100);
    edited[7] = 100.0f;  // |Δ| = 96.5
    edited[42] += 1.0f;  // |Δ| = 1
    ztensor::ZtWriterOptions withAttr;
    withAttr.attributes = {{"epoch", "3"}};
    const auto a = build({{"w", ztensor::ZtDType::Float32, {100}, bytesOf(ramp(100))},
                          {"gone", ztensor::ZtDType::UInt8, {2}, {1, 2}},
                          {"shape", ztensor::ZtDType::Float32, {4}, bytesOf(ramp(4))}});
    const auto b = build({{"w", ztensor::ZtDType::Float32, {100}, bytesOf(edited)},
                          {"new", ztensor::ZtDType::UInt8, {1}, {9}},
                          {"shape", ztensor::ZtDType::Float32, {2, 2}, bytesOf(ramp(4))}},
                         withAttr);
    const auto c = diff(a, b).byPath();
    ASSERT_EQ(c.size(), 5u);
    EXPECT_EQ(c.at("tensor/gone").kind, DiffKind::Removed);
    EXPECT_EQ(c.at("tensor/new").kind, DiffKind::Added);
    EXPECT_EQ(c.at("attributes/epoch").kind, DiffKind::Added);
    const Difference& shape = c.at("tensor/shape");
    EXPECT_EQ(shape.kind, DiffKind::Changed);
    EXPECT_EQ(field(shape, "shape"), "[2, 2]");
    const Difference& w = c.at("tensor/w");
    EXPECT_EQ(w.kind, DiffKind::Changed);
    EXPECT_EQ(field(w, "data.differing"), "2");
    EXPECT_EQ(field(w, "data.first_index"), "7");
    EXPECT_EQ(field(w, "data.max_abs"), "96.5");
    EXPECT_EQ(w.a.region.offset % 64, 0u);  // points at the data component's bytes
}

TEST(ZtDiff, SwappingSidesMirrorsTheResult) {
    const auto a =
        build({{"x", ztensor::ZtDType::Int32, {3}, bytesOf(std::vector<std::int32_t>{1, 2, 3})},
               {"y", ztensor::ZtDType::UInt8, {1}, {1}}});
    const auto b =
        build({{"x", ztensor::ZtDType::Int32, {3}, bytesOf(std::vector<std::int32_t>{1, 5, 3})},
               {"z", ztensor::ZtDType::UInt8, {1}, {1}}});
    const auto ab = diff(a, b).byPath();
    const auto ba = diff(b, a).byPath();
    ASSERT_EQ(ab.size(), ba.size());
    EXPECT_EQ(ab.at("tensor/y").kind, DiffKind::Removed);
    EXPECT_EQ(ba.at("tensor/y").kind, DiffKind::Added);
    EXPECT_EQ(ab.at("tensor/z").kind, DiffKind::Added);
    EXPECT_EQ(ba.at("tensor/z").kind, DiffKind::Removed);
    EXPECT_EQ(field(ab.at("tensor/x"), "data.max_abs"), "3");
    EXPECT_EQ(field(ba.at("tensor/x"), "data.max_abs"), "3");
}

TEST(ZtDiff, ZstdAgainstRawStillFindsTheChangedElement) {
    std::vector<float> edited = ramp(300000);
    edited[299999] = -1.0f;
    const auto a = build({{"w",
                           ztensor::ZtDType::Float32,
                           {300000},
                           bytesOf(ramp(300000)),
                           ztensor::ZtEncoding::Zstd}});
    const auto b = build({{"w", ztensor::ZtDType::Float32, {300000}, bytesOf(edited)}});
    const auto c = diff(a, b).byPath();
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(field(c.at("tensor/w"), "data.first_index"), "299999");
    EXPECT_EQ(field(c.at("tensor/w"), "data.differing"), "1");
}

TEST(ZtDiff, QuickModeComparesDigestsWithoutReadingValues) {
    std::vector<float> edited = ramp(10);
    edited[1] = 9.0f;
    const auto a = build({{"w",
                           ztensor::ZtDType::Float32,
                           {10},
                           bytesOf(ramp(10)),
                           ztensor::ZtEncoding::Raw,
                           ztensor::ZtDigestAlgorithm::Sha256}});
    const auto b = build({{"w",
                           ztensor::ZtDType::Float32,
                           {10},
                           bytesOf(edited),
                           ztensor::ZtEncoding::Raw,
                           ztensor::ZtDigestAlgorithm::Sha256}});
    DiffOptions quick;
    quick.quick = true;
    const auto c = diff(a, b, quick).byPath();
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NE(field(c.at("tensor/w"), "data.digest"), "<none>");
    EXPECT_EQ(field(c.at("tensor/w"), "data.differing"), "<none>");
    EXPECT_TRUE(diff(a, a, quick).all.empty());
}

TEST(ZtDiff, HalfFloatsAndNonFiniteValues) {
    // f16: 1.0 = 0x3C00, 2.0 = 0x4000, +inf = 0x7C00.
    const std::vector<std::uint16_t> a{0x3C00, 0x3C00, 0x3C00};
    const std::vector<std::uint16_t> b{0x3C00, 0x4000, 0x7C00};
    ztensor::ZtValueDiff v;
    ztensor::ztCompareElements(ztensor::ZtDType::Float16, bytesOf(a).data(), bytesOf(b).data(), 3,
                               10, v);
    EXPECT_EQ(v.elements, 3u);
    EXPECT_EQ(v.differing, 2u);
    EXPECT_EQ(*v.firstDiffering, 11u);
    EXPECT_EQ(v.nonFinite, 1u);
    EXPECT_DOUBLE_EQ(v.maxAbs, 1.0);
    EXPECT_DOUBLE_EQ(v.maxRel, 0.5);
    EXPECT_DOUBLE_EQ(v.rms(), std::sqrt(1.0 / 3.0));
}

TEST(ZtDiff, SignedZeroDiffersInBitsNotInDistance) {
    const std::vector<double> a{0.0}, b{-0.0};
    ztensor::ZtValueDiff v;
    ztensor::ztCompareElements(ztensor::ZtDType::Float64, bytesOf(a).data(), bytesOf(b).data(), 1,
                               0, v);
    EXPECT_EQ(v.differing, 1u);
    EXPECT_EQ(v.maxAbs, 0.0);
}

TEST(ZtDiff, ParallelRawComparisonMergesTalliesInOrder) {
    std::vector<std::int16_t> base(3'000'000, 7), edited = base;
    edited[2'999'998] = 9;
    edited[1'500'000] = 4;
    const auto a = build({{"t", ztensor::ZtDType::Int16, {3'000'000}, bytesOf(base)}});
    const auto b = build({{"t", ztensor::ZtDType::Int16, {3'000'000}, bytesOf(edited)}});
    for (unsigned threads : {1u, 2u, 5u}) {
        const ztensor::ZtComponent& ca = *a->component(a->tensors()[0], "data");
        const ztensor::ZtComponent& cb = *b->component(b->tensors()[0], "data");
        const auto r =
            ztensor::ztCompareComponents(*a, ca, *b, cb, ztensor::ZtDType::Int16, nullptr, threads);
        ASSERT_TRUE(r.ok) << r.error;
        EXPECT_EQ(r.diff.elements, 3'000'000u);
        EXPECT_EQ(r.diff.differing, 2u);
        EXPECT_EQ(*r.diff.firstDiffering, 1'500'000u);
        EXPECT_DOUBLE_EQ(r.diff.maxAbs, 3.0);
    }
}

// A sparse float32 tensor whose values are 14 bytes: three elements and half of a fourth (an
// error the validator reports; the diff must still end).
std::shared_ptr<const ztensor::ZtFile> csrWithPartialValues(std::uint8_t lastByte) {
    test::ZtBuilder builder;
    std::vector<std::uint8_t> values = test::f32Bytes({1.0f, 2.0f, 3.0f});
    values.insert(values.end(), {0x00, lastByte});
    const std::uint64_t valuesAt = builder.add(values);
    const std::uint64_t indicesAt = builder.add(test::u64Bytes({0, 1, 2}));
    const std::uint64_t indptrAt = builder.add(test::u64Bytes({0, 1, 2, 3}));
    const nlohmann::json tensor = {{"dtype", "float32"},
                                   {"shape", {3, 4}},
                                   {"format", "sparse_csr"},
                                   {"components",
                                    {{"values", {{"offset", valuesAt}, {"length", 14}}},
                                     {"indices", {{"offset", indicesAt}, {"length", 24}}},
                                     {"indptr", {{"offset", indptrAt}, {"length", 32}}}}}};
    return ztensor::ZtFile::open(
        makeBufferSource(builder.finish(test::ztManifest({{"csr", tensor}})), "partial.zt"));
}

TEST(ZtDiff, APartialLastElementEndsTheComparison) {
    const auto a = csrWithPartialValues(0x40);
    DiffSummary summary;
    EXPECT_TRUE(diff(a, a, {}, &summary).all.empty());
    const Collected c = diff(a, csrWithPartialValues(0x41));
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Changed);
    EXPECT_NE(c.all[0].description.find("after the last whole element"), std::string::npos)
        << c.all[0].description;
}

// A one-tensor file whose manifest gets `edit` applied (attributes, members readers ignore).
std::shared_ptr<const ztensor::ZtFile> edited(const std::function<void(nlohmann::json&)>& edit) {
    test::ZtBuilder builder;
    const std::uint64_t at = builder.add(test::f32Bytes({1.0f}));
    nlohmann::json manifest =
        test::ztManifest({{"x",
                           {{"dtype", "float32"},
                            {"shape", {1}},
                            {"format", "dense"},
                            {"components", {{"data", {{"offset", at}, {"length", 4}}}}}}}});
    edit(manifest);
    return ztensor::ZtFile::open(makeBufferSource(builder.finish(manifest), "edited.zt"));
}

TEST(ZtDiff, AttributesCompareAsTheManifestHoldsThem) {
    const auto number = edited([](nlohmann::json& m) { m["attributes"]["n"] = 42; });
    const auto text = edited([](nlohmann::json& m) { m["attributes"]["n"] = "42"; });
    EXPECT_TRUE(diff(number, number).all.empty());
    const Collected c = diff(number, text);
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Changed);
    EXPECT_EQ(c.all[0].path, "attributes/n");
}

TEST(ZtDiff, ManifestMembersReadersDoNotUseAreCompared) {
    const auto plain = edited([](nlohmann::json&) {});
    const auto extra = edited([](nlohmann::json& m) {
        m["extra"] = {1, 2};
        m["tensors"]["x"]["note"] = "n";
        m["tensors"]["x"]["components"]["data"]["hint"] = 7;
    });
    EXPECT_TRUE(diff(extra, extra).all.empty());
    const Collected c = diff(extra, plain);
    const auto paths = c.byPath();
    ASSERT_EQ(c.all.size(), 2u);
    ASSERT_TRUE(paths.contains("manifest"));
    EXPECT_EQ(paths.at("manifest").fields.at(0).path, "$.extra");
    ASSERT_TRUE(paths.contains("tensor/x/manifest"));
    EXPECT_EQ(paths.at("tensor/x/manifest").fields.size(), 2u);
}

TEST(ZtDiff, AnUnreadableManifestIsAClearError) {
    const auto good = build({{"w", ztensor::ZtDType::UInt8, {1}, {1}}});
    const auto bad =
        ztensor::ZtFile::open(makeBufferSource(std::string("ZTEN1000garbage-garbage"), "bad.zt"));
    Collected sink;
    auto differ = ztensor::makeZtDiffer(good, bad);
    try {
        differ->run(sink, {});
        FAIL() << "expected a DiffError";
    } catch (const DiffError& e) {
        EXPECT_NE(std::string(e.what()).find("bad.zt"), std::string::npos);
    }
}

// Property: for random tensor sets with random edits (removed, added, values changed, storage
// switched between raw and zstd), diff(A, B) reports exactly those edits with the right count of
// differing elements, diff(B, A) mirrors it, and diff(A, A) is empty.
TEST(ZtDiff, RandomEditsAreReportedExactlyAndMirror) {
    std::mt19937 rng(20261125);
    for (int round = 0; round < 30; ++round) {
        std::vector<Spec> a, b;
        std::map<std::string, DiffKind> expected;
        std::map<std::string, std::size_t> differing;
        const unsigned tensors = 1 + rng() % 8;
        for (unsigned t = 0; t < tensors; ++t) {
            const std::string name = "t" + std::to_string(t);
            std::vector<float> values(1 + rng() % 500);
            for (float& v : values) {
                v = float(rng() % 1000) / 8.0f;
            }
            const std::vector<std::uint64_t> shape{values.size()};
            const ztensor::ZtEncoding encoding =
                rng() % 2 == 0 ? ztensor::ZtEncoding::Zstd : ztensor::ZtEncoding::Raw;
            a.emplace_back(name, ztensor::ZtDType::Float32, shape, bytesOf(values), encoding);
            switch (rng() % 5) {
                case 0:
                    expected[name] = DiffKind::Removed;
                    break;
                case 1: {
                    std::set<std::size_t> edited;
                    auto changed = values;
                    for (unsigned k = 1 + rng() % 5; k > 0; --k) {
                        const std::size_t at = rng() % changed.size();
                        if (edited.insert(at).second) {
                            changed[at] += 1.0f + float(rng() % 7);
                        }
                    }
                    b.emplace_back(name, ztensor::ZtDType::Float32, shape, bytesOf(changed),
                                   encoding);
                    expected[name] = DiffKind::Changed;
                    differing[name] = edited.size();
                    break;
                }
                case 2:
                    b.emplace_back(name, ztensor::ZtDType::Float32, shape, bytesOf(values),
                                   encoding == ztensor::ZtEncoding::Raw ? ztensor::ZtEncoding::Zstd
                                                                        : ztensor::ZtEncoding::Raw);
                    expected[name] = DiffKind::Encoding;
                    break;
                default:
                    b.push_back(a.back());
                    break;
            }
        }
        for (unsigned t = rng() % 3; t > 0; --t) {
            const std::string name = "new" + std::to_string(t);
            b.emplace_back(name, ztensor::ZtDType::UInt8, std::vector<std::uint64_t>{1},
                           std::vector<std::uint8_t>{std::uint8_t(t)});
            expected[name] = DiffKind::Added;
        }
        const auto fa = build(a), fb = build(b);
        EXPECT_TRUE(diff(fa, fa).all.empty()) << "round " << round;
        const auto ab = diff(fa, fb).byPath(), ba = diff(fb, fa).byPath();
        std::map<std::string, DiffKind> got;
        for (const auto& [path, d] : ab) {
            got[path.substr(std::string("tensor/").size())] = d.kind;
        }
        EXPECT_EQ(got, expected) << "round " << round;
        for (const auto& [name, count] : differing) {
            EXPECT_EQ(field(ab.at("tensor/" + name), "data.differing"), std::to_string(count))
                << "round " << round << " " << name;
        }
        ASSERT_EQ(ab.size(), ba.size()) << "round " << round;
        for (const auto& [path, d] : ab) {
            const DiffKind mirrored = d.kind == DiffKind::Added     ? DiffKind::Removed
                                      : d.kind == DiffKind::Removed ? DiffKind::Added
                                                                    : d.kind;
            ASSERT_TRUE(ba.contains(path)) << path;
            EXPECT_EQ(ba.at(path).kind, mirrored) << "round " << round << " " << path;
        }
    }
}

// Property: a random sparse matrix written in a random layout (COO in random order, CSR with
// rows' entries in random order, dense) against the same matrix with random edits (entries
// removed, added, changed, explicit zeros added) in another random layout: exactly the edited
// coordinates differ, the first at the smallest edited row-major index, from either side;
// without edits, one encoding difference at most.
TEST(ZtDiff, RandomSparseMatricesAreComparedByCoordinates) {
    std::mt19937 rng(20261127);
    const auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
    const char* layouts[] = {"sparse_coo", "sparse_csr", "dense"};
    for (int round = 0; round < 60; ++round) {
        const std::vector<std::uint64_t> shape{1 + pick(12), 1 + pick(12)};
        std::map<std::uint64_t, float> a;  // row-major index -> value (non-zero)
        for (unsigned n = pick(unsigned(shape[0] * shape[1]) + 1); n > 0; --n) {
            a[pick(unsigned(shape[0] * shape[1]))] = float(1 + pick(100)) / 4.0f;
        }
        auto b = a;
        std::set<std::uint64_t> edited;
        std::vector<std::uint64_t> zeros;  // explicit zero entries in B (no value change)
        if (pick(4) != 0) {
            for (unsigned k = 1 + pick(4); k > 0; --k) {
                const std::uint64_t at = pick(unsigned(shape[0] * shape[1]));
                if (!edited.insert(at).second) {
                    continue;
                }
                if (b.contains(at) && pick(2) == 0) {
                    b.erase(at);  // removed: becomes zero
                } else {
                    b[at] = b.contains(at) ? b[at] + 1.0f : 7.5f;  // changed or added
                }
            }
        }
        for (unsigned n = pick(3); n > 0; --n) {
            const std::uint64_t at = pick(unsigned(shape[0] * shape[1]));
            if (!b.contains(at) && !a.contains(at)) {
                zeros.push_back(at);
            }
        }
        const auto entries = [&](const std::map<std::uint64_t, float>& m,
                                 const std::vector<std::uint64_t>& explicitZeros) {
            std::vector<Entry> out;
            for (const auto& [at, v] : m) {
                out.push_back({at / shape[1], at % shape[1], v});
            }
            for (std::uint64_t at :
                 std::set<std::uint64_t>(explicitZeros.begin(), explicitZeros.end())) {
                out.push_back({at / shape[1], at % shape[1], 0.0f});
            }
            std::shuffle(out.begin(), out.end(), rng);
            return out;
        };
        const std::string la = layouts[pick(3)];
        std::string lb = layouts[pick(3)];
        if (la == "dense" && lb == "dense") {
            lb = "sparse_coo";
        }
        const auto fa = matrix(la, shape, entries(a, {}));
        const auto fb = matrix(lb, shape, entries(b, zeros),
                               pick(2) ? ztensor::ZtEncoding::Zstd : ztensor::ZtEncoding::Raw);
        SCOPED_TRACE("round " + std::to_string(round) + ": " + la + " against " + lb);
        EXPECT_TRUE(diff(fa, fa).all.empty());
        for (const auto& [x, y] : {std::pair{fa, fb}, std::pair{fb, fa}}) {
            const Collected c = diff(x, y);
            if (edited.empty()) {
                ASSERT_LE(c.all.size(), 1u);
                if (!c.all.empty()) {
                    EXPECT_EQ(c.all[0].kind, DiffKind::Encoding) << c.all[0].description;
                }
                continue;
            }
            ASSERT_EQ(c.all.size(), 1u);
            EXPECT_EQ(c.all[0].kind, DiffKind::Changed);
            EXPECT_EQ(field(c.all[0], "values.differing"), std::to_string(edited.size()));
            EXPECT_EQ(field(c.all[0], "values.first_index"), std::to_string(*edited.begin()));
        }
    }
}

// Every tensor was looked up by a search through all of them: 20,000 tensors compared in
// seconds only once names are hashed, and one changed, one removed and one added among them are
// exactly what is reported.
TEST(ZtDiff, TwentyThousandTensorsAreMatchedByName) {
    constexpr int kTensors = 20000;
    std::vector<Spec> a, b;
    for (int i = 0; i < kTensors; ++i) {
        const std::string name = "layer." + std::to_string(i) + ".weight";
        const std::vector<std::uint8_t> value{static_cast<std::uint8_t>(i), 1};
        a.emplace_back(name, ztensor::ZtDType::UInt8, std::vector<std::uint64_t>{2}, value);
        if (i == 4321) {
            continue;  // removed
        }
        std::vector<std::uint8_t> changed = value;
        changed[1] += i == 17 ? 1 : 0;
        b.emplace_back(name, ztensor::ZtDType::UInt8, std::vector<std::uint64_t>{2}, changed);
    }
    b.emplace_back("extra", ztensor::ZtDType::UInt8, std::vector<std::uint64_t>{1},
                   std::vector<std::uint8_t>{9});
    DiffSummary summary;
    const auto c = diff(build(a), build(b), {}, &summary).byPath();
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c.at("tensor/layer.17.weight").kind, DiffKind::Changed);
    EXPECT_EQ(c.at("tensor/layer.4321.weight").kind, DiffKind::Removed);
    EXPECT_EQ(c.at("tensor/extra").kind, DiffKind::Added);
    EXPECT_EQ(summary.compared, static_cast<std::uint64_t>(kTensors) + 1);
}

}  // namespace
}  // namespace strata
