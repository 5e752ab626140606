#include "compare_view.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

#include "app/widgets/hex_view.h"
#include "app/widgets/screen_fit.h"
#include "model/compare/comparison.h"
#include "model/core/structure_model.h"

namespace strata::gui {
namespace {

const char* const kGeometryKey = "compareWindow/geometry";

}  // namespace

CompareView::CompareView(std::unique_ptr<model::Comparison> comparison, model::JobRunner& runner,
                         QWidget* parent)
    : QWidget(parent), comparison_(std::move(comparison)), runner_(runner) {
    setWindowTitle(tr("Compare %1 with %2")
                       .arg(comparison_->a()->displayName(), comparison_->b()->displayName()));
    filter_ = new model::DiffFilterModel(this);
    filter_->setSourceModel(comparison_->differences());

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("differences"));
    table_->setModel(filter_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(model::DiffModel::KindColumn, 130);
    table_->setColumnWidth(model::DiffModel::PathColumn, 320);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CompareView::showCurrent);

    auto* sidesSplit = new QSplitter(Qt::Horizontal, this);
    sidesSplit->addWidget(buildSide(0));
    sidesSplit->addWidget(buildSide(1));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(sidesSplit);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildBar());
    layout->addWidget(split, 1);

    // F7 / Shift+F7 as in other diff tools: next and previous difference.
    auto* next = new QAction(tr("Next Difference"), this);
    next->setShortcut(QKeySequence(Qt::Key_F7));
    next->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(next, &QAction::triggered, this, &CompareView::nextDifference);
    auto* previous = new QAction(tr("Previous Difference"), this);
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F7));
    previous->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(previous, &QAction::triggered, this, &CompareView::previousDifference);
    addActions({next, previous});

    connect(comparison_->differences(), &model::DiffModel::countsChanged, this,
            &CompareView::updateStatus);
    connect(comparison_.get(), &model::Comparison::stateChanged, this, [this] {
        updateStatus();
        if (!table_->currentIndex().isValid() && filter_->rowCount() > 0) {
            nextDifference();
        }
    });
    updateStatus();
}

CompareView::~CompareView() = default;

void CompareView::start(const strata::DiffOptions& options) {
    comparison_->start(runner_, options);
}

void CompareView::placeAsWindow(const QSize& preferred) {
    if (restoreGeometry(QSettings().value(kGeometryKey).toByteArray())) {
        clampToScreen(this);
    } else {
        fitFirstWindow(this, preferred);
    }
}

void CompareView::closeEvent(QCloseEvent* event) {
    if (isWindow()) {
        QSettings().setValue(kGeometryKey, saveGeometry());
    }
    QWidget::closeEvent(event);
}

QWidget* CompareView::buildBar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    status_ = new QLabel(bar);
    status_->setObjectName(QStringLiteral("compareStatus"));
    row->addWidget(status_, 1);
    for (int k = 0; k < int(kinds_.size()); ++k) {
        const auto kind = strata::DiffKind(k);
        auto* box = new QCheckBox(model::diffKindLabel(kind), bar);
        box->setChecked(true);
        connect(box, &QCheckBox::toggled, this,
                [this, kind](bool on) { filter_->setKindShown(kind, on); });
        kinds_[std::size_t(k)] = box;
        row->addWidget(box);
    }
    text_ = new QLineEdit(bar);
    text_->setPlaceholderText(tr("Filter paths…"));
    text_->setClearButtonEnabled(true);
    connect(text_, &QLineEdit::textChanged, filter_, &model::DiffFilterModel::setText);
    row->addWidget(text_);
    auto* previous = new QToolButton(bar);
    previous->setText(tr("◀ Previous"));
    previous->setToolTip(tr("Previous difference (Shift+F7)"));
    connect(previous, &QToolButton::clicked, this, &CompareView::previousDifference);
    auto* next = new QToolButton(bar);
    next->setText(tr("Next ▶"));
    next->setToolTip(tr("Next difference (F7)"));
    connect(next, &QToolButton::clicked, this, &CompareView::nextDifference);
    row->addWidget(previous);
    row->addWidget(next);
    return bar;
}

QWidget* CompareView::buildSide(int index) {
    Side& side = sides_[std::size_t(index)];
    model::Document* document = index == 0 ? comparison_->a() : comparison_->b();
    auto* panel = new QWidget(this);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 0, 0);
    side.title = new QLabel(QStringLiteral("<b>%1</b> %2")
                                .arg(index == 0 ? "A" : "B", document->path().toHtmlEscaped()),
                            panel);
    side.title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    side.value = new QLabel(panel);
    side.value->setWordWrap(true);
    side.value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    side.structure = new model::StructureModel(document->root(), this);
    side.tree = new QTreeView(panel);
    side.tree->setModel(side.structure);
    side.tree->setUniformRowHeights(true);
    side.tree->setColumnWidth(model::StructureModel::NameColumn, 220);
    side.hex = new HexView(panel);
    side.hex->setOverlay(document->primaryFile());
    auto* split = new QSplitter(Qt::Vertical, panel);
    split->addWidget(side.tree);
    split->addWidget(side.hex);
    column->addWidget(side.title);
    column->addWidget(side.value);
    column->addWidget(split, 1);
    return panel;
}

void CompareView::nextDifference() {
    step(+1);
}

void CompareView::previousDifference() {
    step(-1);
}

void CompareView::step(int delta) {
    const int rows = filter_->rowCount();
    if (rows == 0) {
        return;
    }
    const QModelIndex current = table_->currentIndex();
    int row = current.isValid() ? current.row() + delta : (delta > 0 ? 0 : rows - 1);
    row = std::clamp(row, 0, rows - 1);
    table_->setCurrentIndex(filter_->index(row, model::DiffModel::KindColumn));
    table_->scrollTo(table_->currentIndex());
}

void CompareView::showCurrent() {
    const QModelIndex current = filter_->mapToSource(table_->currentIndex());
    if (!current.isValid()) {
        return;
    }
    const strata::Difference& d = comparison_->differences()->difference(current.row());
    showSide(0, d.a);
    showSide(1, d.b);
}

void CompareView::showSide(int index, const strata::DiffSide& diffSide) {
    Side& side = sides_[std::size_t(index)];
    model::Document* document = index == 0 ? comparison_->a() : comparison_->b();
    side.value->setText(diffSide.value.empty() ? QString()
                                               : QString::fromStdString(diffSide.value));
    const strata::Region& region = diffSide.region;
    model::ByteOverlay* overlay = region.valid() ? document->overlayFor(region.source) : nullptr;
    if (overlay == nullptr) {
        side.hex->clearNodeRegion();
        side.tree->clearSelection();
        if (diffSide.value.empty()) {
            side.value->setText(tr("(not on this side)"));
        }
        return;
    }
    if (side.hex->overlay() != overlay) {
        side.hex->setOverlay(overlay);
    }
    side.hex->setNodeRegion(region.offset, region.length);
    side.hex->goToOffset(region.offset);
    // The node of exactly these bytes (an empty tensor, not the tensor stored at its offset),
    // else the deepest one covering where they start.
    const strata::Node* file = document->fileNodeFor(region.source);
    const strata::Node* node = nullptr;
    if (file != nullptr) {
        node = file->exactlyAt(region);
        if (node == nullptr) {
            node = file->deepestAt(region.offset, region.source);
        }
    }
    const QModelIndex at = node != nullptr ? side.structure->indexForNode(node) : QModelIndex();
    if (at.isValid()) {
        side.tree->setCurrentIndex(at);
        side.tree->scrollTo(at);
    }
}

void CompareView::updateStatus() {
    const model::Comparison& c = *comparison_;
    QString state;
    switch (c.state()) {
        case model::Comparison::State::Idle:
            state = tr("not started");
            break;
        case model::Comparison::State::Running:
            state = tr("comparing…");
            break;
        case model::Comparison::State::Completed:
            state = c.summary().contentEqual() ? tr("same content") : tr("content differs");
            break;
        case model::Comparison::State::Stopped:
            state = tr("stopped at the limit");
            break;
        case model::Comparison::State::Cancelled:
            state = tr("cancelled");
            break;
        case model::Comparison::State::Failed:
            state = tr("cannot compare: %1").arg(c.errorText());
            break;
    }
    status_->setText(QStringLiteral("%1 — %2").arg(state, c.differences()->countsText()));
}

}  // namespace strata::gui
