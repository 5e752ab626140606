// The Shardlake part of strata_model over the conformance corpus: session, root browser model,
// shard table with fingerprint job, lazy vector table, query results against the reference's,
// PCA, alias edits with undo, redo and save, and the index build job.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "formats/common/le_reader.h"
#include "formats/shardlake/shardlake_binary.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/shardlake/shardlake_alias_editor.h"
#include "model/shardlake/shardlake_build_job.h"
#include "model/shardlake/shardlake_pca.h"
#include "model/shardlake/shardlake_query.h"
#include "model/shardlake/shardlake_root_model.h"
#include "model/shardlake/shardlake_session.h"
#include "model/shardlake/shardlake_shard_table_model.h"
#include "model/shardlake/shardlake_vector_model.h"
#include "test_corpus.h"

namespace fs = std::filesystem;
using namespace strata::model;

namespace {

const fs::path kCorpus = strata::test::corpusRoot() / "shardlake";

std::unique_ptr<Document> openDocument(const fs::path& path) {
    QString error;
    auto document = Document::open(QString::fromStdString(path.string()), &error);
    if (!document) {
        qWarning("%s", qPrintable(error));
    }
    return document;
}

nlohmann::json expectedQueries() {
    std::ifstream in(kCorpus / "expected" / "queries.json");
    return nlohmann::json::parse(in);
}

// A writable copy of a corpus root.
fs::path copyRoot(const QTemporaryDir& dir, const fs::path& from) {
    const fs::path to = fs::path(dir.path().toStdString()) / "root";
    fs::copy(from, to, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(to)) {
        fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::owner_write,
                        fs::perm_options::add);
    }
    fs::permissions(to, fs::perms::owner_all, fs::perm_options::add);
    return to;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Counts which bytes a model asks its source for.
class CountingSource final : public strata::ByteSource {
public:
    explicit CountingSource(strata::ByteSourcePtr inner) : inner_(std::move(inner)) {}
    const std::string& name() const override { return inner_->name(); }
    std::uint64_t size() const override { return inner_->size(); }
    strata::ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        std::lock_guard lock(mutex_);
        reads.emplace_back(offset, length);
        return inner_->view(offset, length);
    }
    mutable std::vector<std::pair<std::uint64_t, std::uint64_t>> reads;

private:
    strata::ByteSourcePtr inner_;
    mutable std::mutex mutex_;
};

}  // namespace

class ShardlakeModelTest : public QObject {
    Q_OBJECT
private slots:
    void sessionReadsTheRoot();
    void rootModelShowsAliasTargets();
    void fingerprintsMatchOnTheCorpus();
    void fingerprintMismatchIsFound();
    void vectorModelReadsOnlyTheRowsAsked();
    void centroidsAsVectors();
    void damagedHeadersStayBounded();
    void queryMatchesTheReference_data();
    void queryMatchesTheReference();
    void queryById();
    void queryVectorParsing();
    void pcaOfASmallRoot();
    void pcaJobDeliversAndCancels();
    void aliasEditUndoRedoSave();
    void aliasEditRejectsBadInput();
    void buildJobMakesASearchableIndex();
};

void ShardlakeModelTest::sessionReadsTheRoot() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    QCOMPARE(session.kind(), ShardlakeSession::Kind::Root);
    QCOMPARE(session.datasets().size(), std::size_t{1});
    QCOMPARE(session.datasets()[0].count.value_or(0), std::uint64_t{2000});
    QCOMPARE(session.indexes().size(), std::size_t{4});
    QCOMPARE(session.aliases().size(), std::size_t{3});
    const ShardlakeIndexInfo* l2 = session.index("idx-l2");
    QVERIFY(l2 != nullptr);
    QCOMPARE(l2->metric, std::string("euclidean"));
    QCOMPARE(l2->shards.size(), std::size_t{3});
    std::uint64_t records = 0;
    for (const ShardlakeShardInfo& shard : l2->shards) {
        QVERIFY(shard.layout.has_value());
        QVERIFY(shard.problem.empty());
        records += shard.layout->vectorCount;
        // Regions of the session's sources map onto the document's own.
        const strata::Region region = session.documentRegion({shard.source.get(), 32, 8});
        QVERIFY(region.valid());
        QVERIFY(document->overlayFor(region.source) != nullptr);
        QCOMPARE(region.offset, std::uint64_t{32});
    }
    QCOMPARE(records, std::uint64_t{2000});
    QVERIFY(session.index("idx-pq")->pq);
}

void ShardlakeModelTest::rootModelShowsAliasTargets() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    ShardlakeRootModel model(session, nullptr);
    QCOMPARE(model.rowCount(), 3);
    const QModelIndex latest = model.indexOf(QStringLiteral("alias"), QStringLiteral("latest"));
    QVERIFY(latest.isValid());
    QCOMPARE(latest.siblingAtColumn(ShardlakeRootModel::DetailsColumn).data().toString(),
             QStringLiteral("→ idx-cosine"));
    const QModelIndex l2 = model.indexOf(QStringLiteral("index"), QStringLiteral("idx-l2"));
    QVERIFY(l2.isValid());
    QVERIFY(l2.siblingAtColumn(ShardlakeRootModel::StatusColumn)
                .data()
                .toString()
                .startsWith(QStringLiteral("served by l2")));
    QVERIFY(l2.siblingAtColumn(ShardlakeRootModel::DetailsColumn)
                .data()
                .toString()
                .contains(QStringLiteral("euclidean, 16 dims, 3 shards")));
}

void ShardlakeModelTest::fingerprintsMatchOnTheCorpus() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    ShardlakeShardTableModel model;
    model.setShards(session.index("idx-cosine")->shards);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.check(0), ShardlakeShardTableModel::Check::Pending);
    JobRunner runner;
    Job* job = model.startFingerprints(runner);
    runner.waitForDone();
    QTRY_VERIFY(!job->isRunning());
    QCOMPARE(job->state(), Job::State::Finished);
    for (int row = 0; row < model.rowCount(); ++row) {
        QTRY_COMPARE(model.check(row), ShardlakeShardTableModel::Check::Match);
        QCOMPARE(model.computedFingerprint(row),
                 QString::fromStdString(model.shard(row)->manifestFingerprint));
    }
}

void ShardlakeModelTest::fingerprintMismatchIsFound() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "corrupt" / "wrong_fingerprint");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    int mismatches = 0;
    JobRunner runner;
    for (const ShardlakeIndexInfo& index : session.indexes()) {
        ShardlakeShardTableModel model;
        model.setShards(index.shards);
        model.startFingerprints(runner);
        runner.waitForDone();
        QCoreApplication::processEvents();
        for (int row = 0; row < model.rowCount(); ++row) {
            QTRY_VERIFY(model.check(row) != ShardlakeShardTableModel::Check::Pending &&
                        model.check(row) != ShardlakeShardTableModel::Check::Running);
            if (model.check(row) == ShardlakeShardTableModel::Check::Mismatch) {
                ++mismatches;
                QVERIFY(model.data(model.index(row, ShardlakeShardTableModel::StatusColumn))
                            .toString()
                            .contains(QStringLiteral("mismatch")));
            }
        }
    }
    QCOMPARE(mismatches, 1);
}

void ShardlakeModelTest::vectorModelReadsOnlyTheRowsAsked() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    const ShardlakeShardInfo& shard = session.index("idx-l2")->shards[1];
    auto counting = std::make_shared<CountingSource>(shard.source);
    ShardlakeVectorModel model;
    model.setShard(counting, *shard.layout);
    QVERIFY(counting->reads.empty());
    QCOMPARE(model.rowCount(), static_cast<int>(shard.layout->vectorCount));
    QCOMPARE(model.columnCount(), 17);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("id"));
    const strata::Region row7 = model.rowRegion(7);
    for (int column = 0; column < model.columnCount(); ++column) {
        QVERIFY(model.data(model.index(7, column)).isValid());
    }
    QVERIFY(!counting->reads.empty());
    for (const auto& [offset, length] : counting->reads) {
        QVERIFY(offset >= row7.offset);
        QVERIFY(offset + length <= row7.end());
    }
    // The cells agree with the record as the formats layer reads it.
    const std::vector<float> values =
        strata::shardlake::readF32s(*shard.source, row7.offset + 8, 16);
    QCOMPARE(model.data(model.index(7, 3), Qt::EditRole).toDouble(),
             static_cast<double>(values[2]));
    QCOMPARE(model.vectorAt(7), values);
    QCOMPARE(model.idAt(7).value(), model.data(model.index(7, 0)).toULongLong());
}

void ShardlakeModelTest::centroidsAsVectors() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root" / "indexes" / "idx-l2" / "coarse_quantizer.cq");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    QCOMPARE(session.kind(), ShardlakeSession::Kind::CoarseQuantizer);
    const auto parse = strata::shardlake::parseCoarseQuantizer(*session.singleFile());
    QVERIFY(parse.layout);
    ShardlakeVectorModel model;
    model.setVectors(session.singleFile(), strata::shardlake::kCoarseHeaderSize,
                     parse.layout->clusters, parse.layout->dims, QStringLiteral("centroid"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 16);
    QCOMPARE(model.headerData(2, Qt::Vertical).toString(), QStringLiteral("centroid 2"));
    // Declared centroids past the end of the file are not listed.
    model.setVectors(session.singleFile(), strata::shardlake::kCoarseHeaderSize, 1u << 30, 16,
                     QStringLiteral("centroid"));
    QCOMPARE(model.rowCount(), 3);
}

void ShardlakeModelTest::damagedHeadersStayBounded() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    for (const char* name : {"shard_header_count_minus1", "shard_truncated", "shard_bad_magic",
                             "shard_truncated_header"}) {
        auto document = openDocument(kCorpus / "corrupt" / name);
        QVERIFY2(document, name);
        ShardlakeSession session(document->opened());
        bool problem = false;
        for (const ShardlakeIndexInfo& index : session.indexes()) {
            for (const ShardlakeShardInfo& shard : index.shards) {
                problem = problem || !shard.problem.empty();
                ShardlakeVectorModel model;
                if (shard.layout && shard.layout->layoutKnown) {
                    model.setShard(shard.source, *shard.layout);
                }
                const auto rows = static_cast<std::uint64_t>(model.rowCount());
                QVERIFY(!shard.layout || rows * shard.layout->recordSize <= shard.source->size());
                if (rows > 0) {
                    QVERIFY(model.data(model.index(static_cast<int>(rows - 1), 1)).isValid());
                }
                QVERIFY(!model.data(model.index(static_cast<int>(rows), 1)).isValid());
            }
        }
        QVERIFY2(problem, name);
    }
}

void ShardlakeModelTest::queryMatchesTheReference_data() {
    QTest::addColumn<QString>("index");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<int>("query");
    QTest::newRow("l2 q0") << "idx-l2"
                           << "euclidean" << 0;
    QTest::newRow("cosine q1") << "idx-cosine"
                               << "cosine" << 1;
    QTest::newRow("ip q2") << "idx-ip"
                           << "inner_product" << 2;
    QTest::newRow("pq q3") << "idx-pq"
                           << "euclidean" << 3;
}

void ShardlakeModelTest::queryMatchesTheReference() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    QFETCH(QString, index);
    QFETCH(QString, metric);
    QFETCH(int, query);
    const nlohmann::json expected = expectedQueries();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    std::string error;
    auto loaded = session.loadedIndex(index.toStdString(), &error);
    QVERIFY2(loaded, error.c_str());
    ShardlakeQuerySpec spec;
    QString parseError;
    const auto vector = parseQueryVector(
        QString::fromStdString(expected["queries"][static_cast<std::size_t>(query)].dump()),
        &parseError);
    QVERIFY2(vector, qPrintable(parseError));
    spec.vector = *vector;
    spec.k = 10;
    JobRunner runner;
    ShardlakeQueryOutcome outcome;
    bool delivered = false;
    startShardlakeQueryJob(runner, loaded, session.store(), spec,
                           [&](const ShardlakeQueryOutcome& result) {
                               outcome = result;
                               delivered = true;
                           });
    runner.waitForDone();
    QTRY_VERIFY(delivered);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    const auto& want = expected["index_search"][index.toStdString()]["results"]
                               [metric.toStdString()][static_cast<std::size_t>(query)];
    QCOMPARE(outcome.hits.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(outcome.hits[i].id, want[i]["id"].get<std::uint64_t>());
        const auto bits = static_cast<std::uint32_t>(
            std::stoul(want[i]["score_f32_bits"].get<std::string>(), nullptr, 16));
        QCOMPARE(std::bit_cast<std::uint32_t>(outcome.hits[i].score), bits);
        // Each hit is located in its shard: the record there carries its id.
        const ShardlakeQueryHit& hit = outcome.hits[i];
        QVERIFY(hit.shard >= 0);
        const auto& shard = loaded->shards[static_cast<std::size_t>(hit.shard)];
        std::uint8_t idBytes[8] = {};
        shard.source->read(shard.layout.recordOffset(hit.record), idBytes);
        QCOMPARE(strata::decodeLe<std::uint64_t>(idBytes), hit.id);
    }
    QCOMPARE(outcome.probed, loaded->shards.size());
}

void ShardlakeModelTest::queryById() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    for (const char* version : {"idx-l2", "idx-pq"}) {
        std::string error;
        auto loaded = session.loadedIndex(version, &error);
        QVERIFY(loaded);
        ShardlakeQuerySpec spec;
        spec.id = 1234;
        spec.vectorsKey = session.index(version)->vectorsKey;
        spec.k = 3;
        spec.nprobe = 1;
        const ShardlakeQueryOutcome outcome = runShardlakeQuery(*loaded, *session.store(), spec);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.query.size(), std::size_t{16});
        QCOMPARE(outcome.probed, std::size_t{1});
        QVERIFY(!outcome.hits.empty());
        if (std::string(version) == "idx-l2") {
            QCOMPARE(outcome.hits[0].id, std::uint64_t{1234});
            QCOMPARE(outcome.hits[0].score, 0.0f);
        }
    }
    std::string error;
    auto loaded = session.loadedIndex("idx-l2", &error);
    ShardlakeQuerySpec missing;
    missing.id = 987654321;
    const ShardlakeQueryOutcome outcome = runShardlakeQuery(*loaded, *session.store(), missing);
    QVERIFY(outcome.error.contains(QStringLiteral("987654321")));
    QVERIFY(outcome.hits.empty());
}

void ShardlakeModelTest::queryVectorParsing() {
    QString error;
    QCOMPARE(parseQueryVector(QStringLiteral("[1, -2.5, 3e-1]"), &error).value(),
             (std::vector<float>{1.0f, -2.5f, 0.3f}));
    QVERIFY(!parseQueryVector(QStringLiteral("[]"), &error));
    QVERIFY(!parseQueryVector(QStringLiteral("[1, \"x\"]"), &error));
    QVERIFY(error.contains(QStringLiteral("element 1")));
    QVERIFY(!parseQueryVector(QStringLiteral("{\"a\": 1}"), &error));
    QVERIFY(!parseQueryVector(QStringLiteral("[1e300]"), &error));
    QVERIFY(!parseQueryVector(QStringLiteral("[1, 2"), &error));
}

void ShardlakeModelTest::pcaOfASmallRoot() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    std::string error;
    auto loaded = session.loadedIndex("idx-l2", &error);
    QVERIFY(loaded);
    const ShardlakePcaResult result = computeShardlakePca(*loaded, 500, nullptr);
    QVERIFY(result.error.isEmpty());
    QCOMPARE(result.population, std::uint64_t{2000});
    QVERIFY(result.points.size() <= 500);
    QVERIFY(result.points.size() >= 490);
    std::set<int> shards;
    double meanX = 0, meanY = 0;
    for (const ShardlakePcaPoint& point : result.points) {
        shards.insert(point.shard);
        meanX += point.x;
        meanY += point.y;
    }
    QCOMPARE(shards.size(), std::size_t{3});
    const double n = static_cast<double>(result.points.size());
    meanX /= n;
    meanY /= n;
    QVERIFY(std::abs(meanX) < 1e-3 && std::abs(meanY) < 1e-3);
    double varX = 0, varY = 0;
    for (const ShardlakePcaPoint& point : result.points) {
        varX += (point.x - meanX) * (point.x - meanX);
        varY += (point.y - meanY) * (point.y - meanY);
    }
    varX /= n;
    varY /= n;
    QVERIFY(std::abs(varX - result.variance[0]) < 1e-3 * result.variance[0]);
    QVERIFY(std::abs(varY - result.variance[1]) < 1e-3 * result.variance[1]);
    QVERIFY(result.variance[0] >= result.variance[1]);
    QVERIFY(result.variance[1] > 0);
    // Orthonormal components.
    double dot = 0, norm0 = 0, norm1 = 0;
    for (std::size_t j = 0; j < 16; ++j) {
        dot += result.components[0][j] * result.components[1][j];
        norm0 += result.components[0][j] * result.components[0][j];
        norm1 += result.components[1][j] * result.components[1][j];
    }
    QVERIFY(std::abs(dot) < 1e-6);
    QVERIFY(std::abs(norm0 - 1) < 1e-6 && std::abs(norm1 - 1) < 1e-6);
    // No direction carries more of the sample's variance than the first component.
    std::vector<std::vector<float>> sample;
    for (const ShardlakePcaPoint& point : result.points) {
        const auto& shard = loaded->shards[static_cast<std::size_t>(point.shard)];
        sample.push_back(strata::shardlake::readF32s(
            *shard.source, shard.layout.recordOffset(point.record) + 8, 16));
    }
    std::mt19937 random(7);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<double> direction(16);
        double length = 0;
        for (double& x : direction) {
            x = normal(random);
            length += x * x;
        }
        std::vector<double> along;
        double mean = 0;
        for (const auto& vector : sample) {
            double value = 0;
            for (std::size_t j = 0; j < 16; ++j) {
                value += vector[j] * direction[j] / std::sqrt(length);
            }
            along.push_back(value);
            mean += value;
        }
        mean /= n;
        double variance = 0;
        for (const double value : along) {
            variance += (value - mean) * (value - mean);
        }
        QVERIFY(variance / n <= result.variance[0] * (1 + 1e-6));
    }
}

void ShardlakeModelTest::pcaJobDeliversAndCancels() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    std::string error;
    auto loaded = session.loadedIndex("idx-pq", &error);
    QVERIFY(loaded);
    JobRunner runner;
    std::size_t points = 0;
    Job* job = startShardlakePcaJob(runner, loaded, 300, [&](const ShardlakePcaResult& result) {
        points = result.points.size();
    });
    runner.waitForDone();
    QTRY_VERIFY(points > 0);
    QVERIFY(points <= 300);
    QCOMPARE(job->state(), Job::State::Finished);
    // A cancelled run stops and delivers nothing.
    strata::CancelToken cancelled;
    cancelled.cancel();
    const ShardlakePcaResult result = computeShardlakePca(*loaded, 300, &cancelled);
    QVERIFY(result.cancelled);
    QVERIFY(result.points.empty());
}

void ShardlakeModelTest::aliasEditUndoRedoSave() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    QTemporaryDir dir;
    const fs::path root = copyRoot(dir, kCorpus / "root");
    // The reference's alias file, byte for byte.
    QCOMPARE(ShardlakeAliasEditor::aliasJson("l2", "idx-l2"),
             readText(kCorpus / "root" / "aliases" / "l2.json"));
    auto document = openDocument(root);
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    QMap<QString, QString> aliases;
    for (const auto& alias : session.aliases()) {
        aliases.insert(QString::fromStdString(alias.name), QString::fromStdString(alias.target));
    }
    auto* editor = new ShardlakeAliasEditor(*document, root, aliases,
                                            {"idx-cosine", "idx-ip", "idx-l2", "idx-pq"});
    document->setEditor(editor);
    ShardlakeRootModel model(session, editor);
    QVERIFY(editor->setAliasTarget(QStringLiteral("latest"), QStringLiteral("idx-l2")));
    QCOMPARE(editor->target(QStringLiteral("latest")), QStringLiteral("idx-l2"));
    QVERIFY(document->isModified());
    QVERIFY(model.indexOf(QStringLiteral("alias"), QStringLiteral("latest"))
                .siblingAtColumn(ShardlakeRootModel::StatusColumn)
                .data()
                .toString()
                .contains(QStringLiteral("unsaved")));
    document->undoStack()->undo();
    QCOMPARE(editor->target(QStringLiteral("latest")), QStringLiteral("idx-cosine"));
    QVERIFY(!document->isModified());
    document->undoStack()->redo();
    QCOMPARE(editor->target(QStringLiteral("latest")), QStringLiteral("idx-l2"));
    // A new alias; undo removes it again.
    QVERIFY(editor->setAliasTarget(QStringLiteral("staging"), QStringLiteral("idx-ip")));
    QVERIFY(editor->aliasesOf(QStringLiteral("idx-ip")).contains(QStringLiteral("staging")));
    document->undoStack()->undo();
    QVERIFY(!editor->aliasNames().contains(QStringLiteral("staging")));
    // Nothing is written before Save.
    QCOMPARE(readText(root / "aliases" / "latest.json"),
             ShardlakeAliasEditor::aliasJson("latest", "idx-cosine"));

    JobRunner runner;
    QString error;
    Job* job = editor->startSave(runner, QString::fromStdString(root.string()), &error);
    QVERIFY2(job, qPrintable(error));
    runner.waitForDone();
    QTRY_VERIFY(!document->isModified());
    QCOMPARE(job->state(), Job::State::Finished);
    QCOMPARE(readText(root / "aliases" / "latest.json"),
             ShardlakeAliasEditor::aliasJson("latest", "idx-l2"));
    QVERIFY(!fs::exists(root / "aliases" / "staging.json"));
    QCOMPARE(editor->savedTarget(QStringLiteral("latest")), QStringLiteral("idx-l2"));
    // The saved root reads back with the new target.
    auto reopened = openDocument(root);
    ShardlakeSession again(reopened->opened());
    bool found = false;
    for (const auto& alias : again.aliases()) {
        if (alias.name == "latest") {
            QCOMPARE(alias.target, std::string("idx-l2"));
            found = true;
        }
    }
    QVERIFY(found);
    // Undo after the save makes the document dirty again.
    document->undoStack()->undo();
    QVERIFY(document->isModified());
}

void ShardlakeModelTest::aliasEditRejectsBadInput() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    auto document = openDocument(kCorpus / "root");
    QVERIFY(document);
    auto* editor = new ShardlakeAliasEditor(*document, kCorpus / "root",
                                            {{QStringLiteral("l2"), QStringLiteral("idx-l2")}},
                                            {QStringLiteral("idx-l2"), QStringLiteral("idx-ip")});
    document->setEditor(editor);
    QString error;
    QVERIFY(!editor->setAliasTarget(QStringLiteral("l2"), QStringLiteral("idx-nope"), &error));
    QVERIFY(error.contains(QStringLiteral("idx-nope")));
    QVERIFY(!editor->setAliasTarget(QStringLiteral("l2"), QStringLiteral("idx-l2"), &error));
    QVERIFY(!editor->setAliasTarget(QStringLiteral("../x"), QStringLiteral("idx-ip"), &error));
    QVERIFY(!editor->setAliasTarget(QStringLiteral(".."), QStringLiteral("idx-ip"), &error));
    QCOMPARE(document->undoStack()->count(), 0);
    // Save As only into another storage root.
    QTemporaryDir dir;
    JobRunner runner;
    QVERIFY(editor->startSave(runner, dir.path(), &error) == nullptr);
    QVERIFY(error.contains(QStringLiteral("indexes")));
}

void ShardlakeModelTest::buildJobMakesASearchableIndex() {
    STRATA_QSKIP_WITHOUT_CORPUS();
    QTemporaryDir dir;
    const fs::path root = copyRoot(dir, kCorpus / "root");
    ShardlakeBuildSpec spec;
    spec.build.root = root;
    spec.build.datasetVersion = "ds-v1";
    spec.build.indexVersion = "idx-new";
    spec.build.metric = strata::shardlake::Metric::Euclidean;
    spec.build.numShards = 2;
    spec.build.kmeansIters = 5;
    JobRunner runner;
    bool ok = false;
    bool delivered = false;
    Job* job =
        startShardlakeBuildJob(runner, spec, [&](const strata::shardlake::BuildOutcome& outcome) {
            ok = outcome.ok;
            delivered = true;
        });
    runner.waitForDone();
    QTRY_VERIFY(delivered);
    QVERIFY2(ok, qPrintable(job->errorText()));
    QCOMPARE(job->state(), Job::State::Finished);
    auto document = openDocument(root);
    QVERIFY(document);
    ShardlakeSession session(document->opened());
    const ShardlakeIndexInfo* built = session.index("idx-new");
    QVERIFY(built != nullptr);
    QVERIFY(built->error.empty());
    QVERIFY(!built->shards.empty());
    std::string error;
    QVERIFY2(session.loadedIndex("idx-new", &error), error.c_str());
    // A build into an existing version fails without replace.
    delivered = false;
    Job* again =
        startShardlakeBuildJob(runner, spec, [&](const strata::shardlake::BuildOutcome& outcome) {
            ok = outcome.ok;
            delivered = true;
        });
    runner.waitForDone();
    QTRY_VERIFY(!again->isRunning());
    QCOMPARE(again->state(), Job::State::Failed);
}

QTEST_MAIN(ShardlakeModelTest)
#include "shardlake_model_test.moc"
