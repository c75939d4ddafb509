// SPDX-License-Identifier: GPL-3.0-or-later
// What the timeline draws over its lanes — RSEQ slice extensions, wakeup lines, live-change
// markers, the A/B markers — and the layout's scaling with the font.
#include "widgets/task_colors.h"
#include "widgets/timeline_paint_util.h"

#include <QFontMetrics>
#include <QPainter>
#include <cmath>

namespace view {

using paint::forEachInRange;
using paint::hasSliceExts;
using paint::isDark;

TimelineLayout timelineLayoutFor(const QFont& font) {
    TimelineLayout L;
    const QFontMetrics fm(font);
    // The defaults were laid out for DejaVu Sans 9 pt (a line of 15 px at 96 dpi).
    const double f = std::max(1.0, fm.height() / 15.0);
    if (f == 1.0) return L;
    const auto grow = [f](int v) { return int(std::lround(v * f)); };
    L.gutter = std::max(grow(L.gutter), fm.horizontalAdvance("CPU000") + 8);
    L.ruler = grow(L.ruler);
    L.markerBand = grow(L.markerBand);
    L.lane = grow(L.lane);
    L.flagLane = grow(L.flagLane);
    L.gap = grow(L.gap);
    L.taskRow = grow(L.taskRow);
    L.legend = grow(L.legend);
    L.minLane = grow(L.minLane);
    return L;
}

// RSEQ slice extensions (7.0): a bar along the top of the CPU lane from the grant to its end, in
// the colour of how it ended, and one still held up to now. The extensions are ordered by their
// end and last at most a timer's length (<= 50 us plus its interrupt), so those in view are the
// ones ending up to 100 us past it; each pixel column keeps the last drawn, so the cost is bounded
// by the columns once the extensions in view outnumber them.
void TimelinePainter::paintSliceExts(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                                     const TimelineLayout& L, bool dark) {
    if (!d.trace || !hasSliceExts(d)) return; // most runs: no per-column scratch to fill
    const sched::SliceExts& x = d.trace->sliceExts;
    const int x0 = r.left() + L.gutter, h = std::max(3, L.lane / 6);
    const QColor used = sliceExtUsedColor(dark), cut = sliceExtCutColor(dark);
    std::vector<std::vector<uint8_t>> cols(size_t(d.trace->cpus),
                                           std::vector<uint8_t>(size_t(axis.width), 0));
    const auto mark = [&](int cpu, Time a, Time b, uint8_t code) {
        if (cpu < 0 || cpu >= d.trace->cpus || b < axis.start || a >= axis.end) return;
        const int xa = std::clamp(int(axis.toX(a)), 0, axis.width - 1);
        const int xb = std::clamp(int(std::ceil(axis.toX(b))), xa + 2, axis.width);
        std::fill(cols[size_t(cpu)].begin() + xa, cols[size_t(cpu)].begin() + xb, code);
    };
    if (x.size() > 0) {
        const auto first = std::lower_bound(x.end.begin(), x.end.end(), axis.start) - x.end.begin();
        for (size_t i = size_t(first); i < x.size() && x.end[i] < axis.end + 100 * sched::kNsPerUs; ++i)
            mark(x.cpu[i], x.granted[i], x.end[i], x.how[i] == uint8_t(sched::SliceExtEnd::Yielded) ? 1 : 2);
    }
    for (size_t c = 0; c < d.live.sliceExtSince.size(); ++c)
        if (d.live.sliceExtSince[c] >= 0) mark(int(c), d.live.sliceExtSince[c], d.live.now, 3);
    p.save();
    p.setPen(Qt::NoPen);
    for (int cpu = 0; cpu < d.trace->cpus; ++cpu) {
        const std::vector<uint8_t>& col = cols[size_t(cpu)];
        const int y = r.top() + L.laneTop(cpu);
        for (int a = 0; a < axis.width;) {
            const uint8_t code = col[size_t(a)];
            int b = a + 1;
            while (b < axis.width && col[size_t(b)] == code)
                ++b;
            if (code) {
                QColor c = code == 2 ? cut : used;
                if (code == 3) c.setAlpha(150); // still held: lighter until it ends
                p.fillRect(QRect(x0 + a, y, b - a, h), c);
            }
            a = b;
        }
    }
    p.restore();
}

void TimelinePainter::paintMarkers(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                                   const TimelineLayout& L, const QPalette& pal) {
    const int x0 = r.left() + L.gutter;
    const int top = r.top() + L.ruler;
    const int bottom = r.top() + L.height(d.trace ? d.trace->cpus : 0);
    p.save();
    p.setClipRect(QRect(x0, r.top(), axis.width, r.height()));
    const QColor mk = isDark(pal) ? QColor(190, 140, 255) : QColor(120, 40, 200);
    // Cross-CPU wakeups at high zoom: a line from the waker's CPU to the wakee's.
    if (d.trace && axis.nsPerPixel() < 20000) {
        const sched::Wakeups& w = d.trace->wakeups;
        p.setPen(QPen(isDark(pal) ? QColor(120, 220, 255, 170) : QColor(0, 110, 200, 150), 1));
        int drawn = 0;
        forEachInRange(w.time, axis.start, axis.end, [&](size_t i) {
            if (w.wakerCpu[i] == w.targetCpu[i] || drawn >= 2000) return;
            const double x = x0 + axis.toX(w.time[i]);
            p.drawLine(QPointF(x, r.top() + L.laneTop(w.wakerCpu[i]) + L.lane / 2.0),
                       QPointF(x, r.top() + L.laneTop(w.targetCpu[i])));
            ++drawn;
        });
    }
    if (d.trace) {
        for (const auto& m : d.trace->markers) {
            if (m.time < axis.start || m.time >= axis.end) continue;
            const int x = x0 + int(std::lround(axis.toX(m.time)));
            p.setPen(QPen(mk, 1, Qt::DashLine));
            p.drawLine(x, top, x, bottom);
            p.setPen(mk);
            p.drawText(QRect(x + 3, top, 300, L.markerBand), Qt::AlignLeft | Qt::AlignVCenter,
                       QString::fromStdString(m.text));
        }
    }
    auto vline = [&](std::optional<Time> t, const QColor& c, const QString& label) {
        if (!t || *t < axis.start || *t >= axis.end) return;
        const int x = x0 + int(std::lround(axis.toX(*t)));
        p.setPen(QPen(c, 1));
        p.drawLine(x, top, x, bottom);
        if (!label.isEmpty())
            p.drawText(QRect(x + 3, bottom - 16, 200, 16), Qt::AlignLeft | Qt::AlignVCenter, label);
    };
    vline(d.markerA, QColor(0, 160, 80), "A");
    vline(d.markerB, QColor(0, 160, 80), "B");
    // The hover cursor is not part of the picture: the widget draws it over the painted image
    // (timeline_view.cpp), and an export leaves it out.
    p.restore();
}

} // namespace view
