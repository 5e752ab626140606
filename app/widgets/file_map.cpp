#include "file_map.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "model/core/format_colors.h"
#include "model/core/structure_model.h"

namespace strata::gui {
namespace {
constexpr int kMaxTooltipDiagnostics = 3;
}

FileMap::FileMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    setToolTip(tr("File map"));
}

QSize FileMap::sizeHint() const {
    return {fontMetrics().height() + 4, 200};
}

QSize FileMap::minimumSizeHint() const {
    return {fontMetrics().height() / 2 + 4, 40};
}

void FileMap::setFile(quint64 size, const strata::Node* fileNode,
                      const strata::ByteSource* source) {
    size_ = size;
    fileNode_ = fileNode;
    source_ = source;
    segments_.clear();
    markers_.clear();
    viewFirst_ = viewLength_ = 0;
    cacheValid_ = false;
    update();
}

void FileMap::setSegments(QList<MapSegment> segments) {
    segments_ = std::move(segments);
    cacheValid_ = false;
    update();
}

void FileMap::setMarkers(QList<MapMarker> markers) {
    markers_ = std::move(markers);
    cacheValid_ = false;
    update();
}

void FileMap::setViewport(quint64 firstOffset, quint64 length) {
    viewFirst_ = firstOffset;
    viewLength_ = length;
    update();
}

QRect FileMap::stripRect() const {
    return rect().adjusted(1, 1, -1, -1);
}

quint64 FileMap::offsetAt(int y) const {
    const QRect strip = stripRect();
    if (size_ == 0 || strip.height() <= 0) {
        return 0;
    }
    const double fraction = std::clamp(double(y - strip.top()) / strip.height(), 0.0, 1.0);
    const auto offset = static_cast<quint64>(fraction * static_cast<double>(size_));
    return std::min(offset, size_ - 1);
}

int FileMap::yFor(quint64 offset) const {
    const QRect strip = stripRect();
    if (size_ == 0) {
        return strip.top();
    }
    const double fraction = static_cast<double>(offset) / static_cast<double>(size_);
    return strip.top() + static_cast<int>(std::floor(fraction * strip.height()));
}

QString FileMap::describe(quint64 offset) const {
    if (size_ == 0) {
        return tr("Empty file");
    }
    QStringList lines;
    lines << tr("Offset %1").arg(model::formatOffset(offset));
    if (fileNode_ != nullptr) {
        if (const strata::Node* node = fileNode_->deepestAt(offset, source_)) {
            lines << QString::fromStdString(node->label()) + QStringLiteral(" (") +
                         QString::fromStdString(node->kind()) + QLatin1Char(')');
        }
    }
    int shown = 0;
    for (const MapMarker& marker : markers_) {
        const bool covers = offset >= marker.offset && offset - marker.offset < marker.length;
        if (covers && shown++ < kMaxTooltipDiagnostics) {
            lines << marker.text;
        }
    }
    if (shown > kMaxTooltipDiagnostics) {
        lines << tr("… and %1 more diagnostics").arg(shown - kMaxTooltipDiagnostics);
    }
    return lines.join(QLatin1Char('\n'));
}

void FileMap::renderCache() {
    const qreal dpr = devicePixelRatioF();
    cache_ = QImage((size() * dpr), QImage::Format_ARGB32_Premultiplied);
    cache_.setDevicePixelRatio(dpr);
    cache_.fill(palette().color(QPalette::Base));
    cacheValid_ = true;
    const QRect strip = stripRect();
    if (size_ == 0 || strip.isEmpty()) {
        return;
    }
    QPainter p(&cache_);
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    auto band = [&](quint64 offset, quint64 length, int minHeight) {
        const int top = yFor(offset);
        const int bottom = yFor(offset + std::min(length, size_ - std::min(offset, size_)));
        return std::max(bottom - top, minHeight);
    };
    for (const MapSegment& s : segments_) {
        const QColor colour = model::colorForNode(*s.node, dark);
        p.fillRect(QRect(strip.left(), yFor(s.offset), strip.width(), band(s.offset, s.length, 1)),
                   colour);
    }
    // Diagnostics on the right half, errors last so they win.
    const int half = strip.width() / 2;
    for (strata::Severity severity :
         {strata::Severity::Info, strata::Severity::Warning, strata::Severity::Error}) {
        const QColor colour = model::colorForSeverity(severity);
        for (const MapMarker& m : markers_) {
            if (m.severity == severity && m.offset < size_) {
                p.fillRect(QRect(strip.left() + half, yFor(m.offset), strip.width() - half,
                                 band(m.offset, std::max<quint64>(m.length, 1), 2)),
                           colour);
            }
        }
    }
}

void FileMap::paintEvent(QPaintEvent* event) {
    Q_UNUSED(event);
    if (!cacheValid_) {
        renderCache();
    }
    QPainter p(this);
    p.drawImage(QPoint(0, 0), cache_);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    if (size_ == 0 || viewLength_ == 0) {
        return;
    }
    const int top = yFor(viewFirst_);
    const int height = std::max(yFor(viewFirst_ + viewLength_) - top, 3);
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(70);
    const QRect marker(0, top, width() - 1, height);
    p.fillRect(marker, fill);
    p.setPen(palette().color(QPalette::Highlight));
    p.drawRect(marker);
}

void FileMap::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && size_ > 0) {
        emit offsetClicked(offsetAt(event->position().toPoint().y()));
    }
}

void FileMap::mouseMoveEvent(QMouseEvent* event) {
    if ((event->buttons() & Qt::LeftButton) && size_ > 0) {
        emit offsetClicked(offsetAt(event->position().toPoint().y()));
    }
}

void FileMap::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    cacheValid_ = false;
}

void FileMap::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        cacheValid_ = false;
        update();
    }
}

bool FileMap::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::showText(help->globalPos(), describe(offsetAt(help->pos().y())), this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace strata::gui
