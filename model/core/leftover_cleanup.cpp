#include "leftover_cleanup.h"

#include <QCoreApplication>
#include <QLocale>

#include <set>

#include "diagnostics_model.h"
#include "model/core/counted_text.h"

namespace strata::model {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("LeftoverCleanup", text);
}

QString pathText(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

QString line(const strata::Leftover& leftover) {
    return QStringLiteral("  %1 (%2)")
        .arg(pathText(leftover.path), QLocale().formattedDataSize(qint64(leftover.bytes)));
}

}  // namespace

bool hasLeftoverDiagnostics(const DiagnosticsModel& diagnostics) {
    for (int row = 0; row < diagnostics.size(); ++row) {
        if (strata::isLeftoverCode(diagnostics.diagnostic(row).code)) {
            return true;
        }
    }
    return false;
}

LeftoverPlan planLeftoverRemoval(const DiagnosticsModel& diagnostics) {
    std::set<std::filesystem::path> paths;
    for (int row = 0; row < diagnostics.size(); ++row) {
        const strata::Diagnostic& d = diagnostics.diagnostic(row);
        if (strata::isLeftoverCode(d.code) && !d.file.empty()) {
            paths.insert(d.file);
        }
    }
    std::vector<strata::Leftover> found;
    for (const std::filesystem::path& path : paths) {
        if (auto leftover = strata::classifyLeftover(path)) {
            found.push_back(std::move(*leftover));
        }
    }
    strata::checkLeftoverUse(found);
    LeftoverPlan plan;
    for (strata::Leftover& leftover : found) {
        (leftover.removable() ? plan.removable : plan.kept).push_back(std::move(leftover));
    }
    return plan;
}

QString leftoverRemovalQuestion(const LeftoverPlan& plan) {
    QStringList lines;
    if (!plan.removable.empty()) {
        lines << tr(
            "Remove these leftovers of interrupted saves? No running process is using "
            "them; the files they were saving are not touched.");
        for (const strata::Leftover& leftover : plan.removable) {
            lines << line(leftover);
        }
    }
    if (!plan.kept.empty()) {
        lines << QString() << tr("Kept:");
        for (const strata::Leftover& leftover : plan.kept) {
            lines << line(leftover) + QStringLiteral(": ") +
                         QString::fromStdString(leftover.keepReason());
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString removePlannedLeftovers(const LeftoverPlan& plan) {
    std::vector<std::filesystem::path> paths;
    for (const strata::Leftover& leftover : plan.removable) {
        paths.push_back(leftover.path);
    }
    const strata::LeftoverRemoval removal = strata::removeLeftovers(paths);
    QString text =
        tr("Removed %1 of interrupted saves").arg(counted(removal.removed.size(), tr("leftover")));
    for (const auto& [path, reason] : removal.kept) {
        text += QStringLiteral("; kept %1: %2").arg(pathText(path), QString::fromStdString(reason));
    }
    return text;
}

}  // namespace strata::model
