#include "start_page.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include "app/widgets/format_views.h"
#include "browser_controller.h"
#include "formats/registry/format_registry.h"
#include "model/core/remote_access.h"
#include "open_controller.h"

namespace strata::gui {

namespace {

QListWidget* makeList(QWidget* parent) {
    auto* list = new QListWidget(parent);
    list->setIconSize(QSize(24, 24));
    list->setUniformItemSizes(true);
    return list;
}

}  // namespace

StartPage::StartPage(OpenController& opener, BrowserController& browser, const FormatViews& views,
                     const FormatRegistry& formats, QWidget* parent)
    : QWidget(parent),
      opener_(opener),
      views_(views),
      formats_(formats),
      recent_(makeList(this)),
      samples_(makeList(this)) {
    setObjectName(QStringLiteral("StartPage"));
    QStringList names;
    for (const FormatHandler* handler : formats.handlers()) {
        if (handler->id() == kRawBinaryFormat) {
            continue;  // what opens anything no format claims
        }
        const std::string_view name = formatName(handler->id());
        names << QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    const QString listed =
        names.size() > 1
            ? tr("%1 and %2").arg(names.mid(0, names.size() - 1).join(tr(", ")), names.back())
            : names.join(QString());
    auto* title = new QLabel(
        tr("<h2>Strata</h2>Inspect, validate, compare and repair %1 files, folders and buckets.")
            .arg(listed),
        this);
    auto* buttons = new QHBoxLayout;
    const auto addButton = [&](const QString& text, auto slot) {
        auto* button = new QPushButton(text, this);
        connect(button, &QPushButton::clicked, this, slot);
        buttons->addWidget(button);
    };
    addButton(tr("Open File…"), [&opener] { opener.openFileDialog(); });
    addButton(tr("Open Folder…"), [&opener] { opener.openFolderDialog(); });
    addButton(tr("Open URL…"), [&opener] { opener.openUrlDialog(); });
    addButton(tr("Open Folder or Bucket…"), [&browser] { browser.openFolderOrBucketDialog(); });
    buttons->addStretch();

    for (QListWidget* list : {recent_, samples_}) {
        connect(list, &QListWidget::itemActivated, this, &StartPage::open);
    }
    recent_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(recent_, &QWidget::customContextMenuRequested, this, &StartPage::showRecentMenu);
    connect(&opener, &OpenController::recentChanged, this, &StartPage::fillRecent);
    for (const QString& sample : sampleFiles()) {
        auto* item = new QListWidgetItem(locationIcon(views_, formats_, sample, style()),
                                         QFileInfo(sample).fileName());
        item->setData(Qt::UserRole, sample);
        item->setToolTip(QDir::toNativeSeparators(sample));
        samples_->addItem(item);
    }

    auto* lists = new QHBoxLayout;
    auto* recentColumn = new QVBoxLayout;
    recentColumn->addWidget(new QLabel(tr("<b>Recent</b>"), this));
    recentColumn->addWidget(recent_);
    auto* sampleColumn = new QVBoxLayout;
    sampleColumn->addWidget(new QLabel(tr("<b>Samples</b>"), this));
    sampleColumn->addWidget(samples_);
    lists->addLayout(recentColumn, 2);
    lists->addLayout(sampleColumn, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(buttons);
    layout->addLayout(lists, 1);
    layout->addWidget(
        new QLabel(tr("Drop files, folders or URLs anywhere in this window to open them."), this));
    fillRecent();
}

QStringList StartPage::sampleFiles() {
    const QStringList folders = {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/strata/samples"),
        QStringLiteral(STRATA_SOURCE_SAMPLES_DIR)};
    for (const QString& folder : folders) {
        const QStringList names =
            QDir(folder).entryList({QStringLiteral("*.zs"), QStringLiteral("*.zt"),
                                    QStringLiteral("*.sidx"), QStringLiteral("*.ozdf")},
                                   QDir::Files, QDir::Name);
        if (!names.isEmpty()) {
            QStringList files;
            for (const QString& name : names) {
                files << QDir(folder).absoluteFilePath(name);
            }
            return files;
        }
    }
    return {};
}

void StartPage::fillRecent() {
    recent_->clear();
    QStringList all = opener_.recentFiles();
    all += model::recentUrls();
    for (const QString& location : all) {
        const bool remote = model::isRemoteUrl(location);
        auto* item = new QListWidgetItem(
            locationIcon(views_, formats_, location, style()),
            remote ? model::shownUrl(location) : QDir::toNativeSeparators(location));
        item->setData(Qt::UserRole, location);
        recent_->addItem(item);
    }
    if (all.isEmpty()) {
        auto* none = new QListWidgetItem(tr("Files and URLs you open are listed here."));
        none->setFlags(Qt::NoItemFlags);
        recent_->addItem(none);
    }
}

void StartPage::open(QListWidgetItem* item) {
    const QString location = item->data(Qt::UserRole).toString();
    if (!location.isEmpty()) {
        opener_.openPaths({location});
    }
}

void StartPage::showRecentMenu(const QPoint& at) {
    QListWidgetItem* item = recent_->itemAt(at);
    if (item == nullptr || item->data(Qt::UserRole).toString().isEmpty()) {
        return;
    }
    const QString location = item->data(Qt::UserRole).toString();
    QMenu menu(this);
    menu.addAction(tr("&Open"), this, [this, item] { open(item); });
    menu.addAction(tr("&Remove from List"), this,
                   [this, location] { opener_.forgetRecent(location); });
    menu.exec(recent_->viewport()->mapToGlobal(at));
}

}  // namespace strata::gui
