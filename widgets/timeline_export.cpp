// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline_export.h"

#include <QBuffer>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace view {

bool exportFormatFromPath(const QString& path, ExportFormat& out) {
    const QString p = path.toLower();
    if (p.endsWith(".png"))
        out = ExportFormat::Png;
    else if (p.endsWith(".svg"))
        out = ExportFormat::Svg;
    else if (p.endsWith(".pdf"))
        out = ExportFormat::Pdf;
    else
        return false;
    return true;
}

QString renderPicture(ExportFormat fmt, QSize size, const QString& title, const QColor& background,
                      const std::function<bool(QPaintDevice&, double)>& paint, QByteArray& out,
                      int pixelRatio) {
    if (pixelRatio < 1 || pixelRatio > 4)
        return QObject::tr("a pixel ratio of %1; accepted: 1..4").arg(pixelRatio);
    if (size.width() < 1 || size.height() < 1 || size.width() > 32768 || size.height() > 32768)
        return QObject::tr("a picture of %1 x %2 pixels; accepted: 1..32768 each way")
            .arg(size.width())
            .arg(size.height());
    if (fmt == ExportFormat::Png) {
        size *= pixelRatio;
        if (size.width() > 32768 || size.height() > 32768)
            return QObject::tr("%1 x %2 device pixels at pixel ratio %3; accepted: 1..32768 each way")
                .arg(size.width())
                .arg(size.height())
                .arg(pixelRatio);
    }
    out.clear();
    QBuffer buffer(&out); // in memory: the caller writes the file
    buffer.open(QIODevice::WriteOnly);
    bool painted = false;
    if (fmt == ExportFormat::Png) {
        QImage img(size, QImage::Format_ARGB32_Premultiplied);
        img.fill(background);
        painted = paint(img, double(pixelRatio)) && img.save(&buffer, "PNG");
    } else if (fmt == ExportFormat::Svg) {
        QSvgGenerator gen; // its size is the layout's: pixelRatio is for PNG only
        gen.setOutputDevice(&buffer);
        gen.setSize(size);
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setResolution(96); // CSS pixels: browsers show it at the exported size
        gen.setTitle(title);
        painted = paint(gen, 1.0);
    } else {
        QPdfWriter pdf(&buffer);
        pdf.setTitle(title);
        pdf.setCreator("SchedScope");
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        // Paint in device pixels of the PDF's resolution: our pixel layout is scaled onto the page.
        painted = paint(pdf, double(pdf.width()) / size.width());
    }
    if (!painted || out.isEmpty()) {
        out.clear();
        return QObject::tr("rendering failed");
    }
    return {};
}

QString renderTimeline(ExportFormat format, const TimelineData& data, Time start, Time end, int width,
                       int height, const QPalette& palette, const QFont& font, QByteArray& out,
                       int pixelRatio) {
    if (!data.trace) return QObject::tr("nothing to export: no run is loaded");
    if (end <= start) return QObject::tr("the time range is empty");
    TimelineLayout layout;
    height = std::max(height, layout.height(data.trace->cpus,
                                            data.taskLanes ? int(data.trace->tasks.size()) : 0)); // all of it
    TimeAxis axis;
    axis.start = start;
    axis.end = end;
    axis.width = std::max(1, width - layout.gutter);
    const QRect rect(0, 0, width, height);
    return renderPicture(
        format, rect.size(), "SchedScope timeline", palette.color(QPalette::Base),
        [&](QPaintDevice& dev, double scale) {
            QPainter p;
            if (!p.begin(&dev)) return false;
            p.scale(scale, scale);
            p.setRenderHint(QPainter::Antialiasing, false);
            TimelinePainter::paint(p, rect, axis, data, layout, palette, font);
            return p.end();
        },
        out, pixelRatio);
}

} // namespace view
