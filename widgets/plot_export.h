// SPDX-License-Identifier: GPL-3.0-or-later
// Export of a QCustomPlot chart (EEVDF chart, delay histogram) as PNG, SVG or PDF through the same
// atomic writer as the timeline, so every picture SchedScope writes behaves alike.
#pragma once

#include <QString>

class QCustomPlot;

namespace view {

// width/height 0 = the plot's size on screen. Returns an empty string or what went wrong.
QString exportPlot(QCustomPlot* plot, const QString& path, int width = 0, int height = 0);

} // namespace view
