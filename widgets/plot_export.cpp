// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plot_export.h"

#include <qcustomplot.h>

#include <QRegularExpression>

namespace view {

namespace {

QString paintPlot(QCustomPlot* plot, ExportFormat format, QSize size, QByteArray& out, int pixelRatio) {
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
        out, pixelRatio);
}

// What lies between an SVG's root element and its end: its drawing, without the title and
// description QSvgGenerator writes first.
QByteArray svgBody(const QByteArray& svg) {
    qsizetype from = svg.indexOf("<svg");
    from = from < 0 ? -1 : svg.indexOf('>', from);
    const qsizetype to = svg.lastIndexOf("</svg>");
    if (from < 0 || to < from) return {};
    QByteArray body = svg.mid(from + 1, to - from - 1);
    static const QRegularExpression meta("<title>.*?</title>|<desc>.*?</desc>",
                                         QRegularExpression::DotMatchesEverythingOption);
    return QString::fromUtf8(body).remove(meta).toUtf8();
}

// Qt 6.4's QSvgGenerator writes SVG Tiny 1.2, which has no clipping, and drops the clip rectangle
// QCustomPlot sets around each axis rect's graphs: lines and fills then run over the axes, the
// margins and the other panel (a viewer shows what the PNG does not). The SVG is therefore drawn
// in parts — everything but the graphs, then each axis rect's graphs on their own — and put
// together as SVG 1.1 with a clipPath per axis rect, the clip QCustomPlot asked for.
QString paintClippedSvg(QCustomPlot* plot, QSize size, QByteArray& out) {
    std::vector<std::pair<QCPAbstractPlottable*, bool>> shown;
    for (int i = 0; i < plot->plottableCount(); ++i)
        shown.emplace_back(plot->plottable(i), plot->plottable(i)->visible());
    const auto restore = [&] {
        for (const auto& [p, v] : shown)
            p->setVisible(v);
    };
    for (const auto& [p, v] : shown)
        p->setVisible(false);
    QByteArray base;
    if (const QString err = paintPlot(plot, ExportFormat::Svg, size, base, 1); !err.isEmpty()) {
        restore();
        return err;
    }
    QByteArray defs, parts;
    const QList<QCPAxisRect*> rects = plot->axisRects();
    for (int k = 0; k < rects.size(); ++k) {
        bool any = false;
        for (const auto& [p, v] : shown) {
            const bool here = v && p->keyAxis() && p->keyAxis()->axisRect() == rects[k];
            p->setVisible(here);
            any = any || here;
        }
        if (!any) continue;
        QByteArray part;
        if (const QString err = paintPlot(plot, ExportFormat::Svg, size, part, 1); !err.isEmpty()) {
            restore();
            return err;
        }
        const QRect r = rects[k]->rect(); // laid out at the export's size by this part's drawing
        defs += QString("<clipPath id=\"axisrect%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" "
                        "height=\"%5\"/></clipPath>\n")
                    .arg(k)
                    .arg(r.x())
                    .arg(r.y())
                    .arg(r.width())
                    .arg(r.height())
                    .toUtf8();
        parts += QString("<g clip-path=\"url(#axisrect%1)\">\n").arg(k).toUtf8() + svgBody(part) + "</g>\n";
    }
    restore();
    plot->replot(QCustomPlot::rpQueuedReplot);
    base.replace("version=\"1.2\" baseProfile=\"tiny\"", "version=\"1.1\"");
    const qsizetype end = base.lastIndexOf("</svg>");
    if (end < 0) return QObject::tr("rendering failed");
    out = base.left(end) + "<defs>\n" + defs + "</defs>\n" + parts + base.mid(end);
    return {};
}

} // namespace

QString renderPlot(QCustomPlot* plot, ExportFormat format, int width, int height, QByteArray& out,
                   int pixelRatio) {
    const QSize size(width > 0 ? width : plot->width(), height > 0 ? height : plot->height());
    if (format == ExportFormat::Svg) return paintClippedSvg(plot, size, out);
    return paintPlot(plot, format, size, out, pixelRatio);
}

} // namespace view
