#include "comparison.h"

#include <QElapsedTimer>

#include <mutex>

#include "formats/builtin/builtin_formats.h"

namespace strata::model {

namespace {

// A side as errors and titles name it: a URL without its password or token.
QString shownSide(const QString& path) {
    return isRemoteUrl(path) ? shownUrl(path) : path;
}

// Hands differences to the GUI thread in batches, so a million of them are not a million events.
class BatchingDiffSink final : public strata::DiffSink {
public:
    using Deliver = std::function<void(std::vector<strata::Difference>)>;
    BatchingDiffSink(Deliver deliver, quint64 limit) : deliver_(std::move(deliver)), limit_(limit) {
        sinceFlush_.start();
    }
    bool add(strata::Difference d) override {
        if (taken_ >= limit_) {
            limited_ = true;
            return false;
        }
        ++taken_;
        pending_.push_back(std::move(d));
        if (pending_.size() >= 512 || sinceFlush_.elapsed() >= 100) {
            flush();
        }
        return true;
    }
    void flush() {
        if (!pending_.empty()) {
            deliver_(std::move(pending_));
            pending_.clear();
        }
        sinceFlush_.restart();
    }
    bool limited() const { return limited_; }

private:
    Deliver deliver_;
    quint64 limit_;
    quint64 taken_ = 0;
    bool limited_ = false;
    std::vector<strata::Difference> pending_;
    QElapsedTimer sinceFlush_;
};

}  // namespace

Comparison::Comparison(std::unique_ptr<Document> a, std::unique_ptr<Document> b, QObject* parent)
    : QObject(parent), a_(std::move(a)), b_(std::move(b)), model_(new DiffModel(this)) {}

Comparison::~Comparison() {
    cancel();
}

Document::Prepared ComparisonSide::prepare(const RemoteOpenSettings& settings, QString* error,
                                           const strata::FormatRegistry* formats) const {
    return isOpen() ? open_ : Document::prepare(name_, settings, error, formats);
}

Job* startOpenComparison(JobRunner& runner, const ComparisonSide& a, const ComparisonSide& b,
                         const RemoteOpenSettings& settings, ComparisonReady ready,
                         const strata::FormatRegistry* formats) {
    const QString title =
        Comparison::tr("Open %1 and %2 to compare").arg(shownSide(a.name()), shownSide(b.name()));
    return runner.start(title, [=](JobContext& context) {
        auto sides = std::make_shared<std::pair<Document::Prepared, Document::Prepared>>();
        QString why;
        context.setProgress(0.0, Comparison::tr("opening A"));
        sides->first = a.prepare(settings, &why, formats);
        QString error = sides->first.opened
                            ? QString()
                            : Comparison::tr("A (%1): %2").arg(shownSide(a.name()), why);
        if (error.isEmpty() && !context.cancelled()) {
            context.setProgress(0.5, Comparison::tr("opening B"));
            sides->second = b.prepare(settings, &why, formats);
            if (!sides->second.opened) {
                error = Comparison::tr("B (%1): %2").arg(shownSide(b.name()), why);
            }
        }
        if (context.cancelled()) {
            return;
        }
        // The documents and their QObjects belong to the runner's thread.
        context.post([sides, error, ready, formats] {
            if (!error.isEmpty()) {
                ready(nullptr, error);
                return;
            }
            auto comparison =
                std::make_unique<Comparison>(Document::fromPrepared(std::move(sides->first)),
                                             Document::fromPrepared(std::move(sides->second)));
            comparison->formats_ = formats;
            ready(std::move(comparison), {});
        });
        if (!error.isEmpty()) {
            context.fail(error);
        }
    });
}

Job* Comparison::start(JobRunner& runner, strata::DiffOptions options, quint64 limit) {
    cancel();
    model_->clear();
    error_.clear();
    summary_ = {};
    state_ = State::Running;
    emit stateChanged(state_);
    const strata::FormatRegistry& formats =
        formats_ != nullptr ? *formats_ : strata::builtinFormats();
    auto sa = a_->opened();
    auto sb = b_->opened();
    QPointer<Comparison> self(this);
    const QString title = tr("Compare %1 with %2").arg(a_->displayName(), b_->displayName());
    job_ = runner.start(title, [registry = &formats, sa, sb, self, options,
                                limit](JobContext& context) mutable {
        BatchingDiffSink sink(
            [&context, self](std::vector<strata::Difference> batch) {
                auto shared = std::make_shared<std::vector<strata::Difference>>(std::move(batch));
                context.post([self, shared] {
                    if (self) {
                        self->model_->append(std::move(*shared));
                    }
                });
            },
            limit);
        options.cancel = &context.cancelToken();
        options.progress = context.progressCallback();
        State state = State::Failed;
        QString error;
        strata::DiffSummary summary;
        try {
            auto differ = registry->makeDiffer(*sa, *sb);
            const strata::JobOutcome outcome = differ->run(sink, options);
            summary = differ->summary();
            summary.limited = sink.limited();
            state = outcome == strata::JobOutcome::Completed ? State::Completed
                    : outcome == strata::JobOutcome::Stopped ? State::Stopped
                                                             : State::Cancelled;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        sink.flush();
        context.post([self, state, error, summary] {
            if (self) {
                self->finish(state, error, summary);
            }
        });
        if (!error.isEmpty()) {
            context.fail(error);
        }
    });
    return job_;
}

void Comparison::cancel() {
    if (job_ && job_->isRunning()) {
        job_->cancel();
    }
}

void Comparison::finish(State state, const QString& error, const strata::DiffSummary& summary) {
    state_ = state;
    error_ = error;
    summary_ = summary;
    emit stateChanged(state_);
}

}  // namespace strata::model
