// SPDX-License-Identifier: GPL-3.0-or-later
// Pictures of the timeline (here) and of the charts (plot_export.h) as the bytes of a PNG (chosen
// resolution), an SVG (QSvgGenerator) or a PDF, painted by the same TimelinePainter as the widget.
// Views do no file I/O: the programs write the bytes through their one save helper
// (app/common/atomic_file.h), which checks every step and keeps the old file on failure.
#pragma once

#include "widgets/timeline_painter.h"

#include <QByteArray>
#include <QString>
#include <functional>

class QPaintDevice;

namespace view {

enum class ExportFormat { Png, Svg, Pdf };
bool exportFormatFromPath(const QString& path, ExportFormat& out);

// A picture of size pixels (PNG) or the same size in points (SVG, PDF) into out: the same layout in
// every format. paint() draws onto the device at the given scale (device pixels per picture pixel)
// and returns false if it could not. A PNG has pixelRatio device pixels per picture pixel (2: crisp
// text on a high-density screen or a printout) and the same layout. Returns an empty string or what
// went wrong.
QString renderPicture(ExportFormat format, QSize size, const QString& title, const QColor& background,
                      const std::function<bool(QPaintDevice&, double scale)>& paint, QByteArray& out,
                      int pixelRatio = 1);

// Renders [start, end) at width x height pixels (PNG) or the same size in points (SVG, PDF) into
// out: what the view shows, without the hover cursor (the widget draws that itself). Returns an
// empty string on success, else what went wrong.
QString renderTimeline(ExportFormat format, const TimelineData& data, Time start, Time end, int width,
                       int height, const QPalette& palette, const QFont& font, QByteArray& out,
                       int pixelRatio = 1);

} // namespace view
