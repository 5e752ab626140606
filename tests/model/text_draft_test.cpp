// TextDraft: typed text is pending until applied or discarded, a failed apply keeps it, a
// reformat of untyped text stays untyped, and the document lists its pending drafts.
#include <QSignalSpy>
#include <QTest>

#include "model/core/document.h"
#include "model/core/text_draft.h"

using strata::model::Document;
using strata::model::TextDraft;

namespace {

std::unique_ptr<Document> makeDocument() {
    auto opened = std::make_unique<strata::OpenedDocument>();
    opened->format = strata::kRawBinaryFormat;
    opened->path = "/data/example.bin";
    return std::make_unique<Document>(std::move(opened));
}

}  // namespace

class TextDraftTest : public QObject {
    Q_OBJECT
private slots:
    void typedTextIsPendingUntilApplied() {
        auto doc = makeDocument();
        auto* draft = new TextDraft(*doc);
        QCOMPARE(doc->drafts().size(), 1);
        QSignalSpy pending(doc.get(), &Document::pendingTextChanged);
        QString applied;
        draft->load("paragraph 1", "key", "old", [&](const QString& text) {
            applied = text;
            return QString();
        });
        QVERIFY(!draft->isPending());
        draft->setText("new");
        QVERIFY(draft->isPending());
        QVERIFY(doc->hasPendingText());
        QCOMPARE(doc->pendingDrafts(), QList<TextDraft*>{draft});
        QCOMPARE(pending.count(), 1);
        QCOMPARE(draft->apply(), QString());
        QCOMPARE(applied, QString("new"));
        QVERIFY(!draft->isPending());
        QVERIFY(!doc->hasPendingText());
        QCOMPARE(pending.count(), 2);
        // Typing back what was loaded is nothing to apply.
        draft->setText("x");
        draft->setText("new");
        QVERIFY(!draft->isPending());
    }

    void aFailedApplyKeepsTheText() {
        auto doc = makeDocument();
        auto* draft = new TextDraft(*doc);
        draft->load("doc", "key", "{}", [](const QString&) { return QString("not JSON"); });
        draft->setText("{");
        QCOMPARE(draft->apply(), QString("not JSON"));
        QVERIFY(draft->isPending());
        QCOMPARE(draft->text(), QString("{"));
        QCOMPARE(doc->applyPendingText(), QString("doc: not JSON"));
    }

    void discardRestoreAndReformat() {
        auto doc = makeDocument();
        auto* draft = new TextDraft(*doc);
        QSignalSpy reset(draft, &TextDraft::textReset);
        draft->load("doc", "key", "a", [](const QString&) { return QString(); });
        draft->reformat("A");  // the same content shown differently
        QVERIFY(!draft->isPending());
        draft->setText("b");
        draft->discard();
        QVERIFY(!draft->isPending());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(reset.last().first().toString(), QString("A"));
        draft->restore("typed");
        QVERIFY(draft->isPending());
        draft->reformat("TYPED");  // typed text stays typed
        QVERIFY(draft->isPending());
        draft->clear();
        QVERIFY(!draft->isPending());
        QVERIFY(!draft->hasTarget());
        draft->setText("nothing to edit");
        QVERIFY(!draft->isPending());
    }

    void draftsGoWithTheirDocument() {
        auto doc = makeDocument();
        auto* draft = new TextDraft(*doc);
        delete draft;
        QVERIFY(doc->drafts().isEmpty());
        new TextDraft(*doc);
        doc.reset();  // deletes the draft without touching a gone list
    }
};

QTEST_MAIN(TextDraftTest)
#include "text_draft_test.moc"
