#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "model/core/diagnostics_model.h"
#include "model/core/leftover_cleanup.h"

using strata::model::DiagnosticsModel;

namespace {

strata::Diagnostic fileDiagnostic(std::string code, const QString& file) {
    strata::Diagnostic d;
    d.severity = strata::Severity::Warning;
    d.code = std::move(code);
    d.message = "message";
    d.file = file.toStdString();
    return d;
}

void write(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

}  // namespace

class LeftoverCleanupTest : public QObject {
    Q_OBJECT
private slots:
    void removesOnlyUnusedLeftoversTheDiagnosticsName() {
        QTemporaryDir dir;
        const QString stale = dir.filePath(".data.zt.strata-abc123def456");
        const QString busy = dir.filePath(".data.zt.strata-zzz123def456");
        const QString user = dir.filePath("notes.txt");
        const QString unlisted = dir.filePath(".other.zt.strata-abc123def456");
        write(stale, "stale bytes");
        write(busy, "busy");
        write(user, "the user's own file");
        write(unlisted, "not named by any diagnostic");
        QFile held(busy);  // open: as a save in progress in this process
        QVERIFY(held.open(QIODevice::ReadOnly));

        DiagnosticsModel model;
        QVERIFY(!strata::model::hasLeftoverDiagnostics(model));
        model.appendDiagnostic(fileDiagnostic("ZT-LEFTOVER-TEMP", stale));
        model.appendDiagnostic(fileDiagnostic("ZT-LEFTOVER-TEMP", busy));
        // A leftover code naming a file that is no leftover: never offered.
        model.appendDiagnostic(fileDiagnostic("ZT-LEFTOVER-TEMP", user));
        model.appendDiagnostic(fileDiagnostic("ZT-DIGEST", unlisted));
        QVERIFY(strata::model::hasLeftoverDiagnostics(model));

        const strata::model::LeftoverPlan plan = strata::model::planLeftoverRemoval(model);
        QCOMPARE(plan.removable.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(plan.removable[0].path.string()), stale);
        QCOMPARE(plan.kept.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(plan.kept[0].path.string()), busy);

        const QString question = strata::model::leftoverRemovalQuestion(plan);
        QVERIFY(question.contains(stale));
        QVERIFY(question.contains(busy));
        QVERIFY(question.contains(QStringLiteral("open in process")));
        QVERIFY(!question.contains(user));

        const QString result = strata::model::removePlannedLeftovers(plan);
        QVERIFY2(result.startsWith(QStringLiteral("Removed 1 ")), qPrintable(result));
        QVERIFY(!QFile::exists(stale));
        QVERIFY(QFile::exists(busy));
        QVERIFY(QFile::exists(user));
        QVERIFY(QFile::exists(unlisted));
    }
};

QTEST_GUILESS_MAIN(LeftoverCleanupTest)
#include "leftover_cleanup_test.moc"
