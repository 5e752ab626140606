// The OZDF tabs of a DocumentView: the corpus table (for corpus folders) and the document
// editor, both editing through an OzdfEditor installed on the document, plus a watcher that
// offers to reload (a banner; the window reopens the document) when the files change on disk
// behind Strata's back.
#include "ozdf_views.h"

#include <QDirIterator>
#include <QFileSystemWatcher>
#include <QPointer>
#include <QTabWidget>
#include <QTimer>
#include <utility>

#include "app/ozdf/ozdf_corpus_reading_view.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_document_editor.h"
#include "app/ozdf/ozdf_reload_banner.h"
#include "app/widgets/document_view.h"
#include "app/widgets/format_views.h"
#include "formats/ozdf/ozdf_format.h"
#include "model/core/document.h"
#include "model/ozdf/ozdf_corpus_read_job.h"
#include "model/ozdf/ozdf_editor.h"

namespace strata::gui {

namespace {

// The opened folder or file and every directory document folder in it.
QStringList watchedPaths(const model::OzdfSession& session) {
    QStringList paths{session.openedPath()};
    const QString folder = QString::fromStdString(session.folder().string());
    for (int i = 0; i < session.documentCount(); ++i) {
        const ozdf::Document& d = session.document(i);
        if (d.isDirectory) {
            paths << folder + u'/' + QString::fromStdString(d.filename);
        } else if (!session.isCorpus()) {
            paths << folder + u'/' + QString::fromStdString(d.filename);
        }
    }
    return paths;
}

// The structure node of the corpus document called `filename` (as the corpus was opened).
const strata::Node* documentNode(const strata::Node* root, const std::string& filename) {
    if (root == nullptr || root->kind() != "ozdf.corpus") {
        return nullptr;
    }
    for (std::uint64_t i = 0; i < root->childCount(); ++i) {
        const strata::Node* child = root->child(i);
        if (child->kind() == "ozdf.document" && child->label() == filename) {
            return child;
        }
    }
    return nullptr;
}

// The corpus document a structure node lies in, or nullptr.
const strata::Node* enclosingDocument(const strata::Node* node) {
    for (; node != nullptr; node = node->parent()) {
        if (node->kind() == "ozdf.document") {
            return node;
        }
    }
    return nullptr;
}

// The corpus table and the structure tree (and so the hex view) show the same document.
void linkCorpusAndTree(DocumentView& view, OzdfCorpusView* corpus, model::OzdfEditor* editor) {
    QObject::connect(corpus, &OzdfCorpusView::documentActivated, &view, [&view, editor](int i) {
        const strata::Node* node =
            documentNode(view.document()->root(), editor->session().document(i).filename);
        if (node != nullptr && enclosingDocument(view.currentNode()) != node) {
            view.selectNode(node);
        }
    });
    QObject::connect(&view, &DocumentView::currentNodeChanged, corpus,
                     [corpus, editor](const strata::Node* node) {
                         const strata::Node* document = enclosingDocument(node);
                         const int index =
                             document ? editor->session().indexOf(document->label()) : -1;
                         if (index >= 0) {
                             corpus->selectDocument(index);
                         }
                     });
}

void watch(QFileSystemWatcher* watcher, const model::OzdfSession& session) {
    if (!watcher->files().isEmpty()) {
        watcher->removePaths(watcher->files());
    }
    if (!watcher->directories().isEmpty()) {
        watcher->removePaths(watcher->directories());
    }
    watcher->addPaths(watchedPaths(session));
}

// The editing tabs over `editor`; the Corpus tab goes at `corpusTabAt` (-1: the end) and shows
// document `currentDocument` when it is not -1.
void installEditor(DocumentView& view, model::OzdfEditor* editor, int corpusTabAt = -1,
                   int currentDocument = -1) {
    view.document()->setEditor(editor);
    auto* editorTab = new OzdfDocumentEditor(view, *editor);
    OzdfCorpusView* corpusTab = nullptr;
    if (editor->session().isCorpus()) {
        corpusTab = new OzdfCorpusView(view, *editor);
        view.centreTabs()->insertTab(corpusTabAt, corpusTab, QObject::tr("Corpus"));
        linkCorpusAndTree(view, corpusTab, editor);
        QObject::connect(corpusTab, &OzdfCorpusView::documentOpened, editorTab,
                         [&view, editorTab](int index) {
                             if (editorTab->documentIndex() == index) {
                                 view.centreTabs()->setCurrentWidget(editorTab);
                             }
                         });
        QObject::connect(corpusTab, &OzdfCorpusView::documentActivated, editorTab,
                         [corpusTab, editorTab](int index) {
                             if (!editorTab->showDocument(index)) {
                                 // Text typed for the shown document does not apply: the table
                                 // goes back to that document once this click is over.
                                 QTimer::singleShot(0, corpusTab, [corpusTab, editorTab] {
                                     corpusTab->selectDocument(editorTab->documentIndex());
                                 });
                             }
                         });
        if (currentDocument >= 0) {
            corpusTab->selectDocument(currentDocument);
        }
    } else {
        editorTab->showDocument(0);
    }
    view.centreTabs()->insertTab(
        corpusTab != nullptr ? view.centreTabs()->indexOf(corpusTab) + 1 : -1, editorTab,
        QObject::tr("OZDF Editor"));
    // A corpus is opened to pick and edit documents, a document on its own to edit it.
    view.centreTabs()->setCurrentWidget(corpusTab != nullptr ? static_cast<QWidget*>(corpusTab)
                                                             : editorTab);

    auto* watcher = new QFileSystemWatcher(editorTab);
    watch(watcher, editor->session());
    // The banner of the Corpus tab, or of the editor for a document opened on its own.
    OzdfReloadBanner* banner =
        corpusTab != nullptr ? corpusTab->reloadBanner() : editorTab->reloadBanner();
    const auto onChange = [editor, banner, watcher](const QString& path) {
        if (editor->isSaving()) {
            return;
        }
        banner->showChange(path);
        watch(watcher, editor->session());
    };
    // The window reopens the document (after asking about unsaved edits), so the tree, the hex
    // view and the editor all show the files as they are now.
    QObject::connect(banner, &OzdfReloadBanner::reloadClicked, &view,
                     &DocumentView::reloadRequested);
    QObject::connect(watcher, &QFileSystemWatcher::directoryChanged, editorTab, onChange);
    QObject::connect(watcher, &QFileSystemWatcher::fileChanged, editorTab, onChange);
    QObject::connect(editor, &model::OzdfEditor::savedTo, editorTab,
                     [editor, watcher] { watch(watcher, editor->session()); });
    QObject::connect(&editor->session(), &model::OzdfSession::wasReset, editorTab,
                     [editor, watcher] { watch(watcher, editor->session()); });
}

// A big corpus listed at open: its names at once, the editing tabs once a job has read it.
void installWhileReading(DocumentView& view, std::shared_ptr<const ozdf::ListedCorpus> corpus) {
    auto* reading = new OzdfCorpusReadingView(view, corpus);
    view.centreTabs()->addTab(reading, QObject::tr("Corpus"));
    view.centreTabs()->setCurrentWidget(reading);
    QPointer<model::OzdfCorpusReadJob> job = model::startOzdfCorpusRead(*view.jobRunner(), corpus);
    QObject::connect(job, &model::Job::progressChanged, reading,
                     &OzdfCorpusReadingView::showProgress);
    // Closing the tab stops the read.
    QObject::connect(reading, &QObject::destroyed, job, [job] {
        if (job) {
            job->cancel();
        }
    });
    QObject::connect(job, &model::Job::finished, reading, [&view, reading, job] {
        std::unique_ptr<model::OzdfSession> session = job ? job->takeSession() : nullptr;
        if (!session) {
            reading->showStopped(job && job->state() == model::Job::State::Failed
                                     ? job->errorText()
                                     : QObject::tr("cancelled"));
            return;
        }
        const int at = view.centreTabs()->indexOf(reading);
        // The user may be on another tab (Hex, say): the switch-over leaves them there.
        QWidget* shown = view.centreTabs()->currentWidget();
        const int current = reading->currentDocument();
        view.centreTabs()->removeTab(at);
        reading->deleteLater();
        installEditor(view, new model::OzdfEditor(*view.document(), std::move(session)), at,
                      current);
        if (shown != reading && shown != nullptr) {
            view.centreTabs()->setCurrentWidget(shown);
        }
    });
}

}  // namespace

int ozdfReadInBackgroundFrom = 2000;

static void installOzdfViews(DocumentView& view) {
    model::Document* document = view.document();
    const auto listed = document->opened() != nullptr
                            ? ozdf::openedAs<ozdf::ListedCorpus>(*document->opened())
                            : nullptr;
    if (listed && std::cmp_greater_equal(listed->size(), ozdfReadInBackgroundFrom) &&
        view.jobRunner() != nullptr) {
        installWhileReading(view, listed);
        return;
    }
    QString error;
    model::OzdfEditor* editor = model::OzdfEditor::create(*document, &error);
    if (editor == nullptr) {
        emit view.message(QObject::tr("OZDF editing is not available: %1").arg(error));
        return;
    }
    installEditor(view, editor);
}

void registerOzdfViews(FormatViews& views) {
    views.add(kOzdfFormat, installOzdfViews);
    views.setIcon(kOzdfFormat, QStringLiteral(":/icons/text-x-ozdf.svg"));
}

}  // namespace strata::gui
