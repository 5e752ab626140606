#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <thread>

#include "model/core/diagnostics_model.h"

using strata::model::DiagnosticsFilterModel;
using strata::model::DiagnosticsModel;

namespace {

strata::Diagnostic make(strata::Severity severity, std::string code, const strata::ByteSource* s,
                        std::uint64_t offset, std::uint64_t length) {
    strata::Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = "message for " + d.code;
    if (s != nullptr) {
        d.regions.push_back({s, offset, length});
    }
    d.nodePath = "file/header";
    d.file = "missing.part";
    return d;
}

}  // namespace

class DiagnosticsModelTest : public QObject {
    Q_OBJECT
private slots:
    void appendCountsAndRoles() {
        auto source = strata::makeBufferSource(std::string_view("0123456789"), "data.zs");
        DiagnosticsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy summary(&model, &DiagnosticsModel::summaryChanged);
        QCOMPARE(model.worstSeverity(), strata::Severity::Info);

        std::vector<strata::Diagnostic> batch;
        batch.push_back(make(strata::Severity::Warning, "ZS-ONE", source.get(), 16, 4));
        batch.push_back(make(strata::Severity::Info, "ZS-TWO", source.get(), 2, 1));
        model.appendDiagnostics(std::move(batch));
        model.appendDiagnostic(make(strata::Severity::Error, "ZT-ALIGN", nullptr, 0, 0));

        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(DiagnosticsModel::ColumnCount));
        QCOMPARE(model.countOf(strata::Severity::Warning), 1);
        QCOMPARE(model.countOf(strata::Severity::Error), 1);
        QCOMPARE(model.worstSeverity(), strata::Severity::Error);
        QCOMPARE(summary.count(), 2);

        const QModelIndex first = model.index(0, DiagnosticsModel::OffsetColumn);
        QCOMPARE(first.data().toString(), QString("0x10"));
        QCOMPARE(first.data(DiagnosticsModel::OffsetRole).toULongLong(), 16ull);
        QCOMPARE(first.data(DiagnosticsModel::SourceRole).value<quintptr>(),
                 quintptr(source.get()));
        QCOMPARE(model.index(0, DiagnosticsModel::FileColumn).data().toString(),
                 QString("data.zs"));
        QCOMPARE(model.index(2, DiagnosticsModel::FileColumn).data().toString(),
                 QString("missing.part"));
        QCOMPARE(model.index(2, DiagnosticsModel::OffsetColumn).data().toString(), QString());
        QCOMPARE(model.index(1, DiagnosticsModel::SeverityColumn).data().toString(),
                 QString("info"));
        QCOMPARE(model.index(0, DiagnosticsModel::NodeColumn).data().toString(),
                 QString("file/header"));
        QCOMPARE(model.diagnostic(2).code, std::string("ZT-ALIGN"));

        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.worstSeverity(), strata::Severity::Info);
        QCOMPARE(model.countOf(strata::Severity::Warning), 0);
    }

    void postFromAWorkerThread() {
        DiagnosticsModel model;
        std::thread worker([&model] {
            for (int b = 0; b < 10; ++b) {
                std::vector<strata::Diagnostic> batch;
                for (int i = 0; i < 100; ++i) {
                    batch.push_back(
                        make(strata::Severity::Warning, "X-" + std::to_string(b), nullptr, 0, 0));
                }
                model.post(std::move(batch));
            }
        });
        worker.join();
        QTRY_COMPARE(model.rowCount(), 1000);
        QCOMPARE(model.diagnostic(0).code, std::string("X-0"));
        QCOMPARE(model.diagnostic(999).code, std::string("X-9"));
    }

    void filterBySeverityAndCode() {
        DiagnosticsModel model;
        std::vector<strata::Diagnostic> batch;
        batch.push_back(make(strata::Severity::Info, "ZS-INFO", nullptr, 0, 0));
        batch.push_back(make(strata::Severity::Warning, "ZS-BLOCK-CRC", nullptr, 0, 0));
        batch.push_back(make(strata::Severity::Error, "ZS-BLOCK-SIZE", nullptr, 0, 0));
        batch.push_back(make(strata::Severity::Error, "ZT-ALIGN", nullptr, 0, 0));
        model.appendDiagnostics(std::move(batch));

        DiagnosticsFilterModel filter;
        QAbstractItemModelTester tester(&filter,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setSourceModel(&model);
        QCOMPARE(filter.rowCount(), 4);
        filter.setMinimumSeverity(strata::Severity::Warning);
        QCOMPARE(filter.rowCount(), 3);
        filter.setCodeFilter("block");
        QCOMPARE(filter.rowCount(), 2);
        filter.setMinimumSeverity(strata::Severity::Error);
        QCOMPARE(filter.rowCount(), 1);
        QCOMPARE(filter.index(0, DiagnosticsModel::CodeColumn).data().toString(),
                 QString("ZS-BLOCK-SIZE"));
        filter.setCodeFilter({});
        filter.setCodeSet({"ZT-ALIGN", "ZS-INFO"});
        QCOMPARE(filter.rowCount(), 1);
        filter.setMinimumSeverity(strata::Severity::Info);
        QCOMPARE(filter.rowCount(), 2);
        filter.setCodeSet({});
        QCOMPARE(filter.rowCount(), 4);

        // Sorting by severity uses the typed value.
        filter.sort(DiagnosticsModel::SeverityColumn, Qt::DescendingOrder);
        QCOMPARE(filter.index(0, 0).data(DiagnosticsModel::SeverityRole).toInt(),
                 int(strata::Severity::Error));
        QCOMPARE(filter.index(3, 0).data(DiagnosticsModel::SeverityRole).toInt(),
                 int(strata::Severity::Info));
    }

    void exportsJsonAndText() {
        auto source = strata::makeBufferSource(std::string_view("0123456789"), "data.zs");
        DiagnosticsModel model;
        model.appendDiagnostic(
            make(strata::Severity::Error, "ZS-BLOCK-CRC", source.get(), 4096, 32));
        model.appendDiagnostic(make(strata::Severity::Warning, "OZDF-PART-GAP", nullptr, 0, 0));

        QJsonParseError error;
        const QJsonDocument json = QJsonDocument::fromJson(model.exportJson(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(json.isArray());
        const QJsonArray array = json.array();
        QCOMPARE(array.size(), 2);
        const QJsonObject first = array.at(0).toObject();
        QCOMPARE(first.value("severity").toString(), QString("error"));
        QCOMPARE(first.value("code").toString(), QString("ZS-BLOCK-CRC"));
        QCOMPARE(first.value("message").toString(), QString("message for ZS-BLOCK-CRC"));
        QCOMPARE(first.value("offset").toInteger(), 4096);
        QCOMPARE(first.value("length").toInteger(), 32);
        QCOMPARE(first.value("path").toString(), QString("data.zs"));
        QCOMPARE(first.value("node").toString(), QString("file/header"));
        const QJsonObject second = array.at(1).toObject();
        QVERIFY(second.value("offset").isNull());
        QCOMPARE(second.value("path").toString(), QString("missing.part"));
        QCOMPARE(QStringList(first.keys()),
                 QStringList({"code", "length", "message", "node", "offset", "path", "severity"}));

        const QStringList lines = model.exportText().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith("error ZS-BLOCK-CRC data.zs@0x1000+32"));
        QVERIFY(lines[0].endsWith("message for ZS-BLOCK-CRC"));
        QVERIFY(lines[1].startsWith("warning OZDF-PART-GAP missing.part"));
    }
};

QTEST_GUILESS_MAIN(DiagnosticsModelTest)
#include "diagnostics_model_test.moc"
