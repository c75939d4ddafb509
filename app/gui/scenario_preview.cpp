// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/scenario_preview.h"

#include "widgets/live_capture.h"
#include "widgets/timeline_export.h"

QImage scenarioPreview(const scen::Scenario& s, QSize box, const QPalette& palette, const QFont& font,
                       const std::function<bool()>& cancelled) {
    sched::Engine e = scen::instantiate(s, s.seed, sched::TraceOptions{.samples = false});
    const sched::Time span = std::min(s.duration, kPreviewSpan);
    for (sched::Time t = 0; t < span;) {
        if (cancelled()) return {};
        e.runUntil(t = std::min(span, t + 5 * sched::kNsPerMs));
    }
    e.finish();
    view::LaneIndex lanes;
    view::FlagIndex flags;
    const view::TimelineData d = view::finishedRunData(e, lanes, flags);
    QByteArray png;
    if (!view::renderTimeline(view::ExportFormat::Png, d, 0, span, box.width(), 0, palette, font, png)
             .isEmpty())
        return {};
    QImage img = QImage::fromData(png, "PNG");
    if (img.height() > box.height()) img = img.scaled(box, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return img;
}
