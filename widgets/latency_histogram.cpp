// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/latency_histogram.h"

#include "widgets/plot_style.h"

#include "base/duration.h"
#include "metrics/latency.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace view {

using namespace sched;

int LatencyHistogram::binOf(Time delay) {
    if (delay < 1000) return 0;
    const int k = int(std::floor(5.0 * std::log10(double(delay) / 1000.0)));
    return std::clamp(k, 0, kBins - 1);
}

double LatencyHistogram::binLowerUs(int bin) {
    return std::pow(10.0, bin / 5.0);
}

LatencyHistogram::LatencyHistogram(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(this);
    title_->setContentsMargins(6, 2, 6, 0);
    title_->setWordWrap(true); // a long list of tasks must not widen the window
    lay->addWidget(title_);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(320, 160); // else the legend's width becomes the window's minimum
    lay->addWidget(plot_, 1);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot_->xAxis->setLabel(tr("scheduling delay (us), log scale"));
    plot_->yAxis->setLabel(tr("count"));
    plot_->xAxis->setRange(0.8, 1.3e6);
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setWidthType(QCPBars::wtPlotCoords);
    bars_->setPen(Qt::NoPen);
    bars_->setBrush(QColor(0, 120, 200, 190));
    applyPalette();
}

void LatencyHistogram::applyPalette() {
    const QColor fg = palette().color(QPalette::Text);
    plot_->setBackground(palette().color(QPalette::Base));
    for (QCPAxis* a : plot_->axisRect()->axes()) {
        a->setBasePen(QPen(fg));
        a->setTickPen(QPen(fg));
        a->setSubTickPen(QPen(fg));
        a->setTickLabelColor(fg);
        a->setLabelColor(fg);
    }
    stylePlot(plot_, font());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LatencyHistogram::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) applyPalette();
    QWidget::changeEvent(e);
}

void LatencyHistogram::refresh(const Trace& trace) {
    const auto atoms = schedDelays(trace, task_);
    std::vector<double> counts(kBins, 0.0);
    std::vector<Time> delays;
    delays.reserve(atoms.size());
    for (const DelayAtom& a : atoms) {
        const Time d = a.switchedIn - a.runnableAt;
        delays.push_back(d);
        counts[size_t(binOf(d))] += 1;
    }
    // Bars are drawn at the geometric middle of each log bin and as wide as the bin.
    QVector<double> keys, values;
    bars_->data()->clear();
    double maxCount = 1;
    for (int b = 0; b < kBins; ++b) {
        const double lo = binLowerUs(b), hi = binLowerUs(b + 1);
        bars_->addData(std::sqrt(lo * hi), counts[size_t(b)]);
        maxCount = std::max(maxCount, counts[size_t(b)]);
    }
    bars_->setWidth(0); // width per bar is set by the log bins below
    bars_->setWidthType(QCPBars::wtAxisRectRatio);
    bars_->setWidth(0.9 / kBins);
    plot_->yAxis->setRange(0, maxCount * 1.1);
    const QString who = task_ >= 0 && size_t(task_) < trace.tasks.size()
                            ? QString("%1:%2")
                                  .arg(QString::fromStdString(trace.tasks[size_t(task_)].comm))
                                  .arg(trace.tasks[size_t(task_)].pid)
                            : tr("all tasks");
    if (delays.empty()) {
        title_->setText(tr("Scheduling delays of %1: none measured yet.").arg(who));
    } else {
        std::sort(delays.begin(), delays.end());
        auto pct = [&](double p) {
            return QString::fromStdString(formatDuration(delays[size_t(p * double(delays.size() - 1))]));
        };
        title_->setText(tr("Scheduling delays of %1: %2 measurements, p50 %3, p99 %4, max %5")
                            .arg(who)
                            .arg(delays.size())
                            .arg(pct(0.5), pct(0.99), QString::fromStdString(formatDuration(delays.back()))));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace view
