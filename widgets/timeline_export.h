// SPDX-License-Identifier: GPL-3.0-or-later
// Export of the timeline as PNG (chosen resolution), SVG (QSvgGenerator) or PDF, painted by the
// same TimelinePainter as the widget. Files are written atomically (QSaveFile).
#pragma once

#include "timeline_painter.h"

#include <QString>

namespace view {

enum class ExportFormat { Png, Svg, Pdf };
bool exportFormatFromPath(const QString& path, ExportFormat& out);

// Renders [range.start, range.end) at width x height pixels (PNG) or the same size in points
// (SVG, PDF). Returns an empty string on success, else what went wrong.
QString exportTimeline(const QString& path, const TimelineData& data, Time start, Time end, int width, int height,
                       const QPalette& palette, const QFont& font);

} // namespace view
