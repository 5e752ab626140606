#include "text_draft.h"

#include "document.h"

namespace strata::model {

TextDraft::TextDraft(Document& document) : QObject(&document), document_(document) {
    document_.addDraft(this);
}

TextDraft::~TextDraft() {
    document_.removeDraft(this);
}

void TextDraft::load(const QString& target, const QString& key, const QString& text,
                     Applier apply) {
    target_ = target;
    key_ = key;
    loaded_ = text;
    apply_ = std::move(apply);
    setTextQuietly(text);
}

void TextDraft::clear() {
    target_.clear();
    key_.clear();
    loaded_.clear();
    apply_ = nullptr;
    setTextQuietly({});
}

void TextDraft::reformat(const QString& text) {
    if (!pending_) {
        loaded_ = text;
    }
    setTextQuietly(text);
}

void TextDraft::setText(const QString& text) {
    setTextQuietly(text);
}

bool TextDraft::isPending() const {
    return pending_;
}

QString TextDraft::apply() {
    if (!pending_) {
        return {};
    }
    // Copies: applying rebuilds the editor, which may load this draft again meanwhile.
    const Applier apply = apply_;
    const QString text = text_;
    const QString error = apply(text);
    if (error.isEmpty() && text_ == text) {
        loaded_ = text;
        setTextQuietly(text);
    }
    return error;
}

void TextDraft::discard() {
    setTextQuietly(loaded_);
    emit textReset(loaded_);
}

void TextDraft::restore(const QString& text) {
    if (!hasTarget()) {
        return;
    }
    setTextQuietly(text);
    emit textReset(text);
}

void TextDraft::setTextQuietly(const QString& text) {
    text_ = text;
    const bool pending = hasTarget() && text_ != loaded_;
    if (pending != pending_) {
        pending_ = pending;
        emit pendingChanged(pending);
        emit document_.pendingTextChanged(document_.hasPendingText());
    }
}

}  // namespace strata::model
