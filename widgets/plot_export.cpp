// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plot_export.h"

#include "widgets/timeline_export.h"

#include <qcustomplot.h>

namespace view {

QString exportPlot(QCustomPlot* plot, const QString& path, int width, int height) {
    const QSize size(width > 0 ? width : plot->width(), height > 0 ? height : plot->height());
    return exportPicture(path, size, "SchedScope chart", plot->palette().color(QPalette::Base),
                         [&](QPaintDevice& dev, double scale) {
                             QCPPainter p;
                             if (!p.begin(&dev)) return false;
                             p.scale(scale, scale);
                             p.setMode(QCPPainter::pmVectorized, dynamic_cast<QImage*>(&dev) == nullptr);
                             plot->toPainter(&p, size.width(), size.height());
                             return p.end();
                         });
}

} // namespace view
