#include "repair_job.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "formats/builtin/builtin_formats.h"

namespace strata::model {

Job* startRepair(JobRunner& runner, const strata::FormatRegistry& formats, strata::FormatId format,
                 const QString& input, const QString& output, bool dryRun, RepairDone done,
                 RepairChoices choices) {
    const QString title = dryRun ? QObject::tr("Plan the repair of %1").arg(input)
                                 : QObject::tr("Repair %1 into %2").arg(input, output);
    return runner.start(title, [registry = &formats, format, input, output, dryRun, done,
                                choices](JobContext& context) {
        strata::RepairOptions options;
        options.dryRun = dryRun;
        options.recomputeDigests = choices.recomputeDigests;
        options.keepSuperseded = choices.keepSuperseded;
        options.cancel = &context.cancelToken();
        options.progress = context.progressCallback();
        std::shared_ptr<const strata::RepairReport> report;
        QString error;
        try {
            report = std::make_shared<const strata::RepairReport>(
                registry->repair(format, input.toStdString(), output.toStdString(), options));
        } catch (const strata::JobCancelled&) {
            return;  // the job ends cancelled: nothing was written, nothing to report
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        context.post([done, report, error] { done(report, error); });
        if (!error.isEmpty()) {
            context.fail(error);
        }
    });
}

std::vector<RepairReplan> repairReplans(const strata::RepairReport& plan,
                                        const RepairChoices& choices) {
    std::vector<RepairReplan> out;
    if (!choices.recomputeDigests && plan.recomputingDigestsKeepsMore) {
        out.push_back(RepairReplan::RecomputeDigests);
    }
    if (!choices.keepSuperseded && plan.supersededLeftOut > 0) {
        out.push_back(RepairReplan::KeepSuperseded);
    }
    return out;
}

QString suggestedRepairPath(const QString& input, const strata::FormatRegistry* formats) {
    const QFileInfo info(QDir::cleanPath(input));
    // A folder (a ZDS dataset, a Shardlake root) keeps its whole name: "NAME-repaired/".
    const bool folder = info.isDir();
    const QString suffix = folder || info.completeSuffix().isEmpty()
                               ? QString()
                               : QStringLiteral(".") + info.completeSuffix();
    const QString stem = folder ? info.fileName() : info.baseName();
    for (int n = 1;; ++n) {
        const QString name = stem + QStringLiteral("-repaired") +
                             (n == 1 ? QString() : QStringLiteral("-%1").arg(n)) + suffix;
        const QString path = info.dir().filePath(name);
        // Nor a quarantine beside it (each format says where its repair puts one), which a
        // repair never replaces either.
        const std::filesystem::path target(QFile::encodeName(path).toStdString());
        const auto handlers = (formats != nullptr ? *formats : builtinFormats()).handlers();
        const bool taken =
            QFileInfo::exists(path) ||
            std::any_of(handlers.begin(), handlers.end(), [&](const FormatHandler* handler) {
                const auto quarantine = handler->repairQuarantinePath(target);
                std::error_code error;
                return quarantine && std::filesystem::exists(*quarantine, error);
            });
        if (!taken) {
            return path;
        }
    }
}

QString repairReportText(const strata::RepairReport& report, std::size_t maxSteps) {
    QString text = QObject::tr("%1 can be saved; %2.")
                       .arg(QString::fromStdString(report.recoveredText()),
                            QString::fromStdString(report.lossesText()));
    // Losses first: in a shortened preview they are what must not be missed.
    std::size_t shown = 0;
    for (const auto& l : report.losses) {
        if (shown++ < maxSteps) {
            text += QStringLiteral("\n✗ ") + QString::fromStdString(l.description);
        }
    }
    for (const auto& a : report.actions) {
        if (shown++ < maxSteps) {
            text += QStringLiteral("\n• ") + QString::fromStdString(a.description);
        }
    }
    if (shown > maxSteps) {
        text += QObject::tr("\n… and %1 more (Show Details…)").arg(shown - maxSteps);
    }
    return text;
}

}  // namespace strata::model
