#include "zs_records_view.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

#include "app/widgets/document_view.h"
#include "model/core/counted_text.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/zs/zs_make_job.h"
#include "model/zs/zs_records_model.h"
#include "zs_index_view.h"

namespace strata::gui {

namespace {

QLineEdit* keyEdit(const QString& name, const QString& placeholder, QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

// Empty field: no bound. Escapes as in the terminator field.
bool parseKey(const QLineEdit* edit, std::optional<std::string>& out, QString* error) {
    if (edit->text().isEmpty()) {
        out.reset();
        return true;
    }
    QString problem;
    std::string key = model::unescapeText(edit->text(), &problem);
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    out = std::move(key);
    return true;
}

}  // namespace

ZsRecordsView::ZsRecordsView(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                             QWidget* parent)
    : QWidget(parent), file_(std::move(file)), view_(view) {
    model_ = new model::ZsRecordsModel(file_, this);
    model_->setBackgroundDecoding(true);  // scrolling back never waits for a decode
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* bar = new QHBoxLayout;
    prefix_ = keyEdit(QStringLiteral("zsPrefix"), tr("prefix"), this);
    start_ = keyEdit(QStringLiteral("zsStart"), tr("start (inclusive)"), this);
    stop_ = keyEdit(QStringLiteral("zsStop"), tr("stop (exclusive)"), this);
    searchButton_ = new QPushButton(tr("Search"), this);
    auto* all = new QPushButton(tr("Show all"), this);
    hex_ = new QCheckBox(tr("Hex"), this);
    hex_->setObjectName(QStringLiteral("zsRecordsHex"));
    bar->addWidget(new QLabel(tr("Prefix"), this));
    bar->addWidget(prefix_, 2);
    bar->addWidget(new QLabel(tr("Range"), this));
    bar->addWidget(start_, 2);
    bar->addWidget(stop_, 2);
    bar->addWidget(searchButton_);
    bar->addWidget(all);
    bar->addWidget(hex_);
    layout->addLayout(bar);

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("zsRecordsTable"));
    table_->setModel(model_);
    table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
    table_->horizontalHeader()->setSectionResizeMode(model::ZsRecordsModel::RecordColumn,
                                                     QHeaderView::Stretch);
    layout->addWidget(table_);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("zsRecordsStatus"));
    layout->addWidget(status_);

    for (QLineEdit* edit : {prefix_, start_, stop_}) {
        connect(edit, &QLineEdit::returnPressed, this, &ZsRecordsView::search);
    }
    connect(searchButton_, &QPushButton::clicked, this, &ZsRecordsView::search);
    connect(all, &QPushButton::clicked, this, &ZsRecordsView::showAll);
    connect(hex_, &QCheckBox::toggled, model_, &model::ZsRecordsModel::setHexRendering);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { activateRow(index.row()); });
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        activateRow(index.row());
        showHexTab(view_);
    });
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ZsRecordsView::updateStatus);
    connect(model_, &QAbstractItemModel::modelReset, this, &ZsRecordsView::updateStatus);
    connect(model_, &model::ZsRecordsModel::readFailed, this, &ZsRecordsView::updateStatus);
    connect(model_, &model::ZsRecordsModel::lookingForIntactBlockChanged, this,
            &ZsRecordsView::updateStatus);
    connect(model_, &model::ZsRecordsModel::allRead, this, &ZsRecordsView::updateStatus);
    updateStatus();
}

void ZsRecordsView::updateStatus() {
    const int records = int(std::min<std::uint64_t>(model_->recordCount(), INT_MAX));
    const QString read = model::counted(records, tr("record"));
    QString text = model_->isComplete() ? read
                   : model_->isLookingForIntactBlock()
                       ? tr("%1 read so far; looking for the next intact block after damaged "
                            "bytes…")
                             .arg(read)
                       : tr("%1 read so far; scroll for more").arg(read);
    if (model_->isFiltered()) {
        text = tr("Search: ") + text;
    }
    if (!model_->errorText().isEmpty()) {
        text += QStringLiteral(" — ") + model_->errorText();
        status_->setStyleSheet(QStringLiteral("color: #d03030"));
    } else {
        status_->setStyleSheet({});
    }
    status_->setText(text);
}

model::Job* ZsRecordsView::search() {
    zs::RecordQuery query;
    QString error;
    if (!parseKey(prefix_, query.prefix, &error) || !parseKey(start_, query.start, &error) ||
        !parseKey(stop_, query.stop, &error)) {
        status_->setText(tr("Cannot search: %1").arg(error));
        return nullptr;
    }
    if (!query.prefix && !query.start && !query.stop) {
        showAll();
        return nullptr;
    }
    if (searchJob_) {
        searchJob_->cancel();
    }
    model::JobRunner* runner = view_.jobRunner();
    if (!runner) {
        return nullptr;
    }
    status_->setText(tr("Searching…"));
    QPointer<ZsRecordsView> self(this);
    auto file = file_;
    searchJob_ = runner->start(tr("ZS search"), [self, file, query](model::JobContext& context) {
        try {
            const std::uint64_t block = model::zsFirstQueryBlock(*file, query);
            if (context.cancelled()) {
                return;
            }
            context.post([self, query, block] {
                if (self) {
                    self->onSearchFound(query, block);
                }
            });
        } catch (const zs::ZsReadError& e) {
            context.fail(QString::fromStdString(e.what()));
            const QString message = QString::fromStdString(e.what());
            context.post([self, message] {
                if (self) {
                    self->status_->setText(tr("Search failed: %1").arg(message));
                    emit self->searchDone(0);
                }
            });
        }
    });
    view_.trackJob(searchJob_);
    return searchJob_;
}

void ZsRecordsView::onSearchFound(const zs::RecordQuery& query, quint64 block) {
    model_->setQuery(query, block);
    model_->fetchMore({});
    updateStatus();
    if (model_->rowCount() > 0) {
        table_->selectRow(0);
        table_->scrollToTop();
        activateRow(0);
    } else if (model_->errorText().isEmpty()) {
        status_->setText(tr("No record matches."));
    }
    emit searchDone(model_->rowCount());
}

void ZsRecordsView::showAll() {
    model_->setQuery({});
    updateStatus();
}

void ZsRecordsView::activateRow(int row) {
    const strata::Region region = model_->blockRegionForRow(row);
    if (region.length > 0) {
        view_.selectRegion(region);
    }
}

}  // namespace strata::gui
