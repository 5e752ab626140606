#include "shardlake_query_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "model/core/counted_text.h"
#include "model/core/job.h"
#include "model/shardlake/shardlake_query.h"
#include "model/shardlake/shardlake_session.h"

namespace strata::gui {

using namespace strata::shardlake;

ShardlakeQueryPanel::ShardlakeQueryPanel(DocumentView& view, const model::ShardlakeSession& session,
                                         QWidget* parent)
    : QWidget(parent), view_(view), session_(session) {
    indexBox_ = new QComboBox(this);
    for (const model::ShardlakeIndexInfo& index : session_.indexes()) {
        indexBox_->addItem(QString::fromStdString(index.version));
    }
    byVector_ = new QRadioButton(tr("Vector (JSON array)"), this);
    byId_ = new QRadioButton(tr("Record id"), this);
    byVector_->setChecked(true);
    vectorEdit_ = new QPlainTextEdit(this);
    vectorEdit_->setPlaceholderText(tr("[0.12, -0.5, …]  (or pick a record in the Shards tab)"));
    vectorEdit_->setMaximumHeight(80);
    idEdit_ = new QLineEdit(this);
    idEdit_->setPlaceholderText(tr("id of a record in this index"));
    metricBox_ = new QComboBox(this);
    metricBox_->addItem(tr("index's own"), QString());
    for (const char* name : {"cosine", "euclidean", "inner_product"}) {
        metricBox_->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
    }
    kBox_ = new QSpinBox(this);
    kBox_->setRange(1, 10000);
    kBox_->setValue(10);
    allShards_ = new QCheckBox(tr("every shard (exact)"), this);
    allShards_->setChecked(true);
    nprobeBox_ = new QSpinBox(this);
    nprobeBox_->setRange(1, 1000000);
    nprobeBox_->setValue(1);
    nprobeBox_->setEnabled(false);
    runButton_ = new QPushButton(tr("Search"), this);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setEnabled(false);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    results_ = new model::ShardlakeQueryResultsModel(this);
    table_ = new QTableView(this);
    table_->setModel(results_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Index version"), indexBox_);
    auto* source = new QHBoxLayout;
    source->addWidget(byVector_);
    source->addWidget(byId_);
    source->addWidget(idEdit_, 1);
    form->addRow(tr("Query"), source);
    form->addRow(QString(), vectorEdit_);
    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Metric"), this));
    options->addWidget(metricBox_);
    options->addWidget(new QLabel(tr("k"), this));
    options->addWidget(kBox_);
    options->addWidget(allShards_);
    options->addWidget(new QLabel(tr("nprobe"), this));
    options->addWidget(nprobeBox_);
    options->addStretch(1);
    options->addWidget(runButton_);
    options->addWidget(cancelButton_);
    form->addRow(tr("Search"), options);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(table_, 1);

    connect(allShards_, &QCheckBox::toggled, nprobeBox_,
            [this](bool all) { nprobeBox_->setEnabled(!all); });
    connect(idEdit_, &QLineEdit::textEdited, this, [this] { byId_->setChecked(true); });
    connect(vectorEdit_, &QPlainTextEdit::textChanged, this, [this] {
        if (vectorEdit_->hasFocus()) {
            byVector_->setChecked(true);
        }
    });
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancelButton_, &QPushButton::clicked, this, &ShardlakeQueryPanel::cancel);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { openResult(index.row()); });
}

void ShardlakeQueryPanel::setIndex(const QString& version) {
    indexBox_->setCurrentText(version);
}

void ShardlakeQueryPanel::setQueryVector(const std::vector<float>& vector) {
    QStringList parts;
    for (const float value : vector) {
        parts << QString::number(static_cast<double>(value), 'g', 9);
    }
    setQueryText(QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']'));
}

void ShardlakeQueryPanel::setQueryText(const QString& json) {
    vectorEdit_->setPlainText(json);
    byVector_->setChecked(true);
}

void ShardlakeQueryPanel::setQueryId(quint64 id) {
    idEdit_->setText(QString::number(id));
    byId_->setChecked(true);
}

void ShardlakeQueryPanel::setMetric(const QString& metric) {
    const int at = metricBox_->findData(metric);
    metricBox_->setCurrentIndex(at < 0 ? 0 : at);
}

void ShardlakeQueryPanel::setK(int k) {
    kBox_->setValue(k);
}

void ShardlakeQueryPanel::setNprobe(int nprobe) {
    allShards_->setChecked(nprobe == 0);
    if (nprobe > 0) {
        nprobeBox_->setValue(nprobe);
    }
}

QString ShardlakeQueryPanel::statusText() const {
    return status_->text();
}

model::Job* ShardlakeQueryPanel::run() {
    cancel();
    const QString version = indexBox_->currentText();
    const model::ShardlakeIndexInfo* info = session_.index(version.toStdString());
    std::string loadError;
    auto index = session_.loadedIndex(version.toStdString(), &loadError);
    if (info == nullptr || !index || view_.jobRunner() == nullptr) {
        status_->setText(
            tr("Cannot search %1: %2").arg(version, QString::fromStdString(loadError)));
        return nullptr;
    }
    model::ShardlakeQuerySpec spec;
    if (byVector_->isChecked()) {
        QString error;
        const auto vector = model::parseQueryVector(vectorEdit_->toPlainText(), &error);
        if (!vector) {
            status_->setText(error);
            return nullptr;
        }
        spec.vector = *vector;
    } else {
        bool ok = false;
        const quint64 id = idEdit_->text().trimmed().toULongLong(&ok);
        if (!ok) {
            status_->setText(tr("Type a record id (a whole number)."));
            return nullptr;
        }
        spec.id = id;
    }
    spec.vectorsKey = info->vectorsKey;
    const QString metric = metricBox_->currentData().toString();
    if (!metric.isEmpty()) {
        spec.metric = metricFromName(metric.toStdString());
    }
    spec.k = static_cast<std::size_t>(kBox_->value());
    spec.nprobe = allShards_->isChecked() ? 0 : static_cast<std::size_t>(nprobeBox_->value());
    QPointer<ShardlakeQueryPanel> self(this);
    job_ =
        model::startShardlakeQueryJob(*view_.jobRunner(), index, session_.store(), std::move(spec),
                                      [self, version](const model::ShardlakeQueryOutcome& outcome) {
                                          if (self) {
                                              self->show(outcome, version);
                                          }
                                      });
    view_.trackJob(job_);
    runButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    status_->setText(tr("Searching %1…").arg(version));
    connect(job_, &model::Job::finished, this, [this, job = job_] {
        if (job_ != job) {
            return;
        }
        runButton_->setEnabled(true);
        cancelButton_->setEnabled(false);
        if (job->state() == model::Job::State::Cancelled) {
            status_->setText(tr("Cancelled."));
        } else if (job->state() == model::Job::State::Failed) {
            status_->setText(job->errorText());
        }
    });
    return job_;
}

void ShardlakeQueryPanel::cancel() {
    if (job_ && job_->isRunning()) {
        job_->cancel();
    }
}

void ShardlakeQueryPanel::show(const model::ShardlakeQueryOutcome& outcome,
                               const QString& version) {
    std::vector<std::string> keys;
    if (const model::ShardlakeIndexInfo* info = session_.index(version.toStdString())) {
        for (const model::ShardlakeShardInfo& shard : info->shards) {
            keys.push_back(shard.key);
        }
    }
    resultsVersion_ = version;
    results_->setHits(outcome.hits, std::move(keys));
    status_->setText(tr("%1 from %2; %3 probed; query of %4")
                         .arg(model::counted(outcome.hits.size(), tr("result")))
                         .arg(version)
                         .arg(model::counted(outcome.probed, tr("shard")))
                         .arg(model::counted(outcome.query.size(), tr("dimension"))));
    emit resultsShown();
}

void ShardlakeQueryPanel::openResult(int row) {
    const auto& hits = results_->hits();
    if (row < 0 || static_cast<std::size_t>(row) >= hits.size() ||
        hits[static_cast<std::size_t>(row)].shard < 0) {
        return;
    }
    const model::ShardlakeQueryHit& hit = hits[static_cast<std::size_t>(row)];
    const model::ShardlakeIndexInfo* info = session_.index(resultsVersion_.toStdString());
    if (info == nullptr || static_cast<std::size_t>(hit.shard) >= info->shards.size()) {
        return;
    }
    const model::ShardlakeShardInfo& shard = info->shards[static_cast<std::size_t>(hit.shard)];
    if (!shard.source || !shard.layout) {
        return;
    }
    const strata::Region record{shard.source.get(), shard.layout->recordOffset(hit.record),
                                shard.layout->recordSize};
    view_.selectRegion(session_.documentRegion(record));
}

}  // namespace strata::gui
