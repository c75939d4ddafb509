// SPDX-License-Identifier: GPL-3.0-or-later
// EEVDF chart (QCustomPlot): for the selected tasks, vruntime (solid) and virtual deadline
// (dashed) in each task's colour, against the avg_vruntime V of the first task's runqueue; below,
// the lag V - v of each task, the first one shaded green while eligible and red while not. The x
// axis follows the timeline's range.
#pragma once

#include "trace/trace.h"

#include <QWidget>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QLabel;

namespace view {

class EevdfChart : public QWidget {
    Q_OBJECT
  public:
    static constexpr size_t kMaxTasks = 8; // beyond that the lines are a tangle
    explicit EevdfChart(QWidget* parent = nullptr);
    void setTrace(const sched::Trace* trace);
    // The first task is the primary one: V and the eligibility shading are its runqueue's.
    void setTasks(const std::vector<sched::TaskId>& tasks);
    void setTask(sched::TaskId task) {
        setTasks(task >= 0 ? std::vector<sched::TaskId>{task} : std::vector<sched::TaskId>{});
    }
    const std::vector<sched::TaskId>& tasks() const { return tasks_; }
    void setRange(qint64 start, qint64 end);
    QCustomPlot* plot() const { return plot_; }

  protected:
    void changeEvent(QEvent* e) override; // the palette and the font reach the plot
    void resizeEvent(QResizeEvent* e) override;

  private:
    struct Series {
        sched::TaskId task;
        QCPGraph *v, *d, *lag; // lag: the primary's is the shaded pair lagPos_/lagNeg_
        size_t plotted = 0;    // samples of the task in the graphs
    };
    void applyPalette();
    void rebuildSeries();
    void rebuild();
    void catchUp();
    void addSample(Series& ser, bool primary, const sched::EevdfSample& s);
    void updateTitle();
    void fitAxisLabels(); // the axis titles' short forms where a plot is shorter than the full one

    QCustomPlot* plot_ = nullptr;
    QLabel* title_ = nullptr;
    QCPAxisRect* lagRect_ = nullptr;
    QCPGraph *V_ = nullptr, *lagPos_ = nullptr, *lagNeg_ = nullptr;
    std::vector<Series> series_;
    const sched::Trace* trace_ = nullptr;
    std::vector<sched::TaskId> tasks_;
    size_t consumed_ = 0; // samples read into the graphs
    qint64 start_ = 0, end_ = 0;
};

} // namespace view
