// SPDX-License-Identifier: GPL-3.0-or-later
#include "eevdf_chart.h"

#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace view {

EevdfChart::EevdfChart(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(2);
    title_ = new QLabel(tr("Select a task in the timeline to chart its vruntime, deadline and lag."), this);
    title_->setContentsMargins(6, 2, 6, 0);
    lay->addWidget(title_);
    plot_ = new QCustomPlot(this);
    lay->addWidget(plot_, 1);
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const QColor fg = palette().color(QPalette::Text), bg = palette().color(QPalette::Base);
    plot_->setBackground(bg);

    QCPAxisRect* top = plot_->axisRect();
    lagRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, lagRect_);
    plot_->plotLayout()->setRowStretchFactor(0, 2);
    plot_->plotLayout()->setRowStretchFactor(1, 1);
    auto* group = new QCPMarginGroup(plot_);
    top->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    lagRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    for (QCPAxisRect* r : {top, lagRect_})
        for (QCPAxis* a : r->axes()) {
            a->setBasePen(QPen(fg));
            a->setTickPen(QPen(fg));
            a->setSubTickPen(QPen(fg));
            a->setTickLabelColor(fg);
            a->setLabelColor(fg);
            a->grid()->setPen(QPen(dark ? QColor(70, 70, 70) : QColor(220, 220, 220)));
        }
    top->axis(QCPAxis::atLeft)->setLabel(tr("virtual time (ms)"));
    lagRect_->axis(QCPAxis::atLeft)->setLabel(tr("lag V-v (ms)"));
    lagRect_->axis(QCPAxis::atBottom)->setLabel(tr("time (ms)"));

    v_ = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    v_->setName("vruntime");
    v_->setPen(QPen(dark ? QColor(100, 180, 255) : QColor(0, 90, 200), 1.6));
    v_->setLineStyle(QCPGraph::lsStepLeft);
    d_ = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    d_->setName("deadline");
    d_->setPen(QPen(dark ? QColor(255, 170, 80) : QColor(210, 110, 0), 1.2, Qt::DashLine));
    d_->setLineStyle(QCPGraph::lsStepLeft);
    V_ = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    V_->setName("V (avg_vruntime)");
    V_->setPen(QPen(fg, 1.2));
    V_->setLineStyle(QCPGraph::lsStepLeft);
    lagPos_ = plot_->addGraph(lagRect_->axis(QCPAxis::atBottom), lagRect_->axis(QCPAxis::atLeft));
    lagPos_->setName("eligible");
    lagPos_->setPen(QPen(QColor(40, 170, 80)));
    lagPos_->setBrush(QColor(40, 170, 80, 90));
    lagPos_->setLineStyle(QCPGraph::lsStepLeft);
    lagNeg_ = plot_->addGraph(lagRect_->axis(QCPAxis::atBottom), lagRect_->axis(QCPAxis::atLeft));
    lagNeg_->setName("not eligible");
    lagNeg_->setPen(QPen(QColor(210, 60, 60)));
    lagNeg_->setBrush(QColor(210, 60, 60, 90));
    lagNeg_->setLineStyle(QCPGraph::lsStepLeft);
    plot_->legend->setVisible(true);
    plot_->legend->setBrush(bg);
    plot_->legend->setTextColor(fg);
    plot_->legend->setFont(font());
    top->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight); // the lines rise to the top right
}

void EevdfChart::setTrace(const sched::Trace* trace) {
    if (trace != trace_ || (trace && trace->samples.size() < consumed_)) {
        byTask_.clear();
        consumed_ = 0;
        plotted_ = 0;
        for (QCPGraph* g : {v_, d_, V_, lagPos_, lagNeg_}) g->data()->clear();
    }
    trace_ = trace;
    catchUp();
}

void EevdfChart::setTask(sched::TaskId task) {
    if (task == task_) return;
    task_ = task;
    plotted_ = 0;
    for (QCPGraph* g : {v_, d_, V_, lagPos_, lagNeg_}) g->data()->clear();
    catchUp();
}

void EevdfChart::setRange(qint64 start, qint64 end) {
    start_ = start;
    end_ = end;
    for (QCPAxisRect* r : {plot_->axisRect(0), lagRect_}) r->axis(QCPAxis::atBottom)->setRange(start / 1e6, end / 1e6);
    rebuild();
}

// Index new samples by task and append the selected task's new samples to the graphs.
void EevdfChart::catchUp() {
    if (!trace_) return;
    const sched::EevdfSamples& s = trace_->samples;
    for (; consumed_ < s.size(); ++consumed_) {
        const size_t t = size_t(s.task[consumed_]);
        if (t >= byTask_.size()) byTask_.resize(t + 1);
        byTask_[t].push_back(uint32_t(consumed_));
    }
    if (task_ < 0 || size_t(task_) >= byTask_.size()) {
        title_->setText(task_ < 0 ? tr("Select a task in the timeline to chart its vruntime, deadline and lag.")
                                  : tr("No EEVDF samples for this task yet."));
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto& idx = byTask_[size_t(task_)];
    for (; plotted_ < idx.size(); ++plotted_) {
        const uint32_t i = idx[plotted_];
        const double x = s.time[i] / 1e6;
        const double lag = (s.avgVruntime[i] - s.vruntime[i]) / 1e6;
        v_->addData(x, s.vruntime[i] / 1e6);
        d_->addData(x, s.deadline[i] / 1e6);
        V_->addData(x, s.avgVruntime[i] / 1e6);
        lagPos_->addData(x, lag >= 0 ? lag : 0.0);
        lagNeg_->addData(x, lag < 0 ? lag : 0.0);
        if (!s.onRq[i]) { // off the runqueue (asleep): break the lines until the next sample
            const double gap = std::nextafter(x, x + 1);
            for (QCPGraph* g : {v_, d_, V_, lagPos_, lagNeg_}) g->addData(gap, qQNaN());
        }
    }
    const auto& task = trace_->tasks[size_t(task_)];
    title_->setText(tr("%1:%2 - vruntime, deadline and the runqueue's V; lag below (%3 samples)")
                        .arg(QString::fromStdString(task.comm)).arg(task.pid).arg(idx.size()));
    rebuild();
}

void EevdfChart::rebuild() {
    bool found = false;
    QCPRange yr = v_->data()->valueRange(found, QCP::sdBoth, QCPRange(start_ / 1e6, end_ / 1e6));
    if (found) {
        bool f2 = false;
        const QCPRange dr = d_->data()->valueRange(f2, QCP::sdBoth, QCPRange(start_ / 1e6, end_ / 1e6));
        if (f2) yr.expand(dr);
        const double pad = std::max(0.05, yr.size() * 0.08);
        plot_->axisRect(0)->axis(QCPAxis::atLeft)->setRange(yr.lower - pad, yr.upper + pad);
        bool f3 = false;
        QCPRange lr = lagNeg_->data()->valueRange(f3, QCP::sdBoth, QCPRange(start_ / 1e6, end_ / 1e6));
        bool f4 = false;
        const QCPRange lp = lagPos_->data()->valueRange(f4, QCP::sdBoth, QCPRange(start_ / 1e6, end_ / 1e6));
        if (f4) lr.expand(lp);
        lagRect_->axis(QCPAxis::atLeft)->setRange(std::min(-0.05, lr.lower * 1.1), std::max(0.05, lr.upper * 1.1));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace view
