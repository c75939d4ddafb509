// SPDX-License-Identifier: GPL-3.0-or-later
// A chart that follows its widget's font (the presentation mode's larger text reaches QCustomPlot,
// which copies fonts when its axes are made) and a legend that wraps into as many columns as the
// width holds instead of cutting its entries.
#pragma once

#include <QFont>

class QCustomPlot;

namespace view {

// The axes' tick labels and labels in font, the legend in a slightly smaller one; then the legend's
// columns for the plot's width. Call on a font change and on a resize.
void stylePlot(QCustomPlot* plot, const QFont& font);

} // namespace view
