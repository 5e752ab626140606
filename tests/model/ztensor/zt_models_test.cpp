// The zTensor models against the corpus: the tensor table and the values (dense slices and
// sparse non-zeros) match expected/logical.jsonl; statistics of known tensors; digest statuses;
// the manifest tree.
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/diagnostic.h"
#include "formats/ztensor/zt_nodes.h"
#include "formats/ztensor/zt_validator.h"
#include "model/ztensor/zt_element.h"
#include "model/ztensor/zt_manifest_models.h"
#include "model/ztensor/zt_stats.h"
#include "model/ztensor/zt_tensor_data.h"
#include "model/ztensor/zt_tensor_jobs.h"
#include "model/ztensor/zt_tensor_table_model.h"
#include "model/ztensor/zt_values_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::model;

namespace {

QString corpus(const QString& relative) {
    return QString::fromStdString((strata::test::corpusRoot() / "ztensor").string()) + '/' +
           relative;
}

std::shared_ptr<const ztensor::ZtFile> openCorpus(const QString& relative) {
    return ztensor::ZtFile::open(openMappedFile(corpus(relative).toStdString()));
}

// expected/logical.jsonl grouped by file, in the order of the lines.
std::map<std::string, std::vector<nlohmann::json>> expectedTensors() {
    QFile file(corpus(QStringLiteral("expected/logical.jsonl")));
    std::map<std::string, std::vector<nlohmann::json>> out;
    if (!file.open(QIODevice::ReadOnly)) {
        return out;
    }
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (!line.isEmpty()) {
            auto json = nlohmann::json::parse(line.toStdString());
            auto& tensors = out[json["file"].get<std::string>()];
            if (!json["name"].is_null()) {  // a file with no tensors has one line, name null
                tensors.push_back(json);
            }
        }
    }
    return out;
}

int rowOf(const ZtTensorTableModel& model, const std::string& name) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, ZtTensorTableModel::Name).data().toString().toStdString() == name) {
            return row;
        }
    }
    return -1;
}

std::shared_ptr<const ZtTensorData> load(const ztensor::ZtFile& file, const std::string& name) {
    const ztensor::ZtTensor* tensor = file.findTensor(name);
    return tensor ? std::make_shared<ZtTensorData>(ztLoadTensorData(file, *tensor)) : nullptr;
}

}  // namespace

class ZtModelsTest : public QObject {
    Q_OBJECT
private slots:
    void tableMatchesLogicalJsonl();
    void denseValuesMatchSha256();
    void valuesModelSlicesAndPages();
    void scalarAndVectorShapes();
    void elementTexts();
    void sparseEntriesAndDensified();
    void statsOfKnownTensors();
    void statsAccumulatorSplitsElements();
    void digestStatuses();
    void digestJobFillsStatuses();
    void manifestTreeAndAttributes();
    void corruptFilesAreShownSafely();
};

void ZtModelsTest::tableMatchesLogicalJsonl() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    const auto expected = expectedTensors();
    QVERIFY(expected.size() >= 12);
    for (const auto& [fileName, tensors] : expected) {
        auto file = openCorpus(QStringLiteral("valid/") + QString::fromStdString(fileName));
        ZtTensorTableModel model(file, nullptr);
        QCOMPARE(model.rowCount(), static_cast<int>(tensors.size()));
        QCOMPARE(model.columnCount(), static_cast<int>(ZtTensorTableModel::Count));
        for (const auto& t : tensors) {
            const int row = rowOf(model, t["name"].get<std::string>());
            QVERIFY2(row >= 0, t["name"].get<std::string>().c_str());
            auto cell = [&](int column) { return model.index(row, column).data().toString(); };
            QCOMPARE(cell(ZtTensorTableModel::DType).toStdString(), t["dtype"].get<std::string>());
            QCOMPARE(cell(ZtTensorTableModel::Format).toStdString(),
                     t["format"].get<std::string>());
            QCOMPARE(cell(ZtTensorTableModel::Shape).toStdString(),
                     ztensor::ztShapeText(t["shape"].get<std::vector<std::uint64_t>>()));
            std::uint64_t stored = 0;
            for (const auto& [role, component] : t["stored_components"].items()) {
                stored += component["length"].get<std::uint64_t>();
            }
            QCOMPARE(model.index(row, ZtTensorTableModel::Stored)
                         .data(ZtTensorTableModel::SortRole)
                         .toULongLong(),
                     stored);
            if (t.contains("nbytes")) {
                QCOMPARE(model.index(row, ZtTensorTableModel::Logical)
                             .data(ZtTensorTableModel::SortRole)
                             .toULongLong(),
                         t["nbytes"].get<std::uint64_t>());
            }
            QCOMPARE(cell(ZtTensorTableModel::Digest), QStringLiteral("unknown"));
            // The regions the hex view selects are the stored components.
            const auto regions = model.componentRegions(row);
            QCOMPARE(regions.size(), t["stored_components"].size());
        }
    }
}

void ZtModelsTest::denseValuesMatchSha256() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    int checked = 0;
    for (const auto& [fileName, tensors] : expectedTensors()) {
        auto file = openCorpus(QStringLiteral("valid/") + QString::fromStdString(fileName));
        for (const auto& t : tensors) {
            if (t["format"] != "dense") {
                continue;
            }
            auto data = load(*file, t["name"].get<std::string>());
            QVERIFY(data && data->ok());
            QVERIFY(data->hasDense);
            const QByteArray bytes(reinterpret_cast<const char*>(data->dense.data()),
                                   static_cast<qsizetype>(data->dense.size()));
            QCOMPARE(
                QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString(),
                t["sha256"].get<std::string>());
            ++checked;
        }
    }
    QVERIFY(checked > 30);
}

void ZtModelsTest::valuesModelSlicesAndPages() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    // t_float32: shape [2, 3, 4], values -3.0, -2.75, ... in steps of 0.25.
    for (const QString& name :
         {QStringLiteral("valid/dense_raw.zt"), QStringLiteral("valid/dense_zstd.zt")}) {
        auto file = openCorpus(name);
        ZtValuesModel model;
        model.setTensor(load(*file, "t_float32"));
        QCOMPARE(model.rank(), 3);
        QCOMPARE(model.rowAxis(), 1);
        QCOMPARE(model.columnAxis(), 2);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 4);
        auto value = [&](int r, int c) { return model.index(r, c).data(Qt::UserRole).toDouble(); };
        QCOMPARE(value(0, 0), -3.0);
        QCOMPARE(value(2, 3), -3.0 + 0.25 * 11);
        QVERIFY(model.setIndex(0, 1));
        QCOMPARE(value(0, 0), -3.0 + 0.25 * 12);
        QCOMPARE(model.elementIndex(model.index(1, 2)), 12 + 4 + 2);
        // Rows along the last axis, columns along the first: cell (r, c) is [c][i1][r].
        QVERIFY(model.setAxes(2, 0));
        QVERIFY(model.setIndex(1, 2));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 2);
        QCOMPARE(model.elementIndex(model.index(3, 1)), 12 + 8 + 3);
        QCOMPARE(value(3, 1), -3.0 + 0.25 * 23);
        QVERIFY(!model.setAxes(1, 1));
        QVERIFY(!model.setIndex(0, 2));  // past the extent
        QCOMPARE(model.rowPageCount(), 1u);
        QVERIFY(!model.setPage(1, 0));
        QCOMPARE(model.headerData(3, Qt::Vertical).toString(), QStringLiteral("3"));
    }
}

void ZtModelsTest::scalarAndVectorShapes() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto file = openCorpus(QStringLiteral("valid/dense_raw.zt"));
    ZtValuesModel model;
    model.setTensor(load(*file, "t_scalar_f32"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), 1);
    model.setTensor(load(*file, "t_int64"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("-9223372036854775808"));
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("9223372036854775807"));
    model.setTensor(load(*file, "t_empty_f32"));
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 4);
    model.setTensor(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void ZtModelsTest::elementTexts() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto file = openCorpus(QStringLiteral("valid/dense_zstd.zt"));
    ZtValuesModel model;
    model.setTensor(load(*file, "t_float16"));
    QCOMPARE(model.index(0, 0).data(Qt::UserRole).toDouble(), -1.0);
    QCOMPARE(model.index(7, 0).data(Qt::UserRole).toDouble(), 2.5);
    model.setTensor(load(*file, "t_bfloat16"));
    QCOMPARE(model.index(0, 0).data(Qt::UserRole).toDouble(), -2.0);  // 0xC000
    QCOMPARE(model.index(1, 0).data(Qt::UserRole).toDouble(), 1.0);   // 0x3F80
    const std::uint8_t half[] = {0x00, 0x7C, 0x01, 0x00, 0x00, 0x7E};
    QVERIFY(std::isinf(ztElementValue(ztensor::ZtDType::Float16, half)));
    QCOMPARE(ztElementValue(ztensor::ZtDType::Float16, half + 2), std::ldexp(1.0, -24));
    QVERIFY(std::isnan(ztElementValue(ztensor::ZtDType::Float16, half + 4)));
    const std::uint8_t one = 1;
    QCOMPARE(ztElementText(ztensor::ZtDType::Bool, &one), QStringLiteral("true"));
    const std::uint8_t minus = 0xFF;
    QCOMPARE(ztElementText(ztensor::ZtDType::Int8, &minus), QStringLiteral("-1"));
    QCOMPARE(ztElementText(ztensor::ZtDType::UInt8, &minus), QStringLiteral("255"));
}

void ZtModelsTest::sparseEntriesAndDensified() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    const auto expected = expectedTensors();
    for (const QString& name :
         {QStringLiteral("sparse_raw.zt"), QStringLiteral("sparse_zstd_crc32c.zt")}) {
        auto file = openCorpus(QStringLiteral("valid/") + name);
        for (const auto& t : expected.at(name.toStdString())) {
            if (t["format"] == "dense") {
                continue;
            }
            auto data = load(*file, t["name"].get<std::string>());
            QVERIFY(data && data->ok());
            QVERIFY(data->sparse);
            ZtSparseEntriesModel entries;
            entries.setTensor(data);
            const auto& read = t["reference_read"];
            QCOMPARE(entries.entryCount(), read["nnz_values"].get<std::uint64_t>());
            QCOMPARE(entries.columnCount(), static_cast<int>(t["shape"].size()) + 1);
            // The values grid shows the densified tensor: each stored entry at its place.
            ZtValuesModel grid;
            grid.setTensor(data);
            QVERIFY(data->hasDense);
            const auto shape = t["shape"].get<std::vector<std::uint64_t>>();
            for (int e = 0; e < entries.rowCount(); ++e) {
                std::vector<std::uint64_t> coords;
                for (std::size_t axis = 0; axis < shape.size(); ++axis) {
                    coords.push_back(
                        entries.index(e, static_cast<int>(axis)).data(Qt::UserRole).toULongLong());
                }
                if (t["format"] == "sparse_coo") {
                    QCOMPARE(coords, read["indices"][static_cast<std::size_t>(e)]
                                         .get<std::vector<std::uint64_t>>());
                } else {
                    QCOMPARE(coords[1],
                             read["indices"][static_cast<std::size_t>(e)].get<std::uint64_t>());
                    const auto indptr = read["indptr"].get<std::vector<std::uint64_t>>();
                    QVERIFY(indptr[coords[0]] <= static_cast<std::uint64_t>(e) &&
                            static_cast<std::uint64_t>(e) < indptr[coords[0] + 1]);
                }
                const double value =
                    entries.index(e, static_cast<int>(shape.size())).data(Qt::UserRole).toDouble();
                for (std::size_t axis = 0; axis + 2 < shape.size(); ++axis) {
                    QVERIFY(grid.setIndex(static_cast<int>(axis), coords[axis]));
                }
                const int r = static_cast<int>(coords[shape.size() - 2]);
                const int c = static_cast<int>(coords[shape.size() - 1]);
                QCOMPARE(grid.index(r, c).data(Qt::UserRole).toDouble(), value);
            }
        }
    }
}

void ZtModelsTest::statsOfKnownTensors() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto single = openCorpus(QStringLiteral("valid/single_f32_raw.zt"));
    std::string error;
    auto stats = ztComputeStats(*single, single->tensors().front(), 5, nullptr, {}, &error);
    QVERIFY2(stats, error.c_str());
    QCOMPARE(stats->count, 6u);
    QCOMPARE(stats->min, 1.0);
    QCOMPARE(stats->max, 6.0);
    QCOMPARE(stats->mean, 3.5);
    QVERIFY(std::abs(stats->stddev - std::sqrt(35.0 / 12.0)) < 1e-12);
    QCOMPARE(stats->zeros, 0u);
    QCOMPARE(stats->histogram, (std::vector<std::uint64_t>{1, 1, 1, 1, 2}));

    // A zstd tensor: -3.0 to 2.75 in steps of 0.25, decoded piece by piece.
    auto zstd = openCorpus(QStringLiteral("valid/dense_zstd.zt"));
    stats = ztComputeStats(*zstd, *zstd->findTensor("t_float32"), 8, nullptr, {}, &error);
    QVERIFY2(stats, error.c_str());
    QCOMPARE(stats->count, 24u);
    QCOMPARE(stats->zeros, 1u);
    QCOMPARE(stats->min, -3.0);
    QCOMPARE(stats->max, 2.75);
    QVERIFY(std::abs(stats->mean - (-0.125)) < 1e-12);
    QCOMPARE(stats->histogram, (std::vector<std::uint64_t>{3, 3, 3, 3, 3, 3, 3, 3}));

    // CSR [[1, 0, 2, 0], [0, 0, 0, 0], [0, 3, 0, 4]]: 8 implicit zeros.
    auto sparse = openCorpus(QStringLiteral("valid/sparse_zstd_crc32c.zt"));
    stats = ztComputeStats(*sparse, *sparse->findTensor("csr_f32"), 4, nullptr, {}, &error);
    QVERIFY2(stats, error.c_str());
    QCOMPARE(stats->count, 12u);
    QCOMPARE(stats->zeros, 8u);
    QCOMPARE(stats->min, 0.0);
    QCOMPARE(stats->max, 4.0);
    QVERIFY(std::abs(stats->mean - 10.0 / 12.0) < 1e-12);
    QVERIFY(std::abs(stats->stddev - std::sqrt(30.0 / 12.0 - 100.0 / 144.0)) < 1e-12);
    QCOMPARE(stats->histogram, (std::vector<std::uint64_t>{8, 1, 1, 2}));

    CancelToken cancel;
    cancel.cancel();
    QVERIFY(!ztComputeStats(*single, single->tensors().front(), 5, &cancel, {}, &error));
    QCOMPARE(error, std::string("cancelled"));
}

void ZtModelsTest::statsAccumulatorSplitsElements() {
    const float values[] = {1.0f, NAN, INFINITY, 0.0f, -2.0f};
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(values);
    ZtStatsAccumulator whole(ztensor::ZtDType::Float32);
    whole.feed({bytes, sizeof(values)});
    ZtStatsAccumulator pieces(ztensor::ZtDType::Float32);
    for (std::size_t at = 0; at < sizeof(values); at += 3) {
        pieces.feed({bytes + at, std::min<std::size_t>(3, sizeof(values) - at)});
    }
    for (const ZtStats& s : {whole.result(), pieces.result()}) {
        QCOMPARE(s.count, 5u);
        QCOMPARE(s.nan, 1u);
        QCOMPARE(s.inf, 1u);
        QCOMPARE(s.zeros, 1u);
        QCOMPARE(s.finite, 3u);
        QCOMPARE(s.min, -2.0);
        QCOMPARE(s.max, 1.0);
        QVERIFY(std::abs(s.mean - (-1.0 / 3.0)) < 1e-12);
    }
}

void ZtModelsTest::digestStatuses() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto statusesOf = [](const QString& relative) {
        auto file = openCorpus(relative);
        CollectingSink sink;
        ztensor::ZtValidator(file).run(sink, {});
        return ztDigestStatuses(*file, sink.diagnostics());
    };
    for (auto s : statusesOf(QStringLiteral("valid/dense_raw_crc32c.zt"))) {
        QCOMPARE(s, ZtDigestStatus::Ok);
    }
    for (auto s : statusesOf(QStringLiteral("valid/dense_raw.zt"))) {
        QCOMPARE(s, ZtDigestStatus::None);
    }
    const auto bad = statusesOf(QStringLiteral("corrupt/digest_mismatch.zt"));
    QVERIFY(std::count(bad.begin(), bad.end(), ZtDigestStatus::Bad) >= 1);
    const auto unknown = statusesOf(QStringLiteral("corrupt/digest_unknown_algo.zt"));
    QVERIFY(std::count(unknown.begin(), unknown.end(), ZtDigestStatus::Bad) >= 1);
}

void ZtModelsTest::digestJobFillsStatuses() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto file = openCorpus(QStringLiteral("corrupt/digest_mismatch.zt"));
    JobRunner runner;
    auto* job = qobject_cast<ZtDigestJob*>(startZtDigestVerification(runner, file));
    QVERIFY(job);
    QSignalSpy finished(job, &Job::finished);
    QVERIFY(finished.wait(60000));
    QCOMPARE(job->state(), Job::State::Finished);
    QCOMPARE(job->statuses().size(), file->tensors().size());
    ZtTensorTableModel model(file, nullptr);
    model.setDigestStatuses(job->statuses());
    bool sawBad = false;
    for (int row = 0; row < model.rowCount(); ++row) {
        sawBad |= model.index(row, ZtTensorTableModel::Digest).data().toString() == "bad";
    }
    QVERIFY(sawBad);
}

void ZtModelsTest::manifestTreeAndAttributes() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto file = openCorpus(QStringLiteral("valid/attrs_extra_keys.zt"));
    std::unique_ptr<QStandardItemModel> tree(ztBuildManifestTree(file->manifestJson(), nullptr));
    QCOMPARE(tree->rowCount(), static_cast<int>(file->manifestJson().size()));
    QCOMPARE(tree->columnCount(), 3);
    bool sawAttributes = false;
    for (int row = 0; row < tree->rowCount(); ++row) {
        if (tree->index(row, 0).data().toString() == "attributes") {
            sawAttributes = true;
            QCOMPARE(tree->index(row, 1).data().toString(), QStringLiteral("map"));
            QCOMPARE(tree->rowCount(tree->index(row, 0)), 3);
        }
    }
    QVERIFY(sawAttributes);
    ZtAttributesModel attributes(file, nullptr);
    QCOMPARE(attributes.rowCount(), 3);
    QVERIFY(!(attributes.flags(attributes.index(0, 1)) & Qt::ItemIsEditable));
    QVERIFY(!attributes.setData(attributes.index(0, 1), QStringLiteral("x")));

    // A long array shows its first entries and a "more" row.
    nlohmann::json big = nlohmann::json::array();
    for (std::size_t i = 0; i < kZtManifestTreeChildLimit + 5; ++i) {
        big.push_back(i);
    }
    std::unique_ptr<QStandardItemModel> capped(ztBuildManifestTree({{"big", big}}, nullptr));
    QCOMPARE(capped->rowCount(capped->index(0, 0)),
             static_cast<int>(kZtManifestTreeChildLimit) + 1);
}

// Every damaged corpus file goes through every model: tensors that can be read show their
// values, the others an error, and nothing reads out of bounds (run under ASan in CI).
void ZtModelsTest::corruptFilesAreShownSafely() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    const QDir dir(corpus(QStringLiteral("corrupt")));
    const QStringList files = dir.entryList({QStringLiteral("*.zt")}, QDir::Files);
    QVERIFY(files.size() > 30);
    for (const QString& name : files) {
        auto file = openCorpus(QStringLiteral("corrupt/") + name);
        ZtTensorTableModel table(file, nullptr);
        for (int row = 0; row < table.rowCount(); ++row) {
            for (int column = 0; column < table.columnCount(); ++column) {
                table.index(row, column).data();
                table.index(row, column).data(ZtTensorTableModel::SortRole);
            }
            table.componentRegions(row);
        }
        std::unique_ptr<QStandardItemModel> tree(
            ztBuildManifestTree(file->manifestJson(), nullptr));
        for (const ztensor::ZtTensor& tensor : file->tensors()) {
            auto data = std::make_shared<ZtTensorData>(ztLoadTensorData(*file, tensor));
            QVERIFY(data->ok() || !data->error.empty());
            ZtValuesModel values;
            values.setTensor(data->hasDense ? data : nullptr);
            for (int r = 0; r < std::min(values.rowCount(), 100); ++r) {
                for (int c = 0; c < std::min(values.columnCount(), 100); ++c) {
                    values.index(r, c).data();
                }
            }
            ZtSparseEntriesModel entries;
            entries.setTensor(data);
            for (int r = 0; r < std::min(entries.rowCount(), 100); ++r) {
                for (int c = 0; c < entries.columnCount(); ++c) {
                    entries.index(r, c).data();
                }
            }
            std::string error;
            const auto stats = ztComputeStats(*file, tensor, 8, nullptr, {}, &error);
            QVERIFY(stats.has_value() || !error.empty());
        }
    }
}

QTEST_GUILESS_MAIN(ZtModelsTest)
#include "zt_models_test.moc"
