#include "scan_job.h"

#include <QElapsedTimer>

#include "formats/builtin/builtin_formats.h"
#include "formats/remote/remote_session.h"
#include "formats/scan/scanner.h"

namespace strata::model {

namespace {

using strata::scan::ScanEntry;
using strata::scan::ScanResult;

QString progressText(const strata::scan::ScanCounters& c) {
    return QObject::tr("%1 of %2 checked, %3 with problems")
        .arg(c.checked)
        .arg(c.listed)
        .arg(c.problems);
}

// Collects what the scanner reports and hands it to the GUI thread in batches (every 100 ms
// or 2,000 entries), so the table grows in a few hundred inserts.
class BatchingScanSink final : public strata::scan::ScanSink {
public:
    BatchingScanSink(JobContext& context, QPointer<ScanListModel> model)
        : context_(context), model_(std::move(model)) {
        sinceFlush_.start();
    }
    void listed(const ScanEntry& entry) override {
        ++counts_.listed;
        listed_.push_back(entry);
        flushIfDue();
    }
    void checked(const ScanResult& result) override {
        ++counts_.checked;
        counts_.problems += strata::scan::isProblem(result.verdict) ? 1 : 0;
        checked_.push_back(result);
        flushIfDue();
    }
    void flush() {
        if (listed_.empty() && checked_.empty()) {
            return;
        }
        auto listed = std::make_shared<std::vector<ScanEntry>>(std::move(listed_));
        auto checked = std::make_shared<std::vector<ScanResult>>(std::move(checked_));
        listed_.clear();
        checked_.clear();
        context_.post([model = model_, listed, checked] {
            if (model) {
                model->addListed(std::move(*listed));
                model->addChecked(std::move(*checked));
            }
        });
        sinceFlush_.restart();
        const double fraction =
            counts_.listed > 0 ? double(counts_.checked) / double(counts_.listed) : 0.0;
        context_.setProgress(fraction, progressText(counts_));
    }

private:
    void flushIfDue() {
        if (listed_.size() + checked_.size() >= 2000 || sinceFlush_.elapsed() >= 100) {
            flush();
        }
    }

    JobContext& context_;
    QPointer<ScanListModel> model_;
    std::vector<ScanEntry> listed_;
    std::vector<ScanResult> checked_;
    QElapsedTimer sinceFlush_;
    strata::scan::ScanCounters counts_;
};

struct ScanRoot {
    strata::FileTreePtr tree;
    strata::Location location;
};

ScanRoot scanRoot(const QString& root, const RemoteOpenSettings& settings) {
    if (isRemoteUrl(root)) {
        std::shared_ptr<strata::RemoteSession> session = makeDocumentSession(settings);
        const strata::Location location = session->locate(root.trimmed().toStdString());
        return {strata::fileTreeFor(location, session), location};
    }
    const std::filesystem::path path(root.toStdString());
    return {strata::localFileTree(), strata::Location::local(path)};
}

// A scanner over `formats` (null: the built-in ones) checking `jobs` entries at once, stopped
// by the job's cancel and held by its pause.
strata::scan::Scanner makeScanner(const strata::FormatRegistry* formats, unsigned jobs,
                                  JobContext& context) {
    strata::scan::ScanOptions options;
    options.jobs = std::max(1u, jobs);
    options.cancel = &context.cancelToken();
    options.pause = context.pauseGate();
    return strata::scan::Scanner(formats != nullptr ? *formats : strata::builtinFormats(), options);
}

// The results of a scan of one entry, kept for the GUI thread.
class CollectingScanSink final : public strata::scan::ScanSink {
public:
    void checked(const ScanResult& result) override { results.push_back(result); }
    std::vector<ScanResult> results;
};

}  // namespace

Job* startRecheck(JobRunner& runner, ScanListModel* model, int row, const ScanJobOptions& options,
                  const strata::FormatRegistry* formats) {
    const ScanEntry entry = model->entry(row);
    const QString location = QString::fromStdString(entry.location.text());
    QPointer<ScanListModel> target(model);
    return runner.start(QObject::tr("Validate %1 again").arg(location), [=](JobContext& context) {
        strata::scan::Scanner scanner = makeScanner(formats, 1, context);
        CollectingScanSink sink;
        try {
            const ScanRoot scanned = scanRoot(location, options.remote);
            scanner.run(scanned.tree, scanned.location, sink);
        } catch (const std::exception& e) {
            context.fail(QStringLiteral("%1: %2").arg(location, QString::fromStdString(e.what())));
            return;
        }
        if (sink.results.empty() || context.cancelled()) {
            return;
        }
        // The entry keeps its place: the scan of it alone knows it under another index.
        auto result = std::make_shared<ScanResult>(std::move(sink.results.front()));
        result->entry = entry;
        context.post([target, result] {
            if (target) {
                target->addChecked({std::move(*result)});
            }
        });
    });
}

Job* startScan(JobRunner& runner, const QString& root, ScanListModel* model,
               const ScanJobOptions& options, const strata::FormatRegistry* formats) {
    model->clear();
    const QString shown = isRemoteUrl(root) ? shownUrl(root) : root;
    QPointer<ScanListModel> target(model);
    auto* job = new Job(QObject::tr("Scan %1").arg(shown));
    job->makePausable();
    return runner.start(job, [=](JobContext& context) {
        strata::scan::Scanner scanner = makeScanner(formats, options.jobs, context);
        BatchingScanSink sink(context, target);
        ScanRoot scanned;
        try {
            scanned = scanRoot(root, options.remote);
        } catch (const std::exception& e) {
            context.fail(QStringLiteral("%1: %2").arg(shown, QString::fromStdString(e.what())));
            return;
        }
        const strata::scan::ScanOutcome outcome = scanner.run(scanned.tree, scanned.location, sink);
        sink.flush();
        const strata::scan::ScanCounters counters = scanner.counters();
        context.setProgress(1.0, progressText(counters));
        if (outcome.listingFailed) {
            context.fail(
                QStringLiteral("%1: %2").arg(shown, QString::fromStdString(outcome.listingError)));
        }
    });
}

}  // namespace strata::model
