// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/vtime_lens.h"

#include "base/duration.h"
#include "widgets/pick_reason.h"
#include "widgets/task_colors.h"
#include "widgets/timeline_paint_util.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace view {

using namespace sched;

VtimeLens::VtimeLens(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(120);
}

void VtimeLens::refresh(const Engine& e, int cpu, bool past) {
    rows_.clear();
    if (cpu < 0 || size_t(cpu) >= e.cpus().size()) {
        update();
        return;
    }
    const PickPreview p = e.previewPick(cpu);
    const bool dark = paint::isDark(palette());
    for (const LagRow& r : p.table.rows) {
        Row row;
        row.name = QString::fromStdString(e.entityName(r.id));
        row.color = entityIsTask(r.id) ? taskColor(e.trace(), r.id, dark) : palette().color(QPalette::Mid);
        row.from = r.vruntime - p.table.V;
        row.to = r.deadline - p.table.V;
        row.weight = r.weight;
        row.eligible = r.eligible;
        row.running = r.running;
        row.pick = r.id == p.pick;
        row.delayed = r.delayed;
        rows_.push_back(row);
        if (rows_.size() >= 40) break; // a lens, not a dump: the earliest deadlines
    }
    title_ = tr("CPU %1 at %2%3: virtual time around V = %4 ms")
                 .arg(cpu)
                 .arg(QString::fromStdString(formatDuration(e.now())))
                 .arg(past ? tr(" (inspected moment)") : QString())
                 .arg(double(p.table.V) / 1e6, 0, 'f', 3);
    reason_ = pickReason(e, cpu, p);
    update();
}

void VtimeLens::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette pal = palette();
    const QFontMetrics fm(font());
    const int line = fm.height();
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(6, 2, width() - 12, line), Qt::AlignLeft | Qt::AlignVCenter, title_);
    // As many lines as the reason takes (a pending wakeup preemption adds its story), at least two.
    const int reasonH = std::max(
        2 * line, fm.boundingRect(QRect(0, 0, width() - 12, 100 * line), Qt::TextWordWrap, reason_).height());
    const QRect reasonRect(6, 2 + line, width() - 12, reasonH);
    p.drawText(reasonRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, reason_);
    if (rows_.empty()) return;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    int gutter = bfm.horizontalAdvance(tr("v - V (ms)"));
    for (const Row& r : rows_)
        gutter = std::max(gutter,
                          bfm.horizontalAdvance(QStringLiteral("\u2605 %1  w %2").arg(r.name).arg(r.weight)));
    gutter = std::min(gutter + 16, width() / 2);
    const int top = reasonRect.bottom() + 6, axisH = line + 8;
    const int rowH = std::clamp((height() - top - axisH) / int(rows_.size()), 8, 2 * line);
    const int x0 = gutter, x1 = width() - 16 - bfm.horizontalAdvance(tr("delayed") + tr("running")) / 2;
    if (x1 - x0 < 40) return;
    int64_t lo = 0, hi = 0;
    for (const Row& r : rows_) {
        lo = std::min({lo, r.from, r.to});
        hi = std::max({hi, r.from, r.to});
    }
    const int64_t pad = std::max<int64_t>((hi - lo) / 20, 1000);
    lo -= pad;
    hi += pad;
    const auto X = [&](int64_t v) {
        return x0 + int(std::lround(double(v - lo) / double(hi - lo) * (x1 - x0)));
    };
    const int axisY = top + rowH * int(rows_.size()) + 2;
    // the axis: ms of virtual time relative to V
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(x0, axisY, x1, axisY);
    const double spanMs = double(hi - lo) / 1e6;
    const double step = std::pow(10.0, std::floor(std::log10(std::max(spanMs / 5, 1e-6))));
    const double stepMs = spanMs / step > 25 ? step * 5 : spanMs / step > 10 ? step * 2 : step;
    p.setPen(pal.color(QPalette::Text));
    for (double t = std::ceil(double(lo) / 1e6 / stepMs) * stepMs; t <= double(hi) / 1e6; t += stepMs) {
        const int x = X(int64_t(std::llround(t * 1e6)));
        p.drawLine(x, axisY, x, axisY + 3);
        p.drawText(QRect(x - 40, axisY + 3, 80, line), Qt::AlignHCenter | Qt::AlignTop,
                   QString::number(std::abs(t) < stepMs / 1000 ? 0.0 : t, 'g', 4));
    }
    p.drawText(QRect(2, axisY + 3, gutter - 10, line), Qt::AlignRight | Qt::AlignTop, tr("v - V (ms)"));
    for (size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        const int y = top + rowH * int(i);
        QFont f = font();
        f.setBold(r.pick || r.running);
        p.setFont(f);
        p.setPen(pal.color(QPalette::Text));
        const QString label = QStringLiteral("%1%2  w %3")
                                  .arg(r.pick ? QStringLiteral("\u2605 ") : QString(), r.name)
                                  .arg(r.weight);
        p.drawText(QRect(2, y, gutter - 6, rowH), Qt::AlignRight | Qt::AlignVCenter, label);
        const int a = X(std::min(r.from, r.to)), b = X(std::max(r.from, r.to));
        const QRect span(a, y + 2, std::max(2, b - a), std::max(3, rowH - 4));
        QColor fill = r.color;
        if (r.eligible) {
            p.fillRect(span, fill);
        } else { // not eligible: pale and hatched
            fill.setAlpha(70);
            p.fillRect(span, fill);
            p.fillRect(span, QBrush(r.color, Qt::BDiagPattern));
        }
        p.setPen(r.running ? QPen(pal.color(QPalette::Text), 2) : QPen(r.color.darker(130), 1));
        p.drawRect(span.adjusted(0, 0, -1, -1));
        // vruntime end: a tick, so that a reader sees where the entity stands
        p.drawLine(X(r.from), y + 1, X(r.from), y + rowH - 1);
        if (r.running || r.delayed) {
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRect(b + 4, y, width() - b - 4, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                       r.running ? tr("running") : tr("delayed"));
        }
    }
    p.setFont(font());
    // V itself
    const int xv = X(0);
    p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
    p.drawLine(xv, top - 2, xv, axisY);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(xv + 3, top - line, 40, line), Qt::AlignLeft | Qt::AlignBottom, QStringLiteral("V"));
}

} // namespace view
