// The OZDF editor model: every edit is one undo step that undo and redo restore exactly; find
// and replace previews and applies as one step; the corpus and document models follow the
// session; saving through the editor writes what the reader then reads back.
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_listed_corpus.h"
#include "formats/ozdf/ozdf_parser.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_corpus_model.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/ozdf/ozdf_find_replace.h"
#include "model/ozdf/ozdf_jsonl_jobs.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::model;
namespace fs = std::filesystem;

namespace {

fs::path corpusRoot() {
    return strata::test::corpusRoot() / "ozdf";
}

fs::path mixedCorpus() {
    return corpusRoot() / "valid" / "handwritten" / "corpora" / "mixed";
}

std::string snapshot(const OzdfSession& session) {
    return ozdf::corpusJson(session.corpus()).dump();
}

fs::path copyMixed(const QTemporaryDir& dir) {
    const fs::path target = fs::path(dir.path().toStdString()) / "mixed";
    fs::copy(mixedCorpus(), target, fs::copy_options::recursive);
    return target;
}

}  // namespace

class OzdfEditorTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OzdfSession> load() {
        QString error;
        auto session = OzdfSession::load(QString::fromStdString(mixedCorpus().string()), &error);
        if (!session) {
            qFatal("cannot load the mixed corpus: %s", qPrintable(error));
        }
        return session;
    }

    // Pushes `edit` on document `index`, then checks undo gives back the start and redo the
    // edited state.
    void checkUndoRedo(OzdfSession& session, QUndoStack& stack, int index,
                       const std::function<void(ozdf::Document&)>& edit) {
        const std::string before = snapshot(session);
        QString error;
        QVERIFY2(applyOzdfEdit(stack, session, index, QStringLiteral("edit"), edit, &error),
                 qPrintable(error));
        const std::string after = snapshot(session);
        QVERIFY(after != before);
        stack.undo();
        QCOMPARE(snapshot(session), before);
        stack.redo();
        QCOMPARE(snapshot(session), after);
    }

    int standaloneIndex(const OzdfSession& session) {
        for (int i = 0; i < session.documentCount(); ++i) {
            if (!session.document(i).isDirectory) {
                return i;
            }
        }
        return -1;
    }

private slots:
    void everyEditUndoesAndRedoes() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        QUndoStack stack;
        const int doc = standaloneIndex(*session);
        QVERIFY(doc >= 0);
        using ozdf::ElementKind;
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::insertElement(d, 0, ElementKind::Block, "summary");
        });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::insertParagraph(d, {0, std::nullopt}, 0, "A new   paragraph");
        });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::setParagraphText(d, {0, std::nullopt}, 0, "Rewritten\n\nand split");
        });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::moveParagraph(d, {0, std::nullopt}, 1, 0);
        });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::removeParagraph(d, {0, std::nullopt}, 0);
        });
        checkUndoRedo(*session, stack, doc,
                      [](ozdf::Document& d) { ozdf::renameElement(d, 0, "abstract"); });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::insertElement(d, 1, ElementKind::List, "notes");
        });
        checkUndoRedo(*session, stack, doc,
                      [](ozdf::Document& d) { ozdf::insertItem(d, 1, 0, std::string("first")); });
        checkUndoRedo(*session, stack, doc,
                      [](ozdf::Document& d) { ozdf::insertItem(d, 1, 1, std::nullopt); });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::insertParagraph(d, {1, 0}, 0, "item text");
        });
        checkUndoRedo(*session, stack, doc,
                      [](ozdf::Document& d) { ozdf::renameItem(d, 1, 0, std::string("First")); });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) { ozdf::moveItem(d, 1, 0, 1); });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) { ozdf::removeItem(d, 1, 0); });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) { ozdf::moveElement(d, 0, 1); });
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) { ozdf::removeElement(d, 1); });

        // Refused edits push nothing.
        const int count = stack.count();
        QString error;
        QVERIFY(!applyOzdfEdit(
            stack, *session, doc, QStringLiteral("bad"),
            [](ozdf::Document& d) {
                ozdf::setParagraphText(d, {0, std::nullopt}, 0, "#### header");
            },
            &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(stack.count(), count);
    }

    void listsAndDocumentKindsConvert() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        QUndoStack stack;
        const int doc = standaloneIndex(*session);
        const std::string before = snapshot(*session);
        const std::string name = session->document(doc).filename;
        QString error;
        QVERIFY2(toggleOzdfDocumentKind(stack, *session, doc, &error), qPrintable(error));
        QVERIFY(session->document(doc).isDirectory);
        QCOMPARE(QString::fromStdString(session->document(doc).filename + ".ozdf"),
                 QString::fromStdString(name));
        checkUndoRedo(*session, stack, doc, [](ozdf::Document& d) {
            ozdf::insertElement(d, 0, ozdf::ElementKind::List, "chapters");
            ozdf::insertItem(d, 0, 0, std::string("one"));
            ozdf::toggleExternalList(d, 0);
        });
        QCOMPARE(session->document(doc).elements[0].kind, ozdf::ElementKind::ExternalList);
        while (stack.canUndo()) {
            stack.undo();
        }
        QCOMPARE(snapshot(*session), before);
    }

    void documentsAreAddedRenamedAndRemoved() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        QUndoStack stack;
        const int count = session->documentCount();
        const std::string before = snapshot(*session);
        QString error;
        QVERIFY(!addOzdfDocument(stack, *session, QStringLiteral("bad.txt"), false, &error));
        QVERIFY2(addOzdfDocument(stack, *session, QStringLiteral("aaa_new.ozdf"), false, &error),
                 qPrintable(error));
        QCOMPARE(session->documentCount(), count + 1);
        const int added = session->indexOf("aaa_new.ozdf");
        QVERIFY(added >= 0);
        // Kept in the reader's order.
        QVERIFY(added == 0 || session->document(added - 1).filename < "aaa_new.ozdf");
        QVERIFY(!addOzdfDocument(stack, *session, QStringLiteral("aaa_new.ozdf"), false, &error));
        QVERIFY2(renameOzdfDocument(stack, *session, added, QStringLiteral("zzz.ozdf"), &error),
                 qPrintable(error));
        QVERIFY2(removeOzdfDocument(stack, *session, added, &error), qPrintable(error));
        QCOMPARE(session->documentCount(), count);
        stack.undo();
        QCOMPARE(session->document(added).filename, std::string("zzz.ozdf"));
        stack.undo();
        stack.undo();
        QCOMPARE(snapshot(*session), before);
    }

    void findReplacePreviewsAndAppliesAsOneStep() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        QUndoStack stack;
        const std::string before = snapshot(*session);
        OzdfFindQuery query;
        query.pattern = QStringLiteral("e");
        query.replacement = QStringLiteral("E");
        const auto all = findOzdfChanges(session->corpus(), query);
        QVERIFY(!all.empty());
        for (const OzdfChange& c : all) {
            QVERIFY(c.before.contains(u'e'));
            QVERIFY(!c.after.contains(u'e'));
        }
        // Scoped to one block name: only paragraphs of that block change.
        const std::string scopeName = session->document(0).elements.at(0).name;
        query.blockNames = {QString::fromStdString(scopeName).toLower()};
        for (const OzdfChange& c : findOzdfChanges(session->corpus(), query)) {
            QCOMPARE(session->document(c.document).elements.at(c.element).name, scopeName);
        }
        // A regex with groups; a change that would start a paragraph with ### is not applicable.
        OzdfFindQuery regex;
        regex.pattern = QStringLiteral("^(\\w)");
        regex.regex = true;
        regex.replacement = QStringLiteral("### $1");
        const auto bad = findOzdfChanges(session->corpus(), regex);
        QVERIFY(!bad.empty());
        QVERIFY(!bad.front().applicable);
        regex.replacement = QStringLiteral("[$1]");
        const auto good = findOzdfChanges(session->corpus(), regex);
        QVERIFY(good.front().after.startsWith(u'['));
        QVERIFY(good.front().after.mid(2, 1) == QStringLiteral("]"));
        regex.pattern = QStringLiteral("(");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, findOzdfChanges(session->corpus(), regex));

        std::vector<quint64> revisions;
        for (int i = 0; i < session->documentCount(); ++i) {
            revisions.push_back(session->revision(i));
        }
        QString error;
        QVERIFY2(applyOzdfChanges(stack, *session, all, revisions, &error), qPrintable(error));
        QCOMPARE(stack.count(), 1);
        QVERIFY(snapshot(*session).find("E") != std::string::npos);
        // The revisions moved on: applying the same results again is refused.
        QVERIFY(!applyOzdfChanges(stack, *session, all, revisions, &error));
        stack.undo();
        QCOMPARE(snapshot(*session), before);
    }

    void findJobRunsInTheBackground() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        JobRunner runner;
        OzdfFindQuery query;
        query.pattern = QStringLiteral("a");
        query.replacement = QStringLiteral("b");
        OzdfFindJob* job = startOzdfFind(runner, *session, query);
        QTRY_VERIFY(!job->isRunning());
        QTRY_VERIFY(!job->changes.empty());
        QCOMPARE(job->revisions.size(), static_cast<std::size_t>(session->documentCount()));
    }

    void corpusModelCountsAndSorts() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        OzdfCorpusModel model(*session);
        QCOMPARE(model.rowCount(), session->documentCount());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(OzdfCorpusModel::kSortRole);
        proxy.sort(OzdfCorpusModel::Paragraphs, Qt::DescendingOrder);
        qint64 previous = std::numeric_limits<qint64>::max();
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const qint64 n =
                proxy.data(proxy.index(r, OzdfCorpusModel::Paragraphs), OzdfCorpusModel::kSortRole)
                    .toLongLong();
            QVERIFY(n <= previous);
            previous = n;
        }
        QUndoStack stack;
        QString error;
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QVERIFY(addOzdfDocument(stack, *session, QStringLiteral("new.ozdf"), false, &error));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), session->documentCount());
    }

    void corpusModelCountsFollowEditsUndoAndRemoval() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        OzdfCorpusModel model(*session);
        const int doc = standaloneIndex(*session);
        const auto paragraphs = [&](int row) {
            return model
                .data(model.index(row, OzdfCorpusModel::Paragraphs), OzdfCorpusModel::kSortRole)
                .toLongLong();
        };
        const qint64 before = paragraphs(doc);
        QCOMPARE(before, OzdfCorpusModel::countsOf(session->document(doc)).paragraphs);
        QUndoStack stack;
        QString error;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(applyOzdfEdit(
            stack, *session, doc, QStringLiteral("add"),
            [](ozdf::Document& d) {
                ozdf::insertElement(d, 0, ozdf::ElementKind::Block, "COUNTED");
                ozdf::insertParagraph(d, {0, std::nullopt}, 0, "one\n\ntwo");
            },
            &error));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(paragraphs(doc), before + 2);
        stack.undo();
        QCOMPARE(paragraphs(doc), before);
        const QString name =
            model.data(model.index(doc, OzdfCorpusModel::Name), Qt::DisplayRole).toString();
        QVERIFY(removeOzdfDocument(stack, *session, doc, &error));
        QCOMPARE(model.rowCount(), session->documentCount());
        for (int r = 0; r < model.rowCount(); ++r) {
            QVERIFY(model.data(model.index(r, OzdfCorpusModel::Name), Qt::DisplayRole).toString() !=
                    name);
        }
        stack.undo();
        QCOMPARE(model.data(model.index(doc, OzdfCorpusModel::Name), Qt::DisplayRole).toString(),
                 name);
        QCOMPARE(paragraphs(doc), before);
    }

    void editorReusesWhatOpeningRead() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        QString error;
        auto document = Document::open(QString::fromStdString(mixedCorpus().string()), &error);
        QVERIFY2(document, qPrintable(error));
        // A local corpus is listed at open; the editor reads it once, through the listing.
        const auto listed = ozdf::openedAs<ozdf::ListedCorpus>(*document->opened());
        QVERIFY(listed);
        OzdfEditor* editor = OzdfEditor::create(*document, &error);
        const auto corpus = listed->corpus();
        QVERIFY(corpus);
        QVERIFY2(editor, qPrintable(error));
        document->setEditor(editor);
        const OzdfSession& session = editor->session();
        QVERIFY(session.isCorpus());
        QCOMPARE(session.documentCount(), static_cast<int>(corpus->documents.size()));
        // The same file sources: the editor copied what was read instead of reading again.
        for (int i = 0; i < session.documentCount(); ++i) {
            const auto& mine = session.document(i).sources;
            const auto& opened = corpus->documents[static_cast<std::size_t>(i)].sources;
            QCOMPARE(mine.size(), opened.size());
            for (std::size_t s = 0; s < mine.size(); ++s) {
                QCOMPARE(mine[s].get(), opened[s].get());
            }
        }
        QCOMPARE(snapshot(session), ozdf::corpusJson(*corpus).dump());

        // A single document: the session holds it, in the folder that holds it.
        const fs::path single = mixedCorpus() / session.document(standaloneIndex(session)).filename;
        auto one = Document::open(QString::fromStdString(single.string()), &error);
        QVERIFY2(one, qPrintable(error));
        QVERIFY(ozdf::openedAs<ozdf::Document>(*one->opened()));
        OzdfEditor* oneEditor = OzdfEditor::create(*one, &error);
        QVERIFY2(oneEditor, qPrintable(error));
        one->setEditor(oneEditor);
        QVERIFY(!oneEditor->session().isCorpus());
        QCOMPARE(oneEditor->session().folder(), mixedCorpus());
        QCOMPARE(oneEditor->session().openedPath().toStdString(), single.string());
    }

    void jsonlExportAndImportRunAsJobs() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        QTemporaryDir dir;
        auto session = load();
        JobRunner runner;
        const QString jsonl = dir.path() + QStringLiteral("/corpus.jsonl");
        Job* job = startOzdfExport(runner, *session, jsonl);
        QTRY_VERIFY(!job->isRunning());
        QCOMPARE(job->state(), Job::State::Finished);
        const QString folder = dir.path() + QStringLiteral("/imported");
        job = startOzdfImport(runner, jsonl, folder);
        QTRY_VERIFY(!job->isRunning());
        QCOMPARE(job->state(), Job::State::Finished);
        const ozdf::Corpus imported = ozdf::readCorpus(folder.toStdString());
        QVERIFY(imported.accepted());
        QCOMPARE(imported.documents.size(), session->corpus().documents.size());
        // A refused line fails the job and writes nothing.
        const QString bad = dir.path() + QStringLiteral("/bad.jsonl");
        {
            std::ofstream out(bad.toStdString());
            out << R"({"filename":"a.ozdf","is_directory":false,"elements":[]})"
                << "\n{oops\n";
        }
        const QString nothing = dir.path() + QStringLiteral("/nothing");
        job = startOzdfImport(runner, bad, nothing);
        QTRY_VERIFY(!job->isRunning());
        QCOMPARE(job->state(), Job::State::Failed);
        QVERIFY(job->errorText().contains(QStringLiteral("line 2")));
        QVERIFY(!fs::exists(nothing.toStdString()));
        // Into a folder that is not empty: refused, the folder untouched.
        job = startOzdfImport(runner, jsonl, folder);
        QTRY_VERIFY(!job->isRunning());
        QCOMPARE(job->state(), Job::State::Failed);
    }

    void documentModelShowsTheTree() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto session = load();
        OzdfDocumentModel model(*session);
        const int doc = standaloneIndex(*session);
        model.setDocument(doc);
        const ozdf::Document& d = session->document(doc);
        QCOMPARE(model.rowCount(), static_cast<int>(d.elements.size()));
        const QModelIndex first = model.index(0, 0);
        QCOMPARE(model.addressOf(first).kind, OzdfAddress::Kind::Element);
        QVERIFY(model.data(first, Qt::DisplayRole)
                    .toString()
                    .contains(QString::fromStdString(d.elements[0].name)));
        QUndoStack stack;
        QString error;
        QVERIFY(applyOzdfEdit(
            stack, *session, doc, QStringLiteral("add"),
            [](ozdf::Document& x) { ozdf::insertElement(x, 0, ozdf::ElementKind::Block, "NEW"); },
            &error));
        QCOMPARE(model.rowCount(), static_cast<int>(d.elements.size()));
        QVERIFY(model.data(model.index(0, 0), Qt::DisplayRole).toString().startsWith("NEW"));
        const OzdfAddress a{OzdfAddress::Kind::Element, 1, std::nullopt, 0};
        QCOMPARE(model.addressOf(model.indexOf(a)).element, std::size_t{1});
    }

    void editorSavesInPlaceAndToANewFolder() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        QTemporaryDir dir;
        const fs::path folder = copyMixed(dir);
        QString error;
        auto document = Document::open(QString::fromStdString(folder.string()), &error);
        QVERIFY2(document, qPrintable(error));
        OzdfEditor* editor = OzdfEditor::create(*document, &error);
        QVERIFY2(editor, qPrintable(error));
        document->setEditor(editor);
        QVERIFY(editor->savesToFolder());
        OzdfSession& session = editor->session();
        const int doc = standaloneIndex(session);
        QVERIFY(applyOzdfEdit(
            *document->undoStack(), session, doc, QStringLiteral("add"),
            [](ozdf::Document& d) {
                ozdf::insertElement(d, 0, ozdf::ElementKind::Block, "SAVED");
                ozdf::insertParagraph(d, {0, std::nullopt}, 0, "written by the test");
            },
            &error));
        QVERIFY(document->isModified());
        const std::string expected = snapshot(session);

        JobRunner runner;
        // Save to a new folder: the input stays as it was.
        const QString copy = dir.path() + QStringLiteral("/copy");
        Job* job = editor->startSave(runner, copy, &error);
        QVERIFY2(job, qPrintable(error));
        QTRY_VERIFY(!job->isRunning());
        QCOMPARE(job->state(), Job::State::Finished);
        QCOMPARE(ozdf::corpusJson(ozdf::readCorpus(copy.toStdString())).dump(),
                 ozdf::corpusJson(session.corpus()).dump());
        QVERIFY(ozdf::corpusJson(ozdf::readCorpus(folder)).dump().find("SAVED") ==
                std::string::npos);

        // Save in place.
        job = editor->startSave(runner, QString::fromStdString(folder.string()), &error);
        QVERIFY2(job, qPrintable(error));
        QTRY_VERIFY(!job->isRunning());
        QCOMPARE(job->state(), Job::State::Finished);
        QTRY_VERIFY(!document->isModified());
        const ozdf::Corpus reread = ozdf::readCorpus(folder);
        QVERIFY(reread.accepted());
        QCOMPARE(ozdf::corpusJson(reread).dump(), expected);
    }
};

QTEST_GUILESS_MAIN(OzdfEditorTest)
#include "ozdf_editor_test.moc"
