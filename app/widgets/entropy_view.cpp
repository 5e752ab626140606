#include "entropy_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>

#include "model/core/structure_model.h"

namespace strata::gui {

EntropyView::EntropyView(QWidget* parent)
    : QWidget(parent), message_(tr("No entropy profile yet.")) {
    setMouseTracking(true);
}

QSize EntropyView::sizeHint() const {
    return {400, fontMetrics().height() * 8};
}

QSize EntropyView::minimumSizeHint() const {
    return {120, fontMetrics().height() * 4};
}

void EntropyView::setProfile(const model::EntropyProfile& profile) {
    profile_ = profile;
    message_.clear();
    update();
}

void EntropyView::clear(const QString& message) {
    profile_ = {};
    message_ = message.isEmpty() ? tr("No entropy profile yet.") : message;
    update();
}

void EntropyView::setViewport(quint64 firstOffset, quint64 length) {
    viewFirst_ = firstOffset;
    viewLength_ = length;
    update();
}

QRectF EntropyView::plotRect() const {
    const qreal axis = fontMetrics().horizontalAdvance(QStringLiteral("8 ")) + 4;
    const qreal legend = fontMetrics().height() + 4;
    return QRectF(axis, 4, std::max<qreal>(width() - axis - 4, 1),
                  std::max<qreal>(height() - legend - 8, 1));
}

quint64 EntropyView::offsetAt(int x) const {
    const QRectF plot = plotRect();
    if (profile_.fileSize == 0) {
        return 0;
    }
    const double fraction = std::clamp((x - plot.left()) / plot.width(), 0.0, 1.0);
    const auto offset = static_cast<quint64>(fraction * static_cast<double>(profile_.fileSize));
    return std::min(offset, profile_.fileSize - 1);
}

void EntropyView::paintEvent(QPaintEvent* event) {
    Q_UNUSED(event);
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QRectF plot = plotRect();
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot);
    if (!hasProfile()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, message_);
        return;
    }
    const int n = profile_.bucketCount();
    auto xAt = [&](int i) { return plot.left() + plot.width() * i / n; };
    auto yAt = [&](double fraction) { return plot.bottom() - plot.height() * fraction; };

    // Entropy as an area, bucket by bucket.
    QPainterPath area;
    area.moveTo(plot.left(), plot.bottom());
    for (int i = 0; i < n; ++i) {
        const double e = std::clamp<double>(profile_.entropy[i] / 8.0, 0.0, 1.0);
        area.lineTo(xAt(i), yAt(e));
        area.lineTo(xAt(i + 1), yAt(e));
    }
    area.lineTo(plot.right(), plot.bottom());
    QColor entropyColour = palette().color(QPalette::Highlight);
    entropyColour.setAlpha(140);
    p.fillPath(area, entropyColour);

    auto line = [&](const QVector<float>& values, const QColor& colour) {
        if (values.size() != n) {
            return;
        }
        QPainterPath path;
        for (int i = 0; i < n; ++i) {
            const QPointF pt((xAt(i) + xAt(i + 1)) / 2, yAt(std::clamp<double>(values[i], 0, 1)));
            i == 0 ? path.moveTo(pt) : path.lineTo(pt);
        }
        p.setPen(QPen(colour, 1.2));
        p.drawPath(path);
    };
    const QColor zeroColour(120, 120, 120);
    const QColor asciiColour(40, 160, 70);
    line(profile_.zeroFraction, zeroColour);
    line(profile_.asciiFraction, asciiColour);

    // Axis labels and legend.
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPointF(2, plot.top() + fontMetrics().ascent()), QStringLiteral("8"));
    p.drawText(QPointF(2, plot.bottom()), QStringLiteral("0"));
    const qreal legendY = plot.bottom() + fontMetrics().ascent() + 4;
    qreal x = plot.left();
    auto legendItem = [&](const QColor& colour, const QString& text) {
        p.fillRect(QRectF(x, legendY - fontMetrics().ascent() / 2 - 3, 14, 6), colour);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QPointF(x + 18, legendY), text);
        x += 18 + fontMetrics().horizontalAdvance(text) + 16;
    };
    legendItem(entropyColour, tr("entropy (bits/byte)"));
    legendItem(zeroColour, tr("zero bytes"));
    legendItem(asciiColour, tr("printable ASCII"));

    if (viewLength_ > 0 && profile_.fileSize > 0) {
        const double size = static_cast<double>(profile_.fileSize);
        const qreal left = plot.left() + plot.width() * (static_cast<double>(viewFirst_) / size);
        const qreal w =
            std::max<qreal>(plot.width() * (static_cast<double>(viewLength_) / size), 2.0);
        QColor marker = palette().color(QPalette::Text);
        marker.setAlpha(60);
        p.fillRect(QRectF(left, plot.top(), w, plot.height()), marker);
    }
}

void EntropyView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && hasProfile()) {
        emit offsetClicked(offsetAt(event->position().toPoint().x()));
    }
}

bool EntropyView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && hasProfile()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const quint64 offset = offsetAt(help->pos().x());
        const int bucket = profile_.bucketAt(offset);
        if (bucket >= 0 && bucket < profile_.bucketCount()) {
            QToolTip::showText(help->globalPos(),
                               tr("Offset %1\nEntropy %2 bits/byte\nZero %3%, printable %4%")
                                   .arg(model::formatOffset(offset))
                                   .arg(profile_.entropy[bucket], 0, 'f', 2)
                                   .arg(profile_.zeroFraction.value(bucket) * 100, 0, 'f', 0)
                                   .arg(profile_.asciiFraction.value(bucket) * 100, 0, 'f', 0),
                               this);
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace strata::gui
