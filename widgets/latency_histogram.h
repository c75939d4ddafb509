// SPDX-License-Identifier: GPL-3.0-or-later
// Histogram of scheduling delays (perf sched latency's atoms: runnable -> on the CPU) of the
// selected task, or of every task, on logarithmic bins from 1 us to 1 s, with percentiles.
#pragma once

#include "trace/trace.h"

#include <QWidget>

class QCustomPlot;
class QCPBars;
class QLabel;

namespace view {

class LatencyHistogram : public QWidget {
    Q_OBJECT
  public:
    explicit LatencyHistogram(QWidget* parent = nullptr);
    void setTask(sched::TaskId task) { task_ = task; }
    void refresh(const sched::Trace& trace);
    // Bin edges in ns: 10^(k/5) us, k = 0..30 (1 us .. 1 s); delays below 1 us go to bin 0.
    static int binOf(sched::Time delay);
    static double binLowerUs(int bin);
    static constexpr int kBins = 31;
    QCustomPlot* plot() const { return plot_; }

  protected:
    void changeEvent(QEvent* e) override;

  private:
    void applyPalette();
    QCustomPlot* plot_ = nullptr;
    QCPBars* bars_ = nullptr;
    QLabel* title_ = nullptr;
    sched::TaskId task_ = sched::kNoTask;
};

} // namespace view
