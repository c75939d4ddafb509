// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/window_size.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace {
// A title bar and borders: what the window manager adds outside the size set here.
constexpr int kFrameWidth = 16, kFrameHeight = 40;
} // namespace

QSize fittedWindowSize(QSize preferred, const QRect& available) {
    if (!available.isValid()) return preferred;
    return {std::min(preferred.width(), std::max(1, available.width() - kFrameWidth)),
            std::min(preferred.height(), std::max(1, available.height() - kFrameHeight))};
}

void fitToScreen(QWidget& w, QSize preferred) {
    const QScreen* screen = w.screen() ? w.screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect();
    const QSize size = fittedWindowSize(preferred, available);
    w.resize(size);
    if (available.isValid())
        w.move(available.left() + (available.width() - size.width() - kFrameWidth) / 2,
               available.top() + (available.height() - size.height() - kFrameHeight) / 2);
}
