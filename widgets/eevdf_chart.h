// SPDX-License-Identifier: GPL-3.0-or-later
// EEVDF chart (QCustomPlot): for the selected task, its vruntime and virtual deadline against
// its runqueue's avg_vruntime V, and below them its lag V - v (green while eligible, red while
// not). The x axis follows the timeline's range.
#pragma once

#include "trace.h"

#include <QWidget>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QLabel;

namespace view {

class EevdfChart : public QWidget {
    Q_OBJECT
public:
    explicit EevdfChart(QWidget* parent = nullptr);
    void setTrace(const sched::Trace* trace);
    void setTask(sched::TaskId task);
    void setRange(qint64 start, qint64 end);
    QCustomPlot* plot() const { return plot_; }

private:
    void rebuild();
    void catchUp();

    QCustomPlot* plot_ = nullptr;
    QLabel* title_ = nullptr;
    QCPAxisRect* lagRect_ = nullptr;
    QCPGraph *v_ = nullptr, *d_ = nullptr, *V_ = nullptr, *lagPos_ = nullptr, *lagNeg_ = nullptr;
    const sched::Trace* trace_ = nullptr;
    sched::TaskId task_ = sched::kNoTask;
    std::vector<std::vector<uint32_t>> byTask_; // sample indices per task
    size_t consumed_ = 0;
    size_t plotted_ = 0; // samples of task_ already in the graphs
    qint64 start_ = 0, end_ = 0;
};

} // namespace view
