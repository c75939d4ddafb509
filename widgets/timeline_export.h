// SPDX-License-Identifier: GPL-3.0-or-later
// Export of pictures (the timeline here, the charts in plot_export) as PNG (chosen resolution), SVG
// (QSvgGenerator) or PDF, painted by the same TimelinePainter as the widget. Files are written atomically
// (QSaveFile).
#pragma once

#include "widgets/timeline_painter.h"

#include <QString>
#include <functional>

class QPaintDevice;

namespace view {

enum class ExportFormat { Png, Svg, Pdf };
bool exportFormatFromPath(const QString& path, ExportFormat& out);

// Writes a picture of size pixels (PNG) or the same size in points (SVG, PDF), format from the
// file name, atomically. paint() draws onto the device at the given scale (device pixels per
// picture pixel) and returns false if it could not. Returns an empty string or what went wrong.
QString exportPicture(const QString& path, QSize size, const QString& title, const QColor& background,
                      const std::function<bool(QPaintDevice&, double scale)>& paint);

// Renders [range.start, range.end) at width x height pixels (PNG) or the same size in points
// (SVG, PDF). Returns an empty string on success, else what went wrong.
QString exportTimeline(const QString& path, const TimelineData& data, Time start, Time end, int width,
                       int height, const QPalette& palette, const QFont& font);

} // namespace view
