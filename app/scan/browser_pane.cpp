#include "browser_pane.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/widgets/format_views.h"
#include "formats/common/counted.h"
#include "model/core/job.h"
#include "model/core/remote_access.h"
#include "model/scan/scan_list_model.h"

namespace strata::gui {

using strata::scan::Verdict;

namespace {

// The Name column with the entry's format icon (a folder's or a file's until it is checked).
class EntryNameDelegate final : public QStyledItemDelegate {
public:
    EntryNameDelegate(const FormatViews& views, const FormatRegistry& formats, QObject* parent)
        : QStyledItemDelegate(parent), views_(views), formats_(formats) {}

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString format = index.data(model::ScanListModel::FormatRole).toString();
        const bool folder = index.data().toString().endsWith(QLatin1Char('/'));
        const QString key = format + (folder ? QStringLiteral("/") : QString());
        auto found = icons_.find(key);
        if (found == icons_.end()) {
            const QStyle* style = option->widget != nullptr ? option->widget->style() : nullptr;
            found = icons_.insert(key, style != nullptr
                                           ? formatIcon(views_, formats_, format, folder, style)
                                           : QIcon());
        }
        option->icon = *found;
        option->features |= QStyleOptionViewItem::HasDecoration;
    }

private:
    const FormatViews& views_;
    const FormatRegistry& formats_;
    mutable QHash<QString, QIcon> icons_;  // one per format and kind: rows share them
};

}  // namespace

BrowserPane::BrowserPane(model::JobRunner& runner, const FormatRegistry& formats,
                         const FormatViews& views, QWidget* parent)
    : QWidget(parent),
      runner_(runner),
      formats_(formats),
      model_(new model::ScanListModel(this)),
      filter_(new model::ScanFilterModel(this)),
      table_(new QTableView(this)),
      formatBox_(new QComboBox(this)),
      verdictBox_(new QComboBox(this)),
      summary_(new QLabel(this)),
      pauseButton_(new QToolButton(this)),
      stopButton_(new QToolButton(this)) {
    setObjectName(QStringLiteral("BrowserPane"));
    filter_->setSourceModel(model_);
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // the walk's order until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    // Uniform rows: 100,000 entries scroll without measuring each.
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setItemDelegateForColumn(model::ScanListModel::Name,
                                     new EntryNameDelegate(views, formats, table_));
    table_->setColumnWidth(model::ScanListModel::Name, 260);
    // The status next to the name: what a narrow pane must still show.
    table_->horizontalHeader()->moveSection(model::ScanListModel::Status,
                                            model::ScanListModel::Format);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    table_->installEventFilter(this);
    connect(table_, &QTableView::doubleClicked, this, [this] { act(EntryAction::Open); });
    connect(table_, &QWidget::customContextMenuRequested, this, &BrowserPane::showMenu);

    formatBox_->addItem(tr("All formats"), QString());
    connect(formatBox_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setFormat(formatBox_->currentData().toString()); });
    verdictBox_->addItem(tr("Any status"), QString());
    verdictBox_->addItem(tr("Problems (damaged or unreadable)"), QStringLiteral("problems"));
    for (const Verdict verdict : strata::scan::kAllVerdicts) {
        const QString name = QString::fromLatin1(strata::scan::verdictName(verdict));
        verdictBox_->addItem(name, name);
    }
    connect(verdictBox_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setVerdict(verdictBox_->currentData().toString()); });
    connect(model_, &model::ScanListModel::summaryChanged, this, [this] {
        updateSummary();
        updateFormats();
    });
    connect(model_, &QAbstractItemModel::rowsInserted, this, &BrowserPane::updateSummary);

    auto* filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Show:"), this));
    filters->addWidget(formatBox_);
    filters->addWidget(verdictBox_);
    filters->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(filters);
    layout->addWidget(table_);
    auto* status = new QHBoxLayout;
    status->addWidget(summary_, 1);
    status->addWidget(pauseButton_);
    status->addWidget(stopButton_);
    layout->addLayout(status);
    stopButton_->setText(tr("Stop"));
    stopButton_->setToolTip(tr("Stop the scan; what was checked stays listed"));
    connect(pauseButton_, &QToolButton::clicked, this, [this] {
        if (scanJob_) {
            scanJob_->setPaused(!scanJob_->isPaused());
        }
    });
    connect(stopButton_, &QToolButton::clicked, this, [this] {
        if (scanJob_) {
            scanJob_->cancel();
        }
    });
    updateSummary();
    updateScanButtons();
}

model::Job* BrowserPane::scan(const QString& root, const model::ScanJobOptions& options) {
    if (scanJob_) {
        scanJob_->cancel();
    }
    root_ = root;
    options_ = options;
    scanJob_ = model::startScan(runner_, root, model_, options, &formats_);
    connect(scanJob_, &model::Job::pausedChanged, this, &BrowserPane::updateScanButtons);
    connect(scanJob_, &model::Job::finished, this, &BrowserPane::updateScanButtons);
    updateScanButtons();
    return scanJob_;
}

void BrowserPane::updateScanButtons() {
    const bool running = scanJob_ && scanJob_->isRunning();
    const bool paused = running && scanJob_->isPaused();
    pauseButton_->setText(paused ? tr("Resume") : tr("Pause"));
    pauseButton_->setToolTip(paused ? tr("Go on listing and validating")
                                    : tr("Hold the scan: nothing further is listed or read"));
    pauseButton_->setVisible(running);
    stopButton_->setVisible(running);
    updateSummary();
}

model::Job* BrowserPane::validateAgain(int row) {
    if (row < 0 || row >= model_->rowCount()) {
        return nullptr;
    }
    return model::startRecheck(runner_, model_, row, options_, &formats_);
}

int BrowserPane::currentEntryRow() const {
    const QModelIndex current = table_->currentIndex();
    return current.isValid() ? filter_->mapToSource(current).row() : -1;
}

bool BrowserPane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_ && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            act(EntryAction::Open);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void BrowserPane::act(EntryAction action) {
    const QString location = model_->location(currentEntryRow());
    if (!location.isEmpty()) {
        emit entryAction(action, location);
    }
}

void BrowserPane::showMenu(const QPoint& at) {
    const int row = currentEntryRow();
    if (row < 0) {
        return;
    }
    const QString location = model_->location(row);
    const bool remote = model::isRemoteUrl(location);
    QMenu menu(this);
    menu.addAction(tr("&Open"), this, [this] { act(EntryAction::Open); });
    menu.addAction(tr("&Validate Again"), this, [this, row] { validateAgain(row); });
    QAction* repair = menu.addAction(tr("&Repair…"), this, [this] { act(EntryAction::Repair); });
    repair->setEnabled(!remote);  // a repair writes beside its input
    menu.addAction(tr("Compare &With…"), this, [this] { act(EntryAction::Compare); });
    menu.addSeparator();
    menu.addAction(remote ? tr("Copy &URL") : tr("Copy &Path"), this,
                   [location] { QApplication::clipboard()->setText(location); });
    QAction* copy = menu.addAction(tr("Save a &Local Copy…"), this,
                                   [this] { act(EntryAction::SaveLocalCopy); });
    copy->setEnabled(remote);
    menu.exec(table_->viewport()->mapToGlobal(at));
}

void BrowserPane::updateSummary() {
    const quint64 listed = quint64(model_->rowCount());
    QStringList parts;
    parts
        << tr("%1 listed").arg(QString::fromStdString(strata::counted(listed, "entry", "entries")))
        << tr("%1 checked").arg(model_->checkedCount());
    for (const Verdict verdict : strata::scan::kAllVerdicts) {
        if (const quint64 n = model_->count(verdict); n > 0) {
            parts << QStringLiteral("%1 %2").arg(n).arg(
                QString::fromLatin1(strata::scan::verdictName(verdict)));
        }
    }
    if (scanJob_ && scanJob_->isRunning() && scanJob_->isPaused()) {
        parts << tr("paused");
    }
    summary_->setText(parts.join(QStringLiteral(" · ")));
}

void BrowserPane::updateFormats() {
    for (const QString& format : model_->formats()) {
        if (formatBox_->findData(format) < 0) {
            formatBox_->addItem(format, format);
        }
    }
}

}  // namespace strata::gui
