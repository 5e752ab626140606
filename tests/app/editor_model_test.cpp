// A model-based test of the ZDS and OZDF editors. Random sequences of what a user does (sort,
// filter, select, type and apply, edit, delete, add, undo, redo, save, reload) run in a real
// window, and after every step the app is compared with a plain model of the documents kept
// here: the documents are the model's (also after undo and redo), the row shown in the editor is
// the highlighted one, and Delete and the other edits act on the highlighted documents; after a
// save the files on disk, read back with the formats/ readers, hold the model's documents.
//
// Seeds and length: STRATA_EDITOR_MODEL_SEEDS (comma-separated, default "1,2,3") and
// STRATA_EDITOR_MODEL_STEPS (steps per seed and editor, default 150). A failure names the seed,
// the step and the actions that led to it.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>

#include "app/gui/main_window.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_document_editor.h"
#include "app/widgets/document_view.h"
#include "app/zds/zds_document_editor.h"
#include "app/zds/zds_documents_tab.h"
#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_writer.h"
#include "formats/zds/zds_reader.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_corpus_model.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/ozdf/ozdf_text_draft.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_search_results.h"
#include "model/zds/zds_table_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;
namespace fs = std::filesystem;
using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace {

std::vector<quint32> seeds() {
    const QString text = qEnvironmentVariable("STRATA_EDITOR_MODEL_SEEDS", QStringLiteral("1,2,3"));
    std::vector<quint32> out;
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
        out.push_back(part.trimmed().toUInt());
    }
    return out;
}

int stepsPerSeed() {
    bool ok = false;
    const int steps = qEnvironmentVariableIntValue("STRATA_EDITOR_MODEL_STEPS", &ok);
    return ok && steps > 0 ? steps : 150;
}

// Runs events until no job runs and what the jobs posted has landed.
bool settle(MainWindow& window) {
    QDeadlineTimer deadline(60000);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (window.jobRunner()->activeJob() != nullptr) {
            continue;
        }
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents();
        }
        if (window.jobRunner()->activeJob() == nullptr) {
            return true;
        }
    }
    return false;
}

// Waits until `old` has been replaced (a save or reload reopened the document).
DocumentView* replaced(MainWindow& window, const QPointer<DocumentView>& old) {
    QDeadlineTimer deadline(60000);
    while (!old.isNull() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return old.isNull() && settle(window) ? window.currentView() : nullptr;
}

// Closes every message box that opens (a refused edit's warning) and keeps what it said: no
// step expects one, so a box is a failure.
class BoxWatcher : public QObject {
public:
    BoxWatcher() {
        timer_.setInterval(5);
        connect(&timer_, &QTimer::timeout, this, [this] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(w);
                if (box != nullptr && box->isVisible()) {
                    seen_ << box->text();
                    box->reject();
                }
            }
        });
        timer_.start();
    }
    QString take() {
        const QString text = seen_.join(QStringLiteral(" | "));
        seen_.clear();
        return text;
    }

private:
    QTimer timer_;
    QStringList seen_;
};

void clickRow(QTableView* table, int row, Qt::KeyboardModifiers modifiers = {}) {
    const QModelIndex index = table->model()->index(row, 0);
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, modifiers,
                      table->visualRect(index).center());
}

QPushButton* buttonIn(QWidget* parent, const QString& text) {
    for (QPushButton* b : parent->findChildren<QPushButton*>()) {
        if (b->text() == text) {
            return b;
        }
    }
    return nullptr;
}

QAction* actionIn(QToolBar* bar, const QString& text) {
    for (QAction* a : bar->findChildren<QAction*>()) {  // its buttons' menus too
        if (a->text() == text) {
            return a;
        }
    }
    return nullptr;
}

// Plain undo history: one snapshot per edit; save and reload start a new history.
template <typename State>
struct History {
    std::vector<State> states;
    int at = 0;
    int clean = 0;
    State saved;

    void reset(State state) {  // by value: `state` may be one of `states`
        saved = state;
        states = {std::move(state)};
        at = clean = 0;
    }
    const State& now() const { return states[std::size_t(at)]; }
    void push(State state) {
        states.resize(std::size_t(at) + 1);
        states.push_back(std::move(state));
        ++at;
        if (clean >= int(states.size())) {
            clean = -1;  // the saved state can no longer be reached
        }
    }
};

// A failure's context: the seed, the step and the last actions.
struct Log {
    quint32 seed = 0;
    int steps = 0;
    QStringList actions;
    void add(const QString& action) {
        ++steps;
        actions << action;
        if (actions.size() > 25) {
            actions.removeFirst();
        }
    }
    // What the step led to, after its action.
    void result(const QString& what) {
        if (!actions.isEmpty() && !actions.last().contains(QStringLiteral("  -> "))) {
            actions.last() += QStringLiteral("  -> ") + what;
        }
    }
    QString context(const QString& problem) const {
        return QStringLiteral("seed %1, action %2: %3\nlast actions:\n  %4")
            .arg(seed)
            .arg(steps)
            .arg(problem, actions.join(QStringLiteral("\n  ")));
    }
};

#define EXPECT(condition, problem)   \
    do {                             \
        if (!(condition)) {          \
            return QString(problem); \
        }                            \
    } while (false)

// ======================== ZDS ========================

struct ZdsDoc {
    int uid = 0;  // which document this is, across renames
    Json json;
    std::string id() const { return json.at("_id").get<std::string>(); }
};
using ZdsState = std::vector<ZdsDoc>;  // stored order

class ZdsRun {
public:
    ZdsRun(MainWindow& window, QString path, quint32 seed)
        : window_(window), path_(std::move(path)), rng_(seed) {
        log_.seed = seed;
    }

    QString start() {
        EXPECT(window_.openPath(path_) && settle(window_), "the dataset did not open");
        EXPECT(tab() && tab()->editor()->loaded(), "no Documents tab");
        const int test = collectionIndex();
        EXPECT(test >= 0, "no collection test");
        tab()->setCurrentCollection(test);
        ZdsState state;
        model::ZdsTableModel* m = model();
        for (int s = 0; s < m->documentCount(); ++s) {
            state.push_back({nextUid_++, Json::parse(m->text(s))});
        }
        history_.reset(state);
        column_ = static_cast<int>(m->columnPointers().indexOf(QStringLiteral("i"))) + 1;
        EXPECT(column_ > 0, "no column i");
        return check();
    }

    QString step() {
        const int pick = std::uniform_int_distribution<int>(0, 99)(rng_);
        QString error;
        if (pick < 18) {
            error = select(false);
        } else if (pick < 22) {
            error = select(true);
        } else if (pick < 29) {
            error = sort();
        } else if (pick < 36) {
            error = typeAndApply();
        } else if (pick < 41) {
            error = typeAndMove();
        } else if (pick < 44) {
            error = typeInvalidAndMove();
        } else if (pick < 48) {
            error = rename();
        } else if (pick < 52) {
            error = setField();
        } else if (pick < 59) {
            error = remove();
        } else if (pick < 65) {
            error = add();
        } else if (pick < 69) {
            error = duplicate();
        } else if (pick < 73) {
            error = searchAndClick();
        } else if (pick < 83) {
            error = undoOrRedo(true);
        } else if (pick < 90) {
            error = undoOrRedo(false);
        } else if (pick < 95) {
            error = save();
        } else {
            error = reload();
        }
        if (error.isEmpty()) {
            EXPECT(settle(window_), "a job did not finish");
            const QString box = boxes_.take();
            EXPECT(box.isEmpty(), "a message box: " + box);
            log_.result("editor " + idOf(uidOfId(editorId())));
            error = check();
        }
        return error.isEmpty() ? QString() : log_.context(error);
    }

private:
    ZdsDocumentsTab* tab() const {
        DocumentView* view = window_.currentView();
        return view ? view->findChild<ZdsDocumentsTab*>(QStringLiteral("zdsDocumentsTab"))
                    : nullptr;
    }
    int collectionIndex() const {
        for (int i = 0; i < tab()->editor()->collectionCount(); ++i) {
            if (tab()->editor()->table(i)->collection().name() == "test") {
                return i;
            }
        }
        return -1;
    }
    model::ZdsTableModel* model() const { return tab()->currentModel(); }
    QTableView* table() const { return tab()->table(); }
    const ZdsState& state() const { return history_.now(); }
    int rows() const { return static_cast<int>(state().size()); }
    int random(int below) { return std::uniform_int_distribution<int>(0, below - 1)(rng_); }

    // ---- what the table should show ----

    // The stored positions in the order the table shows them: sorted by `_id` or `i` (missing
    // first, then numbers), equal keys in stored order.
    std::vector<int> expectedOrder() const {
        std::vector<int> order(state().size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            order[i] = static_cast<int>(i);
        }
        if (sortColumn_ < 0) {
            return order;
        }
        struct Key {
            int rank = 0;  // missing 0, numbers 3, strings 4, as the model ranks them
            double number = 0;
            std::string text;
            bool operator<(const Key& o) const {
                return rank != o.rank ? rank < o.rank
                       : rank == 3    ? number < o.number
                                      : text < o.text;
            }
        };
        const auto key = [this](int s) {
            const Json& doc = state()[std::size_t(s)].json;
            if (sortColumn_ == 0) {
                return Key{4, 0, doc.at("_id").get<std::string>()};
            }
            return doc.contains("i") ? Key{3, doc["i"].get<double>(), {}} : Key{};
        };
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return order_ == Qt::AscendingOrder ? key(a) < key(b) : key(b) < key(a);
        });
        return order;
    }

    int storedOfUid(int uid) const {
        for (std::size_t s = 0; s < state().size(); ++s) {
            if (state()[s].uid == uid) {
                return static_cast<int>(s);
            }
        }
        return -1;
    }
    int uidOfId(const std::string& id) const {
        for (const ZdsDoc& d : state()) {
            if (d.id() == id) {
                return d.uid;
            }
        }
        return -1;
    }
    QString idOf(int uid) const {
        const int s = storedOfUid(uid);
        return s < 0 ? QStringLiteral("(none)")
                     : QString::fromStdString(state()[std::size_t(s)].id());
    }
    int uidAtRow(int row) const {
        return state()[std::size_t(expectedOrder()[std::size_t(row)])].uid;
    }
    int rowOfUid(int uid) const {
        const std::vector<int> order = expectedOrder();
        const int s = storedOfUid(uid);
        return static_cast<int>(std::find(order.begin(), order.end(), s) - order.begin());
    }

    // The document the editor shows, by its `_id`.
    std::string editorId() const {
        const Json json =
            Json::parse(tab()->documentEditor()->text().toStdString(), nullptr, false);
        return json.is_object() && json.contains("_id") && json["_id"].is_string()
                   ? json["_id"].get<std::string>()
                   : std::string();
    }
    std::set<int> highlightedUids() const {
        std::set<int> out;
        for (const QModelIndex& row : table()->selectionModel()->selectedRows()) {
            out.insert(uidOfId(row.data().toString().toStdString()));
        }
        return out;
    }
    // What Delete, Duplicate and Set field act on, as the tab says.
    std::set<int> actedOnUids() const {
        std::set<int> out;
        for (int stored : tab()->selectedStored()) {
            out.insert(uidOfId(model()->id(stored)));
        }
        return out;
    }
    int currentUid() const {
        const QModelIndex current = table()->currentIndex();
        return current.isValid()
                   ? uidOfId(current.siblingAtColumn(0).data().toString().toStdString())
                   : -1;
    }

    // ---- the check after every step ----

    QString check() {
        model::ZdsTableModel* m = model();
        EXPECT(
            m->documentCount() == rows(),
            QStringLiteral("%1 documents, the model has %2").arg(m->documentCount()).arg(rows()));
        for (int s = 0; s < rows(); ++s) {
            const Json json = Json::parse(m->text(s), nullptr, false);
            EXPECT(json == state()[std::size_t(s)].json,
                   QStringLiteral("stored document %1 is %2, the model has %3")
                       .arg(s)
                       .arg(QString::fromStdString(m->text(s)),
                            QString::fromStdString(state()[std::size_t(s)].json.dump())));
        }
        const std::vector<int> order = expectedOrder();
        for (int row = 0; row < rows(); ++row) {
            const QString shown = m->index(row, 0).data().toString();
            const QString want =
                QString::fromStdString(state()[std::size_t(order[std::size_t(row)])].id());
            EXPECT(shown == want, QStringLiteral("table row %1 shows %2, the sort puts %3 there")
                                      .arg(row)
                                      .arg(shown, want));
        }
        EXPECT(m->isSorted() == (sortColumn_ >= 0), "the table is (not) sorted");
        if (sortColumn_ >= 0) {
            EXPECT(table()->horizontalHeader()->sortIndicatorSection() == sortColumn_,
                   "the sort arrow is on another column");
        }
        QString error = checkSelection();
        if (!error.isEmpty()) {
            return error;
        }
        QUndoStack* stack = window_.currentView()->document()->undoStack();
        EXPECT(stack->canUndo() == (history_.at > 0), "undo is (not) possible");
        EXPECT(stack->canRedo() == (history_.at + 1 < int(history_.states.size())),
               "redo is (not) possible");
        EXPECT(window_.currentView()->document()->isModified() == (history_.at != history_.clean),
               "the modified mark is wrong");
        return {};
    }

    QString checkSelection() {
        EXPECT(!tab()->draft()->isPending(), "typed text is left pending");
        if (rows() == 0) {
            return {};
        }
        const int current = currentUid();
        EXPECT(current >= 0, "no current row");
        EXPECT(uidOfId(editorId()) == current,
               QStringLiteral("the editor shows %1, the current row is %2")
                   .arg(QString::fromStdString(editorId()), idOf(current)));
        EXPECT(uidOfId(model()->id(tab()->currentStored())) == current,
               "the tab's current document is not the current row");
        const Json shown =
            Json::parse(tab()->documentEditor()->text().toStdString(), nullptr, false);
        EXPECT(shown == state()[std::size_t(storedOfUid(current))].json,
               "the editor shows other content than the document's");
        const std::set<int> highlighted = highlightedUids();
        const std::set<int> actedOn = actedOnUids();
        EXPECT(actedOn == (highlighted.empty() ? std::set<int>{current} : highlighted),
               "Delete would act on other documents than the highlighted ones");
        if (expectCurrent_ >= 0) {
            EXPECT(current == expectCurrent_, QStringLiteral("the current row is %1, expected %2")
                                                  .arg(idOf(current), idOf(expectCurrent_)));
        }
        if (expectSelected_) {
            EXPECT(highlighted == *expectSelected_, "other rows are highlighted than expected");
        }
        expectCurrent_ = -1;
        expectSelected_.reset();
        return {};
    }

    // ---- actions ----

    QString select(bool extend) {
        if (rows() == 0) {
            return {};
        }
        const int row = random(rows());
        const int uid = uidAtRow(row);
        log_.add(QStringLiteral("%1 row %2 (%3)")
                     .arg(extend ? "ctrl-click" : "click")
                     .arg(row)
                     .arg(idOf(uid)));
        std::set<int> selected = highlightedUids();
        clickRow(table(), row, extend ? Qt::ControlModifier : Qt::NoModifier);
        if (extend) {
            if (!selected.erase(uid)) {
                selected.insert(uid);
            }
        } else {
            selected = {uid};
        }
        expectCurrent_ = uid;
        expectSelected_ = selected;
        return {};
    }

    QString sort() {
        const int choice = random(5);
        QString what;
        if (choice == 4) {
            sortColumn_ = -1;
            what = QStringLiteral("stored order");
            actionIn(tab()->toolBar(), QStringLiteral("Stored order"))->trigger();
        } else {
            sortColumn_ = choice < 2 ? 0 : column_;
            order_ = choice % 2 == 0 ? Qt::AscendingOrder : Qt::DescendingOrder;
            what = QStringLiteral("sort by %1 %2")
                       .arg(sortColumn_ == 0 ? "_id" : "i")
                       .arg(order_ == Qt::AscendingOrder ? "up" : "down");
            table()->sortByColumn(sortColumn_, order_);
        }
        log_.add(what);
        expectCurrent_ = currentUid();
        expectSelected_ = highlightedUids();
        return {};
    }

    // JSON for document `doc` with a new value of i (and sometimes a new member).
    Json edited(const ZdsDoc& doc) {
        Json json = doc.json;
        json["i"] = random(40);
        if (random(3) == 0) {
            json["note"] = "edit " + std::to_string(random(1000));
        }
        return json;
    }

    QString typeAndApply() {
        const int current = currentUid();
        if (current < 0) {
            return {};
        }
        const ZdsDoc& doc = state()[std::size_t(storedOfUid(current))];
        const Json json = edited(doc);
        log_.add("type and Apply " + QString::fromStdString(json.dump()));
        tab()->documentEditor()->textEdit()->setPlainText(QString::fromStdString(json.dump(2)));
        QTest::mouseClick(tab()->documentEditor()->applyButton(), Qt::LeftButton);
        ZdsState next = state();
        next[std::size_t(storedOfUid(current))].json = json;
        history_.push(next);
        expectCurrent_ = current;
        expectSelected_ = std::set<int>{current};
        return {};
    }

    QString typeAndMove() {
        const int current = currentUid();
        if (current < 0 || rows() < 2) {
            return {};
        }
        const int row = random(rows());
        const int target = uidAtRow(row);
        if (target == current) {
            return {};
        }
        const Json json = edited(state()[std::size_t(storedOfUid(current))]);
        log_.add(QStringLiteral("type %1, then click row %2")
                     .arg(QString::fromStdString(json.dump()))
                     .arg(row));
        tab()->documentEditor()->textEdit()->setPlainText(QString::fromStdString(json.dump()));
        clickRow(table(), row);
        ZdsState next = state();
        next[std::size_t(storedOfUid(current))].json = json;
        history_.push(next);
        expectCurrent_ = target;
        expectSelected_ = std::set<int>{target};
        return {};
    }

    QString typeInvalidAndMove() {
        const int current = currentUid();
        if (current < 0 || rows() < 2) {
            return {};
        }
        const int row = random(rows());
        log_.add(QStringLiteral("type invalid JSON, click row %1, Revert").arg(row));
        tab()->documentEditor()->textEdit()->setPlainText(QStringLiteral("{\"_id\": oops"));
        clickRow(table(), row);
        EXPECT(settle(window_), "a job did not finish");
        EXPECT(currentUid() == current, "the row left the document whose text does not apply");
        EXPECT(tab()->draft()->isPending(), "the typed text was dropped");
        buttonIn(tab()->documentEditor(), QStringLiteral("Revert"))->click();
        expectCurrent_ = current;
        expectSelected_ = std::set<int>{current};
        return {};
    }

    QString rename() {
        const int current = currentUid();
        if (current < 0) {
            return {};
        }
        const std::string id = "r" + std::to_string(nextName_++);
        log_.add(QStringLiteral("rename to %1").arg(QString::fromStdString(id)));
        EXPECT(tab()->renameCurrent(QString::fromStdString(id)).isEmpty(), "rename refused");
        ZdsState next = state();
        next[std::size_t(storedOfUid(current))].json["_id"] = id;
        history_.push(next);
        expectCurrent_ = current;
        expectSelected_ = std::set<int>{current};
        return {};
    }

    QString setField() {
        if (rows() == 0) {
            return {};
        }
        const std::set<int> targets = actedOnUids();
        const int value = random(40);
        log_.add(QStringLiteral("set i = %1 on %2 document(s)").arg(value).arg(targets.size()));
        EXPECT(tab()->setFieldOnSelection(QStringLiteral("i"), QString::number(value)).isEmpty(),
               "set field refused");
        ZdsState next = state();
        for (ZdsDoc& d : next) {
            if (targets.count(d.uid) != 0) {
                d.json["i"] = value;
            }
        }
        history_.push(next);
        expectCurrent_ = currentUid();
        expectSelected_ = highlightedUids();
        return {};
    }

    QString remove() {
        if (rows() == 0) {
            return {};
        }
        const std::set<int> targets = actedOnUids();
        EXPECT(targets ==
                   (highlightedUids().empty() ? std::set<int>{currentUid()} : highlightedUids()),
               "Delete would not act on the highlighted rows");
        int top = table()->currentIndex().row();
        for (int uid : highlightedUids()) {
            top = std::min(top, rowOfUid(uid));
        }
        log_.add(QStringLiteral("Delete %1 document(s)").arg(targets.size()));
        actionIn(tab()->toolBar(), QStringLiteral("Delete"))->trigger();
        ZdsState next;
        for (const ZdsDoc& d : state()) {
            if (targets.count(d.uid) == 0) {
                next.push_back(d);
            }
        }
        history_.push(next);
        if (rows() > 0) {
            expectCurrent_ = uidAtRow(std::min(top, rows() - 1));
            expectSelected_ = std::set<int>{expectCurrent_};
        }
        return {};
    }

    QString add() {
        const std::string id = "a" + std::to_string(nextName_++);
        Json json = {{"_id", id}, {"i", random(40)}};
        log_.add("add " + QString::fromStdString(json.dump()));
        const int at = tab()->currentStored() >= 0 ? tab()->currentStored() + 1 : rows();
        EXPECT(tab()->addDocument(QString::fromStdString(json.dump())).isEmpty(), "add refused");
        ZdsState next = state();
        const int uid = nextUid_++;
        next.insert(next.begin() + at, ZdsDoc{uid, json});
        history_.push(next);
        expectCurrent_ = uid;
        expectSelected_ = std::set<int>{uid};
        return {};
    }

    bool idInUse(const ZdsState& docs, const std::string& id) const {
        return std::any_of(docs.begin(), docs.end(), [&](const ZdsDoc& d) { return d.id() == id; });
    }
    // The model's rule for a free id.
    std::string freeId(const ZdsState& docs, const std::string& base) const {
        if (!idInUse(docs, base)) {
            return base;
        }
        for (int n = 2;; ++n) {
            const std::string candidate = base + "_" + std::to_string(n);
            if (!idInUse(docs, candidate)) {
                return candidate;
            }
        }
    }

    QString duplicate() {
        if (rows() == 0) {
            return {};
        }
        const std::set<int> targets = actedOnUids();
        std::vector<int> positions;
        for (int uid : targets) {
            positions.push_back(storedOfUid(uid));
        }
        std::sort(positions.begin(), positions.end());
        log_.add(QStringLiteral("Duplicate %1 document(s)").arg(positions.size()));
        actionIn(tab()->toolBar(), QStringLiteral("Duplicate"))->trigger();
        ZdsState next = state();
        std::set<std::string> taken;
        std::vector<ZdsDoc> copies;
        for (int p : positions) {
            const std::string base = state()[std::size_t(p)].id();
            std::string id = freeId(state(), base + "_copy");
            for (int n = 2; taken.count(id) != 0; ++n) {
                id = freeId(state(), base + "_copy" + std::to_string(n));
            }
            taken.insert(id);
            Json json = state()[std::size_t(p)].json;
            json["_id"] = id;
            copies.push_back({nextUid_++, json});
        }
        next.insert(next.begin() + positions.back() + 1, copies.begin(), copies.end());
        history_.push(next);
        expectCurrent_ = copies.front().uid;
        expectSelected_ = std::set<int>{copies.front().uid};
        return {};
    }

    QString searchAndClick() {
        if (rows() == 0) {
            return {};
        }
        const ZdsDoc& doc = state()[std::size_t(random(rows()))];
        log_.add("search id " + QString::fromStdString(doc.id()) + " and click the hit");
        EXPECT(tab()->runSearch(0, 0, {}, QString::fromStdString(doc.id())).isEmpty(),
               "the search did not start");
        EXPECT(settle(window_), "the search did not finish");
        EXPECT(tab()->searchResults()->rowCount() == 1, "the search did not find the id once");
        clickRow(tab()->searchResultsView(), 0);
        expectCurrent_ = doc.uid;
        expectSelected_ = std::set<int>{doc.uid};
        return {};
    }

    QString undoOrRedo(bool undo) {
        const bool possible =
            undo ? history_.at > 0 : history_.at + 1 < int(history_.states.size());
        if (!possible) {
            return {};
        }
        const int current = currentUid();
        log_.add(undo ? "undo" : "redo");
        QUndoStack* stack = window_.currentView()->document()->undoStack();
        undo ? stack->undo() : stack->redo();
        history_.at += undo ? -1 : 1;
        // The shown document stays shown while it exists.
        if (storedOfUid(current) >= 0) {
            expectCurrent_ = current;
        }
        return {};
    }

    QString save() {
        const int current = currentUid();
        log_.add("save");
        QPointer<DocumentView> old(window_.currentView());
        window_.save();
        EXPECT(replaced(window_, old) != nullptr, "the saved dataset did not reopen");
        const ZdsState saved = orderAsSaved();
        QString error = checkDisk(saved);
        if (!error.isEmpty()) {
            return error;
        }
        history_.reset(saved);
        expectCurrent_ = current;
        return {};
    }

    // A save keeps the collection's history (superseded lines stay where they are): documents
    // whose id the files held keep their place, edited ones too; documents with a new id (added,
    // renamed, duplicated) follow every old line, so they come after the others, in order.
    ZdsState orderAsSaved() const {
        std::set<std::string> held;
        for (const ZdsDoc& d : history_.saved) {
            held.insert(d.id());
        }
        ZdsState order = state();
        std::stable_partition(order.begin(), order.end(),
                              [&](const ZdsDoc& d) { return held.contains(d.id()); });
        return order;
    }

    QString reload() {
        const std::string id = editorId();
        log_.add("reload (unsaved edits dropped)");
        QPointer<DocumentView> old(window_.currentView());
        window_.reloadView(old);
        EXPECT(replaced(window_, old) != nullptr, "the dataset did not reopen");
        history_.reset(history_.saved);
        // The view shows the same document again when the files hold its id.
        expectCurrent_ = uidOfId(id);
        return {};
    }

    // The collection as the reader reads it from disk holds the model's live documents.
    QString checkDisk(const ZdsState& expected) {
        const auto dataset = zds::ZdsDataset::open(path_.toStdString());
        const zds::ZdsCollection* c = nullptr;
        for (const auto& collection : dataset->collections) {
            c = collection->name() == "test" ? collection.get() : c;
        }
        EXPECT(c != nullptr, "no collection test on disk");
        EXPECT(c->documentCount() == expected.size(),
               QStringLiteral("%1 documents on disk, the model has %2")
                   .arg(c->documentCount())
                   .arg(expected.size()));
        for (std::uint64_t i = 0; i < c->documentCount(); ++i) {
            const ByteView bytes = c->documentBytes(i);
            const Json json =
                Json::parse(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                            nullptr, false);
            EXPECT(json == expected[i].json,
                   QStringLiteral("document %1 on disk differs from the model's").arg(i));
        }
        return {};
    }

    MainWindow& window_;
    QString path_;
    std::mt19937 rng_;
    Log log_;
    BoxWatcher boxes_;
    History<ZdsState> history_;
    int nextUid_ = 1;
    int nextName_ = 1;
    int column_ = -1;  // the column of "i"
    int sortColumn_ = -1;
    Qt::SortOrder order_ = Qt::AscendingOrder;
    int expectCurrent_ = -1;
    std::optional<std::set<int>> expectSelected_;
};

// ======================== OZDF ========================

using OzdfState = std::map<std::string, OrderedJson>;  // documentJson by file name
using Kind = model::OzdfAddress::Kind;

class OzdfRun {
public:
    OzdfRun(MainWindow& window, QString path, quint32 seed)
        : window_(window), path_(std::move(path)), rng_(seed) {
        log_.seed = seed;
    }

    QString start() {
        EXPECT(window_.openPath(path_) && settle(window_), "the corpus did not open");
        EXPECT(corpus() != nullptr && editor() != nullptr, "no OZDF tabs");
        OzdfState state;
        for (int i = 0; i < session().documentCount(); ++i) {
            state[session().document(i).filename] = ozdf::documentJson(session().document(i));
        }
        history_.reset(state);
        return check();
    }

    QString step() {
        const int pick = std::uniform_int_distribution<int>(0, 99)(rng_);
        QString error;
        if (pick < 8) {
            error = sort();
        } else if (pick < 15) {
            error = filter();
        } else if (pick < 30) {
            error = clickDocument();
        } else if (pick < 34) {
            error = removeDocument();
        } else if (pick < 38) {
            error = addDocument();
        } else if (pick < 41) {
            error = renameDocument();
        } else if (pick < 44) {
            error = toggleKind();
        } else if (pick < 54) {
            error = selectParagraph();
        } else if (pick < 61) {
            error = typeText(false);
        } else if (pick < 65) {
            error = typeText(true);
        } else if (pick < 69) {
            error = addParagraph();
        } else if (pick < 72) {
            error = removeParagraph();
        } else if (pick < 76) {
            error = moveParagraph();
        } else if (pick < 85) {
            error = undoOrRedo(true);
        } else if (pick < 91) {
            error = undoOrRedo(false);
        } else if (pick < 96) {
            error = save();
        } else {
            error = reload();
        }
        if (error.isEmpty()) {
            EXPECT(settle(window_), "a job did not finish");
            const QString box = boxes_.take();
            EXPECT(box.isEmpty(), log_.context("a message box: " + box));
            log_.result(QStringLiteral("editor %1, row %2, filter \"%3\", sorted by %4")
                            .arg(QString::fromStdString(editorFile()),
                                 QString::fromStdString(currentRowFile()), filter_)
                            .arg(corpus()->table()->horizontalHeader()->sortIndicatorSection()));
            error = check();
        }
        return error.isEmpty() ? QString() : log_.context(error);
    }

private:
    DocumentView* view() const { return window_.currentView(); }
    OzdfCorpusView* corpus() const { return view()->findChild<OzdfCorpusView*>(); }
    OzdfDocumentEditor* editor() const { return view()->findChild<OzdfDocumentEditor*>(); }
    model::OzdfSession& session() const {
        return qobject_cast<model::OzdfEditor*>(view()->document()->editor())->session();
    }
    QUndoStack* stack() const { return view()->document()->undoStack(); }
    const OzdfState& state() const { return history_.now(); }
    int random(int below) { return std::uniform_int_distribution<int>(0, below - 1)(rng_); }

    std::string editorFile() const {
        const int index = editor()->documentIndex();
        return index < 0 ? std::string() : session().document(index).filename;
    }
    model::OzdfAddress editorAddress() const {
        return editor()->documentModel()->addressOf(editor()->tree()->currentIndex());
    }
    // The highlighted row's document (the corpus table selects one row at most).
    std::string currentRowFile() const {
        const QModelIndexList rows = corpus()->table()->selectionModel()->selectedRows();
        return rows.isEmpty() ? std::string() : rows.front().data().toString().toStdString();
    }
    void showCorpus() { view()->centreTabs()->setCurrentWidget(corpus()); }
    void showEditor() { view()->centreTabs()->setCurrentWidget(editor()); }

    // The paragraph list at `a` in plain JSON (nullptr when `a` is no paragraph).
    static OrderedJson* paragraphs(OrderedJson& doc, const model::OzdfAddress& a) {
        if (a.kind != Kind::Paragraph || a.element >= doc["elements"].size()) {
            return nullptr;
        }
        OrderedJson& e = doc["elements"][a.element];
        if (a.item) {
            return *a.item < e["items"].size() ? &e["items"][*a.item]["paragraphs"] : nullptr;
        }
        return e.contains("paragraphs") ? &e["paragraphs"] : nullptr;
    }
    // Every paragraph of a document, as addresses.
    static std::vector<model::OzdfAddress> paragraphAddresses(const OrderedJson& doc) {
        std::vector<model::OzdfAddress> out;
        for (std::size_t e = 0; e < doc["elements"].size(); ++e) {
            const OrderedJson& element = doc["elements"][e];
            if (element.contains("paragraphs")) {
                for (std::size_t p = 0; p < element["paragraphs"].size(); ++p) {
                    out.push_back({Kind::Paragraph, e, std::nullopt, p});
                }
            }
            if (element.contains("items")) {
                for (std::size_t i = 0; i < element["items"].size(); ++i) {
                    for (std::size_t p = 0; p < element["items"][i]["paragraphs"].size(); ++p) {
                        out.push_back({Kind::Paragraph, e, i, p});
                    }
                }
            }
        }
        return out;
    }
    static QString where(const model::OzdfAddress& a) {
        return QStringLiteral("element %1 item %2 paragraph %3")
            .arg(a.element)
            .arg(a.item ? qlonglong(*a.item) : -1)
            .arg(a.paragraph);
    }

    // ---- the check after every step ----

    QString check() {
        EXPECT(session().documentCount() == int(state().size()),
               QStringLiteral("%1 documents, the model has %2")
                   .arg(session().documentCount())
                   .arg(state().size()));
        for (int i = 0; i < session().documentCount(); ++i) {
            const ozdf::Document& d = session().document(i);
            const auto it = state().find(d.filename);
            EXPECT(it != state().end(),
                   "a document the model does not have: " + QString::fromStdString(d.filename));
            EXPECT(ozdf::documentJson(d) == it->second,
                   "document " + QString::fromStdString(d.filename) +
                       " differs from the model's: " +
                       QString::fromStdString(ozdf::documentJson(d).dump()) + " vs " +
                       QString::fromStdString(it->second.dump()));
        }
        QString error = checkTable();
        if (error.isEmpty()) {
            error = checkSelection();
        }
        if (!error.isEmpty()) {
            return error;
        }
        EXPECT(stack()->canUndo() == (history_.at > 0), "undo is (not) possible");
        EXPECT(stack()->canRedo() == (history_.at + 1 < int(history_.states.size())),
               "redo is (not) possible");
        EXPECT(view()->document()->isModified() == (history_.at != history_.clean),
               "the modified mark is wrong");
        return {};
    }

    bool passes(const std::string& name) const {
        return QString::fromStdString(name).contains(filter_, Qt::CaseInsensitive);
    }

    // The rows are the documents the filter lets through, in the order of the sort column.
    QString checkTable() {
        QSortFilterProxyModel* proxy = corpus()->proxy();
        std::set<std::string> shown;
        for (int row = 0; row < proxy->rowCount(); ++row) {
            shown.insert(proxy->index(row, 0).data().toString().toStdString());
        }
        std::set<std::string> want;
        for (const auto& [name, doc] : state()) {
            if (passes(name)) {
                want.insert(name);
            }
        }
        EXPECT(shown == want, "the table shows other documents than the filter lets through");
        const int column = corpus()->table()->horizontalHeader()->sortIndicatorSection();
        const Qt::SortOrder order = corpus()->table()->horizontalHeader()->sortIndicatorOrder();
        for (int row = 1; row < proxy->rowCount(); ++row) {
            const QVariant above =
                proxy->index(row - 1, column).data(model::OzdfCorpusModel::kSortRole);
            const QVariant below =
                proxy->index(row, column).data(model::OzdfCorpusModel::kSortRole);
            const int c = QVariant::compare(above, below) == QPartialOrdering::Less      ? -1
                          : QVariant::compare(above, below) == QPartialOrdering::Greater ? 1
                                                                                         : 0;
            EXPECT(order == Qt::AscendingOrder ? c <= 0 : c >= 0,
                   QStringLiteral("rows %1 and %2 are out of order").arg(row - 1).arg(row));
        }
        return {};
    }

    QString checkSelection() {
        EXPECT(!view()->document()->hasPendingText(), "typed text is left pending");
        const std::string row = currentRowFile();
        QStringList highlighted;
        for (const QModelIndex& index : corpus()->table()->selectionModel()->selectedRows()) {
            highlighted << index.data().toString();
        }
        EXPECT(highlighted.size() <= 1, "more than one row is highlighted");
        if (!row.empty()) {
            EXPECT(row == editorFile(),
                   QStringLiteral("the editor shows %1, the highlighted row is %2")
                       .arg(QString::fromStdString(editorFile()), QString::fromStdString(row)));
        }
        if (!expectFile_.empty()) {
            EXPECT(editorFile() == expectFile_, QStringLiteral("the editor shows %1, expected %2")
                                                    .arg(QString::fromStdString(editorFile()),
                                                         QString::fromStdString(expectFile_)));
        }
        const std::string file = editorFile();
        const model::OzdfAddress a = editorAddress();
        if (expectAddress_) {
            EXPECT(model::sameOzdfAddress(a, *expectAddress_),
                   "the editor is on " + where(a) + ", expected " + where(*expectAddress_));
        }
        expectFile_.clear();
        expectAddress_.reset();
        if (!file.empty() && a.kind == Kind::Paragraph) {
            OrderedJson doc = state().at(file);
            OrderedJson* list = paragraphs(doc, a);
            EXPECT(list != nullptr && a.paragraph < list->size(), "the editor is on no paragraph");
            EXPECT(editor()->textEdit()->toPlainText().toStdString() ==
                       (*list)[a.paragraph].get<std::string>(),
                   "the text editor shows other text than the paragraph's");
        }
        return {};
    }

    // ---- corpus actions ----

    QString sort() {
        const int columns[] = {model::OzdfCorpusModel::Name, model::OzdfCorpusModel::Kind,
                               model::OzdfCorpusModel::Blocks, model::OzdfCorpusModel::Paragraphs,
                               model::OzdfCorpusModel::TextBytes};
        const int column = columns[random(5)];
        const Qt::SortOrder order = random(2) == 0 ? Qt::AscendingOrder : Qt::DescendingOrder;
        log_.add(QStringLiteral("sort column %1 %2")
                     .arg(column)
                     .arg(order == Qt::AscendingOrder ? "up" : "down"));
        const std::string before = editorFile();
        corpus()->table()->sortByColumn(column, order);
        expectFile_ = before;
        return {};
    }

    QString filter() {
        const char* const choices[] = {"", "", "doc", "UP", "_", "o", "dir", "nothing matches"};
        filter_ = QString::fromLatin1(choices[random(8)]);
        if (random(4) == 0 && !state().empty()) {
            auto it = state().begin();
            std::advance(it, random(int(state().size())));
            filter_ = QString::fromStdString(it->first).left(3);
        }
        log_.add("filter \"" + filter_ + "\"");
        corpus()->filterEdit()->setText(filter_);
        return {};
    }

    QString clickDocument() {
        const int rows = corpus()->proxy()->rowCount();
        if (rows == 0) {
            return {};
        }
        showCorpus();
        const int row = random(rows);
        expectFile_ = corpus()->proxy()->index(row, 0).data().toString().toStdString();
        log_.add(
            QStringLiteral("click row %1 (%2)").arg(row).arg(QString::fromStdString(expectFile_)));
        clickRow(corpus()->table(), row);
        return {};
    }

    QString removeDocument() {
        showCorpus();
        const std::string file = currentRowFile();
        log_.add("Remove " + QString::fromStdString(file));
        buttonIn(corpus(), QStringLiteral("Remove"))->click();
        if (!file.empty()) {
            OzdfState next = state();
            next.erase(file);
            history_.push(next);
        }
        return {};
    }

    QString addDocument() {
        const bool directory = random(3) == 0;
        const std::string name = "n" + std::to_string(nextName_++) + (directory ? "" : ".ozdf");
        log_.add("add " + QString::fromStdString(name));
        QString error;
        EXPECT(model::addOzdfDocument(*stack(), session(), QString::fromStdString(name), directory,
                                      &error),
               "add refused: " + error);
        ozdf::Document document;
        document.filename = name;
        document.isDirectory = directory;
        OzdfState next = state();
        next[name] = ozdf::documentJson(document);
        history_.push(next);
        return {};
    }

    QString renameDocument() {
        const std::string file = editorFile();
        if (file.empty()) {
            return {};
        }
        const bool directory = state().at(file)["is_directory"].get<bool>();
        const std::string name = "m" + std::to_string(nextName_++) + (directory ? "" : ".ozdf");
        const bool highlighted = currentRowFile() == file;
        log_.add(QStringLiteral("rename %1 to %2")
                     .arg(QString::fromStdString(file), QString::fromStdString(name)));
        QString error;
        EXPECT(model::renameOzdfDocument(*stack(), session(), session().indexOf(file),
                                         QString::fromStdString(name), &error),
               "rename refused: " + error);
        OzdfState next = state();
        OrderedJson doc = next.at(file);
        doc["filename"] = name;
        next.erase(file);
        next[name] = doc;
        history_.push(next);
        // A highlighted row the filter now hides hands the highlight (and the editor) to the
        // next row, as single-selection views do.
        if (!highlighted || passes(name)) {
            expectFile_ = name;
        }
        return {};
    }

    QString toggleKind() {
        const std::string file = currentRowFile();
        if (file.empty()) {
            return {};
        }
        ozdf::Document document;
        try {
            document = ozdf::documentFromJson(state().at(file));
            document.filename = file;
            ozdf::toggleDirectoryDocument(document);
            (void)ozdf::writeDocumentText(document);
        } catch (const std::exception&) {
            return {};  // refused: not a step of this test
        }
        if (state().count(document.filename) != 0) {
            return {};
        }
        showCorpus();
        log_.add(QStringLiteral("toggle %1 to %2")
                     .arg(QString::fromStdString(file), QString::fromStdString(document.filename)));
        buttonIn(corpus(), QStringLiteral("Standalone ↔ Directory"))->click();
        OzdfState next = state();
        next.erase(file);
        next[document.filename] = ozdf::documentJson(document);
        history_.push(next);
        if (passes(document.filename)) {
            expectFile_ = document.filename;
        }
        return {};
    }

    // ---- editor actions ----

    QString selectParagraph() {
        const std::string file = editorFile();
        if (file.empty()) {
            return {};
        }
        const auto all = paragraphAddresses(state().at(file));
        if (all.empty()) {
            return {};
        }
        const model::OzdfAddress a = all[std::size_t(random(int(all.size())))];
        log_.add("select " + where(a));
        showEditor();
        editor()->select(a);
        expectAddress_ = a;
        return {};
    }

    QString typeText(bool thenMove) {
        const std::string file = editorFile();
        const model::OzdfAddress a = editorAddress();
        if (file.empty() || a.kind != Kind::Paragraph) {
            return {};
        }
        const auto all = paragraphAddresses(state().at(file));
        const model::OzdfAddress next = all[std::size_t(random(int(all.size())))];
        if (thenMove && model::sameOzdfAddress(next, a)) {
            return {};
        }
        const std::string text =
            "Typed " + std::to_string(random(1000)) + " words " + std::to_string(nextName_++);
        log_.add(QStringLiteral("type \"%1\" at %2, then %3")
                     .arg(QString::fromStdString(text), where(a),
                          thenMove ? "select " + where(next) : QStringLiteral("Apply Text")));
        showEditor();
        editor()->textEdit()->setPlainText(QString::fromStdString(text));
        if (thenMove) {
            editor()->select(next);
        } else {
            buttonIn(editor(), QStringLiteral("Apply Text"))->click();
        }
        OzdfState after = state();
        (*paragraphs(after[file], a))[a.paragraph] = text;
        history_.push(after);
        expectFile_ = file;
        expectAddress_ = thenMove ? next : a;
        return {};
    }

    QString addParagraph() {
        const std::string file = editorFile();
        const model::OzdfAddress a = editorAddress();
        if (file.empty() || a.kind != Kind::Paragraph) {
            return {};
        }
        log_.add("Add Paragraph after " + where(a));
        showEditor();
        buttonIn(editor(), QStringLiteral("Add Paragraph"))->click();
        OzdfState next = state();
        OrderedJson* list = paragraphs(next[file], a);
        list->insert(list->begin() + std::ptrdiff_t(a.paragraph) + 1, "New paragraph.");
        history_.push(next);
        model::OzdfAddress added = a;
        ++added.paragraph;
        expectAddress_ = added;
        return {};
    }

    QString removeParagraph() {
        const std::string file = editorFile();
        const model::OzdfAddress a = editorAddress();
        if (file.empty() || a.kind != Kind::Paragraph) {
            return {};
        }
        OzdfState next = state();
        OrderedJson* list = paragraphs(next[file], a);
        list->erase(list->begin() + std::ptrdiff_t(a.paragraph));
        try {
            ozdf::Document document = ozdf::documentFromJson(next[file]);
            (void)ozdf::writeDocumentText(document);
        } catch (const std::exception&) {
            return {};  // refused: not a step of this test
        }
        log_.add("Remove " + where(a));
        showEditor();
        buttonIn(editor(), QStringLiteral("Remove"))->click();
        history_.push(next);
        return {};
    }

    QString moveParagraph() {
        const std::string file = editorFile();
        const model::OzdfAddress a = editorAddress();
        if (file.empty() || a.kind != Kind::Paragraph) {
            return {};
        }
        OzdfState next = state();
        OrderedJson* list = paragraphs(next[file], a);
        const bool up = random(2) == 0;
        if ((up && a.paragraph == 0) || (!up && a.paragraph + 1 >= list->size())) {
            return {};
        }
        const std::size_t to = up ? a.paragraph - 1 : a.paragraph + 1;
        if ((*list)[a.paragraph] == (*list)[to]) {
            return {};  // swapping equal paragraphs changes nothing (and says so)
        }
        std::swap((*list)[a.paragraph], (*list)[to]);
        log_.add(QStringLiteral("Move %1 %2").arg(up ? "Up" : "Down", where(a)));
        showEditor();
        buttonIn(editor(), up ? QStringLiteral("Move Up") : QStringLiteral("Move Down"))->click();
        history_.push(next);
        model::OzdfAddress moved = a;
        moved.paragraph = to;
        expectAddress_ = moved;
        return {};
    }

    QString undoOrRedo(bool undo) {
        const bool possible =
            undo ? history_.at > 0 : history_.at + 1 < int(history_.states.size());
        if (!possible) {
            return {};
        }
        const std::string file = editorFile();
        log_.add(undo ? "undo" : "redo");
        undo ? stack()->undo() : stack()->redo();
        history_.at += undo ? -1 : 1;
        if (state().count(file) != 0 && currentRowFile() == file) {
            expectFile_ = file;  // the shown document stays shown while it exists
        }
        return {};
    }

    QString save() {
        log_.add("save");
        QPointer<DocumentView> old(view());
        const std::string file = editorFile();
        window_.save();
        EXPECT(replaced(window_, old) != nullptr, "the saved corpus did not reopen");
        bool accepted = false;
        const OrderedJson dump = ozdf::dumpJson(path_.toStdString(), &accepted);
        OzdfState onDisk;
        for (const OrderedJson& doc : dump["documents"]) {
            onDisk[doc["filename"].get<std::string>()] = doc;
        }
        EXPECT(onDisk == state(), "the files on disk hold other documents than the model: " +
                                      QString::fromStdString(dump.dump()));
        history_.reset(state());
        filter_ = corpus()->filterEdit()->text();
        expectFile_ = file;
        return {};
    }

    QString reload() {
        log_.add("reload (unsaved edits dropped)");
        QPointer<DocumentView> old(view());
        window_.reloadView(old);
        EXPECT(replaced(window_, old) != nullptr, "the corpus did not reopen");
        history_.reset(history_.saved);
        filter_ = corpus()->filterEdit()->text();
        return {};
    }

    MainWindow& window_;
    QString path_;
    std::mt19937 rng_;
    Log log_;
    BoxWatcher boxes_;
    History<OzdfState> history_;
    QString filter_;
    int nextName_ = 1;
    std::string expectFile_;
    std::optional<model::OzdfAddress> expectAddress_;
};

}  // namespace

class EditorModelTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    int copies_ = 0;

    QString copy(const fs::path& relative) {
        const fs::path from = strata::test::corpusRoot() / relative;
        const fs::path to =
            fs::path(dir_.path().toStdString()) / std::to_string(++copies_) / from.filename();
        fs::create_directories(to.parent_path());
        fs::copy(from, to, fs::copy_options::recursive);
        return QString::fromStdString(to.string());
    }

    template <typename Run>
    void run(const fs::path& relative) {
        for (const quint32 seed : seeds()) {
            MainWindow window;
            window.setInteractive(false);
            window.setAutoValidate(false);
            window.resize(1400, 900);
            window.show();
            Run test(window, copy(relative), seed);
            const QString started = test.start();
            QVERIFY2(started.isEmpty(), qPrintable(started));
            for (int step = 0; step < stepsPerSeed(); ++step) {
                const QString error = test.step();
                if (!error.isEmpty()) {
                    qInfo().noquote() << error;  // whole: a failure message is cut short
                }
                QVERIFY2(error.isEmpty(), qPrintable(error.section(u'\n', 0, 0)));
            }
        }
    }

private slots:
    void initTestCase() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("editor_model_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void zdsEditor() { run<ZdsRun>("zds/valid/jsonl_two_collections"); }
    void ozdfEditor() { run<OzdfRun>("ozdf/valid/handwritten/corpora/mixed"); }
};

QTEST_MAIN(EditorModelTest)
#include "editor_model_test.moc"
