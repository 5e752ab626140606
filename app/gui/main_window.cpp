#include "main_window.h"

#include <QAbstractItemView>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QTreeView>
#include <QUndoGroup>

#include <algorithm>
#include <map>

#include "app/compare/compare_view.h"
#include "app/gui/builtin_format_views.h"
#include "app/widgets/bookmarks_panel.h"
#include "app/widgets/diagnostics_panel.h"
#include "app/widgets/document_view.h"
#include "app/widgets/entropy_view.h"
#include "app/widgets/goto_offset_dialog.h"
#include "app/widgets/hex_view.h"
#include "app/widgets/jobs_panel.h"
#include "app/zs/new_zs_file_dialog.h"
#include "formats/builtin/builtin_formats.h"
#include "formats/builtin/format_repair.h"
#include "model/compare/change_review.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"
#include "model/core/format_editor.h"
#include "model/core/job_runner.h"
#include "model/core/open_url_job.h"
#include "model/core/remote_access.h"
#include "model/core/save_job.h"
#include "model/core/structure_model.h"
#include "model/core/text_draft.h"
#include "model/repair/repair_job.h"
#include "open_url_dialog.h"

namespace strata::gui {
namespace {

const char* const kRecentKey = "recentFiles";
const char* const kGeometryKey = "mainWindow/geometry";
const char* const kStateKey = "mainWindow/state";
const char* const kAutoValidateKey = "autoValidate";
const char* const kBytesPerRowKey = "hexView/bytesPerRow";
constexpr int kStateVersion = 1;
constexpr int kNetworkRefreshMs = 500;
// Steps of a repair plan shown in its preview before "Show Details".
constexpr std::size_t kPreviewSteps = 25;

// "Strata files (*.zs *.zds ...);;All files (*)": every registered format's patterns.
QString openDialogFilter() {
    QStringList patterns;
    for (const FormatHandler* handler : builtinFormats().handlers()) {
        for (const std::string& pattern : handler->fileDialogPatterns()) {
            patterns << QString::fromStdString(pattern);
        }
    }
    return MainWindow::tr("Strata files (%1);;All files (*)").arg(patterns.join(u' '));
}

QString canonical(const QString& path) {
    if (model::isRemoteUrl(path)) {
        return path.trimmed();  // a URL names itself; the local file system knows nothing of it
    }
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

// "Could not open URL: why", naming the URL once (remote errors start with it already), never
// with its password or token.
QString urlOpenError(const QString& typed, const QString& error) {
    const QString url = model::shownUrl(typed);
    const QString prefix = url + QStringLiteral(": ");
    return error.startsWith(prefix)
               ? MainWindow::tr("Could not open %1: %2").arg(url, error.mid(prefix.size()))
               : MainWindow::tr("Could not open %1: %2").arg(url, error);
}

// The tab already showing the remote location `typed` names, or -1.
int tabShowingUrl(const QTabWidget& tabs, const QString& typed) {
    const QString location = model::remoteLocationText(typed);
    for (int i = 0; i < tabs.count(); ++i) {
        const auto* view = qobject_cast<const DocumentView*>(tabs.widget(i));
        if (view != nullptr && view->document()->isRemote() &&
            view->document()->path() == location) {
            return i;
        }
    }
    return -1;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      runner_(new model::JobRunner(this)),
      tabs_(new QTabWidget(this)),
      undoGroup_(new QUndoGroup(this)) {
    setWindowTitle(tr("Strata"));
    setObjectName(QStringLiteral("StrataMainWindow"));
    setAcceptDrops(true);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    createActions();
    createDocks();
    createMenus();
    createStatusBar();
    restoreSettings();
    connect(runner_, &model::JobRunner::jobAdded, this, [this](model::Job* job) {
        connect(job, &model::Job::progressChanged, this, &MainWindow::updateJobStatus);
        connect(job, &model::Job::finished, this, &MainWindow::updateJobStatus);
        updateJobStatus();
    });
    onCurrentTabChanged();
}

MainWindow::~MainWindow() {
    runner_->cancelAll();
    // Tabs go first: their documents must outlive nothing that points into them.
    while (tabs_->count() > 0) {
        QWidget* w = tabs_->widget(0);
        tabs_->removeTab(0);
        delete w;
    }
    runner_->waitForDone();
}

// ---- construction -----------------------------------------------------------------------

void MainWindow::createActions() {
    undoAction_ = undoGroup_->createUndoAction(this, tr("&Undo"));
    undoAction_->setShortcuts(QKeySequence::Undo);
    redoAction_ = undoGroup_->createRedoAction(this, tr("&Redo"));
    redoAction_->setShortcuts(QKeySequence::Redo);

    saveAction_ = new QAction(tr("&Save"), this);
    saveAction_->setShortcuts(QKeySequence::Save);
    connect(saveAction_, &QAction::triggered, this, &MainWindow::save);
    saveAsAction_ = new QAction(tr("Save &As…"), this);
    saveAsAction_->setShortcuts(QKeySequence::SaveAs);
    connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveAsDialog);
    localCopyAction_ = new QAction(tr("Save a &Local Copy…"), this);
    localCopyAction_->setToolTip(tr("Download the remote file to a local path (a job)"));
    connect(localCopyAction_, &QAction::triggered, this, &MainWindow::saveLocalCopyDialog);
    computeEntropyAction_ = new QAction(tr("Compute &Entropy Profile"), this);
    connect(computeEntropyAction_, &QAction::triggered, this, [this] {
        if (DocumentView* view = currentView()) {
            view->computeEntropy();
            entropyDock_->show();
            entropyDock_->raise();
            showEntropy();
        }
    });
    closeAction_ = new QAction(tr("&Close Tab"), this);
    closeAction_->setShortcuts(QKeySequence::Close);
    connect(closeAction_, &QAction::triggered, this, [this] { closeTab(tabs_->currentIndex()); });

    auto hexAction = [this](const QString& text, void (HexView::*slot)()) {
        auto* action = new QAction(text, this);
        connect(action, &QAction::triggered, this, [this, slot] {
            if (DocumentView* view = currentView()) {
                (view->hexView()->*slot)();
            }
        });
        return action;
    };
    copyAction_ = hexAction(tr("&Copy"), &HexView::copy);
    copyAction_->setShortcuts(QKeySequence::Copy);
    copyAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copyHexAction_ = hexAction(tr("Copy as &Hex"), &HexView::copyAsHex);
    copyHexAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    copyTextAction_ = hexAction(tr("Copy as &Text"), &HexView::copyAsText);
    copyTextAction_->setShortcut(QKeySequence(tr("Ctrl+Alt+C")));
    copyCArrayAction_ = hexAction(tr("Copy as C &Array"), &HexView::copyAsCArray);
    copyCArrayAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+Alt+C")));

    findAction_ = new QAction(tr("&Find…"), this);
    findAction_->setShortcuts(QKeySequence::Find);
    connect(findAction_, &QAction::triggered, this, &MainWindow::find);
    findNextAction_ = new QAction(tr("Find &Next"), this);
    const QKeySequence goToKey(tr("Ctrl+G"));
    // Some desktops bind Ctrl+G to Find Next as well; here it is Go to Offset, and a key bound
    // to two actions would trigger neither.
    QList<QKeySequence> findNextKeys = QKeySequence::keyBindings(QKeySequence::FindNext);
    findNextKeys.removeAll(goToKey);
    findNextAction_->setShortcuts(findNextKeys);
    connect(findNextAction_, &QAction::triggered, this, &MainWindow::findNext);
    findPreviousAction_ = new QAction(tr("Find &Previous"), this);
    findPreviousAction_->setShortcuts(QKeySequence::FindPrevious);
    connect(findPreviousAction_, &QAction::triggered, this, &MainWindow::findPrevious);
    goToAction_ = new QAction(tr("&Go to Offset…"), this);
    goToAction_->setShortcut(goToKey);
    connect(goToAction_, &QAction::triggered, this, &MainWindow::goToOffsetDialog);
    bookmarkAction_ = new QAction(tr("Add &Bookmark"), this);
    bookmarkAction_->setShortcut(QKeySequence(tr("Ctrl+D")));
    connect(bookmarkAction_, &QAction::triggered, this, &MainWindow::addBookmark);
    validateAction_ = new QAction(tr("&Validate"), this);
    validateAction_->setShortcut(QKeySequence(tr("F7")));
    connect(validateAction_, &QAction::triggered, this, &MainWindow::validateCurrent);
    overwriteAction_ = new QAction(tr("&Overwrite Mode"), this);
    overwriteAction_->setCheckable(true);
    overwriteAction_->setShortcut(QKeySequence(Qt::Key_Insert));
    overwriteAction_->setToolTip(tr("Type over bytes in the hex view (undoable)"));
    connect(overwriteAction_, &QAction::toggled, this, [this](bool on) {
        if (DocumentView* view = currentView()) {
            view->hexView()->setEditable(on);
        }
    });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open File…"), this, &MainWindow::openFileDialog);
    open->setShortcuts(QKeySequence::Open);
    QAction* openFolder = file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    openFolder->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    QAction* openUrl = file->addAction(tr("Open &URL…"), this, &MainWindow::openUrlDialog);
    openUrl->setShortcut(QKeySequence(tr("Ctrl+Shift+U")));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Compare With…"), this, &MainWindow::compareWithDialog);
    file->addSeparator();
    // Builders of new files, one per format that has one; each runs as a background job and
    // opens its result.
    QMenu* create = file->addMenu(tr("&New"));
    create->addAction(tr("ZS File from &Text…"), this, [this] {
        showNewZsFileDialog(this, *runner_, [this](const QString& path) { openPath(path); });
    });
    file->addSeparator();
    file->addAction(saveAction_);
    file->addAction(saveAsAction_);
    file->addAction(localCopyAction_);
    reviewAction_ = file->addAction(tr("Re&view Changes…"), this, &MainWindow::reviewChanges);
    file->addAction(closeAction_);
    QAction* reload = file->addAction(tr("Re&load"), this, [this] {
        if (DocumentView* view = currentView()) {
            reloadView(view);
        }
    });
    reload->setShortcuts(QKeySequence::Refresh);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcuts(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undoAction_);
    edit->addAction(redoAction_);
    edit->addSeparator();
    edit->addAction(copyAction_);
    edit->addAction(copyHexAction_);
    edit->addAction(copyTextAction_);
    edit->addAction(copyCArrayAction_);
    edit->addSeparator();
    edit->addAction(overwriteAction_);
    edit->addSeparator();
    edit->addAction(findAction_);
    edit->addAction(findNextAction_);
    edit->addAction(findPreviousAction_);
    edit->addAction(goToAction_);
    edit->addAction(bookmarkAction_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* widths = view->addMenu(tr("&Bytes per Row"));
    widthGroup_ = new QActionGroup(this);
    for (int count : {8, 16, 24, 32}) {
        QAction* action = widths->addAction(QString::number(count));
        action->setCheckable(true);
        action->setData(count);
        widthGroup_->addAction(action);
        connect(action, &QAction::triggered, this, [this, count] {
            for (int i = 0; i < documentCount(); ++i) {
                viewAt(i)->hexView()->setBytesPerRow(count);
            }
            QSettings().setValue(kBytesPerRowKey, count);
        });
    }
    view->addSeparator();
    view->addAction(diagnosticsDock_->toggleViewAction());
    view->addAction(jobsDock_->toggleViewAction());
    view->addAction(bookmarksDock_->toggleViewAction());
    view->addAction(entropyDock_->toggleViewAction());

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(validateAction_);
    repairAction_ = tools->addAction(tr("&Repair…"), this, [this] { repairCurrent(); });
    tools->addAction(computeEntropyAction_);
    QAction* autoValidate = tools->addAction(tr("Validate on &Open"));
    autoValidate->setCheckable(true);
    autoValidate->setChecked(autoValidate_);
    connect(autoValidate, &QAction::toggled, this, &MainWindow::setAutoValidate);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Strata"), this, [this] {
        QMessageBox::about(this, tr("About Strata"),
                           tr("<b>Strata</b> %1<br>Inspector and editor for ZS, ZDS, Shardlake, "
                              "OZDF and zTensor files.")
                               .arg(QCoreApplication::applicationVersion()));
    });
}

void MainWindow::createDocks() {
    auto makeDock = [this](const QString& title, const QString& name, QWidget* content,
                           Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(content);
        addDockWidget(area, dock);
        return dock;
    };
    diagnostics_ = new DiagnosticsPanel(this);
    diagnosticsDock_ = makeDock(tr("Diagnostics"), QStringLiteral("DiagnosticsDock"), diagnostics_,
                                Qt::BottomDockWidgetArea);
    jobs_ = new JobsPanel(runner_, this);
    jobsDock_ = makeDock(tr("Jobs"), QStringLiteral("JobsDock"), jobs_, Qt::BottomDockWidgetArea);
    bookmarks_ = new BookmarksPanel(this);
    bookmarksDock_ = makeDock(tr("Bookmarks"), QStringLiteral("BookmarksDock"), bookmarks_,
                              Qt::BottomDockWidgetArea);
    entropy_ = new EntropyView(this);
    entropyDock_ =
        makeDock(tr("Entropy"), QStringLiteral("EntropyDock"), entropy_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(diagnosticsDock_, jobsDock_);
    tabifyDockWidget(jobsDock_, bookmarksDock_);
    tabifyDockWidget(bookmarksDock_, entropyDock_);
    diagnosticsDock_->raise();
    entropyDock_->hide();

    connect(diagnostics_, &DiagnosticsPanel::diagnosticActivated, this,
            [this](const strata::Diagnostic& d) {
                if (DocumentView* view = currentView()) {
                    view->showDiagnostic(d);
                }
            });
    connect(diagnostics_, &DiagnosticsPanel::validateRequested, this, &MainWindow::validateCurrent);
    connect(diagnostics_, &DiagnosticsPanel::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    connect(bookmarks_, &BookmarksPanel::bookmarkActivated, this, [this](int index) {
        if (DocumentView* view = currentView()) {
            view->goToBookmark(index);
        }
    });
    connect(bookmarks_, &BookmarksPanel::addRequested, this, &MainWindow::addBookmark);
    connect(entropyDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) {
            showEntropy();
        }
    });
    connect(entropy_, &EntropyView::offsetClicked, this, [this](quint64 offset) {
        if (DocumentView* view = currentView()) {
            view->goToOffset(offset);
        }
    });
}

void MainWindow::createStatusBar() {
    formatLabel_ = new QLabel(this);
    sizeLabel_ = new QLabel(this);
    cursorLabel_ = new QLabel(this);
    selectionLabel_ = new QLabel(this);
    jobLabel_ = new QLabel(this);
    readOnlyLabel_ = new QLabel(tr("read-only (remote)"), this);
    readOnlyLabel_->setObjectName(QStringLiteral("readOnlyIndicator"));
    readOnlyLabel_->hide();
    networkLabel_ = new QLabel(this);
    networkLabel_->setObjectName(QStringLiteral("networkIndicator"));
    networkLabel_->setToolTip(
        tr("Requests made, bytes fetched and blocks found in the cache "
           "for this remote document"));
    networkLabel_->hide();
    networkTimer_ = new QTimer(this);
    networkTimer_->setInterval(kNetworkRefreshMs);
    connect(networkTimer_, &QTimer::timeout, this, &MainWindow::updateNetworkStatus);
    jobProgress_ = new QProgressBar(this);
    jobProgress_->setRange(0, 1000);
    jobProgress_->setMaximumWidth(160);
    jobProgress_->setMaximumHeight(statusBar()->fontMetrics().height());
    jobProgress_->hide();
    jobLabel_->hide();
    statusBar()->addPermanentWidget(jobLabel_);
    statusBar()->addPermanentWidget(jobProgress_);
    statusBar()->addPermanentWidget(networkLabel_);
    statusBar()->addPermanentWidget(readOnlyLabel_);
    statusBar()->addPermanentWidget(formatLabel_);
    statusBar()->addPermanentWidget(sizeLabel_);
    statusBar()->addPermanentWidget(cursorLabel_);
    statusBar()->addPermanentWidget(selectionLabel_);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    autoValidate_ = settings.value(kAutoValidateKey, true).toBool();
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        resize(1440, 900);
    }
    layoutRestored_ = restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
    const int width = settings.value(kBytesPerRowKey, 16).toInt();
    for (QAction* action : widthGroup_->actions()) {
        action->setChecked(action->data().toInt() == width);
    }
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kStateVersion));
    settings.setValue(kAutoValidateKey, autoValidate_);
}

void MainWindow::setAutoValidate(bool on) {
    autoValidate_ = on;
    QSettings().setValue(kAutoValidateKey, on);
}

// ---- documents --------------------------------------------------------------------------

int MainWindow::documentCount() const {
    return tabs_->count();
}

DocumentView* MainWindow::viewAt(int index) const {
    return qobject_cast<DocumentView*>(tabs_->widget(index));
}

DocumentView* MainWindow::currentView() const {
    return qobject_cast<DocumentView*>(tabs_->currentWidget());
}

bool MainWindow::openPath(const QString& path) {
    if (model::isRemoteUrl(path)) {
        return openUrl(path, model::RemoteOpenSettings::load());
    }
    const QString wanted = canonical(path);
    for (int i = 0; i < documentCount(); ++i) {
        if (canonical(viewAt(i)->document()->path()) == wanted) {
            tabs_->setCurrentIndex(i);
            return true;
        }
    }
    QString error;
    std::unique_ptr<model::Document> document = model::Document::open(path, &error);
    if (!document) {
        showError(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    return showDocument(std::move(document));
}

bool MainWindow::openUrl(const QString& url, const model::RemoteOpenSettings& settings) {
    const QString wanted = url.trimmed();
    if (const int open = tabShowingUrl(*tabs_, wanted); open >= 0) {
        tabs_->setCurrentIndex(open);
        return true;
    }
    QString error;
    std::unique_ptr<model::Document> document;
    {
        // The first block and what the format's open reads come over the network.
        QApplication::setOverrideCursor(Qt::WaitCursor);
        statusBar()->showMessage(tr("Opening %1…").arg(model::shownUrl(wanted)));
        document = model::Document::openUrl(wanted, settings, &error);
        QApplication::restoreOverrideCursor();
    }
    if (!document) {
        showError(urlOpenError(wanted, error));
        return false;
    }
    return showDocument(std::move(document));
}

model::Job* MainWindow::startOpenUrl(const QString& url,
                                     const model::RemoteOpenSettings& settings) {
    const QString wanted = url.trimmed();
    if (const int open = tabShowingUrl(*tabs_, wanted); open >= 0) {
        tabs_->setCurrentIndex(open);
        return nullptr;
    }
    model::OpenUrlJob* job = model::startOpenUrl(*runner_, wanted, settings);
    statusBar()->showMessage(tr("Opening %1…").arg(model::shownUrl(wanted)), 5000);
    connect(job, &model::Job::finished, this, [this, job] {
        switch (job->state()) {
            case model::Job::State::Finished:
                if (std::unique_ptr<model::Document> document = job->takeDocument()) {
                    showDocument(std::move(document));
                }
                break;
            case model::Job::State::Failed:
                showError(urlOpenError(job->url(), job->errorText()));
                break;
            default:
                statusBar()->showMessage(
                    tr("Opening %1 was cancelled.").arg(model::shownUrl(job->url())), 5000);
                break;
        }
    });
    return job;
}

bool MainWindow::showDocument(std::unique_ptr<model::Document> document) {
    if (document->isRemote()) {
        // Opened twice in the background: the first tab wins.
        for (int i = 0; i < documentCount(); ++i) {
            if (viewAt(i)->document()->path() == document->path()) {
                tabs_->setCurrentIndex(i);
                return true;
            }
        }
    }
    auto* view = new DocumentView(std::move(document), runner_, builtinFormatViews(), tabs_);
    const int width = QSettings().value(kBytesPerRowKey, 16).toInt();
    view->hexView()->setBytesPerRow(width);
    model::Document* doc = view->document();
    undoGroup_->addStack(doc->undoStack());
    connect(view, &DocumentView::statusChanged, this, [this, view] {
        if (view == currentView()) {
            updateStatus();
        }
    });
    connect(view, &DocumentView::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    connect(view, &DocumentView::entropyReady, this, [this, view] {
        if (view == currentView()) {
            showEntropy();
        }
    });
    connect(doc, &model::Document::modifiedChanged, this, [this, view] { updateTabTitle(view); });
    connect(doc, &model::Document::pendingTextChanged, this,
            [this, view] { updateTabTitle(view); });
    connect(
        view, &DocumentView::reloadRequested, this, [this, view] { reloadView(view); },
        Qt::QueuedConnection);
    connect(view->hexView(), &HexView::editableChanged, this, [this, view](bool on) {
        if (view == currentView()) {
            overwriteAction_->setChecked(on);
        }
    });
    const int index = tabs_->addTab(view, doc->displayName());
    tabs_->setTabToolTip(index,
                         doc->isRemote() ? doc->path() : QDir::toNativeSeparators(doc->path()));
    tabs_->setCurrentIndex(index);
    if (doc->isRemote()) {
        model::addRecentUrl(doc->remoteUrl());
        rebuildRecentMenu();
        // Validating reads the whole file: over the network only when asked (F7).
        statusBar()->showMessage(tr("Opened %1 as %2, read-only (remote). Validate (F7) reads "
                                    "the whole file.")
                                     .arg(doc->displayName(), doc->formatName()),
                                 8000);
        return true;
    }
    addRecentFile(doc->path());
    if (autoValidate_) {
        view->validate();
    }
    statusBar()->showMessage(tr("Opened %1 as %2").arg(doc->displayName(), doc->formatName()),
                             5000);
    return true;
}

bool MainWindow::reloadView(DocumentView* view) {
    if (view != nullptr && view->document()->isRemote()) {
        return reloadRemoteView(view) != nullptr;
    }
    return reopenView(view, {}, false);
}

// A remote document is opened again as a job (a slow server never freezes the window); its
// tab is replaced when the new copy is open, and stays as it was when that fails.
model::Job* MainWindow::reloadRemoteView(DocumentView* view) {
    if (tabs_->indexOf(view) < 0) {
        return nullptr;
    }
    // The URL as it was typed: its password and token open it again.
    const QString url = view->document()->remoteUrl();
    const QPointer<DocumentView> old(view);
    const QVariantMap state = view->saveState();
    model::OpenUrlJob* job = model::startOpenUrl(*runner_, url, view->document()->remoteSettings());
    statusBar()->showMessage(tr("Reloading %1…").arg(view->document()->path()), 5000);
    connect(job, &model::Job::finished, this, [this, job, old, state] {
        if (job->state() != model::Job::State::Finished) {
            if (job->state() == model::Job::State::Failed) {
                showError(tr("Cannot reload: %1").arg(urlOpenError(job->url(), job->errorText())));
            }
            return;
        }
        std::unique_ptr<model::Document> document = job->takeDocument();
        const int index = old ? tabs_->indexOf(old) : -1;
        if (!document || index < 0) {
            return;  // the tab was closed meanwhile
        }
        removeView(index);
        showDocument(std::move(document));
        tabs_->tabBar()->moveTab(tabs_->currentIndex(), std::min(index, tabs_->count() - 1));
        currentView()->restoreState(state);
        statusBar()->showMessage(tr("Reloaded %1").arg(model::shownUrl(job->url())), 5000);
    });
    return job;
}

bool MainWindow::reopenView(DocumentView* view, const QString& newPath, bool afterSave) {
    const int index = tabs_->indexOf(view);
    if (index < 0) {
        return false;
    }
    const QString path = newPath.isEmpty() ? view->document()->path() : newPath;
    if (!confirmDiscard(view, !afterSave)) {
        return false;  // the user kept their unsaved edits
    }
    const QVariantMap state = view->saveState();
    removeView(index);
    if (!openPath(path)) {
        return false;
    }
    tabs_->tabBar()->moveTab(tabs_->currentIndex(), std::min(index, tabs_->count() - 1));
    currentView()->restoreState(state);
    if (afterSave) {
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    }
    return true;
}

void MainWindow::openPaths(const QStringList& paths) {
    for (const QString& path : paths) {
        if (model::isRemoteUrl(path)) {
            startOpenUrl(path, model::RemoteOpenSettings::load());
        } else {
            openPath(path);
        }
    }
}

void MainWindow::openFileDialog() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open File"), {}, openDialogFilter());
    openPaths(paths);
}

void MainWindow::openUrlDialog() {
    OpenUrlDialog dialog(model::recentUrls(), model::RemoteOpenSettings::load(), this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const model::RemoteOpenSettings settings = dialog.settings();
    settings.save();
    startOpenUrl(dialog.url(), settings);
}

void MainWindow::openFolderDialog() {
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open Folder"));
    if (!path.isEmpty()) {
        openPath(path);
    }
}

void MainWindow::compareWithDialog() {
    DocumentView* view = currentView();
    if (view == nullptr) {
        showError(tr("Open a file or folder first, then compare it with another."));
        return;
    }
    const QString a = view->document()->path();
    const QString b = QFileInfo(a).isDir()
                          ? QFileDialog::getExistingDirectory(this, tr("Compare %1 With").arg(a))
                          : QFileDialog::getOpenFileName(this, tr("Compare %1 With").arg(a),
                                                         QFileInfo(a).absolutePath());
    if (!b.isEmpty()) {
        compareFiles(a, b);
    }
}

CompareView* MainWindow::compareFiles(const QString& a, const QString& b) {
    QString error;
    auto comparison = model::Comparison::open(a, b, &error);
    if (!comparison) {
        showError(tr("Cannot compare: %1").arg(error));
        return nullptr;
    }
    return showComparison(std::move(comparison), {});
}

model::Job* MainWindow::reviewChanges() {
    DocumentView* view = currentView();
    if (view == nullptr) {
        showError(tr("Open a document and edit it first."));
        return nullptr;
    }
    const QString name = view->document()->displayName();
    QPointer<MainWindow> self(this);
    QString error;
    model::Job* job = model::startChangeReview(
        *runner_, *view->document(),
        [self, name](std::unique_ptr<model::Comparison> comparison, const QString& why) {
            if (!self) {
                return;
            }
            if (!comparison) {
                self->showError(tr("Cannot review the changes: %1").arg(why));
                return;
            }
            self->showComparison(std::move(comparison),
                                 tr("Review changes to %1: on disk (A) and as Save would write "
                                    "it (B)")
                                     .arg(name));
        },
        &error);
    if (job == nullptr) {
        showError(tr("Cannot review the changes: %1").arg(error));
    }
    return job;
}

model::Job* MainWindow::repairCurrent(const QString& output, model::RepairChoices choices) {
    DocumentView* view = currentView();
    if (view == nullptr) {
        showError(tr("Open a damaged file first."));
        return nullptr;
    }
    if (view->document()->isRemote()) {
        showError(tr("Repair reads and writes local files: save a local copy of %1 first "
                     "(File > Save a Local Copy…).")
                      .arg(view->document()->displayName()));
        return nullptr;
    }
    if (!canRepair(view->document()->format())) {
        QString why = QString::fromStdString(repairUnsupportedText(view->document()->format()));
        why[0] = why[0].toUpper();
        showError(why + QLatin1Char('.'));
        return nullptr;
    }
    const QString input = view->document()->path();
    const QString target = output.isEmpty() ? model::suggestedRepairPath(input) : output;
    // Digests (zTensor's, Shardlake's fingerprints) are recomputed only when asked.
    const QString digestsText = QString::fromStdString(
        builtinFormats().handler(view->document()->format()).recomputeDigestsText());
    const bool digestFormat = !digestsText.isEmpty();
    choices.recomputeDigests = choices.recomputeDigests && digestFormat;
    QPointer<MainWindow> self(this);
    return model::startRepair(
        *runner_, input, target, true,
        [self, input, target, choices, digestFormat, digestsText](
            std::shared_ptr<const RepairReport> plan, const QString& error) {
            if (!self) {
                return;
            }
            if (!plan) {
                self->showError(tr("Cannot repair %1: %2").arg(input, error));
                if (digestFormat && !choices.recomputeDigests && self->interactive_ &&
                    self->askToRecomputeDigests(error, digestsText)) {
                    self->repairCurrent(target, {true, choices.keepSuperseded});
                }
                return;
            }
            if (self->interactive_) {
                QMessageBox ask(QMessageBox::Question, tr("Repair"),
                                tr("Write the repaired copy to %1?").arg(target),
                                QMessageBox::Cancel, self);
                // A long report (thousands of dropped lines) would outgrow the screen: the
                // first steps here, all of them under Show Details (which scrolls).
                ask.setInformativeText(model::repairReportText(*plan, kPreviewSteps));
                if (plan->losses.size() + plan->actions.size() > kPreviewSteps) {
                    ask.setDetailedText(model::repairReportText(*plan));
                }
                ask.addButton(tr("&Repair"), QMessageBox::AcceptRole);
                std::map<QAbstractButton*, model::RepairChoices> replans;
                for (const model::RepairReplan replan : model::repairReplans(*plan, choices)) {
                    model::RepairChoices other = choices;
                    QString label;
                    if (replan == model::RepairReplan::RecomputeDigests) {
                        other.recomputeDigests = true;
                        label = tr("Plan Again, Recomputing &Digests");
                    } else {
                        other.keepSuperseded = true;
                        label = tr("Plan Again, Keeping &Superseded Lines");
                    }
                    replans[ask.addButton(label, QMessageBox::ActionRole)] = other;
                }
                if (ask.exec() == QMessageBox::Cancel) {
                    return;
                }
                const auto replan = replans.find(ask.clickedButton());
                if (replan != replans.end()) {
                    self->repairCurrent(target, replan->second);
                    return;
                }
            }
            self->runRepair(input, target, choices);
        },
        choices);
}

bool MainWindow::askToRecomputeDigests(const QString& why, const QString& whatItKeeps) {
    QMessageBox ask(QMessageBox::Question, tr("Repair"),
                    tr("Nothing can be saved with the digests as they are."), QMessageBox::Cancel,
                    this);
    ask.setInformativeText(why + QStringLiteral("\n\n") + whatItKeeps);
    QPushButton* replan =
        ask.addButton(tr("Plan Again, Recomputing &Digests"), QMessageBox::AcceptRole);
    ask.exec();
    return ask.clickedButton() == replan;
}

void MainWindow::runRepair(const QString& input, const QString& target,
                           model::RepairChoices choices) {
    QPointer<MainWindow> self(this);
    model::startRepair(
        *runner_, input, target, false,
        [self, input, target](std::shared_ptr<const RepairReport> done, const QString& why) {
            if (!self) {
                return;
            }
            if (!done) {
                self->showError(tr("The repair failed: %1").arg(why));
                return;
            }
            self->statusBar()->showMessage(
                tr("Repaired copy written: %1")
                    .arg(model::repairReportText(*done).section(QLatin1Char('\n'), 0, 0)),
                10000);
            self->openPath(target);
            self->compareRepair(input, target);
        },
        choices);
}

void MainWindow::compareRepair(const QString& damaged, const QString& repaired) {
    QString error;
    auto comparison = model::Comparison::open(damaged, repaired, &error);
    if (comparison) {  // formats without a differ yet simply get no view
        showComparison(std::move(comparison),
                       tr("Repair of %1: the damaged file (A) and the repaired copy (B)")
                           .arg(QFileInfo(damaged).fileName()));
    }
}

CompareView* MainWindow::showComparison(std::unique_ptr<model::Comparison> comparison,
                                        const QString& title) {
    auto* view = new CompareView(std::move(comparison), *runner_, this);
    if (!title.isEmpty()) {
        view->setWindowTitle(title);
    }
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->resize(size());
    view->start({});
    view->show();
    return view;
}

void MainWindow::showError(const QString& text) {
    lastError_ = text;
    statusBar()->showMessage(text, 10000);
    if (interactive_) {
        QMessageBox::warning(this, tr("Strata"), text);
    }
}

void MainWindow::updateTabTitle(DocumentView* view) {
    const int index = tabs_->indexOf(view);
    if (index < 0) {
        return;
    }
    const model::Document* doc = view->document();
    const bool unsaved = doc->isModified() || doc->hasPendingText();
    tabs_->setTabText(index,
                      unsaved ? doc->displayName() + QStringLiteral(" *") : doc->displayName());
    updateActions();
}

void MainWindow::commitOpenCellEditor() {
    QWidget* focus = QApplication::focusWidget();
    for (QWidget* w = focus; w != nullptr; w = w->parentWidget()) {
        auto* itemView = qobject_cast<QAbstractItemView*>(w);
        if (itemView != nullptr) {
            // A cell editor is a child of the view's viewport.
            if (focus != itemView->viewport() && itemView->viewport()->isAncestorOf(focus)) {
                focus->clearFocus();  // the delegate commits on focus out
            }
            return;
        }
    }
}

bool MainWindow::confirmDiscard(DocumentView* view, bool askAboutText) {
    commitOpenCellEditor();
    model::Document* doc = view->document();
    const bool edits = doc->isModified();
    const QList<model::TextDraft*> drafts =
        askAboutText ? doc->pendingDrafts() : QList<model::TextDraft*>{};
    if ((!edits && drafts.isEmpty()) || !interactive_) {
        return true;
    }
    tabs_->setCurrentWidget(view);
    QStringList targets;
    for (model::TextDraft* draft : drafts) {
        targets << draft->target();
    }
    if (!drafts.isEmpty()) {
        drafts.front()->requestShow();
    }
    const QString name = doc->displayName();
    const QString typed = targets.join(QStringLiteral(", "));
    const QString text =
        drafts.isEmpty() ? tr("%1 has unsaved edits. Save them before closing?").arg(name)
        : edits ? tr("%1 has unsaved edits, and text you typed for %2 is not applied yet. Apply "
                     "and save them before closing?")
                      .arg(name, typed)
                : tr("You typed text for %2 in %1 and did not apply it. Apply and save it before "
                     "closing?")
                      .arg(name, typed);
    const auto answer = QMessageBox::question(
        this, tr("Unsaved Changes"), text,
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) {
        return saveBeforeClosing(view);
    }
    if (answer == QMessageBox::Discard) {
        for (model::TextDraft* draft : drafts) {
            draft->discard();
        }
        return true;
    }
    return false;
}

bool MainWindow::saveBeforeClosing(DocumentView* view) {
    model::Document* doc = view->document();
    if (doc->editor() == nullptr) {
        saveAsDialog();  // byte edits: where to write them is the user's choice
        return !doc->isModified();
    }
    // In place, like Save, and wait: the tab goes away once the files are written.
    QPointer<model::Job> job = startFormatSave(view, doc->path(), false);
    if (job.isNull()) {
        return false;
    }
    if (job->isRunning()) {
        QEventLoop loop;
        connect(job, &model::Job::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    const bool saved =
        !job.isNull() && job->state() == model::Job::State::Finished && !doc->isModified();
    if (saved && doc->hasPendingText()) {
        keepOpenWithText(view);
        return false;
    }
    return saved;
}

void MainWindow::keepOpenWithText(DocumentView* view) {
    QStringList targets;
    for (model::TextDraft* draft : view->document()->pendingDrafts()) {
        targets << draft->target();
    }
    const QString message =
        tr("Saved the other edits. %1 stays open with the text you typed "
           "for %2, which is not applied.")
            .arg(view->document()->displayName(), targets.join(QStringLiteral(", ")));
    // As after any save, the tab shows the saved files; the text comes back in its editor.
    QPointer<DocumentView> guard(view);
    QMetaObject::invokeMethod(
        this,
        [this, guard, message] {
            if (guard && reopenView(guard, {}, true)) {
                statusBar()->showMessage(message);
            }
        },
        Qt::QueuedConnection);
}

bool MainWindow::applyPendingText(DocumentView* view, bool closing) {
    for (model::TextDraft* draft : view->document()->pendingDrafts()) {
        const QString error = draft->apply();
        if (error.isEmpty()) {
            continue;
        }
        tabs_->setCurrentWidget(view);
        draft->requestShow();
        const QString problem =
            tr("The text you typed for %1 cannot be applied: %2").arg(draft->target(), error);
        if (!interactive_) {
            showError(tr("Not saved. %1").arg(problem));
            return false;
        }
        QMessageBox box(QMessageBox::Warning, tr("Text Not Applied"), problem,
                        QMessageBox::NoButton, this);
        box.setInformativeText(
            closing ? tr("Fix the text and save again, or save the other edits and keep this tab "
                         "open with the text, to fix it later.")
                    : tr("Fix the text and save again, or save the other edits and keep the text "
                         "to fix later."));
        QPushButton* fix = box.addButton(tr("&Fix the Text"), QMessageBox::RejectRole);
        QPushButton* without = box.addButton(tr("&Save Without It"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(fix);
        box.exec();
        if (box.clickedButton() != without) {
            return false;
        }
    }
    return true;
}

bool MainWindow::closeTab(int index) {
    DocumentView* view = viewAt(index);
    if (view == nullptr || !confirmDiscard(view)) {
        return false;
    }
    removeView(index);
    return true;
}

void MainWindow::removeView(int index) {
    DocumentView* view = viewAt(index);
    undoGroup_->removeStack(view->document()->undoStack());
    tabs_->removeTab(index);
    delete view;
}

QString MainWindow::saveCurrentAs(const QString& path) {
    DocumentView* view = currentView();
    if (view == nullptr || view->currentFile() == nullptr) {
        return tr("No file is open.");
    }
    model::Document* doc = view->document();
    model::ByteOverlay* file = view->currentFile();
    const QString error =
        file == doc->primaryFile() ? doc->saveAs(path) : doc->saveFileAs(file, path);
    if (error.isEmpty()) {
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
        updateTabTitle(view);
    }
    return error;
}

model::Job* MainWindow::startEditorSave(DocumentView* view, const QString& path) {
    return startFormatSave(view, path, true);
}

model::Job* MainWindow::startFormatSave(DocumentView* view, const QString& path, bool reopen) {
    if (!applyPendingText(view, !reopen)) {
        return nullptr;
    }
    model::FormatEditor* editor = view->document()->editor();
    QString error;
    model::Job* job = editor->startSave(*runner_, path, &error);
    if (job == nullptr) {
        showError(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), error));
        return nullptr;
    }
    view->trackJob(job);
    const bool inPlace = canonical(path) == canonical(view->document()->path());
    QPointer<DocumentView> guard(view);
    connect(job, &model::Job::stateChanged, this,
            [this, path, inPlace, guard, reopen](model::Job::State state) {
                if (state != model::Job::State::Finished) {
                    return;
                }
                statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
                if (!guard || !reopen) {
                    return;
                }
                // The views still show the old mapped files: open the saved content. After a
                // Save As the tab moves to the new file, as in any editor; the edits now live
                // there, so the old document has nothing left to lose.
                if (!inPlace) {
                    guard->document()->undoStack()->setClean();
                }
                const QString reopenPath = inPlace ? QString() : path;
                QMetaObject::invokeMethod(
                    this,
                    [this, guard, reopenPath] {
                        if (guard) {
                            reopenView(guard, reopenPath, true);
                        }
                    },
                    Qt::QueuedConnection);
            });
    return job;
}

void MainWindow::save() {
    commitOpenCellEditor();
    DocumentView* view = currentView();
    if (view != nullptr && view->document()->isReadOnly()) {
        saveLocalCopyDialog();  // nothing is written back to a server
        return;
    }
    if (view != nullptr && view->document()->editor() != nullptr) {
        // The format's writer saves the content it understands, in place and atomically.
        startEditorSave(view, view->document()->path());
        return;
    }
    if (view == nullptr || view->currentFile() == nullptr) {
        return;
    }
    model::Document* doc = view->document();
    const QString target = QString::fromStdString(view->currentFile()->source().name());
    if (doc->format() != strata::kRawBinaryFormat) {
        if (!interactive_) {
            return;  // never overwrite a format file in place without asking
        }
        // Overwriting a structured file in place can break it; Save As is the default.
        QMessageBox box(QMessageBox::Warning, tr("Overwrite %1?").arg(doc->formatName()),
                        tr("Saving writes your edits over %1 in place. Edited bytes can make a "
                           "%2 file invalid; Save As keeps the original.")
                            .arg(QDir::toNativeSeparators(target), doc->formatName()),
                        QMessageBox::NoButton, this);
        QPushButton* saveAs = box.addButton(tr("Save &As…"), QMessageBox::AcceptRole);
        QPushButton* overwrite = box.addButton(tr("&Overwrite"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(saveAs);
        box.exec();
        if (box.clickedButton() == saveAs) {
            saveAsDialog();
            return;
        }
        if (box.clickedButton() != overwrite) {
            return;
        }
    }
    const QString error = saveCurrentAs(target);
    if (!error.isEmpty()) {
        showError(tr("Could not save %1: %2").arg(target, error));
    }
}

model::Job* MainWindow::saveLocalCopy(const QString& path) {
    DocumentView* view = currentView();
    if (view == nullptr || path.isEmpty()) {
        return nullptr;
    }
    model::Job* job = model::startLocalCopy(*runner_, *view->document(), path);
    if (job == nullptr) {
        showError(tr("%1 has no file to save.").arg(view->document()->displayName()));
        return nullptr;
    }
    view->trackJob(job);
    jobsDock_->show();
    QPointer<MainWindow> self(this);
    connect(job, &model::Job::finished, this, [self, job, path] {
        if (!self) {
            return;
        }
        const QString shown = QDir::toNativeSeparators(path);
        if (job->state() == model::Job::State::Finished) {
            self->statusBar()->showMessage(tr("Saved a local copy: %1").arg(shown), 8000);
        } else if (job->state() == model::Job::State::Failed) {
            self->showError(
                tr("Could not save a local copy to %1: %2").arg(shown, job->errorText()));
        } else {
            self->statusBar()->showMessage(
                tr("Local copy cancelled; %1 was not written.").arg(shown), 8000);
        }
    });
    return job;
}

void MainWindow::saveLocalCopyDialog() {
    DocumentView* view = currentView();
    if (view == nullptr) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Save a Local Copy"),
                                                      view->document()->displayName());
    if (!path.isEmpty()) {
        saveLocalCopy(path);
    }
}

void MainWindow::saveAsDialog() {
    commitOpenCellEditor();
    DocumentView* view = currentView();
    if (view != nullptr && view->document()->isReadOnly()) {
        saveLocalCopyDialog();
        return;
    }
    if (view != nullptr && view->document()->editor() != nullptr) {
        model::Document* doc = view->document();
        const QString path =
            doc->editor()->savesToFolder()
                ? QFileDialog::getExistingDirectory(this, tr("Save to Folder"), doc->path())
                : QFileDialog::getSaveFileName(this, tr("Save As"), doc->path());
        if (!path.isEmpty()) {
            startEditorSave(view, path);
        }
        return;
    }
    if (view == nullptr || view->currentFile() == nullptr) {
        return;
    }
    const QString current = QString::fromStdString(view->currentFile()->source().name());
    const QString path = QFileDialog::getSaveFileName(this, tr("Save As"), current);
    if (path.isEmpty()) {
        return;
    }
    const QString error = saveCurrentAs(path);
    if (!error.isEmpty()) {
        showError(tr("Could not save %1: %2").arg(path, error));
    }
}

// ---- commands ---------------------------------------------------------------------------

void MainWindow::goToOffsetDialog() {
    DocumentView* view = currentView();
    if (view == nullptr) {
        return;
    }
    HexView* hex = view->hexView();
    GoToOffsetDialog dialog(hex->cursorOffset(), hex->size(), this);
    if (dialog.exec() == QDialog::Accepted && dialog.offset()) {
        view->goToOffset(*dialog.offset());
    }
}

void MainWindow::addBookmark() {
    if (DocumentView* view = currentView()) {
        view->addBookmark();
        bookmarksDock_->show();
        bookmarksDock_->raise();
    }
}

void MainWindow::validateCurrent() {
    if (DocumentView* view = currentView()) {
        if (view->validate() != nullptr) {
            diagnosticsDock_->show();
            diagnosticsDock_->raise();
        }
    }
}

void MainWindow::find() {
    if (DocumentView* view = currentView()) {
        view->showSearchBar();
    }
}

void MainWindow::findNext() {
    if (DocumentView* view = currentView()) {
        view->showSearchBar();
        view->find(false);
    }
}

void MainWindow::findPrevious() {
    if (DocumentView* view = currentView()) {
        view->showSearchBar();
        view->find(false, true);
    }
}

void MainWindow::showEntropy() {
    DocumentView* view = currentView();
    if (view == nullptr) {
        entropy_->clear(tr("No document is open."));
        return;
    }
    if (view->entropy()) {
        entropy_->setProfile(*view->entropy());
    } else if (view->document()->isRemote() && !view->entropyRequested()) {
        // The profile reads every byte: over the network only when asked.
        entropy_->clear(
            tr("The entropy profile reads the whole remote file: Tools > Compute "
               "Entropy Profile starts it."));
    } else {
        entropy_->clear(tr("Computing the entropy profile…"));
        view->computeEntropy();
    }
}

void MainWindow::raiseWindow() {
    if (isMinimized()) {
        showNormal();
    }
    show();
    raise();
    activateWindow();
}

bool MainWindow::waitUntilIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        if (runner_->activeJob() == nullptr) {
            // Let queued results (diagnostic batches, profiles) land before saying idle.
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            if (runner_->activeJob() == nullptr) {
                // Views coalesce diagnostics on short timers; give those a moment too.
                QDeadlineTimer settle(300);
                while (!settle.hasExpired()) {
                    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
                    QThread::msleep(10);
                }
                return runner_->activeJob() == nullptr;
            }
        }
        QThread::msleep(10);
    }
    return false;
}

// ---- state shown --------------------------------------------------------------------------

void MainWindow::onCurrentTabChanged() {
    DocumentView* view = currentView();
    undoGroup_->setActiveStack(view ? view->document()->undoStack() : nullptr);
    diagnostics_->setDocument(view ? view->document() : nullptr);
    bookmarks_->setDocument(view ? view->document() : nullptr);
    if (view) {
        overwriteAction_->setChecked(view->hexView()->isEditable());
        const model::Document* doc = view->document();
        setWindowTitle(doc->isReadOnly()
                           ? tr("%1 — read-only (remote) — Strata").arg(doc->displayName())
                           : tr("%1 — Strata").arg(doc->displayName()));
    } else {
        setWindowTitle(tr("Strata"));
    }
    if (entropyDock_->isVisible()) {
        showEntropy();
    } else {
        entropy_->clear();
    }
    updateStatus();
    updateActions();
    updateNetworkStatus();
}

void MainWindow::updateActions() {
    const DocumentView* view = currentView();
    const bool open = view != nullptr;
    for (QAction* a :
         {saveAction_, saveAsAction_, closeAction_, copyAction_, copyHexAction_, copyTextAction_,
          copyCArrayAction_, findAction_, findNextAction_, findPreviousAction_, goToAction_,
          bookmarkAction_, validateAction_, overwriteAction_}) {
        a->setEnabled(open);
    }
    reviewAction_->setEnabled(open);
    // Remote documents are read-only: nothing edits them or writes them back.
    const bool readOnly = open && view->document()->isReadOnly();
    for (QAction* a : {saveAction_, reviewAction_, overwriteAction_, repairAction_}) {
        a->setEnabled(open && !readOnly);
    }
    localCopyAction_->setEnabled(readOnly);
    computeEntropyAction_->setEnabled(open);
}

void MainWindow::updateNetworkStatus() {
    const DocumentView* view = currentView();
    const bool remote = view != nullptr && view->document()->isRemote();
    networkLabel_->setVisible(remote);
    readOnlyLabel_->setVisible(remote && view->document()->isReadOnly());
    if (!remote) {
        networkTimer_->stop();
        return;
    }
    if (!networkTimer_->isActive()) {
        networkTimer_->start();
    }
    networkLabel_->setText(model::networkSummary(view->document()->networkStats()));
}

void MainWindow::updateStatus() {
    DocumentView* view = currentView();
    if (view == nullptr || view->currentFile() == nullptr) {
        for (QLabel* label : {formatLabel_, sizeLabel_, cursorLabel_, selectionLabel_}) {
            label->clear();
        }
        return;
    }
    const HexView* hex = view->hexView();
    formatLabel_->setText(view->document()->formatName());
    sizeLabel_->setText(model::formatSize(hex->size()));
    cursorLabel_->setText(tr("Offset %1").arg(model::formatOffset(hex->cursorOffset())));
    selectionLabel_->setText(hex->hasSelection()
                                 ? tr("Selected %1 at %2")
                                       .arg(model::formatSize(hex->selectionLength()),
                                            model::formatOffset(hex->selectionStart()))
                                 : QString());
}

void MainWindow::updateJobStatus() {
    model::Job* job = runner_->activeJob();
    jobProgress_->setVisible(job != nullptr);
    jobLabel_->setVisible(job != nullptr);
    if (job == nullptr) {
        return;
    }
    jobLabel_->setText(job->statusText().isEmpty()
                           ? job->title()
                           : job->title() + QStringLiteral(": ") + job->statusText());
    jobProgress_->setValue(static_cast<int>(job->progress() * 1000));
}

// ---- recent files, drag and drop, closing -------------------------------------------------

QStringList MainWindow::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentFile(const QString& path) {
    QStringList recent = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentFiles) {
        recent.removeLast();
    }
    QSettings().setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent) {
        recentMenu_->addAction(QDir::toNativeSeparators(path), this,
                               [this, path] { openPath(path); });
    }
    // URLs after the files, opened in the background like File > Open URL….
    const QStringList urls = model::recentUrls();
    if (!recent.isEmpty() && !urls.isEmpty()) {
        recentMenu_->addSeparator();
    }
    for (const QString& url : urls) {
        recentMenu_->addAction(model::shownUrl(url), this, [this, url] { openPaths({url}); });
    }
    const bool any = !recent.isEmpty() || !urls.isEmpty();
    recentMenu_->setEnabled(any);
    if (any) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("&Clear List"), this, [this] {
            QSettings().remove(kRecentKey);
            model::clearRecentUrls();
            rebuildRecentMenu();
        });
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        for (const QUrl& url : event->mimeData()->urls()) {
            if (url.isLocalFile() || model::isRemoteUrl(url.toString())) {
                event->acceptProposedAction();
                return;
            }
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            paths << url.toLocalFile();
        } else if (model::isRemoteUrl(url.toString())) {
            paths << url.toString();  // a link dragged from a browser opens read-only
        }
    }
    openPaths(paths);
    event->acceptProposedAction();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (firstShow_ && !layoutRestored_) {
        // First run: keep the bottom docks low so the hex view gets the height.
        resizeDocks({diagnosticsDock_}, {fontMetrics().height() * 11}, Qt::Vertical);
    }
    firstShow_ = false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    for (int i = 0; i < documentCount(); ++i) {
        if (!confirmDiscard(viewAt(i))) {
            event->ignore();
            return;
        }
    }
    saveSettings();
    event->accept();
}

}  // namespace strata::gui
