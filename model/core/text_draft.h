// Text typed into one of a document's text editors (a ZDS document's JSON, an OZDF paragraph or
// comment) and not applied yet. The editor mirrors what it holds here; the window applies every
// pending draft before a save and asks about them before closing, exactly as it asks about
// unsaved edits, so typed text is never dropped without a question.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

namespace strata::model {

class Document;

class TextDraft : public QObject {
    Q_OBJECT
public:
    // Applies `text` to what the draft edits (an undoable edit). Returns an error text (the text
    // is invalid, its target is gone) with nothing changed, or "".
    using Applier = std::function<QString(const QString& text)>;

    // Registers with `document`, which owns it.
    explicit TextDraft(Document& document);
    ~TextDraft() override;

    // The editor now shows `text` of `target` (a readable name, e.g. "paragraph 2 of a.ozdf");
    // nothing is typed yet. `key` names the target for a view restored after a reload.
    void load(const QString& target, const QString& key, const QString& text, Applier apply);
    // The editor shows nothing editable.
    void clear();
    // The editor shows the same content in another form (pretty or compact JSON): that is the
    // new untyped text unless something was typed.
    void reformat(const QString& text);
    // What the editor holds now (called as the user types).
    void setText(const QString& text);

    bool hasTarget() const { return static_cast<bool>(apply_); }
    // Text was typed and differs from what was loaded.
    bool isPending() const;
    QString target() const { return target_; }
    QString key() const { return key_; }
    QString text() const { return text_; }
    QString loadedText() const { return loaded_; }

    // Applies the typed text: "" when it was applied (or nothing was pending), else the error
    // (the text stays pending).
    QString apply();
    // Drops the typed text: back to what was loaded.
    void discard();
    // Puts typed text back (a view restored after a reload): pending when it differs.
    void restore(const QString& text);
    // Asks the editor to come into view (the window, before it asks about this draft).
    void requestShow() { emit showRequested(); }

signals:
    void pendingChanged(bool pending);
    // The text changed from outside the editor (discard, restore): the editor shows it.
    void textReset(const QString& text);
    void showRequested();

private:
    void setTextQuietly(const QString& text);

    Document& document_;
    QString target_;
    QString key_;
    QString loaded_;
    QString text_;
    Applier apply_;
    bool pending_ = false;
};

}  // namespace strata::model
