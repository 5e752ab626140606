// GUI responsiveness with a 10,000-document OZDF corpus: opening it in a DocumentView (Corpus
// and OZDF Editor tabs), sorting the corpus table by every column, filtering it as a name is
// typed, and a find-and-replace search with its preview list (plain text and a scoped regular
// expression). Prints wall times (median of three runs) in milliseconds; run by hand:
//   QT_QPA_PLATFORM=offscreen build/<dir>/tests/bench/ozdf/ozdf_gui_bench [DOCUMENTS]
#include <sys/resource.h>
#include <unistd.h>

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>

#include "app/gui/builtin_format_views.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_find_dialog.h"
#include "app/widgets/document_view.h"
#include "formats/ozdf/ozdf_save.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_corpus_model.h"
#include "model/ozdf/ozdf_editor.h"

namespace fs = std::filesystem;
using namespace strata;

namespace {

ozdf::Paragraph paragraph(std::mt19937& random, int words) {
    static const char* const kWords[] = {"the",   "river", "ran",   "north", "through",
                                         "café",  "a",     "stone", "of",    "light",
                                         "quiet", "and",   "town",  "years", "beyond"};
    ozdf::Paragraph p;
    for (int w = 0; w < words; ++w) {
        p.text += w == 0 ? "" : " ";
        p.text += kWords[random() % std::size(kWords)];
    }
    return p;
}

// One in ten documents is a directory document with its chapters in three part files.
ozdf::Corpus generated(int documents) {
    std::mt19937 random(7);
    ozdf::Corpus corpus;
    for (int i = 0; i < documents; ++i) {
        ozdf::Document d;
        d.isDirectory = i % 10 == 9;
        char name[32];
        std::snprintf(name, sizeof name, d.isDirectory ? "dir%05d" : "doc%05d.ozdf", i);
        d.filename = name;
        ozdf::Element title;
        title.name = "TITLE";
        title.paragraphs.push_back(paragraph(random, 6));
        d.elements.push_back(std::move(title));
        ozdf::Element chapters;
        chapters.kind = d.isDirectory ? ozdf::ElementKind::ExternalList : ozdf::ElementKind::List;
        chapters.name = "CHAPTERS";
        const int items = 1 + static_cast<int>(random() % 4);
        for (int c = 0; c < items; ++c) {
            ozdf::Item item;
            item.name = "Chapter " + std::to_string(c + 1);
            const int paragraphs = 1 + static_cast<int>(random() % 4);
            for (int p = 0; p < paragraphs; ++p) {
                item.paragraphs.push_back(paragraph(random, 40));
            }
            chapters.items.push_back(std::move(item));
        }
        d.elements.push_back(std::move(chapters));
        corpus.documents.push_back(std::move(d));
    }
    return corpus;
}

double millis(const std::function<void()>& step) {
    QElapsedTimer timer;
    timer.start();
    step();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

void print(const char* what, const std::vector<double>& runs) {
    std::printf("%-58s %9.1f ms  (runs:", what, median(runs));
    for (const double r : runs) {
        std::printf(" %.1f", r);
    }
    std::printf(")\n");
    std::fflush(stdout);
}

double peakRssMiB() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

struct Opened {
    std::unique_ptr<model::JobRunner> runner = std::make_unique<model::JobRunner>();
    std::unique_ptr<gui::DocumentView> view;
    gui::OzdfCorpusView* corpus = nullptr;
};

// Opens the folder as the app does and paints the corpus table once.
std::unique_ptr<Opened> open(const fs::path& folder) {
    auto o = std::make_unique<Opened>();
    QString error;
    auto document = model::Document::open(QString::fromStdString(folder.string()), &error);
    if (!document) {
        std::fprintf(stderr, "cannot open %s: %s\n", folder.c_str(), qPrintable(error));
        std::exit(1);
    }
    o->view = std::make_unique<gui::DocumentView>(std::move(document), o->runner.get(),
                                                  gui::builtinFormatViews());
    o->view->resize(1200, 800);
    o->view->show();
    // A big corpus lists at once and is read for editing by a job: wait for the editing table.
    QElapsedTimer waited;
    waited.start();
    while ((o->corpus = o->view->findChild<gui::OzdfCorpusView*>()) == nullptr &&
           waited.elapsed() < 600000) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    }
    if (o->corpus == nullptr) {
        std::fprintf(stderr, "no Corpus tab\n");
        std::exit(1);
    }
    o->corpus->table()->viewport()->repaint();
    QCoreApplication::processEvents();
    return o;
}

void sortAndPaint(QTableView* table, int column, Qt::SortOrder order) {
    table->sortByColumn(column, order);
    table->viewport()->repaint();
}

// Types `text` into the filter one character at a time, painting after each, then clears it.
void typeFilter(gui::OzdfCorpusView& corpus, const QString& text) {
    auto* filter = corpus.findChild<QLineEdit*>();
    for (qsizetype i = 1; i <= text.size(); ++i) {
        filter->setText(text.left(i));
        corpus.table()->viewport()->repaint();
    }
    filter->clear();
    corpus.table()->viewport()->repaint();
}

// Runs a search from the dialog and waits for its preview list; returns the rows listed.
int findAndPreview(gui::DocumentView& view, const QString& pattern, const QString& replacement,
                   bool regex, const QString& blocks) {
    auto* editor = qobject_cast<model::OzdfEditor*>(view.document()->editor());
    gui::OzdfFindDialog dialog(view, *editor);
    dialog.show();
    dialog.patternEdit()->setText(pattern);
    dialog.replacementEdit()->setText(replacement);
    dialog.regexBox()->setChecked(regex);
    dialog.blocksEdit()->setText(blocks);
    dialog.startFind();
    const bool finished = QTest::qWaitFor([&] { return !dialog.searching(); }, 600000);
    const bool found = finished && QTest::qWaitFor([&] { return dialog.resultCount() > 0; }, 10000);
    dialog.results()->viewport()->repaint();
    return found ? dialog.resultCount() : -1;  // -1: the search did not finish or found nothing
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const int documents = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10000;
    const fs::path folder =
        fs::temp_directory_path() / ("strata_ozdf_gui_bench_" + std::to_string(::getpid()));
    fs::remove_all(folder);
    ozdf::saveCorpusToFolder(generated(documents), folder);
    std::printf("corpus: %d documents in %s\n", documents, folder.c_str());

    std::vector<double> openRuns;
    std::unique_ptr<Opened> o;
    for (int run = 0; run < 3; ++run) {
        o.reset();
        openRuns.push_back(millis([&] { o = open(folder); }));
    }
    print("open in a DocumentView (read, tree, tabs, first paint)", openRuns);

    QTableView* table = o->corpus->table();
    const char* const columns[] = {"Document",   "Kind", "Blocks", "Items",
                                   "Paragraphs", "Text", "Status"};
    for (int c = 0; c < model::OzdfCorpusModel::ColumnCount; ++c) {
        std::vector<double> runs;
        for (int run = 0; run < 3; ++run) {
            runs.push_back(millis([&] {
                sortAndPaint(table, c, Qt::DescendingOrder);
                sortAndPaint(table, c, Qt::AscendingOrder);
            }));
        }
        const std::string what = std::string("sort by ") + columns[c] + " (down, then up, painted)";
        print(what.c_str(), runs);
    }
    sortAndPaint(table, model::OzdfCorpusModel::Name, Qt::AscendingOrder);

    std::vector<double> filterRuns;
    for (int run = 0; run < 3; ++run) {
        filterRuns.push_back(millis([&] { typeFilter(*o->corpus, QStringLiteral("doc012")); }));
    }
    print("filter: type \"doc012\" (6 filterings + clear, painted)", filterRuns);

    int rows = 0;
    std::vector<double> plainRuns;
    for (int run = 0; run < 3; ++run) {
        plainRuns.push_back(millis([&] {
            rows = findAndPreview(*o->view, QStringLiteral("stone"), QStringLiteral("rock"), false,
                                  {});
        }));
    }
    const std::string plain =
        "find \"stone\" -> \"rock\", preview of " + std::to_string(rows) + " changes";
    print(plain.c_str(), plainRuns);

    std::vector<double> regexRuns;
    for (int run = 0; run < 3; ++run) {
        regexRuns.push_back(millis([&] {
            rows = findAndPreview(*o->view, QStringLiteral("\\bq(uiet)\\b"), QStringLiteral("Q$1"),
                                  true, QStringLiteral("CHAPTERS"));
        }));
    }
    const std::string regex =
        "regex \\bq(uiet)\\b in CHAPTERS, preview of " + std::to_string(rows) + " changes";
    print(regex.c_str(), regexRuns);

    std::printf("peak resident memory: %.0f MiB\n", peakRssMiB());
    o.reset();
    fs::remove_all(folder);
    return 0;
}
