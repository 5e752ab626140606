#include "main_toolbar.h"

#include <QAction>
#include <QFile>
#include <QIcon>
#include <QMainWindow>
#include <QStyle>
#include <QToolBar>

namespace strata::gui {

namespace {

// The desktop theme's icon called `themeName`; else the one compiled in under that name
// (resources/icons/actions); else, for a library user without the resources, the style's.
void setIcon(QAction* action, const char* themeName, QStyle::StandardPixmap fallback,
             const QStyle* style) {
    const QString name = QString::fromLatin1(themeName);
    const QString bundled = QStringLiteral(":/icons/actions/%1.svg").arg(name);
    action->setIcon(QIcon::fromTheme(
        name, QFile::exists(bundled) ? QIcon(bundled) : style->standardIcon(fallback)));
}

}  // namespace

QToolBar* addMainToolBar(QMainWindow& window, const MainToolBarActions& actions) {
    const QStyle* style = window.style();
    setIcon(actions.open, "document-open", QStyle::SP_DialogOpenButton, style);
    setIcon(actions.browse, "folder-remote", QStyle::SP_DirOpenIcon, style);
    setIcon(actions.save, "document-save", QStyle::SP_DialogSaveButton, style);
    setIcon(actions.validate, "dialog-ok-apply", QStyle::SP_DialogApplyButton, style);
    setIcon(actions.compare, "view-split-left-right", QStyle::SP_FileDialogDetailedView, style);
    setIcon(actions.repair, "tools-wizard", QStyle::SP_BrowserReload, style);
    setIcon(actions.find, "edit-find", QStyle::SP_FileDialogContentsView, style);
    setIcon(actions.back, "go-previous", QStyle::SP_ArrowBack, style);
    setIcon(actions.forward, "go-next", QStyle::SP_ArrowForward, style);

    auto* bar = window.addToolBar(QObject::tr("Main Toolbar"));
    bar->setObjectName(QStringLiteral("MainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addAction(actions.open);
    bar->addAction(actions.browse);
    bar->addAction(actions.save);
    bar->addSeparator();
    bar->addAction(actions.validate);
    bar->addAction(actions.compare);
    bar->addAction(actions.repair);
    bar->addSeparator();
    bar->addAction(actions.find);
    bar->addSeparator();
    bar->addAction(actions.back);
    bar->addAction(actions.forward);
    return bar;
}

}  // namespace strata::gui
