// Go Back and Go Forward through selections: picks in the tree and Go to Offset are gone back
// and forward to (the tree's node and the hex view's bytes), without adding entries; the
// actions are enabled only where there is somewhere to go; a new pick after Back drops the way
// forward; moves with the arrow keys in the hex view make no entries of their own; each tab
// has its own history; the history outlives a reload; the main toolbar still shows every
// action in a 1366-pixel-wide window.
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

#include <filesystem>
#include <fstream>

#include "app/gui/main_window.h"
#include "app/gui/start_page.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "app/widgets/selection_navigator.h"
#include "mnemonic_check.h"
#include "model/core/document.h"
#include "model/core/selection_history.h"
#include "model/core/structure_model.h"
#include "small_screen.h"
#include "test_corpus.h"

using namespace strata::gui;

namespace {

QString sample(const QString& suffix) {
    for (const QString& path : StartPage::sampleFiles()) {
        if (path.endsWith(suffix)) {
            return path;
        }
    }
    return {};
}

// Nodes under the root with bytes of their own, each range different from the others'.
QList<const strata::Node*> distinctNodes(const strata::Node* root, int count) {
    QList<const strata::Node*> nodes;
    QList<const strata::Node*> queue{root};
    while (!queue.isEmpty() && nodes.size() < count) {
        const strata::Node* node = queue.takeFirst();
        for (std::uint64_t i = 0; i < std::min<std::uint64_t>(node->childCount(), 8); ++i) {
            queue.append(node->child(i));
        }
        const strata::Region r = node->region().clipped();
        const bool seen = std::any_of(nodes.begin(), nodes.end(), [&r](const strata::Node* n) {
            return n->region().clipped() == r;
        });
        if (node != root && r.valid() && r.length > 1 && !seen) {
            nodes.append(node);
        }
    }
    return nodes;
}

// As a click on the node's row.
void pick(DocumentView* view, const strata::Node* node) {
    const QModelIndex index = view->structureModel()->indexForNode(node);
    QVERIFY(index.isValid());
    view->treeView()->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString selectionOf(const DocumentView* view) {
    const HexView* hex = view->hexView();
    return QStringLiteral("%1+%2 %3")
        .arg(hex->selectionStart())
        .arg(hex->hasSelection() ? hex->selectionLength() : 0)
        .arg(view->currentNode() ? QString::fromStdString(view->currentNode()->path()) : QString());
}

// Shows `node` and its bytes, as a pick of it did.
void verifyAt(const DocumentView* view, const strata::Node* node) {
    const strata::Region r = node->region().clipped();
    QCOMPARE(view->currentNode(), node);
    QCOMPARE(view->structureModel()->nodeAt(view->treeView()->currentIndex()), node);
    QVERIFY2(view->hexView()->selectionStart() == r.offset &&
                 view->hexView()->selectionLength() == r.length,
             qPrintable(selectionOf(view)));
}

}  // namespace

class SelectionNavigationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("selection_navigation_test"));
        zs_ = sample(QStringLiteral("sample.zs"));
        zt_ = sample(QStringLiteral("sample.zt"));
        QVERIFY(!zs_.isEmpty() && !zt_.isEmpty());
    }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->setInteractive(false);
        window_->setAutoValidate(false);
        back_ = window_->findChild<QAction*>(QStringLiteral("GoBackAction"));
        forward_ = window_->findChild<QAction*>(QStringLiteral("GoForwardAction"));
        QVERIFY(back_ != nullptr && forward_ != nullptr);
    }

    void cleanup() { window_.reset(); }

    void theActionsHaveKeysAndAMenu() {
        QVERIFY(back_->shortcuts().contains(QKeySequence(Qt::ALT | Qt::Key_Left)));
        QVERIFY(forward_->shortcuts().contains(QKeySequence(Qt::ALT | Qt::Key_Right)));
        QVERIFY(!back_->icon().isNull() && !forward_->icon().isNull());
        bool inMenu = false;
        for (const QMenu* menu : window_->menuBar()->findChildren<QMenu*>()) {
            inMenu =
                inMenu || (menu->actions().contains(back_) && menu->actions().contains(forward_));
        }
        QVERIFY(inMenu);
        const QStringList clashes = strata::test::mnemonicClashes(*window_);
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join('\n')));
        // Nothing open: nowhere to go.
        QVERIFY(!back_->isEnabled() && !forward_->isEnabled());
    }

    // A ZDS dataset shows its first document by itself once loaded: that is where it opened,
    // not a place to go back from.
    void openingADatasetLeavesNothingToGoBackTo() {
        const QString dataset = QString::fromStdString(
            (strata::test::corpusRoot() / "zds/valid/jsonl_two_collections").string());
        if (!QFileInfo::exists(dataset)) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        QVERIFY(window_->openPath(dataset));
        QVERIFY(window_->waitUntilIdle(30000));
        QCoreApplication::processEvents();
        QCOMPARE(window_->currentView()->document()->selectionHistory()->entries().size(), 1);
        QVERIFY(!back_->isEnabled());
    }

    void goesBackAndForwardThroughPicks() {
        QVERIFY(window_->openPath(zs_));
        DocumentView* view = window_->currentView();
        const strata::model::SelectionHistory& history = *view->document()->selectionHistory();
        QCOMPARE(history.entries().size(), 1);  // where it opened
        QVERIFY(!back_->isEnabled() && !forward_->isEnabled());

        const QList<const strata::Node*> nodes = distinctNodes(view->document()->root(), 3);
        QCOMPARE(nodes.size(), 3);
        for (const strata::Node* node : nodes) {
            pick(view, node);
            verifyAt(view, node);
        }
        // Go to Offset: a byte inside the second node, no selection.
        const quint64 offset = nodes[1]->region().offset + 1;
        view->goToOffset(offset);
        QCOMPARE(history.entries().size(), 5);
        QVERIFY(back_->isEnabled() && !forward_->isEnabled());

        back_->trigger();
        verifyAt(view, nodes[2]);
        QVERIFY(back_->isEnabled() && forward_->isEnabled());
        back_->trigger();
        verifyAt(view, nodes[1]);
        forward_->trigger();
        verifyAt(view, nodes[2]);
        forward_->trigger();
        QCOMPARE(view->hexView()->cursorOffset(), offset);
        QVERIFY(!view->hexView()->hasSelection());
        QVERIFY(!forward_->isEnabled());
        // Going back and forth added nothing.
        QCOMPARE(history.entries().size(), 5);
        QCOMPARE(history.currentIndex(), 4);
    }

    void aNewPickAfterBackDropsTheWayForward() {
        QVERIFY(window_->openPath(zs_));
        DocumentView* view = window_->currentView();
        const QList<const strata::Node*> nodes = distinctNodes(view->document()->root(), 4);
        QCOMPARE(nodes.size(), 4);
        for (int i = 0; i < 3; ++i) {
            pick(view, nodes[i]);
        }
        back_->trigger();
        back_->trigger();
        verifyAt(view, nodes[0]);
        QVERIFY(forward_->isEnabled());
        pick(view, nodes[3]);
        QVERIFY(!forward_->isEnabled());
        const auto& entries = view->document()->selectionHistory()->entries();
        QCOMPARE(entries.size(), 3);  // where it opened, nodes[0], nodes[3]
        back_->trigger();
        verifyAt(view, nodes[0]);
    }

    void arrowKeysInTheHexViewMakeOneEntry() {
        QVERIFY(window_->openPath(zs_));
        DocumentView* view = window_->currentView();
        const QList<const strata::Node*> nodes = distinctNodes(view->document()->root(), 2);
        pick(view, nodes[0]);
        pick(view, nodes[1]);
        const auto& history = *view->document()->selectionHistory();
        const qsizetype before = history.entries().size();
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        HexView* hex = view->hexView();
        hex->setFocus();
        const quint64 start = hex->cursorOffset();
        for (int i = 0; i < 20; ++i) {
            QTest::keyClick(hex, Qt::Key_Right);
        }
        QCOMPARE(hex->cursorOffset(), start + 20);
        QCOMPARE(history.entries().size(), before);
        QCOMPARE(history.entries().back().offset, hex->cursorOffset());
        // The walk took the place of the pick it started from: Back goes to the pick before,
        // Forward to where the walk ended.
        back_->trigger();
        verifyAt(view, nodes[0]);
        forward_->trigger();
        QCOMPARE(hex->cursorOffset(), history.entries().back().offset);
    }

    void eachTabHasItsOwnHistory() {
        QVERIFY(window_->openPath(zs_));
        DocumentView* first = window_->currentView();
        const QList<const strata::Node*> nodes = distinctNodes(first->document()->root(), 2);
        pick(first, nodes[0]);
        pick(first, nodes[1]);
        back_->trigger();
        QVERIFY(back_->isEnabled() && forward_->isEnabled());

        QVERIFY(window_->openPath(zt_));
        DocumentView* second = window_->currentView();
        QVERIFY(second != first);
        QVERIFY(!back_->isEnabled() && !forward_->isEnabled());
        const QList<const strata::Node*> tensors = distinctNodes(second->document()->root(), 1);
        pick(second, tensors[0]);
        QVERIFY(back_->isEnabled() && !forward_->isEnabled());

        window_->tabs()->setCurrentWidget(first);
        QVERIFY(back_->isEnabled() && forward_->isEnabled());
        forward_->trigger();
        verifyAt(first, nodes[1]);
        QVERIFY(!forward_->isEnabled());
        // The other tab's history did not move.
        QCOMPARE(second->document()->selectionHistory()->currentIndex(), 1);
        verifyAt(second, tensors[0]);
    }

    void theHistoryOutlivesAReload() {
        QVERIFY(window_->openPath(zs_));
        DocumentView* view = window_->currentView();
        const QList<const strata::Node*> nodes = distinctNodes(view->document()->root(), 2);
        pick(view, nodes[0]);
        pick(view, nodes[1]);
        const QString path0 = QString::fromStdString(nodes[0]->path());
        QVERIFY(window_->reloadView(view));
        view = window_->currentView();
        const auto& history = *view->document()->selectionHistory();
        QCOMPARE(history.entries().size(), 3);
        QVERIFY(back_->isEnabled());
        back_->trigger();
        // The same node of the document opened again.
        QVERIFY(view->currentNode() != nullptr);
        QCOMPARE(QString::fromStdString(view->currentNode()->path()), path0);
    }

    void theToolbarShowsEveryActionAt1366Pixels() {
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        window_->resize(1366, 768);
        QCoreApplication::processEvents();
        QCOMPARE(window_->width(), 1366);
        auto* bar = window_->findChild<QToolBar*>(QStringLiteral("MainToolBar"));
        QVERIFY(bar != nullptr);
        QVERIFY(bar->actions().contains(back_) && bar->actions().contains(forward_));
        auto* overflow = bar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
        QVERIFY2(overflow == nullptr || !overflow->isVisible(),
                 qPrintable(QStringLiteral("toolbar %1 px wide, needs %2")
                                .arg(bar->width())
                                .arg(bar->sizeHint().width())));
        for (QAction* action : bar->actions()) {
            if (!action->isSeparator()) {
                QWidget* widget = bar->widgetForAction(action);
                QVERIFY2(widget != nullptr && widget->isVisible(), qPrintable(action->text()));
                QVERIFY2(bar->rect().contains(widget->geometry()), qPrintable(action->text()));
            }
        }
    }

private:
    QString zs_;
    QString zt_;
    std::unique_ptr<MainWindow> window_;
    QAction* back_ = nullptr;
    QAction* forward_ = nullptr;
};

// On one 1366×768 screen, set before the application starts.
int main(int argc, char* argv[]) {
    strata::test::useSmallOffscreenScreen("selection-navigation");
    QApplication app(argc, argv);
    SelectionNavigationTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "selection_navigation_test.moc"
