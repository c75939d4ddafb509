// SPDX-License-Identifier: GPL-3.0-or-later
// A view painted with QPainter (the virtual-time lens, the tree lens) as the bytes of a PNG, SVG
// or PDF, laid out as the other pictures are (timeline_export.h): the widget is laid out at the
// picture's size, rendered with its children, and given back its own size.
#pragma once

#include "widgets/timeline_export.h"

#include <QByteArray>
#include <QString>

class QWidget;

namespace view {

// A side of size that is 0: the widget's on screen. Returns an empty string or what went wrong.
QString renderWidget(ExportFormat format, QWidget& widget, QSize size, const QString& title, QByteArray& out,
                     int pixelRatio = 1);

} // namespace view
