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

// Who woke whom, at high zoom (under 20 us a pixel): an arrow from the waker's CPU at the wakeup
// (sched_waking) to the wakee's switch-in (WakeupChains), so the wait for a CPU is the arrow's
// length; a wakeup from an interrupt starts dashed. With a selection only the selected tasks'
// wakeups (as waker or wakee) are drawn. Same-CPU arrows run along the top of the lane; at most
// 2000 a picture, so a dense zoom stays a picture.
void TimelinePainter::paintWakeupArrows(QPainter& p, const QRect& r, const TimeAxis& axis,
                                        const TimelineData& d, const TimelineLayout& L, const QPalette& pal) {
    const sched::Wakeups& w = d.trace->wakeups;
    const QColor c = isDark(pal) ? QColor(120, 220, 255, 200) : QColor(0, 100, 200, 190);
    const int x0 = r.left() + L.gutter;
    int drawn = 0;
    forEachInRange(w.time, axis.start, axis.end, [&](size_t i) {
        if (drawn >= 2000) return;
        if (d.hasSelection() && !d.isSelected(w.wakee[i]) && !(w.waker[i] >= 0 && d.isSelected(w.waker[i])))
            return;
        std::optional<sched::WakeupLink> l;
        if (d.chains) l = d.chains->link(i);
        const double xa = x0 + axis.toX(w.time[i]);
        const double xb = l ? x0 + axis.toX(l->run) : xa;
        const int from = w.wakerCpu[i], to = l ? l->runCpu : int(w.targetCpu[i]);
        const bool sameCpu = from == to;
        const double ya = r.top() + L.laneTop(from) + (sameCpu ? 3.0 : L.lane / 2.0);
        const double yb = r.top() + L.laneTop(to) + (sameCpu ? 3.0 : (to > from ? 1.0 : L.lane - 1.0));
        if (sameCpu && xb - xa < 4) return; // no wait worth an arrow on the same CPU
        p.setPen(QPen(c, 1.2, w.waker[i] < 0 ? Qt::DashLine : Qt::SolidLine));
        p.drawLine(QPointF(xa, ya), QPointF(xb, yb));
        // the head, at the switch-in
        const double ang = std::atan2(yb - ya, xb - xa);
        const QPointF tip(xb, yb);
        QPolygonF head;
        head << tip << tip - QPointF(6 * std::cos(ang - 0.45), 6 * std::sin(ang - 0.45))
             << tip - QPointF(6 * std::cos(ang + 0.45), 6 * std::sin(ang + 0.45));
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawPolygon(head);
        p.setBrush(Qt::NoBrush);
        ++drawn;
    });
}

void TimelinePainter::paintMarkers(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                                   const TimelineLayout& L, const QPalette& pal) {
    const int x0 = r.left() + L.gutter;
    const int top = r.top() + L.ruler;
    const int bottom = r.top() + L.height(d.trace ? d.trace->cpus : 0);
    p.save();
    p.setClipRect(QRect(x0, r.top(), axis.width, r.height()));
    const QColor mk = isDark(pal) ? QColor(190, 140, 255) : QColor(120, 40, 200);
    if (d.trace && axis.nsPerPixel() < 20000) paintWakeupArrows(p, r, axis, d, L, pal);
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
