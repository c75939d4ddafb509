// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributions chart: the scheduling delays (perf sched latency's atoms: runnable -> on the
// CPU) or the run lengths of the selected task, of its comm group or of every task, as a
// histogram on logarithmic bins from 1 us to 1 s with the CDF over it (right axis) and p50, p90
// and p99 marked (metrics/sample_distribution.h computes them). With a second run overlaid (a
// comparison) both are drawn as shares of their samples per bin, with both CDFs and both runs'
// percentiles, the second run's task found by comm.
#pragma once

#include "metrics/sample_distribution.h"
#include "trace/trace.h"

#include <QWidget>
#include <string>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPBars;
class QCPGraph;
class QLabel;

namespace view {

class LatencyHistogram : public QWidget {
    Q_OBJECT
  public:
    explicit LatencyHistogram(QWidget* parent = nullptr);
    void setTask(sched::TaskId task) { task_ = task; }
    void refresh(const sched::Trace& trace);
    static int binOf(sched::Time delay) { return sched::SampleDistribution::binOf(delay); }
    static double binLowerUs(int bin) { return sched::SampleDistribution::binLowerUs(bin); }
    static constexpr int kBins = sched::SampleDistribution::kBins;
    QCustomPlot* plot() const { return plot_; }
    // What is shown: the combo boxes' choices, also for tests and the command line.
    void setKind(sched::SampleKind k);
    void setScope(sched::SampleScope s);
    // Each task's cgroup or autogroup name ("" for the root group): enables "of its task group".
    void setTaskGroups(std::vector<std::string> groupOf);
    // Another run drawn over this one (null: none); the labels name the two in the title. Drawn at
    // the next refresh(): the run drawn until then may be gone already (the compare window
    // replaces both windows of its runs, then calls refresh() with the new one).
    void setOverlay(const sched::Trace* other, const QString& label, const QString& otherLabel);
    QString title() const;

  protected:
    void changeEvent(QEvent* e) override;

  private:
    void applyPalette();
    void redraw();
    QComboBox* kind_ = nullptr;
    QComboBox* scope_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPBars* bars_ = nullptr;
    QCPGraph* cdf_ = nullptr;
    QCPBars* overlayBars_ = nullptr;
    QCPGraph* overlayCdf_ = nullptr;
    const sched::Trace* overlay_ = nullptr;
    QString labels_[2];
    std::vector<std::string> groupOf_;
    QLabel* title_ = nullptr;
    sched::TaskId task_ = sched::kNoTask;
    const sched::Trace* trace_ = nullptr;
};

} // namespace view
