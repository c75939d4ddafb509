// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline_painter.h"

#include "widgets/task_colors.h"
#include "widgets/timeline_paint_util.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPolygonF>
#include <cmath>
#include <span>
#include <thread>

namespace view {

int TimelineLayout::cpuAt(int y, int cpus) const {
    if (y < laneTop(0)) return -1;
    const int k = (y - laneTop(0)) / (lane + flagLane + gap);
    return k < cpus ? k : -1;
}

namespace {

using paint::forEachInRange;
using paint::hasSliceExts;
using paint::isDark;

QColor colorFor(const TimelineData& d, TaskId t, bool dark) {
    if (!d.trace) return QColor(128, 128, 128);
    return taskColor(*d.trace, t, dark);
}

// Raster targets (the widget, PNG) get lanes written pixel by pixel into one image each: a
// zoomed-out lane changes task nearly every pixel, and thousands of 1-pixel rectangles would
// cost far more than the frame budget. Vector targets (SVG, PDF) keep rectangles.
bool isRaster(const QPainter& p) {
    return p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster;
}

// Task colours are computed once per task and paint call.
// A pixel of a 32-bit image, writable. QImage::scanLine() checks for sharing (detach) on every
// call, which costs more than the write itself in these per-pixel loops; bits() once does not.
struct Pixels {
    uchar* bits;
    qsizetype bpl;
    explicit Pixels(QImage& img) : bits(img.bits()), bpl(img.bytesPerLine()) {}
    QRgb& at(int x, int y) const { return reinterpret_cast<QRgb*>(bits + bpl * y)[x]; }
};

struct ColorCache {
    const TimelineData& d;
    bool dark;
    std::vector<QRgb> rgb;
    QRgb get(TaskId t, bool dim) {
        if (size_t(t) >= rgb.size()) rgb.resize(size_t(t) + 1, 0);
        if (!rgb[size_t(t)]) rgb[size_t(t)] = colorFor(d, t, dark).rgb() | 0xff000000u;
        QRgb c = rgb[size_t(t)];
        if (dim) c = qRgb((qRed(c) + 2 * 128) / 3, (qGreen(c) + 2 * 128) / 3, (qBlue(c) + 2 * 128) / 3);
        return c;
    }
};

} // namespace

void TimelinePainter::paint(QPainter& p, const QRect& rect, const TimeAxis& axis, const TimelineData& d,
                            const TimelineLayout& L, const QPalette& pal, const QFont& font) {
    const bool dark = isDark(pal);
    p.save();
    p.setFont(font);
    p.fillRect(rect, pal.color(QPalette::Base));
    paintRuler(p, rect, axis, L, pal);
    const int cpus = d.trace ? d.trace->cpus : 0;
    // Lanes outside the clip (scrolled out of view) cost nothing.
    const QRect clip = p.hasClipping() ? p.clipBoundingRect().toAlignedRect() & rect : rect;
    std::vector<int> shown;
    for (int c = 0; c < cpus; ++c) {
        const int top = rect.top() + L.laneTop(c);
        if (top <= clip.bottom() && top + L.lane + L.flagLane + L.gap >= clip.top()) shown.push_back(c);
    }
    // The lane summaries are pure reads of the indexes: half of them are computed on a second
    // thread while this one does the other half, then painting goes on in this thread.
    std::vector<LaneSummary> sums{size_t(cpus)};
    const auto summarizeFrom = [&](size_t first, size_t step) {
        for (size_t k = first; k < shown.size(); k += step)
            sums[size_t(shown[k])] = summarize(shown[k], axis, d);
    };
    if (shown.size() >= 8) {
        std::thread helper(summarizeFrom, 1, 2);
        summarizeFrom(0, 2);
        helper.join();
    } else {
        summarizeFrom(0, 1);
    }
    for (int c : shown) {
        const QRect label(rect.left(), rect.top() + L.laneTop(c), L.gutter - 6, L.lane);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, QString("CPU%1").arg(c));
        if (L.flagLane >= 8) { // a caption for the need-resched lane when it is tall enough to read
            QFont small = font;
            small.setPointSizeF(font.pointSizeF() * 0.75);
            p.setFont(small);
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(rect.left(), rect.top() + L.laneTop(c) + L.lane, L.gutter - 6, L.flagLane + 2),
                       Qt::AlignRight | Qt::AlignVCenter, "resched");
            p.setFont(font);
        }
        paintLane(p, c, rect, axis, d, L, dark, sums[size_t(c)]);
        paintFlags(p, c, rect, axis, d, L, dark, sums[size_t(c)]);
    }
    // The legend names what the lanes in view show; a legend of lanes scrolled away would not.
    const int legendY = rect.top() + L.legendTop(cpus);
    if (legendY <= clip.bottom() && legendY + L.legend >= clip.top())
        paintLegend(p, rect, L, d, pal, visibleTasks(axis, d, shown, sums));
    paintSliceExts(p, rect, axis, d, L, dark);
    if (d.taskLanes) paintTaskLanes(p, rect, axis, d, L, pal);
    paintMarkers(p, rect, axis, d, L, pal);
    p.restore();
}

std::vector<std::pair<TaskId, double>> TimelinePainter::visibleTasks(const TimeAxis& axis,
                                                                     const TimelineData& d) {
    std::vector<int> cpus;
    std::vector<LaneSummary> sums;
    for (int c = 0; d.trace && c < d.trace->cpus; ++c) {
        cpus.push_back(c);
        sums.push_back(summarize(c, axis, d));
    }
    return visibleTasks(axis, d, cpus, sums);
}

std::vector<std::pair<TaskId, double>> TimelinePainter::visibleTasks(const TimeAxis& axis,
                                                                     const TimelineData& d,
                                                                     const std::vector<int>& cpus,
                                                                     const std::vector<LaneSummary>& sums) {
    std::vector<double> ns(d.trace ? d.trace->tasks.size() : 0, 0.0);
    const auto add = [&](TaskId t, double v) {
        if (t >= 0 && size_t(t) < ns.size()) ns[size_t(t)] += v;
    };
    const double perColumn = axis.nsPerPixel();
    for (int c : cpus) {
        const LaneSummary& s = sums[size_t(c)];
        if (!s.exact) {
            for (const Column& col : s.cols)
                add(col.task, double(col.busy) * perColumn);
            continue;
        }
        const sched::Slices& sl = d.trace->slices;
        for (uint32_t i : d.lanes->slicesIn(c, axis.start, axis.end, size_t(axis.width)))
            add(sl.task[i], double(std::min(sl.end[i], axis.end) - std::max(sl.start[i], axis.start)));
        if (c < int(d.live.curr.size()) && d.live.curr[size_t(c)] >= 0)
            add(d.live.curr[size_t(c)],
                double(std::max<Time>(0, std::min(d.live.now, axis.end) -
                                             std::max(d.live.sliceStart[size_t(c)], axis.start))));
    }
    std::vector<std::pair<TaskId, double>> out;
    for (size_t t = 0; t < ns.size(); ++t)
        if (ns[t] > 0) out.emplace_back(TaskId(t), ns[t]);
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
}

// A swatch and "comm:pid" per task, the busiest first, as many as fit; then how many more.
void TimelinePainter::paintLegend(QPainter& p, const QRect& r, const TimelineLayout& L, const TimelineData& d,
                                  const QPalette& pal, const std::vector<std::pair<TaskId, double>>& tasks) {
    const bool dark = isDark(pal);
    const int y = r.top() + L.legendTop(d.trace->cpus);
    const QFontMetrics fm(p.font());
    int x = r.left() + L.gutter;
    int right = r.right() - 4;
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(r.left(), y, L.gutter - 6, L.legend), Qt::AlignRight | Qt::AlignVCenter,
               QCoreApplication::translate("TimelinePainter", "tasks"));
    // The RSEQ slice extension marks (paintSliceExts()), at the right end, once a run has any, and
    // only where a task's name still fits beside them: the tasks come first.
    if (hasSliceExts(d)) {
        const std::array<std::pair<QString, QColor>, 2> keys{
            std::pair{QCoreApplication::translate("TimelinePainter", "RSEQ extension yielded"),
                      sliceExtUsedColor(dark)},
            std::pair{QCoreApplication::translate("TimelinePainter", "cut short"), sliceExtCutColor(dark)}};
        const int keysWidth = fm.horizontalAdvance(keys[0].first) + fm.horizontalAdvance(keys[1].first) + 52;
        const bool fit = right - x - keysWidth >= 160;
        for (auto it = keys.rbegin(); fit && it != keys.rend(); ++it) {
            const int w = fm.horizontalAdvance(it->first);
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRect(right - w, y, w, L.legend), Qt::AlignLeft | Qt::AlignVCenter, it->first);
            p.fillRect(QRect(right - w - 16, y + L.legend / 2 - 2, 12, 4), it->second);
            right -= w + 26;
        }
    }
    for (size_t k = 0; k < tasks.size(); ++k) {
        const auto& task = d.trace->tasks[size_t(tasks[k].first)];
        const QString name = QString("%1:%2").arg(QString::fromStdString(task.comm)).arg(task.pid);
        const int w = 14 + fm.horizontalAdvance(name) + 12;
        const QString more = QCoreApplication::translate("TimelinePainter", "+%1 more").arg(tasks.size() - k);
        if (x + w > right - (k + 1 < tasks.size() ? fm.horizontalAdvance(more) : 0)) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(x, y, right - x, L.legend), Qt::AlignLeft | Qt::AlignVCenter, more);
            return;
        }
        QColor col = colorFor(d, tasks[k].first, dark);
        if (d.dimmed(tasks[k].first)) col.setAlpha(110);
        p.setPen(d.isSelected(tasks[k].first) ? QPen(pal.color(QPalette::Text), 1.5)
                                              : QPen(col.darker(140), 1));
        p.setBrush(col);
        p.drawRect(QRect(x, y + (L.legend - 10) / 2, 10, 10));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(x + 14, y, w - 14, L.legend), Qt::AlignLeft | Qt::AlignVCenter, name);
        x += w;
    }
}

// One thin row per task: its colour while running, a lighter striped tone while runnable
// (waiting for a CPU), a thin grey line while asleep in D (a kernel mutex), nothing while
// sleeping otherwise. Only rows inside the clip are computed.
void TimelinePainter::paintTaskLanes(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                                     const TimelineLayout& L, const QPalette& pal) {
    const bool dark = isDark(pal);
    const int cpus = d.trace->cpus;
    const int n = int(std::min(d.taskLanes->tasks(), d.trace->tasks.size()));
    const QRect clip = p.hasClipping() ? p.clipBoundingRect().toAlignedRect() : r;
    const int x0 = r.left() + L.gutter;
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(r.left(), r.top() + L.laneTop(cpus) + L.legend, 640, 14),
               Qt::AlignLeft | Qt::AlignVCenter,
               QCoreApplication::translate("TimelinePainter",
                                           "task lanes: running / runnable (striped) / asleep in D "
                                           "(line) / sleeping"));
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    p.setFont(small);
    for (int t = 0; t < n; ++t) {
        const int y = r.top() + L.taskTop(cpus, t);
        if (y + L.taskRow < clip.top() || y > clip.bottom()) continue;
        const auto& task = d.trace->tasks[size_t(t)];
        p.setPen(pal.color(QPalette::Text));
        // comm:pid within the gutter: the pid whole (it tells tasks of one comm apart), the comm
        // elided to what is left ("logg…:1000", never "ogger:1000" cut at the edge).
        const QString pid = QString(":%1").arg(task.pid);
        const QFontMetrics fm(small);
        const int room = L.gutter - 6 - fm.horizontalAdvance(pid);
        p.drawText(QRect(r.left(), y, L.gutter - 6, L.taskRow), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(QString::fromStdString(task.comm), Qt::ElideRight, std::max(room, 0)) + pid);
        Time runningSince = -1;
        for (size_t c = 0; c < d.live.curr.size(); ++c)
            if (d.live.curr[c] == t) runningSince = d.live.sliceStart[c];
        const auto cols = d.taskLanes->columns(t, axis.start, axis.end, axis.width,
                                               d.live.curr.empty() ? -1 : d.live.now, runningSince);
        const QColor run = colorFor(d, t, dark);
        QColor wait = run;
        wait.setAlpha(90);
        const int h = L.taskRow - 3;
        QImage img(axis.width, h, QImage::Format_ARGB32_Premultiplied);
        img.fill(d.isSelected(t) ? (dark ? QColor(60, 60, 70) : QColor(225, 230, 245))
                                 : QColor(Qt::transparent));
        const Pixels px(img);
        const QRgb runRgb = run.rgba(), waitRgb = qPremultiply(wait.rgba());
        const QRgb dRgb = (dark ? QColor(170, 170, 180) : QColor(110, 110, 120)).rgba();
        for (int x = 0; x < axis.width; ++x) {
            const TaskState s = cols[size_t(x)];
            if (s == TaskState::Sleeping) continue;
            if (s == TaskState::Uninterruptible) { // a 2 px line through the middle of the row
                for (int yy = h / 2 - 1; yy <= h / 2; ++yy)
                    px.at(x, yy) = dRgb;
                continue;
            }
            for (int yy = 0; yy < h; ++yy)
                if (s == TaskState::Running || ((x + yy) % 4) < 2)
                    px.at(x, yy) = s == TaskState::Running ? runRgb : waitRgb;
        }
        p.drawImage(x0, y + 1, img);
    }
}

void TimelinePainter::paintRuler(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineLayout& L,
                                 const QPalette& pal) {
    const int x0 = r.left() + L.gutter;
    const Time step = niceTickStep(axis.nsPerPixel() * 90);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(x0, r.top() + L.ruler - 1, r.right(), r.top() + L.ruler - 1);
    Time t = (axis.start / step) * step;
    if (t < axis.start) t += step;
    p.setPen(pal.color(QPalette::Text));
    for (; t < axis.end; t += step) {
        const int x = x0 + int(std::lround(axis.toX(t)));
        p.drawLine(x, r.top() + L.ruler - 6, x, r.top() + L.ruler - 1);
        p.drawText(QRect(x + 3, r.top(), 120, L.ruler - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(formatTickLabel(t, step)));
    }
}

// Few slices in view: they are drawn one by one; many: one column per pixel. Flags always by column.
LaneSummary TimelinePainter::summarize(int cpu, const TimeAxis& axis, const TimelineData& d) {
    LaneSummary s;
    const size_t budget = size_t(std::max(1, axis.width / 3));
    s.exact = d.lanes->slicesIn(cpu, axis.start, axis.end, budget + 1).size() <= budget;
    if (!s.exact) {
        const TaskId openTask = cpu < int(d.live.curr.size()) ? d.live.curr[size_t(cpu)] : sched::kNoTask;
        const Time openStart = cpu < int(d.live.sliceStart.size()) ? d.live.sliceStart[size_t(cpu)] : 0;
        s.cols = d.lanes->columns(cpu, axis.start, axis.end, axis.width, openTask, openStart, d.live.now);
    }
    for (int bit = 0; bit < 2; ++bit)
        s.flags[size_t(bit)] = d.flags->columns(cpu, bit, axis.start, axis.end, axis.width);
    return s;
}

void TimelinePainter::paintLane(QPainter& p, int cpu, const QRect& r, const TimeAxis& axis,
                                const TimelineData& d, const TimelineLayout& L, bool dark,
                                const LaneSummary& sum) {
    const int x0 = r.left() + L.gutter;
    const int y = r.top() + L.laneTop(cpu);
    p.fillRect(QRect(x0, y, axis.width, L.lane), dark ? QColor(40, 40, 44) : QColor(236, 236, 240));
    if (sum.exact) {
        paintSlicesExact(p, cpu, r, axis, d, L, dark);
        return;
    }
    // Zoomed out: one column per pixel, merged into runs of the same task and busy level.
    const std::vector<Column>& cols = sum.cols;
    if (isRaster(p)) {
        // Opaque (RGB32): drawImage() copies it instead of blending every pixel.
        QImage img(axis.width, L.lane, QImage::Format_RGB32);
        img.fill(dark ? QColor(40, 40, 44) : QColor(236, 236, 240));
        const Pixels px(img);
        ColorCache cache{d, dark, {}};
        for (int x = 0; x < axis.width; ++x) {
            const Column& c = cols[size_t(x)];
            const int level = int(std::lround(c.busy * 8));
            if (level <= 0 || c.task < 0) continue;
            const QRgb rgb = cache.get(c.task, d.dimmed(c.task));
            for (int yy = L.lane - std::max(2, L.lane * level / 8); yy < L.lane; ++yy)
                px.at(x, yy) = rgb;
        }
        p.drawImage(x0, y, img);
        return;
    }
    p.setPen(Qt::NoPen);
    int x = 0;
    while (x < axis.width) {
        const Column& c = cols[size_t(x)];
        const int level = int(std::lround(c.busy * 8));
        int e = x + 1;
        while (e < axis.width && cols[size_t(e)].task == c.task &&
               int(std::lround(cols[size_t(e)].busy * 8)) == level)
            ++e;
        if (level > 0 && c.task >= 0) {
            const int h = std::max(2, L.lane * level / 8);
            QColor col = colorFor(d, c.task, dark);
            if (d.dimmed(c.task)) col.setAlpha(110);
            p.setBrush(col);
            p.drawRect(QRect(x0 + x, y + L.lane - h, e - x, h));
        }
        x = e;
    }
}

void TimelinePainter::paintSlicesExact(QPainter& p, int cpu, const QRect& r, const TimeAxis& axis,
                                       const TimelineData& d, const TimelineLayout& L, bool dark) {
    const int x0 = r.left() + L.gutter;
    const int y = r.top() + L.laneTop(cpu);
    const sched::Slices& s = d.trace->slices;
    struct S {
        Time a, b;
        TaskId t;
    };
    std::vector<S> items;
    for (uint32_t i : d.lanes->slicesIn(cpu, axis.start, axis.end, size_t(axis.width)))
        items.push_back({s.start[i], s.end[i], s.task[i]});
    if (cpu < int(d.live.curr.size()) && d.live.curr[size_t(cpu)] >= 0 && d.live.now > axis.start)
        items.push_back({d.live.sliceStart[size_t(cpu)], d.live.now, d.live.curr[size_t(cpu)]});
    p.save();
    p.setClipRect(QRect(x0, y, axis.width, L.lane));
    for (const S& it : items) {
        const double xa = std::max(-2.0, axis.toX(it.a)),
                     xb = std::min(double(axis.width) + 2, axis.toX(it.b));
        QRectF rr(x0 + xa, y + 1, std::max(1.0, xb - xa), L.lane - 2);
        QColor col = colorFor(d, it.t, dark);
        const bool sel = d.isSelected(it.t);
        if (d.dimmed(it.t)) col.setAlpha(110);
        // Outlines only where there is room for them; thin slices would turn black otherwise.
        if (sel)
            p.setPen(QPen(dark ? Qt::white : Qt::black, 2));
        else if (rr.width() > 6)
            p.setPen(QPen(col.darker(140), 1));
        else
            p.setPen(Qt::NoPen);
        p.setBrush(col);
        p.drawRect(rr);
        if (rr.width() > 40 && it.t >= 0) {
            const auto& task = d.trace->tasks[size_t(it.t)];
            p.setPen(col.lightness() > 140 ? Qt::black : Qt::white);
            p.drawText(rr.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       QString("%1:%2").arg(QString::fromStdString(task.comm)).arg(task.pid));
        }
    }
    // Ticks, where the kernel looks at the need-resched bits at the latest: short marks under
    // the lane when they are at least 8 pixels apart.
    if (d.live.hz > 0) {
        const Time tick = (sched::kNsPerSec + d.live.hz / 2) / d.live.hz;
        if (double(tick) / axis.nsPerPixel() >= 8) {
            p.setPen(QPen(dark ? QColor(150, 150, 150) : QColor(120, 120, 120), 1));
            for (Time t = (axis.start / tick + 1) * tick; t < axis.end; t += tick) {
                const int x = x0 + int(std::lround(axis.toX(t)));
                p.drawLine(x, y + L.lane - 5, x, y + L.lane - 1);
            }
        }
    }
    // Migrations onto this CPU: small diamonds on the lane's bottom edge.
    const sched::Migrations& mg = d.trace->migrations;
    p.setPen(Qt::NoPen);
    p.setBrush(dark ? QColor(255, 160, 60) : QColor(220, 110, 0));
    forEachInRange(mg.time, axis.start, axis.end, [&](size_t i) {
        if (mg.to[i] != cpu) return;
        const double x = x0 + axis.toX(mg.time[i]);
        const QPointF pts[4] = {{x, double(y + L.lane - 8)},
                                {x + 4, double(y + L.lane - 4)},
                                {x, double(y + L.lane)},
                                {x - 4, double(y + L.lane - 4)}};
        p.drawPolygon(pts, 4);
    });
    // Wakeups landing on this CPU: small triangles on the lane's top edge.
    const sched::Wakeups& w = d.trace->wakeups;
    if (axis.nsPerPixel() < 20000) {
        p.setBrush(dark ? QColor(120, 220, 255) : QColor(0, 110, 200));
        forEachInRange(w.time, axis.start, axis.end, [&](size_t i) {
            if (w.targetCpu[i] != cpu) return;
            const double x = x0 + axis.toX(w.time[i]);
            const QPointF pts[3] = {{x - 4, double(y)}, {x + 4, double(y)}, {x, double(y + 6)}};
            p.drawPolygon(pts, 3);
        });
    }
    p.restore();
}

void TimelinePainter::paintFlags(QPainter& p, int cpu, const QRect& r, const TimeAxis& axis,
                                 const TimelineData& d, const TimelineLayout& L, bool dark,
                                 const LaneSummary& sum) {
    const int x0 = r.left() + L.gutter;
    const int y = r.top() + L.laneTop(cpu) + L.lane + 1;
    const int half = (L.flagLane - 1) / 2;
    p.fillRect(QRect(x0, y, axis.width, L.flagLane - 1), dark ? QColor(30, 30, 33) : QColor(246, 246, 248));
    // Ticks at high zoom: where the kernel looks at the bits at the latest.
    for (int bit = 0; bit < 2; ++bit) {
        const int by = bit == int(sched::ReschedBit::Lazy) ? y : y + half; // lazy on top, eager below
        const QColor col = bit == int(sched::ReschedBit::Lazy) ? lazyFlagColor(dark) : eagerFlagColor(dark);
        const std::vector<uint8_t>& cols = sum.flags[size_t(bit)];
        p.setPen(Qt::NoPen);
        p.setBrush(col);
        // Runs of set columns; an instant set-and-clear still gets 2 pixels.
        std::vector<std::pair<int, int>> runs;
        for (int x = 0; x < axis.width;) {
            if (!cols[size_t(x)]) {
                ++x;
                continue;
            }
            int e = x + 1;
            while (e < axis.width && cols[size_t(e)])
                ++e;
            runs.emplace_back(x, std::max(2, e - x));
            x = e;
        }
        if (isRaster(p) && runs.size() > 64) { // many short runs: one image instead of many rectangles
            QImage img(axis.width, half,
                       QImage::Format_RGB32); // opaque on the lane's background: copied, not blended
            img.fill(dark ? QColor(30, 30, 33) : QColor(246, 246, 248));
            const Pixels px(img);
            const QRgb rgb = col.rgb();
            for (const auto& [x, w] : runs)
                for (int yy = 0; yy < half; ++yy) {
                    QRgb* line = &px.at(0, yy);
                    for (int k = x; k < std::min(axis.width, x + w); ++k)
                        line[k] = rgb;
                }
            p.drawImage(x0, by, img);
        } else {
            for (const auto& [x, w] : runs)
                p.drawRect(QRect(x0 + x, by, w, half));
        }
        if (cpu < int(d.live.flag.size()) && d.live.flag[size_t(cpu)][size_t(bit)]) { // still set now
            const double xa = std::max(0.0, axis.toX(d.live.flagSetAt[size_t(cpu)][size_t(bit)]));
            const double xb = std::min(double(axis.width), axis.toX(d.live.now));
            if (xb >= xa) p.drawRect(QRectF(x0 + xa, by, std::max(1.0, xb - xa), half));
        }
    }
}

} // namespace view
