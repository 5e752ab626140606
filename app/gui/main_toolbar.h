// The main window's toolbar: the common actions (open, browse a folder or bucket, save,
// validate, compare, repair, find, go back and forward through selections) with freedesktop theme
// icons, Qt's standard icons where the theme has none. Its visibility is a View menu toggle and is
// kept with the window's state.
#pragma once

class QAction;
class QMainWindow;
class QToolBar;

namespace strata::gui {

struct MainToolBarActions {
    QAction* open = nullptr;
    QAction* browse = nullptr;
    QAction* save = nullptr;
    QAction* validate = nullptr;
    QAction* compare = nullptr;
    QAction* repair = nullptr;
    QAction* find = nullptr;
    QAction* back = nullptr;
    QAction* forward = nullptr;
};

// Adds the toolbar to `window` (object name "MainToolBar") and gives the actions their icons.
QToolBar* addMainToolBar(QMainWindow& window, const MainToolBarActions& actions);

}  // namespace strata::gui
