// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/latency_histogram.h"

#include "metrics/compare.h"
#include "widgets/plot_style.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <algorithm>
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
    scope_->addItems(
        {tr("of the selected task"), tr("of its comm group"), tr("of all tasks"), tr("of its task group")});
    scope_->setCurrentIndex(int(SampleScope::CommGroup)); // as perf sched latency merges by comm
    scope_->setToolTip(tr("A comm group is every task with the selected task's name, as perf sched latency "
                          "merges them; a task group its cgroup or autogroup (simulations only: a trace's "
                          "scheduler events do not name them)"));
    setTaskGroups({}); // no groups known yet
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
    overlayBars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    overlayBars_->setBrush(Qt::NoBrush);
    overlayBars_->setPen(QPen(QColor(213, 94, 0), 1.5));
    overlayBars_->setVisible(false);
    overlayCdf_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    overlayCdf_->setPen(QPen(QColor(213, 94, 0), 2, Qt::DashLine));
    overlayCdf_->setVisible(false);
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

void LatencyHistogram::setTaskGroups(std::vector<std::string> groupOf) {
    groupOf_ = std::move(groupOf);
    const bool any =
        std::any_of(groupOf_.begin(), groupOf_.end(), [](const std::string& g) { return !g.empty(); });
    // The entry exists only where it can say something: some task outside the root group.
    if (auto* model = qobject_cast<QStandardItemModel*>(scope_->model()))
        if (QStandardItem* item = model->item(int(SampleScope::TaskGroup))) item->setEnabled(any);
    if (!any && scope_->currentIndex() == int(SampleScope::TaskGroup))
        scope_->setCurrentIndex(int(SampleScope::CommGroup));
}

void LatencyHistogram::setOverlay(const Trace* other, const QString& label, const QString& otherLabel) {
    overlay_ = other;
    labels_[0] = label;
    labels_[1] = otherLabel;
    // Two runs: one colour each (Okabe-Ito blue and vermillion), the second one outlined and dashed.
    bars_->setBrush(other ? QColor(0, 114, 178, 150) : QColor(0, 120, 200, 170));
    cdf_->setPen(other ? QPen(QColor(0, 114, 178), 2) : QPen(QColor(213, 94, 0), 2));
    overlayBars_->setVisible(other);
    overlayCdf_->setVisible(other);
}

QString LatencyHistogram::title() const {
    return title_->text();
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
    // Without a selection the task and group choices have nothing to show: all tasks.
    const auto scope = task_ < 0 ? SampleScope::All : SampleScope(scope_->currentIndex());
    const SampleDistribution d = sampleDistribution(*trace_, kind, scope, task_, groupOf_);
    // The other run's task is the one with the same comm; its groups are not known here.
    const TaskId otherTask = overlay_ ? counterpartTask(*trace_, task_, *overlay_) : kNoTask;
    const SampleScope otherScope = scope == SampleScope::TaskGroup ? SampleScope::CommGroup : scope;
    // A comm the other run lacks shows nothing there, not some other scope's samples.
    const bool missing = overlay_ && scope != SampleScope::All && otherTask < 0;
    const SampleDistribution o = overlay_ && !missing
                                     ? sampleDistribution(*overlay_, kind, otherScope, otherTask)
                                     : SampleDistribution{};
    // Bars at the geometric middle of each log bin, as wide as the bin; the CDF at each bin's top.
    // Two runs have different sample counts: each is drawn as its share per bin.
    const auto fill = [&](const SampleDistribution& dist, QCPBars* bars, QCPGraph* cdf, bool share) {
        const auto counts = dist.histogram();
        const auto cum = dist.cdf();
        bars->data()->clear();
        cdf->data()->clear();
        bars->setWidthType(QCPBars::wtAxisRectRatio);
        bars->setWidth(0.9 / kBins);
        double top = 0;
        for (int b = 0; b < kBins; ++b) {
            const double lo = binLowerUs(b), hi = binLowerUs(b + 1);
            const double v =
                share ? (dist.sorted.empty() ? 0.0
                                             : 100.0 * double(counts[size_t(b)]) / double(dist.sorted.size()))
                      : double(counts[size_t(b)]);
            bars->addData(std::sqrt(lo * hi), v);
            cdf->addData(hi, 100.0 * cum[size_t(b)]);
            top = std::max(top, v);
        }
        return top;
    };
    const bool two = overlay_ != nullptr;
    double top = fill(d, bars_, cdf_, two);
    if (two) top = std::max(top, fill(o, overlayBars_, overlayCdf_, true));
    plot_->yAxis->setRange(0, std::max(top, 1.0) * 1.1);
    plot_->yAxis->setLabel(two ? tr("share of the run's samples %") : tr("count"));
    const bool delay = kind == SampleKind::SchedDelay;
    plot_->xAxis->setLabel(delay ? tr("scheduling delay (us), log scale") : tr("run length (us), log scale"));
    // p50, p90 and p99 as dashed lines with their values, each run's in its colour.
    plot_->clearItems();
    const QColor fg = palette().color(QPalette::Text);
    const auto mark = [&](const SampleDistribution& dist, const QColor& color, double labelTop,
                          const QString& prefix) {
        if (dist.sorted.empty()) return;
        for (const auto& [p, name] : {std::pair{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}}) {
            const double x = std::max(double(dist.percentile(p)) / 1e3, 0.8);
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(x, 0);
            line->point2->setCoords(x, 1);
            line->setPen(QPen(color, 1, Qt::DashLine));
            auto* label = new QCPItemText(plot_);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setAxes(plot_->xAxis, plot_->yAxis2);
            label->position->setCoords(x, labelTop - (p == 0.5 ? 0 : p == 0.9 ? 8 : 16));
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setColor(color);
            label->setText(QString(" %1%2 %3").arg(prefix, name, shortDuration(dist.percentile(p))));
        }
    };
    mark(d, two ? QColor(0, 114, 178) : fg, 92, two ? QStringLiteral("A ") : QString());
    if (two) mark(o, QColor(213, 94, 0), 64, QStringLiteral("B "));
    const QString what = delay ? tr("Scheduling delays") : tr("Run lengths");
    const auto summary = [&](const SampleDistribution& dist) {
        return dist.sorted.empty()
                   ? tr("none measured")
                   : tr("%1 measurements, p50 %2, p90 %3, p99 %4, max %5")
                         .arg(dist.sorted.size())
                         .arg(shortDuration(dist.percentile(0.5)), shortDuration(dist.percentile(0.9)),
                              shortDuration(dist.percentile(0.99)), shortDuration(dist.sorted.back()));
    };
    const QString who = QString::fromStdString(sampleScopeName(*trace_, scope, task_, groupOf_));
    if (two) {
        const QString otherWho =
            missing ? tr("no task named %1").arg(QString::fromStdString(trace_->tasks[size_t(task_)].comm))
                    : QString::fromStdString(sampleScopeName(*overlay_, otherScope, otherTask));
        title_->setText(
            tr("%1 - A (blue bars, solid CDF) %2, %3: %4.\nB (outlined bars, dashed CDF) %5, %6: %7.")
                .arg(what, labels_[0], who, summary(d), labels_[1], otherWho, summary(o)));
    } else if (d.sorted.empty()) {
        title_->setText(tr("%1 of %2: none measured yet.").arg(what, who));
    } else {
        title_->setText(tr("%1 of %2: %3").arg(what, who, summary(d)));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace view
