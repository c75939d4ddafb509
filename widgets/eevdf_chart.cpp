// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/eevdf_chart.h"

#include "widgets/plot_style.h"

#include "widgets/task_colors.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace view {

namespace {
bool isDark(const QPalette& pal) {
    return pal.color(QPalette::Base).lightness() < 128;
}
// Task colours are fills; as lines on a light background they need more contrast.
QColor lineColor(const sched::Trace& tr, sched::TaskId t, bool dark) {
    const QColor c = taskColor(tr, t, dark);
    return dark ? c : c.darker(150);
}
} // namespace

EevdfChart::EevdfChart(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(2);
    title_ = new QLabel(this);
    title_->setContentsMargins(6, 2, 6, 0);
    title_->setWordWrap(true); // a long list of tasks must not widen the window
    lay->addWidget(title_);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(320, 160); // else the legend's width becomes the window's minimum
    lay->addWidget(plot_, 1);

    QCPAxisRect* top = plot_->axisRect();
    lagRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, lagRect_);
    auto* group = new QCPMarginGroup(plot_);
    top->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    lagRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    top->axis(QCPAxis::atLeft)->setLabel(tr("virtual time (ms)"));
    lagRect_->axis(QCPAxis::atLeft)->setLabel(tr("lag V-v (ms)"));
    // On a short panel (1024x768) a rotated axis title longer than its plot runs into the next
    // one: the short form then, decided once the layout knows the plots' heights.
    connect(plot_, &QCustomPlot::afterLayout, this, &EevdfChart::fitAxisLabels);
    lagRect_->axis(QCPAxis::atBottom)->setLabel(tr("time (ms)"));
    // One time axis for both: the lag plot's below them; the upper plot keeps its ticks and grid
    // lines but not a second row of the same numbers.
    top->axis(QCPAxis::atBottom)->setTickLabels(false);

    V_ = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    // Between two samples V, a running task's vruntime and so the lag change linearly (the
    // running task's weighted progress), a waiting task's vruntime not at all: straight lines
    // between samples are exact for both. A deadline only jumps (update_deadline): steps.
    V_->setLineStyle(QCPGraph::lsLine);
    lagPos_ = plot_->addGraph(lagRect_->axis(QCPAxis::atBottom), lagRect_->axis(QCPAxis::atLeft));
    lagPos_->setName(tr("eligible (lag >= 0)"));
    lagPos_->setPen(QPen(QColor(40, 170, 80)));
    lagPos_->setBrush(QColor(40, 170, 80, 90));
    lagPos_->setLineStyle(QCPGraph::lsLine);
    lagNeg_ = plot_->addGraph(lagRect_->axis(QCPAxis::atBottom), lagRect_->axis(QCPAxis::atLeft));
    lagNeg_->setName(tr("not eligible"));
    lagNeg_->setPen(QPen(QColor(210, 60, 60)));
    lagNeg_->setBrush(QColor(210, 60, 60, 90));
    lagNeg_->setLineStyle(QCPGraph::lsLine);
    plot_->legend->setVisible(true);
    // The legend gets its own strip above the plots, in as many columns as fit (stylePlot()):
    // inside the axis rect it would hide the lines wherever the zoom puts them.
    auto* strip = new QCPLayoutGrid;
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, strip);
    strip->setMargins(QMargins(0, 0, 0, 0));
    top->insetLayout()->take(plot_->legend);
    strip->addElement(0, 0, plot_->legend);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setRowSpacing(0);
    plot_->legend->setColumnSpacing(12);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->plotLayout()->setRowSpacing(2);
    applyPalette();
    updateTitle();
}

void EevdfChart::applyPalette() {
    const bool dark = isDark(palette());
    const QColor fg = palette().color(QPalette::Text), bg = palette().color(QPalette::Base);
    plot_->setBackground(bg);
    plot_->plotLayout()->setRowStretchFactor(1, 2); // vruntime and deadline
    plot_->plotLayout()->setRowStretchFactor(2, 1); // lag
    for (QCPAxisRect* r : {plot_->axisRect(0), lagRect_})
        for (QCPAxis* a : r->axes()) {
            a->setBasePen(QPen(fg));
            a->setTickPen(QPen(fg));
            a->setSubTickPen(QPen(fg));
            a->setTickLabelColor(fg);
            a->setLabelColor(fg);
            a->grid()->setPen(QPen(dark ? QColor(70, 70, 70) : QColor(220, 220, 220)));
        }
    V_->setPen(QPen(fg, 1.2));
    plot_->legend->setBrush(bg);
    plot_->legend->setTextColor(fg);

    if (trace_)
        for (const Series& s : series_) {
            const QColor c = lineColor(*trace_, s.task, dark);
            s.v->setPen(QPen(c, 1.6));
            s.d->setPen(QPen(c, 1.2, Qt::DashLine));
            if (s.lag) s.lag->setPen(QPen(c, 1.2));
        }
    stylePlot(plot_, font());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EevdfChart::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) applyPalette();
    QWidget::changeEvent(e);
}

void EevdfChart::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    stylePlot(plot_, font()); // the legend's columns for the new width
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EevdfChart::fitAxisLabels() {
    const QFontMetrics fm(plot_->axisRect(0)->axis(QCPAxis::atLeft)->labelFont());
    bool changed = false;
    const auto fit = [&](QCPAxisRect* r, const QString& full, const QString& brief) {
        QCPAxis* a = r->axis(QCPAxis::atLeft);
        const QString want = fm.horizontalAdvance(full) + 8 <= r->height() ? full : brief;
        if (a->label() != want) {
            a->setLabel(want);
            changed = true;
        }
    };
    fit(plot_->axisRect(0), tr("virtual time (ms)"), tr("v (ms)"));
    fit(lagRect_, tr("lag V-v (ms)"), tr("lag"));
    if (changed) plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EevdfChart::setTrace(const sched::Trace* trace) {
    const bool fresh = trace != trace_ || (trace && trace->samples.size() < consumed_);
    trace_ = trace;
    if (fresh) rebuildSeries();
    catchUp();
}

void EevdfChart::setTasks(const std::vector<sched::TaskId>& tasks) {
    std::vector<sched::TaskId> t = tasks;
    if (t.size() > kMaxTasks) t.resize(kMaxTasks);
    if (t == tasks_) return;
    tasks_ = std::move(t);
    rebuildSeries();
    catchUp();
}

// One vruntime, deadline and lag graph per task; the V line and the shaded lag belong to the first.
void EevdfChart::rebuildSeries() {
    for (const Series& s : series_) {
        plot_->removeGraph(s.v);
        plot_->removeGraph(s.d);
        if (s.lag) plot_->removeGraph(s.lag);
    }
    series_.clear();
    for (QCPGraph* g : {V_, lagPos_, lagNeg_})
        g->data()->clear();
    consumed_ = 0; // the new graphs read the samples from the start
    if (!trace_) return;
    QCPAxisRect* top = plot_->axisRect(0);
    // Graphs added last are drawn on top: add the primary task last, keep series_ in selection order.
    std::vector<sched::TaskId> valid;
    for (sched::TaskId t : tasks_)
        if (t >= 0 && size_t(t) < trace_->tasks.size()) valid.push_back(t);
    for (size_t k = valid.size(); k-- > 0;) {
        const sched::TaskId t = valid[k];
        Series s{t, nullptr, nullptr, nullptr};
        const auto& task = trace_->tasks[size_t(t)];
        s.v = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        s.v->setName(QString("%1:%2 vruntime").arg(QString::fromStdString(task.comm)).arg(task.pid));
        s.d = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        s.d->setName(k == 0 ? tr("deadline (dashed)") : QString());
        if (k > 0) {
            s.lag = plot_->addGraph(lagRect_->axis(QCPAxis::atBottom), lagRect_->axis(QCPAxis::atLeft));
            s.lag->removeFromLegend();
            s.d->removeFromLegend();
        }
        for (QCPGraph* g : {s.v, s.d, s.lag})
            if (g) g->setLineStyle(g == s.d ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
        series_.insert(series_.begin(), s);
    }
    V_->setName(series_.empty()
                    ? tr("V (avg_vruntime)")
                    : tr("V of %1's runqueue")
                          .arg(QString::fromStdString(trace_->tasks[size_t(series_[0].task)].comm)));
    applyPalette();
}

// Append the charted tasks' samples recorded since the last call to their graphs. The samples are
// packed (trace/eevdf_samples.h) and read front to back; no index by task is kept: a new choice of
// tasks reads them again (about 5 ns a sample).
void EevdfChart::catchUp() {
    if (!trace_) {
        updateTitle();
        return;
    }
    std::vector<int8_t> slot(trace_->tasks.size(), -1); // task -> its series
    for (size_t k = 0; k < series_.size(); ++k)
        slot[size_t(series_[k].task)] = int8_t(k);
    const sched::EevdfSamples& s = trace_->samples;
    if (!series_.empty())
        s.forEach(consumed_, s.size(), [&](size_t, const sched::EevdfSample& x) {
            if (x.task < 0 || size_t(x.task) >= slot.size() || slot[size_t(x.task)] < 0) return;
            const size_t k = size_t(slot[size_t(x.task)]);
            addSample(series_[k], k == 0, x);
        });
    consumed_ = s.size();
    updateTitle();
    rebuild();
}

void EevdfChart::addSample(Series& ser, bool primary, const sched::EevdfSample& s) {
    ++ser.plotted;
    const double x = s.time / 1e6;
    const double lag = (s.avgVruntime - s.vruntime) / 1e6;
    ser.v->addData(x, s.vruntime / 1e6);
    ser.d->addData(x, s.deadline / 1e6);
    // A sample taken as the entity leaves carries V without it: its lag is no lag.
    if (s.onRq && primary) {
        V_->addData(x, s.avgVruntime / 1e6);
        lagPos_->addData(x, lag >= 0 ? lag : 0.0);
        lagNeg_->addData(x, lag < 0 ? lag : 0.0);
    } else if (s.onRq) {
        ser.lag->addData(x, lag);
    }
    if (!s.onRq) { // off the runqueue (asleep): break the lines until the next sample
        const double gap = std::nextafter(x, x + 1);
        for (QCPGraph* g : {ser.v, ser.d, ser.lag})
            if (g) g->addData(gap, qQNaN());
        if (primary)
            for (QCPGraph* g : {V_, lagPos_, lagNeg_})
                g->addData(gap, qQNaN());
    }
}

void EevdfChart::updateTitle() {
    if (!trace_ || series_.empty()) {
        title_->setText(tr("Select a task in the timeline to chart its vruntime, deadline and lag "
                           "(Ctrl+click adds tasks)."));
        return;
    }
    QStringList names;
    size_t samples = 0;
    for (const Series& s : series_) {
        const auto& task = trace_->tasks[size_t(s.task)];
        names << QString("%1:%2").arg(QString::fromStdString(task.comm)).arg(task.pid);
        samples += s.plotted;
    }
    title_->setText(tr("%1 - vruntime (solid), deadline (dashed), V = avg_vruntime; lag below (%2 samples). "
                       "Ctrl+click a slice to add or remove a task.")
                        .arg(names.join(", "))
                        .arg(samples));
}

void EevdfChart::setRange(qint64 start, qint64 end) {
    start_ = start;
    end_ = end;
    for (QCPAxisRect* r : {plot_->axisRect(0), lagRect_})
        r->axis(QCPAxis::atBottom)->setRange(start / 1e6, end / 1e6);
    rebuild();
}

// Fit the y axes to what the charted tasks do inside the visible time range.
void EevdfChart::rebuild() {
    const QCPRange xr(start_ / 1e6, end_ / 1e6);
    QCPRange yr, lr(-0.05, 0.05);
    bool any = false;
    const auto widen = [&xr](QCPGraph* g, QCPRange& r, bool& have) {
        if (!g) return;
        bool found = false;
        const QCPRange gr = g->data()->valueRange(found, QCP::sdBoth, xr);
        if (!found) return;
        if (have)
            r.expand(gr);
        else
            r = gr;
        have = true;
    };
    for (const Series& s : series_) {
        widen(s.v, yr, any);
        widen(s.d, yr, any);
    }
    widen(V_, yr, any); // V too: it may lie below every charted vruntime
    if (any) {
        const double pad = std::max(0.05, yr.size() * 0.08);
        plot_->axisRect(0)->axis(QCPAxis::atLeft)->setRange(yr.lower - pad, yr.upper + pad);
        bool lagAny = true;
        for (QCPGraph* g : {lagPos_, lagNeg_})
            widen(g, lr, lagAny);
        for (const Series& s : series_)
            widen(s.lag, lr, lagAny);
        lagRect_->axis(QCPAxis::atLeft)
            ->setRange(std::min(-0.05, lr.lower * 1.1), std::max(0.05, lr.upper * 1.1));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace view
