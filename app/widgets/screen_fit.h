// Where windows go on the screen: a first window at most 90% of the screen's available area,
// centred; a saved geometry brought back onto the screen it opens on (a smaller screen, a
// laptop without its monitor); a dialog no larger than the screen. The arithmetic is plain
// functions of rectangles, so tests check it for any screen.
#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace strata::gui {

// The largest share of the screen's available area a window opening for the first time takes.
inline constexpr double kFirstWindowShare = 0.9;

// `preferred` shrunk (keeping neither side below `minimum`) to at most `share` of `available`
// on each side, centred in `available`.
QRect firstWindowGeometry(const QRect& available, const QSize& preferred, const QSize& minimum = {},
                          double share = kFirstWindowShare);

// `saved` shrunk to `available` where it is larger (not below `minimum`) and moved inside it.
QRect clampedToScreen(const QRect& saved, const QRect& available, const QSize& minimum = {});

// The available geometry of the screen `window` is on, or of the primary screen.
QRect availableGeometryFor(const QWidget* window);

// Gives `window` its first geometry on its screen (see firstWindowGeometry).
void fitFirstWindow(QWidget* window, const QSize& preferred);
// Brings a restored `window`, its frame included once it has one, back inside its screen
// (nothing for a maximised or full-screen one: the window system places those). Called before
// the first show and again after it, when the frame is known.
void clampToScreen(QWidget* window);

}  // namespace strata::gui
