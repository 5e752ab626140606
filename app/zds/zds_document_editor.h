// The JSON editor of one ZDS document: syntax highlighting, the JSON error (line and column)
// under the text as you type, a pretty/compact toggle, Apply and Revert.
#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>

#include <string>

#include "model/core/text_draft.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QToolButton;

namespace strata::model {
class ZdsJsonHighlighter;
}  // namespace strata::model

namespace strata::gui {

class ZdsDocumentEditor : public QWidget {
    Q_OBJECT
public:
    explicit ZdsDocumentEditor(QWidget* parent = nullptr);

    // Shows a document (pretty or compact as the toggle says); nothing is edited yet.
    void setDocument(const QString& title, const std::string& json);
    void clearDocument();
    // The line above the text ("Document 4 of 100,000: id").
    void setTitle(const QString& title);
    QString title() const;
    QString text() const;
    void setText(const QString& text);
    bool pretty() const;
    void setPretty(bool pretty);
    // Checks the text now (it is checked shortly after each change anyway); returns the error
    // shown, or an empty string.
    QString checkNow();
    // Shows an error that came from applying (a clash of ids, say).
    void showError(const QString& error);
    // Where what the user types is mirrored (so the window can apply it or ask about it); the
    // owner loads it with each document shown.
    void setDraft(model::TextDraft* draft);
    // True while a document is shown and can be edited.
    bool isEditable() const;

    QPlainTextEdit* textEdit() const { return edit_; }
    QLabel* errorLabel() const { return error_; }
    QPushButton* applyButton() const { return apply_; }
    model::ZdsJsonHighlighter* highlighter() const { return highlighter_; }

    // Documents larger than this are shown read-only, cut short.
    static constexpr std::size_t kMaxEditableBytes = 4 << 20;

signals:
    void applyRequested(const QString& text);

private:
    void updateButtons();
    void showDraftText(const QString& text);

    QLabel* title_;
    QPlainTextEdit* edit_;
    model::ZdsJsonHighlighter* highlighter_;
    QLabel* error_;
    QToolButton* pretty_;
    QPushButton* apply_;
    QPushButton* revert_;
    QTimer* checkTimer_;
    QPointer<model::TextDraft> draft_;
    std::string original_;
    bool hasDocument_ = false;
    bool loading_ = false;
};

}  // namespace strata::gui
