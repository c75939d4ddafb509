// SPDX-License-Identifier: GPL-3.0-or-later
// The size a top-level window opens with on first start: its preferred size, or what the screen
// offers where that is smaller (a 1024x768 classroom projector), so that no window opens with its
// right side or its status bar off the screen.
#pragma once

#include <QRect>
#include <QSize>

class QWidget;

// preferred, shrunk to fit `available` less the frame a window manager adds around a window.
QSize fittedWindowSize(QSize preferred, const QRect& available);
// Resizes w to fittedWindowSize() on w's screen and centres it there.
void fitToScreen(QWidget& w, QSize preferred);
