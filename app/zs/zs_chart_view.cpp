#include "zs_chart_view.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "app/widgets/document_view.h"
#include "model/core/counted_text.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"

namespace strata::gui {

namespace {

// Points are drawn as markers only while they stay distinguishable.
constexpr std::size_t kMaxMarkedPoints = 400;

}  // namespace

ZsChartView::ZsChartView(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                         QWidget* parent)
    : QWidget(parent), file_(std::move(file)), view_(view) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    summary_ = new QLabel(tr("Per data block: compression ratio and record count."), this);
    summary_->setObjectName(QStringLiteral("zsChartSummary"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(200);
    progress_->hide();
    computeButton_ = new QPushButton(tr("Recompute"), this);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->hide();
    bar->addWidget(summary_, 1);
    bar->addWidget(progress_);
    bar->addWidget(cancelButton_);
    bar->addWidget(computeButton_);
    layout->addLayout(bar);

    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignBottom);
    ratio_ = new QLineSeries(chart_);
    ratio_->setName(tr("compression ratio (decoded ÷ stored)"));
    records_ = new QLineSeries(chart_);
    records_->setName(tr("records"));
    chart_->addSeries(ratio_);
    chart_->addSeries(records_);
    auto* x = blockAxis_ = new QValueAxis(chart_);
    x->setTitleText(tr("data block"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto* yRatio = ratioAxis_ = new QValueAxis(chart_);
    yRatio->setTitleText(tr("ratio"));
    auto* yRecords = recordAxis_ = new QValueAxis(chart_);
    yRecords->setTitleText(tr("records"));
    yRecords->setLabelFormat(QStringLiteral("%d"));
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(yRatio, Qt::AlignLeft);
    chart_->addAxis(yRecords, Qt::AlignRight);
    ratio_->attachAxis(x);
    ratio_->attachAxis(yRatio);
    records_->attachAxis(x);
    records_->attachAxis(yRecords);
    chartView_ = new QChartView(chart_, this);
    chartView_->setObjectName(QStringLiteral("zsChart"));
    chartView_->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(chartView_);

    for (QLineSeries* series : {ratio_, records_}) {
        connect(series, &QXYSeries::clicked, this,
                [this](const QPointF& point) { activateBlock(int(std::lround(point.x()))); });
    }
    connect(computeButton_, &QPushButton::clicked, this, &ZsChartView::compute);
    connect(cancelButton_, &QPushButton::clicked, this, &ZsChartView::cancel);
}

void ZsChartView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (started_) {
        return;
    }
    if (view_.document()->isRemote()) {
        // Every block is read: a remote file waits for the button.
        summary_->setText(tr("The chart reads every block of the remote file: press Compute."));
        computeButton_->setText(tr("Compute"));
        return;
    }
    compute();
}

model::Job* ZsChartView::compute() {
    model::JobRunner* runner = view_.jobRunner();
    if (!runner) {
        return nullptr;
    }
    started_ = true;
    computeButton_->setText(tr("Recompute"));
    cancel();
    QPointer<ZsChartView> self(this);
    auto file = file_;
    job_ = runner->start(tr("ZS block chart"), [self, file](model::JobContext& context) {
        model::ZsBlockStats stats = model::collectZsBlockStats(
            *file, context.cancelToken(),
            [&context](double f) { context.setProgress(f, QStringLiteral("reading blocks")); });
        if (stats.cancelled) {
            return;
        }
        auto shared = std::make_shared<model::ZsBlockStats>(std::move(stats));
        context.post([self, shared] {
            if (self) {
                self->setStats(std::move(*shared));
            }
        });
    });
    view_.trackJob(job_);
    progress_->setValue(0);
    progress_->show();
    cancelButton_->show();
    computeButton_->setEnabled(false);
    summary_->setText(tr("Reading blocks…"));
    connect(job_, &model::Job::progressChanged, this,
            [this](double f, const QString&) { progress_->setValue(int(f * 1000)); });
    connect(job_, &model::Job::finished, this, [this, job = job_] {
        progress_->hide();
        cancelButton_->hide();
        computeButton_->setEnabled(true);
        if (job && job->state() == model::Job::State::Cancelled) {
            summary_->setText(tr("Cancelled."));
        }
    });
    return job_;
}

void ZsChartView::cancel() {
    if (job_ && job_->isRunning()) {
        job_->cancel();
    }
}

void ZsChartView::setStats(model::ZsBlockStats stats) {
    stats_ = std::move(stats);
    QList<QPointF> ratios;
    QList<QPointF> counts;
    double maxRatio = 1.0;
    double maxRecords = 1.0;
    std::uint64_t damaged = 0;
    std::uint64_t records = 0;
    for (std::size_t i = 0; i < stats_.dataBlocks.size(); ++i) {
        const model::ZsBlockStat& b = stats_.dataBlocks[i];
        ratios.append({double(i), b.ratio()});
        counts.append({double(i), double(b.records)});
        maxRatio = std::max(maxRatio, b.ratio());
        maxRecords = std::max(maxRecords, double(b.records));
        damaged += b.damaged ? 1 : 0;
        records += b.records;
    }
    ratio_->replace(ratios);
    records_->replace(counts);
    const bool marked = stats_.dataBlocks.size() <= kMaxMarkedPoints;
    ratio_->setPointsVisible(marked);
    records_->setPointsVisible(marked);
    blockAxis_->setRange(0, std::max<double>(1.0, double(stats_.dataBlocks.size()) - 1));
    ratioAxis_->setRange(0, maxRatio * 1.1);
    recordAxis_->setRange(0, maxRecords * 1.1);
    QString text = tr("%1 data blocks, %2 records, %3 index blocks")
                       .arg(stats_.dataBlocks.size())
                       .arg(records)
                       .arg(stats_.indexBlocks);
    if (stats_.extensionBlocks > 0) {
        text += tr(", %1 extension blocks").arg(stats_.extensionBlocks);
    }
    if (damaged > 0) {
        text += tr("; %1 damaged (shown with 0 records)").arg(damaged);
    }
    if (stats_.unreadableStretches > 0) {
        text += tr("; %1 with no readable block, the first at %2: %3")
                    .arg(model::counted(stats_.unreadableStretches, tr("stretch")))
                    .arg(stats_.errorOffset)
                    .arg(QString::fromStdString(stats_.error));
    } else if (!stats_.error.empty()) {
        text += QStringLiteral("; ") + QString::fromStdString(stats_.error);
    }
    summary_->setText(text);
    emit statsReady();
}

void ZsChartView::activateBlock(int index) {
    if (index < 0 || std::size_t(index) >= stats_.dataBlocks.size()) {
        return;
    }
    const model::ZsBlockStat& b = stats_.dataBlocks[std::size_t(index)];
    view_.selectRegion(strata::Region{&file_->source(), b.offset, b.length}.clipped());
}

}  // namespace strata::gui
