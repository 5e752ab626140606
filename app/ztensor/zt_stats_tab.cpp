#include "zt_stats_tab.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

#include "app/widgets/document_view.h"
#include "model/core/job.h"
#include "model/ztensor/zt_tensor_jobs.h"
#include "zt_tensor_chooser.h"

namespace strata::gui {

namespace {

// Small tensors get fewer bins, so that bins are not mostly empty.
int binsFor(std::uint64_t elements) {
    return static_cast<int>(std::clamp<std::uint64_t>(elements / 4, 1, 64));
}

QString number(double value) {
    return QString::number(value, 'g', 8);
}

QString count(std::uint64_t value) {
    return QLocale::c().toString(static_cast<qulonglong>(value));
}

}  // namespace

ZtStatsTab::ZtStatsTab(DocumentView& view, std::shared_ptr<const ztensor::ZtFile> file,
                       QWidget* parent)
    : QWidget(parent), view_(view), file_(std::move(file)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    tensorBox_ = addZtTensorChooser(*top, *file_, this);
    compute_ = new QPushButton(tr("Compute"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setVisible(false);
    top->addWidget(compute_);
    top->addWidget(cancel_);
    top->addWidget(progress_, 1);
    top->addStretch(1);
    layout->addLayout(top);

    summary_ = new QLabel(tr("Choose a tensor and press Compute."), this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    chart_ = new QChartView(this);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->chart()->legend()->hide();
    chart_->setMinimumHeight(200);
    layout->addWidget(chart_, 1);

    compute_->setEnabled(!file_->tensors().empty());
    connect(compute_, &QPushButton::clicked, this, [this] { compute(); });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (job_) {
            job_->cancel();
        }
    });
    connect(tensorBox_, &QComboBox::currentIndexChanged, this, [this] {
        stats_.reset();
        summary_->setText(tr("Press Compute for the statistics of this tensor."));
        chart_->chart()->removeAllSeries();
    });
}

void ZtStatsTab::setTensor(int tensor) {
    if (tensor >= 0 && tensor < tensorBox_->count()) {
        tensorBox_->setCurrentIndex(tensor);
    }
}

model::Job* ZtStatsTab::compute() {
    model::JobRunner* runner = view_.jobRunner();
    const int tensor = tensorBox_->currentIndex();
    if (runner == nullptr || tensor < 0) {
        return nullptr;
    }
    if (job_) {
        job_->cancel();
    }
    const auto& t = file_->tensors()[static_cast<std::size_t>(tensor)];
    model::Job* job = model::startZtStats(*runner, file_, static_cast<std::size_t>(tensor),
                                          binsFor(t.elementCount.value_or(0)));
    view_.trackJob(job);
    job_ = job;
    stats_.reset();
    summary_->setText(tr("Computing…"));
    cancel_->setEnabled(true);
    progress_->setValue(0);
    progress_->setVisible(true);
    connect(job, &model::Job::progressChanged, this, [this, job](double fraction) {
        if (job == job_) {
            progress_->setValue(static_cast<int>(fraction * 1000));
        }
    });
    QPointer<model::ZtStatsJob> statsJob(static_cast<model::ZtStatsJob*>(job));
    connect(job, &model::Job::finished, this, [this, statsJob] {
        if (!statsJob || statsJob != job_) {
            return;  // a newer job replaced it
        }
        cancel_->setEnabled(false);
        progress_->setVisible(false);
        if (statsJob->state() == model::Job::State::Cancelled) {
            summary_->setText(tr("Cancelled."));
        } else if (statsJob->state() == model::Job::State::Failed) {
            summary_->setText(tr("Cannot compute: %1").arg(statsJob->errorText()));
        } else if (statsJob->stats()) {
            stats_ = statsJob->stats();
            showStats(*stats_);
        }
    });
    return job;
}

void ZtStatsTab::showStats(const model::ZtStats& s) {
    summary_->setText(tr("elements %1   min %2   max %3   mean %4   std %5   zeros %6   NaN %7   "
                         "Inf %8")
                          .arg(count(s.count), number(s.min), number(s.max), number(s.mean),
                               number(s.stddev), count(s.zeros), count(s.nan), count(s.inf)));
    QChart* chart = chart_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto* set = new QBarSet(tr("elements"));
    std::uint64_t highest = 0;
    for (std::uint64_t bin : s.histogram) {
        set->append(static_cast<qreal>(bin));
        highest = std::max(highest, bin);
    }
    auto* series = new QBarSeries;
    series->setBarWidth(1.0);
    series->append(set);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    QStringList categories;
    const double width = s.histogram.empty() ? 0
                                             : (s.histogramMax - s.histogramMin) /
                                                   static_cast<double>(s.histogram.size());
    for (std::size_t i = 0; i < s.histogram.size(); ++i) {
        categories << number(s.histogramMin + width * static_cast<double>(i));
    }
    x->append(categories);
    x->setLabelsVisible(false);
    auto* y = new QValueAxis;
    y->setRange(0, static_cast<qreal>(std::max<std::uint64_t>(highest, 1)));
    y->setLabelFormat(QStringLiteral("%.0f"));
    if (highest <= 10) {
        y->setTickCount(static_cast<int>(std::max<std::uint64_t>(highest, 1)) + 1);
    } else {
        y->applyNiceNumbers();
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->setTitle(tr("Histogram of %1: %2 bins from %3 to %4")
                        .arg(tensorBox_->currentText())
                        .arg(s.histogram.size())
                        .arg(number(s.histogramMin), number(s.histogramMax)));
}

}  // namespace strata::gui
