#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDeadlineTimer>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QToolBar>
#include <QUndoGroup>

#include "app/gui/builtin_format_views.h"
#include "app/widgets/document_view.h"
#include "app/widgets/goto_offset_dialog.h"
#include "app/widgets/hex_view.h"
#include "app/widgets/screen_fit.h"
#include "formats/builtin/builtin_formats.h"
#include "main_toolbar.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/core/remote_access.h"
#include "navigation_actions.h"
#include "start_page.h"

namespace strata::gui {
namespace {

const char* const kGeometryKey = "mainWindow/geometry";
const char* const kStateKey = "mainWindow/state";
const char* const kAutoValidateKey = "autoValidate";
const char* const kBytesPerRowKey = "hexView/bytesPerRow";
constexpr int kStateVersion = 1;
// The first window's size on a screen that has room for it.
constexpr QSize kPreferredSize(1440, 900);

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : MainWindow(builtinFormats(), builtinFormatViews(), parent) {}

MainWindow::MainWindow(const FormatRegistry& formats, const FormatViews& views, QWidget* parent)
    : QMainWindow(parent),
      formats_(formats),
      views_(views),
      runner_(new model::JobRunner(this)),
      tabs_(new QTabWidget(this)),
      undoGroup_(new QUndoGroup(this)),
      opener_(new OpenController(*this)),
      saves_(new SaveController(*this)),
      repairs_(new RepairController(*this)),
      comparisons_(new CompareController(*this)) {
    setWindowTitle(tr("Strata"));
    setObjectName(QStringLiteral("StrataMainWindow"));
    setAcceptDrops(true);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    tabs_->setDocumentMode(true);
    // The start page while no document is open, the tabs once one is.
    centre_ = new QStackedWidget(this);
    centre_->addWidget(tabs_);
    setCentralWidget(centre_);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);

    docks_ = new WindowDocks(*this);
    browser_ = new BrowserController(*this);
    startPage_ = new StartPage(*opener_, *browser_, views_, formats_, centre_);
    centre_->addWidget(startPage_);
    createActions();
    createMenus();
    status_ = new WindowStatusBar(statusBar(), runner_, this);
    restoreSettings();
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
    connect(saveAsAction_, &QAction::triggered, saves_, &SaveController::saveAsDialog);
    localCopyAction_ = new QAction(tr("Save a Local Cop&y…"), this);
    localCopyAction_->setToolTip(tr("Download the remote file to a local path (a job)"));
    connect(localCopyAction_, &QAction::triggered, saves_, &SaveController::saveLocalCopyDialog);
    computeEntropyAction_ = new QAction(tr("Compute &Entropy Profile"), this);
    connect(computeEntropyAction_, &QAction::triggered, docks_, &WindowDocks::raiseEntropy);
    navigation_ = new NavigationActions(this);
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
    QAction* open = file->addAction(tr("&Open File…"), opener_, &OpenController::openFileDialog);
    open->setShortcuts(QKeySequence::Open);
    QAction* openFolder =
        file->addAction(tr("Open &Folder…"), opener_, &OpenController::openFolderDialog);
    openFolder->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    QAction* openUrl = file->addAction(tr("Open &URL…"), opener_, &OpenController::openUrlDialog);
    openUrl->setShortcut(QKeySequence(tr("Ctrl+Shift+U")));
    QAction* browse = file->addAction(tr("Open Folder or &Bucket…"), browser_,
                                      &BrowserController::openFolderOrBucketDialog);
    opener_->setRecentMenu(file->addMenu(tr("Open &Recent")));
    QAction* compare =
        file->addAction(tr("Compare &With…"), comparisons_, &CompareController::compareWithDialog);
    file->addSeparator();
    // Builders of new files, as the formats registered them; each runs as a background job
    // and opens its result.
    QMenu* create = file->addMenu(tr("&New"));
    for (const FormatViews::NewFileAction& action : views_.newFileActions()) {
        create->addAction(action.label, this, [this, run = action.run] {
            run(this, *runner_, [this](const QString& path) { openPath(path); });
        });
    }
    create->setEnabled(!create->isEmpty());
    file->addSeparator();
    file->addAction(saveAction_);
    file->addAction(saveAsAction_);
    file->addAction(localCopyAction_);
    reviewAction_ =
        file->addAction(tr("Re&view Changes…"), comparisons_, &CompareController::reviewChanges);
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
    edit->addAction(navigation_->back());
    edit->addAction(navigation_->forward());
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
    docks_->addToggles(view);
    view->addAction(browser_->dock()->toggleViewAction());

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

    toolBar_ =
        addMainToolBar(*this, {open, browse, saveAction_, validateAction_, compare, repairAction_,
                               findAction_, navigation_->back(), navigation_->forward()});
    view->addAction(toolBar_->toggleViewAction());
}

void MainWindow::restoreSettings() {
    QSettings settings;
    autoValidate_ = settings.value(kAutoValidateKey, true).toBool();
    // The first window fits its screen; later ones come back where they were, on the screen
    // they open on now.
    if (restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        clampToScreen(this);
    } else {
        fitFirstWindow(this, kPreferredSize);
    }
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
    auto* view = new DocumentView(std::move(document), runner_, views_, tabs_);
    const int width = QSettings().value(kBytesPerRowKey, 16).toInt();
    view->hexView()->setBytesPerRow(width);
    model::Document* doc = view->document();
    undoGroup_->addStack(doc->undoStack());
    connect(view, &DocumentView::statusChanged, this, [this, view] {
        if (view == currentView()) {
            status_->updateCursor();
        }
    });
    connect(view, &DocumentView::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    connect(view, &DocumentView::entropyReady, this, [this, view] {
        if (view == currentView()) {
            docks_->showEntropy();
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
        opener_->rememberOpened(doc->remoteUrl(), true);
        // Validating reads the whole file: over the network only when asked (F7).
        statusBar()->showMessage(tr("Opened %1 as %2, read-only (remote). Validate (F7) reads "
                                    "the whole file.")
                                     .arg(doc->displayName(), doc->formatName()),
                                 8000);
        return true;
    }
    opener_->rememberOpened(doc->path(), false);
    if (autoValidate_) {
        view->validate();
    }
    statusBar()->showMessage(tr("Opened %1 as %2").arg(doc->displayName(), doc->formatName()),
                             5000);
    return true;
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

bool MainWindow::closeTab(int index) {
    DocumentView* view = viewAt(index);
    if (view == nullptr || !saves_->confirmDiscard(view)) {
        return false;
    }
    removeView(index);
    return true;
}

model::Job* MainWindow::compareFiles(const QString& a, const QString& b) {
    return comparisons_->compareFiles(a, b, model::RemoteOpenSettings::load());
}

void MainWindow::showJobs() {
    docks_->raiseJobs();
}

void MainWindow::removeView(int index) {
    DocumentView* view = viewAt(index);
    undoGroup_->removeStack(view->document()->undoStack());
    tabs_->removeTab(index);
    delete view;
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
        docks_->raiseBookmarks();
    }
}

void MainWindow::validateCurrent() {
    if (DocumentView* view = currentView()) {
        if (view->validate() != nullptr) {
            docks_->raiseDiagnostics();
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
    centre_->setCurrentWidget(tabs_->count() > 0 ? static_cast<QWidget*>(tabs_) : startPage_);
    undoGroup_->setActiveStack(view ? view->document()->undoStack() : nullptr);
    if (view) {
        overwriteAction_->setChecked(view->hexView()->isEditable());
        const model::Document* doc = view->document();
        setWindowTitle(doc->isReadOnly()
                           ? tr("%1 — read-only (remote) — Strata").arg(doc->displayName())
                           : tr("%1 — Strata").arg(doc->displayName()));
    } else {
        setWindowTitle(tr("Strata"));
    }
    docks_->showView(view);
    status_->showView(view);
    navigation_->showView(view);
    updateActions();
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

// ---- recent files, drag and drop, closing -------------------------------------------------

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
    if (firstShow_) {
        clampToScreen(this);  // now with its frame
        // The docks' state is restored once the window has its size on the screen: restored
        // before, Qt fits the saved dock sizes to a window not laid out yet, and the docks grew
        // from one launch to the next.
        const bool restored =
            restoreState(QSettings().value(kStateKey).toByteArray(), kStateVersion);
        if (!restored) {
            docks_
                ->keepLow();  // first run: the bottom docks stay low, the hex view gets the height
        }
    }
    firstShow_ = false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    for (int i = 0; i < documentCount(); ++i) {
        if (!saves_->confirmDiscard(viewAt(i))) {
            event->ignore();
            return;
        }
    }
    saveSettings();
    event->accept();
}

}  // namespace strata::gui
