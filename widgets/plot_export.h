// SPDX-License-Identifier: GPL-3.0-or-later
// A QCustomPlot chart (EEVDF chart, delay histogram) as the bytes of a PNG, SVG or PDF, rendered as
// the timeline's pictures are (timeline_export.h); the programs write them.
#pragma once

#include "widgets/timeline_export.h"

#include <QByteArray>
#include <QString>

class QCustomPlot;

namespace view {

// width/height 0 = the plot's size on screen; pixelRatio as renderPicture() takes it. An SVG is
// clipped to each axis rect as the screen is. Returns an empty string or what went wrong.
QString renderPlot(QCustomPlot* plot, ExportFormat format, int width, int height, QByteArray& out,
                   int pixelRatio = 1);

} // namespace view
