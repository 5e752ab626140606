#include "shardlake_pca_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/widgets/document_view.h"
#include "model/core/job.h"
#include "model/shardlake/shardlake_pca.h"
#include "model/shardlake/shardlake_session.h"

namespace strata::gui {

namespace {

// Shard colours: distinct hues, then repeated.
QColor shardColor(int shard) {
    static const QColor colors[] = {{0x1f, 0x77, 0xb4}, {0xff, 0x7f, 0x0e}, {0x2c, 0xa0, 0x2c},
                                    {0xd6, 0x27, 0x28}, {0x94, 0x67, 0xbd}, {0x8c, 0x56, 0x4b},
                                    {0xe3, 0x77, 0xc2}, {0x7f, 0x7f, 0x7f}, {0xbc, 0xbd, 0x22},
                                    {0x17, 0xbe, 0xcf}};
    return colors[static_cast<std::size_t>(shard) % std::size(colors)];
}

}  // namespace

ShardlakePcaView::ShardlakePcaView(DocumentView& view, const model::ShardlakeSession& session,
                                   QWidget* parent)
    : QWidget(parent), view_(view), session_(session) {
    indexBox_ = new QComboBox(this);
    for (const model::ShardlakeIndexInfo& index : session_.indexes()) {
        indexBox_->addItem(QString::fromStdString(index.version));
    }
    sampleBox_ = new QSpinBox(this);
    sampleBox_->setRange(10, 50000);
    sampleBox_->setSingleStep(1000);
    sampleBox_->setValue(static_cast<int>(model::kDefaultPcaSample));
    runButton_ = new QPushButton(tr("Project"), this);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(160);
    status_ = new QLabel(tr("Project a sample of the index's vectors on their top two principal "
                            "components."),
                         this);
    status_->setWordWrap(true);
    chart_ = new QChart;
    chart_->setTitle(tr("PCA"));
    chart_->legend()->setAlignment(Qt::AlignRight);
    chartView_ = new QChartView(chart_, this);
    chartView_->setRenderHint(QPainter::Antialiasing);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Index version"), this));
    top->addWidget(indexBox_);
    top->addWidget(new QLabel(tr("Sample"), this));
    top->addWidget(sampleBox_);
    top->addWidget(runButton_);
    top->addWidget(cancelButton_);
    top->addWidget(progress_);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(status_);
    layout->addWidget(chartView_, 1);

    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancelButton_, &QPushButton::clicked, this, &ShardlakePcaView::cancel);
}

void ShardlakePcaView::setRunning(bool running) {
    runButton_->setEnabled(!running);
    cancelButton_->setEnabled(running);
    if (!running) {
        progress_->setValue(progress_->maximum());
    }
}

model::Job* ShardlakePcaView::run() {
    cancel();
    const QString version = indexBox_->currentText();
    std::string error;
    auto index = session_.loadedIndex(version.toStdString(), &error);
    if (!index || view_.jobRunner() == nullptr) {
        status_->setText(tr("Cannot project %1: %2").arg(version, QString::fromStdString(error)));
        return nullptr;
    }
    QPointer<ShardlakePcaView> self(this);
    job_ = model::startShardlakePcaJob(*view_.jobRunner(), index,
                                       static_cast<std::size_t>(sampleBox_->value()),
                                       [self, version](const model::ShardlakePcaResult& result) {
                                           if (self) {
                                               self->show(result, version);
                                           }
                                       });
    view_.trackJob(job_);
    progress_->setValue(0);
    setRunning(true);
    status_->setText(tr("Projecting %1…").arg(version));
    connect(job_, &model::Job::progressChanged, this,
            [this](double fraction) { progress_->setValue(static_cast<int>(fraction * 1000)); });
    connect(job_, &model::Job::finished, this, [this, job = job_] {
        if (job_ != job) {
            return;
        }
        setRunning(false);
        if (job->state() == model::Job::State::Cancelled) {
            status_->setText(tr("Cancelled."));
        } else if (job->state() == model::Job::State::Failed) {
            status_->setText(job->errorText());
        }
    });
    return job_;
}

void ShardlakePcaView::cancel() {
    if (job_ && job_->isRunning()) {
        job_->cancel();
    }
}

void ShardlakePcaView::show(const model::ShardlakePcaResult& result, const QString& version) {
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    const model::ShardlakeIndexInfo* info = session_.index(version.toStdString());
    int shards = 0;
    for (const model::ShardlakePcaPoint& point : result.points) {
        shards = std::max(shards, point.shard + 1);
    }
    std::vector<QScatterSeries*> series(static_cast<std::size_t>(shards), nullptr);
    float minX = 0, maxX = 0, minY = 0, maxY = 0;
    for (const model::ShardlakePcaPoint& point : result.points) {
        QScatterSeries*& s = series[static_cast<std::size_t>(point.shard)];
        if (s == nullptr) {
            s = new QScatterSeries;
            const bool named = info && static_cast<std::size_t>(point.shard) < info->shards.size();
            s->setName(named ? tr("shard %1")
                                   .arg(info->shards[static_cast<std::size_t>(point.shard)].shardId)
                             : tr("shard %1").arg(point.shard));
            s->setMarkerSize(5);
            s->setBorderColor(Qt::transparent);
            s->setColor(shardColor(point.shard));
        }
        s->append(point.x, point.y);
        minX = std::min(minX, point.x);
        maxX = std::max(maxX, point.x);
        minY = std::min(minY, point.y);
        maxY = std::max(maxY, point.y);
    }
    auto* axisX = new QValueAxis;
    auto* axisY = new QValueAxis;
    axisX->setTitleText(tr("PC 1"));
    axisY->setTitleText(tr("PC 2"));
    axisX->setRange(minX - 0.05f * (maxX - minX), maxX + 0.05f * (maxX - minX));
    axisY->setRange(minY - 0.05f * (maxY - minY), maxY + 0.05f * (maxY - minY));
    chart_->addAxis(axisX, Qt::AlignBottom);
    chart_->addAxis(axisY, Qt::AlignLeft);
    for (QScatterSeries* s : series) {
        if (s != nullptr) {
            chart_->addSeries(s);
            s->attachAxis(axisX);
            s->attachAxis(axisY);
        }
    }
    pointCount_ = static_cast<int>(result.points.size());
    chart_->setTitle(tr("PCA of %1").arg(version));
    status_->setText(tr("%1 of %2 vectors; variance along PC 1 %3, PC 2 %4")
                         .arg(pointCount_)
                         .arg(result.population)
                         .arg(result.variance[0], 0, 'g', 4)
                         .arg(result.variance[1], 0, 'g', 4));
    emit resultShown();
}

}  // namespace strata::gui
