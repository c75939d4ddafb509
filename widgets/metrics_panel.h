// SPDX-License-Identifier: GPL-3.0-or-later
// The perf sched latency table and the context-switch counts of the run so far, as
// `schedscope-cli run --duration NOW` prints them: the running slices count up to now. Folded a
// refresh at a time (LatencyFold), so a refresh reads what was recorded since the last one.
#pragma once

#include "metrics/latency_fold.h"
#include "trace/trace.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace view {

class MetricsPanel : public QWidget {
    Q_OBJECT
  public:
    QSize sizeHint() const override { return QSize(330, 260); } // narrow: the timeline comes first
    explicit MetricsPanel(QWidget* parent = nullptr);
    // trace: the live engine's, which only grows until clear(); running: each CPU's current slice.
    void refresh(const sched::Trace& trace, std::span<const sched::RunningSlice> running, sched::Time now);
    void clear(); // the trace was cut back or replaced: fold it again from the start

  private:
    sched::LatencyFold fold_{1};
    sched::FoldCursor cursor_;
    QLabel* counts_ = nullptr;
    QTableWidget* table_ = nullptr;
};

} // namespace view
