// Saving from the main window: Save and Save As through the document's format writer (as jobs)
// or its byte edits, a local copy of a remote file, and the questions before a tab with
// unsaved edits or typed-but-unapplied text closes.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace strata::model {
class Job;
}

namespace strata::gui {

class DocumentView;
class MainWindow;

class SaveController : public QObject {
    Q_OBJECT
public:
    explicit SaveController(MainWindow& window);

    // File > Save, Save As… and Save a Local Copy… for the current tab.
    void save();
    void saveAsDialog();
    void saveLocalCopyDialog();
    // See MainWindow::saveCurrentAs, saveLocalCopy and startEditorSave.
    QString saveCurrentAs(const QString& path);
    model::Job* saveLocalCopy(const QString& path);
    model::Job* startEditorSave(DocumentView* view, const QString& path);

    // Why the edits are about to go: the tab closes, or it is opened again from disk.
    enum class Ending { Closing, Reloading };
    // Asks about unsaved edits and (unless `askAboutText` is false) text typed but not applied,
    // before the view closes or reloads; false when the user keeps them.
    bool confirmDiscard(DocumentView* view, bool askAboutText = true,
                        Ending ending = Ending::Closing);
    // The question confirmDiscard asks about `name`'s unsaved edits (`edits`) and the text typed
    // for `typedTargets` (none: no such text) before it closes or reloads.
    static QString discardQuestion(const QString& name, bool edits, const QStringList& typedTargets,
                                   Ending ending);
    // A table or tree cell being edited (a zTensor attribute, ...) holds typed text its model has
    // not seen: takes the focus from its editor, so the delegate commits it as an edit.
    void commitOpenCellEditor();

private:
    // Applies the text typed into the view's editors; when some cannot be applied, asks whether
    // to fix it (false), save without it (true) or cancel (false). Saved without it, the text
    // stays in its editor: the reopened view shows it again, and a tab that was `closing` stays
    // open with it (saveBeforeClosing).
    bool applyPendingText(DocumentView* view, bool closing);
    // Saves the view's edits before it closes; true once they are on disk and no typed text
    // is left (text saved without is kept, so the tab stays open).
    bool saveBeforeClosing(DocumentView* view);
    // After a save before closing left text that could not be applied: the tab stays open and
    // shows the saved files, with the text back in its editor.
    void keepOpenWithText(DocumentView* view);
    // Saves with the format's writer; `reopen` shows the saved files in the tab afterwards
    // (false: the tab is closing).
    model::Job* startFormatSave(DocumentView* view, const QString& path, bool reopen);
    // Overwriting a structured file byte by byte can break it: asks first, offering Save As.
    // True to overwrite.
    bool confirmOverwrite(const QString& target, const QString& formatName);

    MainWindow& window_;
};

}  // namespace strata::gui
