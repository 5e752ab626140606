#include "window_docks.h"

#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>

#include "app/widgets/bookmarks_panel.h"
#include "app/widgets/diagnostics_panel.h"
#include "app/widgets/document_view.h"
#include "app/widgets/entropy_view.h"
#include "app/widgets/jobs_panel.h"
#include "main_window.h"
#include "model/core/document.h"

namespace strata::gui {
namespace {

QDockWidget* makeDock(QMainWindow& window, const QString& title, const QString& name,
                      QWidget* content) {
    auto* dock = new QDockWidget(title, &window);
    dock->setObjectName(name);
    dock->setWidget(content);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    return dock;
}

}  // namespace

WindowDocks::WindowDocks(MainWindow& window)
    : QObject(&window),
      window_(window),
      diagnostics_(new DiagnosticsPanel(&window)),
      jobs_(new JobsPanel(window.jobRunner(), &window)),
      bookmarks_(new BookmarksPanel(&window)),
      entropy_(new EntropyView(&window)),
      diagnosticsDock_(
          makeDock(window, tr("Diagnostics"), QStringLiteral("DiagnosticsDock"), diagnostics_)),
      jobsDock_(makeDock(window, tr("Jobs"), QStringLiteral("JobsDock"), jobs_)),
      bookmarksDock_(
          makeDock(window, tr("Bookmarks"), QStringLiteral("BookmarksDock"), bookmarks_)),
      entropyDock_(makeDock(window, tr("Entropy"), QStringLiteral("EntropyDock"), entropy_)) {
    window.tabifyDockWidget(diagnosticsDock_, jobsDock_);
    window.tabifyDockWidget(jobsDock_, bookmarksDock_);
    window.tabifyDockWidget(bookmarksDock_, entropyDock_);
    diagnosticsDock_->raise();
    entropyDock_->hide();

    connect(diagnostics_, &DiagnosticsPanel::diagnosticActivated, this,
            [this](const strata::Diagnostic& d) {
                if (DocumentView* view = window_.currentView()) {
                    view->showDiagnostic(d);
                }
            });
    connect(diagnostics_, &DiagnosticsPanel::validateRequested, &window,
            &MainWindow::validateCurrent);
    connect(diagnostics_, &DiagnosticsPanel::message, this,
            [this](const QString& text) { window_.statusBar()->showMessage(text, 5000); });
    connect(bookmarks_, &BookmarksPanel::bookmarkActivated, this, [this](int index) {
        if (DocumentView* view = window_.currentView()) {
            view->goToBookmark(index);
        }
    });
    connect(bookmarks_, &BookmarksPanel::addRequested, &window, &MainWindow::addBookmark);
    connect(entropyDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) {
            showEntropy();
        }
    });
    connect(entropy_, &EntropyView::offsetClicked, this, [this](quint64 offset) {
        if (DocumentView* view = window_.currentView()) {
            view->goToOffset(offset);
        }
    });
}

void WindowDocks::addToggles(QMenu* menu) const {
    for (QDockWidget* dock : {diagnosticsDock_, jobsDock_, bookmarksDock_, entropyDock_}) {
        menu->addAction(dock->toggleViewAction());
    }
}

void WindowDocks::showView(DocumentView* view) {
    diagnostics_->setDocument(view ? view->document() : nullptr);
    bookmarks_->setDocument(view ? view->document() : nullptr);
    if (entropyDock_->isVisible()) {
        showEntropy();
    } else {
        entropy_->clear();
    }
}

void WindowDocks::raiseDiagnostics() {
    diagnosticsDock_->show();
    diagnosticsDock_->raise();
}

void WindowDocks::raiseJobs() {
    jobsDock_->show();
}

void WindowDocks::raiseBookmarks() {
    bookmarksDock_->show();
    bookmarksDock_->raise();
}

void WindowDocks::raiseEntropy() {
    if (DocumentView* view = window_.currentView()) {
        view->computeEntropy();
        entropyDock_->show();
        entropyDock_->raise();
        showEntropy();
    }
}

void WindowDocks::showEntropy() {
    DocumentView* view = window_.currentView();
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

void WindowDocks::keepLow() {
    window_.resizeDocks({diagnosticsDock_}, {window_.fontMetrics().height() * 11}, Qt::Vertical);
}

}  // namespace strata::gui
