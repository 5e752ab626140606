#include "screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace strata::gui {
namespace {

int fitted(int wanted, int room, int minimum) {
    return std::max(std::min(wanted, room), std::max(minimum, 0));
}

}  // namespace

QRect firstWindowGeometry(const QRect& available, const QSize& preferred, const QSize& minimum,
                          double share) {
    const QSize room(int(std::floor(available.width() * share)),
                     int(std::floor(available.height() * share)));
    const QSize size(fitted(preferred.width(), room.width(), minimum.width()),
                     fitted(preferred.height(), room.height(), minimum.height()));
    QRect out(QPoint(0, 0), size);
    out.moveCenter(available.center());
    // A window bigger than the screen (its minimum) keeps its top left corner on the screen.
    out.moveLeft(std::max(out.left(), available.left()));
    out.moveTop(std::max(out.top(), available.top()));
    return out;
}

QRect clampedToScreen(const QRect& saved, const QRect& available, const QSize& minimum) {
    QRect out(saved.topLeft(), QSize(fitted(saved.width(), available.width(), minimum.width()),
                                     fitted(saved.height(), available.height(), minimum.height())));
    if (out.right() > available.right()) {
        out.moveRight(available.right());
    }
    if (out.bottom() > available.bottom()) {
        out.moveBottom(available.bottom());
    }
    out.moveLeft(std::max(out.left(), available.left()));
    out.moveTop(std::max(out.top(), available.top()));
    return out;
}

QRect availableGeometryFor(const QWidget* window) {
    QScreen* screen = window != nullptr ? window->screen() : nullptr;
    if (screen == nullptr) {
        screen = QGuiApplication::primaryScreen();
    }
    return screen != nullptr ? screen->availableGeometry() : QRect(0, 0, 1366, 768);
}

void fitFirstWindow(QWidget* window, const QSize& preferred) {
    window->setGeometry(
        firstWindowGeometry(availableGeometryFor(window), preferred, window->minimumSizeHint()));
}

void clampToScreen(QWidget* window) {
    if (window->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)) {
        return;
    }
    // The frame (title bar, borders) is part of what must fit; before the window is created it
    // is not known yet, and the window is clamped again once shown.
    const QRect frame = window->frameGeometry();
    const QRect inner = window->geometry();
    const QMargins margins(inner.left() - frame.left(), inner.top() - frame.top(),
                           frame.right() - inner.right(), frame.bottom() - inner.bottom());
    const QRect clamped = clampedToScreen(frame, availableGeometryFor(window),
                                          window->minimumSizeHint().grownBy(margins));
    if (clamped != frame) {
        window->setGeometry(clamped.marginsRemoved(margins));
    }
}

}  // namespace strata::gui
