// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline_export.h"

#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace view {

bool exportFormatFromPath(const QString& path, ExportFormat& out) {
    const QString p = path.toLower();
    if (p.endsWith(".png")) out = ExportFormat::Png;
    else if (p.endsWith(".svg")) out = ExportFormat::Svg;
    else if (p.endsWith(".pdf")) out = ExportFormat::Pdf;
    else return false;
    return true;
}

QString exportTimeline(const QString& path, const TimelineData& data, Time start, Time end, int width, int height,
                       const QPalette& palette, const QFont& font) {
    ExportFormat fmt;
    if (!exportFormatFromPath(path, fmt)) return QObject::tr("%1: unknown file type; use .png, .svg or .pdf").arg(path);
    if (!data.trace) return QObject::tr("nothing to export: no run is loaded");
    if (end <= start) return QObject::tr("the time range is empty");
    TimelineLayout layout;
    height = std::max(height, layout.height(data.trace->cpus));
    TimeAxis axis;
    axis.start = start;
    axis.end = end;
    axis.width = std::max(1, width - layout.gutter);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return QObject::tr("%1: cannot write (%2)").arg(path, file.errorString());
    const QRect rect(0, 0, width, height);
    bool painted = false;
    if (fmt == ExportFormat::Png) {
        QImage img(width, height, QImage::Format_ARGB32_Premultiplied);
        img.fill(palette.color(QPalette::Base));
        {
            QPainter p(&img);
            p.setRenderHint(QPainter::Antialiasing, false);
            TimelinePainter::paint(p, rect, axis, data, layout, palette, font);
        }
        painted = img.save(&file, "PNG");
    } else if (fmt == ExportFormat::Svg) {
        QSvgGenerator gen;
        gen.setOutputDevice(&file);
        gen.setSize(rect.size());
        gen.setViewBox(rect);
        gen.setResolution(96); // CSS pixels: browsers show it at the exported size
        gen.setTitle("SchedScope timeline");
        QPainter p;
        painted = p.begin(&gen);
        if (painted) {
            TimelinePainter::paint(p, rect, axis, data, layout, palette, font);
            p.end();
        }
    } else {
        QPdfWriter pdf(&file);
        pdf.setTitle("SchedScope timeline");
        pdf.setCreator("SchedScope");
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        painted = p.begin(&pdf);
        if (painted) {
            // Paint in device pixels of the PDF's resolution: scale our pixel layout onto the page.
            const double sx = double(pdf.width()) / width, sy = double(pdf.height()) / height;
            p.scale(sx, sy);
            TimelinePainter::paint(p, rect, axis, data, layout, palette, font);
            p.end();
        }
    }
    if (!painted) {
        file.cancelWriting();
        return QObject::tr("%1: rendering failed").arg(path);
    }
    if (!file.commit()) return QObject::tr("%1: cannot save (%2)").arg(path, file.errorString());
    return {};
}

} // namespace view
