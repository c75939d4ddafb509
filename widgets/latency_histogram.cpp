// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/latency_histogram.h"

#include "widgets/plot_style.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace view {

using namespace sched;

namespace {
// Three significant digits: "13.3 ms", "980 us", "4 ms" - a label, not a measurement record.
QString shortDuration(Time t) {
    if (t >= kNsPerMs) return QString::number(double(t) / 1e6, 'g', 3) + " ms";
    if (t >= kNsPerUs) return QString::number(double(t) / 1e3, 'g', 3) + " us";
    return QString::number(t) + " ns";
}
} // namespace

LatencyHistogram::LatencyHistogram(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 2, 6, 0);
    kind_ = new QComboBox(this);
    kind_->setObjectName("distributionKind");
    kind_->addItems({tr("Scheduling delay"), tr("Run length")});
    kind_->setToolTip(tr("Scheduling delay: from runnable (woken or preempted) to on the CPU, as perf sched "
                         "latency measures it. Run length: from a switch-in to the switch-out."));
    scope_ = new QComboBox(this);
    scope_->setObjectName("distributionScope");
    scope_->addItems({tr("of the selected task"), tr("of its comm group"), tr("of all tasks")});
    scope_->setCurrentIndex(int(SampleScope::CommGroup)); // as perf sched latency merges by comm
    scope_->setToolTip(tr("A comm group is every task with the selected task's name, as perf sched latency "
                          "merges them"));
    top->addWidget(kind_);
    top->addWidget(scope_);
    top->addStretch(1);
    lay->addLayout(top);
    title_ = new QLabel(this);
    title_->setContentsMargins(6, 0, 6, 0);
    title_->setWordWrap(true); // a long list of tasks must not widen the window
    lay->addWidget(title_);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(320, 160); // else the legend's width becomes the window's minimum
    lay->addWidget(plot_, 1);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot_->xAxis->setRange(0.8, 1.3e6);
    plot_->yAxis->setLabel(tr("count"));
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setRange(0, 100);
    plot_->yAxis2->setLabel(tr("cumulative %"));
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setPen(Qt::NoPen);
    bars_->setBrush(QColor(0, 120, 200, 170));
    bars_->setName(tr("count per bin"));
    cdf_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    cdf_->setPen(QPen(QColor(213, 94, 0), 2));
    cdf_->setName(tr("CDF"));
    for (QComboBox* c : {kind_, scope_})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    applyPalette();
}

void LatencyHistogram::setKind(SampleKind k) {
    kind_->setCurrentIndex(int(k));
}

void LatencyHistogram::setScope(SampleScope s) {
    scope_->setCurrentIndex(int(s));
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
    trace_ = &trace;
    redraw();
}

void LatencyHistogram::redraw() {
    if (!trace_) return;
    const auto kind = SampleKind(kind_->currentIndex());
    // Without a selection the task and comm-group choices have nothing to show: all tasks.
    const auto scope = task_ < 0 ? SampleScope::All : SampleScope(scope_->currentIndex());
    const SampleDistribution d = sampleDistribution(*trace_, kind, scope, task_);
    const auto counts = d.histogram();
    const auto cum = d.cdf();
    // Bars at the geometric middle of each log bin, as wide as the bin; the CDF at each bin's top.
    bars_->data()->clear();
    cdf_->data()->clear();
    bars_->setWidthType(QCPBars::wtAxisRectRatio);
    bars_->setWidth(0.9 / kBins);
    double maxCount = 1;
    for (int b = 0; b < kBins; ++b) {
        const double lo = binLowerUs(b), hi = binLowerUs(b + 1);
        bars_->addData(std::sqrt(lo * hi), double(counts[size_t(b)]));
        cdf_->addData(hi, 100.0 * cum[size_t(b)]);
        maxCount = std::max(maxCount, double(counts[size_t(b)]));
    }
    plot_->yAxis->setRange(0, maxCount * 1.1);
    const bool delay = kind == SampleKind::SchedDelay;
    plot_->xAxis->setLabel(delay ? tr("scheduling delay (us), log scale") : tr("run length (us), log scale"));
    // p50, p90 and p99 as dashed lines with their values.
    plot_->clearItems();
    const QColor fg = palette().color(QPalette::Text);
    if (!d.sorted.empty())
        for (const auto& [p, name] : {std::pair{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}}) {
            const double x = std::max(double(d.percentile(p)) / 1e3, 0.8);
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(x, 0);
            line->point2->setCoords(x, 1);
            line->setPen(QPen(fg, 1, Qt::DashLine));
            auto* label = new QCPItemText(plot_);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setAxes(plot_->xAxis, plot_->yAxis2);
            label->position->setCoords(x, p == 0.5 ? 92 : p == 0.9 ? 84 : 76);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setColor(fg);
            label->setText(QString(" %1 %2").arg(name, shortDuration(d.percentile(p))));
        }
    const QString who = QString::fromStdString(sampleScopeName(*trace_, scope, task_));
    const QString what = delay ? tr("Scheduling delays") : tr("Run lengths");
    if (d.sorted.empty())
        title_->setText(tr("%1 of %2: none measured yet.").arg(what, who));
    else
        title_->setText(tr("%1 of %2: %3 measurements, p50 %4, p90 %5, p99 %6, max %7")
                            .arg(what, who)
                            .arg(d.sorted.size())
                            .arg(shortDuration(d.percentile(0.5)), shortDuration(d.percentile(0.9)),
                                 shortDuration(d.percentile(0.99)), shortDuration(d.sorted.back())));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace view
