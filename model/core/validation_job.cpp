#include "validation_job.h"

#include <QElapsedTimer>
#include <QPointer>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "diagnostics_model.h"

namespace strata::model {

namespace {

// Collects diagnostics from validator threads and hands them to the model in batches, so a
// run with a million findings does not post a million events.
class BatchingSink final : public strata::DiagnosticSink {
public:
    using Deliver = std::function<void(std::vector<strata::Diagnostic>)>;
    explicit BatchingSink(Deliver deliver) : deliver_(std::move(deliver)) { sinceFlush_.start(); }
    ~BatchingSink() override { flush(); }

    void flush() {
        std::vector<strata::Diagnostic> batch;
        {
            std::lock_guard lock(mutex_);
            batch.swap(pending_);
            sinceFlush_.restart();
        }
        if (!batch.empty()) {
            deliver_(std::move(batch));
        }
    }

protected:
    void accept(strata::Diagnostic diagnostic) override {
        bool due = false;
        {
            std::lock_guard lock(mutex_);
            pending_.push_back(std::move(diagnostic));
            due = pending_.size() >= kBatchSize || sinceFlush_.elapsed() >= kFlushMs;
        }
        if (due) {
            flush();
        }
    }

private:
    static constexpr std::size_t kBatchSize = 256;
    static constexpr qint64 kFlushMs = 100;

    Deliver deliver_;
    std::mutex mutex_;
    std::vector<strata::Diagnostic> pending_;
    QElapsedTimer sinceFlush_;
};

}  // namespace

Job* startValidation(JobRunner& runner, Document& document) {
    std::shared_ptr<strata::Validator> validator = document.makeValidator();
    if (!validator) {
        return nullptr;
    }
    DiagnosticsModel* model = document.diagnostics();
    model->clear();
    auto keepAlive = document.opened();
    const QString title = QObject::tr("Validate %1").arg(document.displayName());
    // The model belongs to the document, which may close while the job runs: the guard is only
    // read on the GUI thread, inside the posted calls.
    QPointer<DiagnosticsModel> guard(model);
    Job* job = runner.start(title, [validator, keepAlive, guard](JobContext& context) {
        BatchingSink sink([&context, guard](std::vector<strata::Diagnostic> batch) {
            auto shared = std::make_shared<std::vector<strata::Diagnostic>>(std::move(batch));
            context.post([guard, shared] {
                if (guard) {
                    guard->appendDiagnostics(std::move(*shared));
                }
            });
        });
        strata::ValidationOptions options;
        options.cancel = &context.cancelToken();
        options.progress = context.progressCallback();
        context.setProgress(0.0, QObject::tr("validating"));
        // Validation runs beside what the user is looking at, and yields to it.
        runAtBackgroundPriority([&] { validator->run(sink, options); });
        sink.flush();
        if (!context.cancelled()) {
            context.setProgress(1.0, QObject::tr("done"));
        }
    });
    QObject::connect(&document, &QObject::destroyed, job, &Job::cancel);
    return job;
}

}  // namespace strata::model
