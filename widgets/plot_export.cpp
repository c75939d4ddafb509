// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plot_export.h"

#include <qcustomplot.h>

namespace view {

QString renderPlot(QCustomPlot* plot, ExportFormat format, int width, int height, QByteArray& out) {
    const QSize size(width > 0 ? width : plot->width(), height > 0 ? height : plot->height());
    return renderPicture(
        format, size, "SchedScope chart", plot->palette().color(QPalette::Base),
        [&](QPaintDevice& dev, double scale) {
            QCPPainter p;
            if (!p.begin(&dev)) return false;
            p.scale(scale, scale);
            p.setMode(QCPPainter::pmVectorized, dynamic_cast<QImage*>(&dev) == nullptr);
            plot->toPainter(&p, size.width(), size.height());
            return p.end();
        },
        out);
}

} // namespace view
