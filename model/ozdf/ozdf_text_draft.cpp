#include "ozdf_text_draft.h"

#include <QCoreApplication>

#include <exception>
#include <stdexcept>

#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_json.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_session.h"

namespace strata::model {

namespace {

using Kind = OzdfAddress::Kind;

QString tr(const char* text) {
    return QCoreApplication::translate("OzdfTextDraft", text);
}

// Sets the text the draft edits; throws ozdf::EditError for text or an address that no longer
// fits the document.
void setText(ozdf::Document& document, const OzdfAddress& a, const std::string& text) {
    if (a.element >= document.elements.size()) {
        throw std::out_of_range("the block was removed");
    }
    if (a.kind == Kind::Paragraph) {
        ozdf::setParagraphText(document, {a.element, a.item}, a.paragraph, text);
    } else {
        ozdf::setCommentText(document, a.element, text);
    }
}

}  // namespace

TextDraft::Applier ozdfTextApplier(QUndoStack& stack, OzdfSession& session, std::string filename,
                                   OzdfAddress address) {
    return [&stack, &session, filename = std::move(filename), address](const QString& typed) {
        const int index = session.indexOf(filename);
        if (index < 0) {
            return tr("%1 is no longer in the corpus").arg(QString::fromStdString(filename));
        }
        const std::string text = typed.toStdString();
        ozdf::Document after = session.document(index);
        try {
            setText(after, address, text);
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
        if (ozdf::documentJson(after) == ozdf::documentJson(session.document(index))) {
            return QString();  // reads back as what is there
        }
        QString error;
        const QString what =
            address.kind == Kind::Paragraph ? tr("Edit paragraph") : tr("Edit comment");
        applyOzdfEdit(
            stack, session, index, what, [&](ozdf::Document& d) { setText(d, address, text); },
            &error);
        return error;
    };
}

QString ozdfDraftKey(const std::string& filename, const OzdfAddress& address) {
    return QStringLiteral("%1/%2/%3/%4/%5")
        .arg(QString::fromStdString(filename))
        .arg(static_cast<int>(address.kind))
        .arg(address.element)
        .arg(address.item ? static_cast<qlonglong>(*address.item) : -1)
        .arg(address.paragraph);
}

QString ozdfDraftTarget(const OzdfSession& session, int document, const OzdfAddress& address) {
    const ozdf::Document& d = session.document(document);
    const QString file = QString::fromStdString(d.filename);
    if (address.kind != Kind::Paragraph || address.element >= d.elements.size()) {
        return tr("a comment in %1").arg(file);
    }
    const QString block = QString::fromStdString(d.elements[address.element].name);
    return address.item
               ? tr("paragraph %1 of item %2 of %3 in %4")
                     .arg(address.paragraph + 1)
                     .arg(*address.item + 1)
                     .arg(block, file)
               : tr("paragraph %1 of %2 in %3").arg(address.paragraph + 1).arg(block, file);
}

bool sameOzdfAddress(const OzdfAddress& a, const OzdfAddress& b) {
    return a.kind == b.kind && a.element == b.element && a.item == b.item &&
           a.paragraph == b.paragraph;
}

}  // namespace strata::model
