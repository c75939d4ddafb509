// SPDX-License-Identifier: GPL-3.0-or-later
// A/B comparison window: two runs' timelines stacked on one synchronised time axis (zoom or pan
// either, both follow; a task selected in one is selected in both), and a table with both runs'
// metrics per task group over the compared window and the change from A to B. "Branch here"
// opens it with the original continuation as A and the changed one as B; the same window takes
// any two traces (an imported one included). "Time axes" lines B up with A at an event both
// have (align.h) — a trace's workload starts wherever the tracer found it — and the axes then
// move together with B shifted by the difference; the table measures B over the shifted window.
#pragma once

#include "metrics/align.h"
#include "metrics/compare.h"
#include "widgets/timeline_painter.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QTableWidget;
class QTabWidget;

namespace view {
class TimelineView;
class LatencyHistogram;
} // namespace view

class CompareWindow : public QWidget {
    Q_OBJECT
  public:
    struct Side {
        QString label;
        std::shared_ptr<const sched::Trace> trace; // kept alive by the window
        view::LiveState live;                      // what still runs at the end (empty: a finished run)
    };
    CompareWindow(Side a, Side b, sched::Time from, sched::Time to, QWidget* parent = nullptr);
    const sched::Comparison& comparison() const { return cmp_; }
    view::TimelineView* timelineA() const { return timelines_[0]; }
    view::TimelineView* timelineB() const { return timelines_[1]; }
    // The table as text (the same as schedscope-cli compare prints), written atomically.
    QString saveTable(const QString& path) const;
    // The Distributions tab's chart as PNG, SVG or PDF (by the name's suffix), written atomically;
    // width/height 0: its size on screen.
    QString saveDistributionsPicture(const QString& path, int width = 0, int height = 0) const;
    view::LatencyHistogram* distributions() const { return distributions_; }
    void showDistributions();         // the Distributions tab in front of the table
    void selectTask(sched::TaskId a); // a task of run A, and its counterpart in B
    // The events both runs have; alignTo(-1) puts them back on one time axis.
    const std::vector<sched::AlignPoint>& alignmentPoints() const { return points_; }
    void alignTo(int point);
    bool alignTo(const std::string& key, std::string& error); // by align.h's key (the CLI's --align)
    bool alignAtMarkers(); // at marker A of each timeline: any event the user picks
    sched::Time shift() const { return shift_; }
    QComboBox* alignCombo() const { return align_; }
    // A text above the table, e.g. the rules that differ between the two runs' kernels, with a
    // longer one as its tooltip.
    void setNote(const QString& text, const QString& details = {});
    QString note() const;

  private:
    void fillTable();
    void applyAlignment(const sched::AlignPoint* p); // null: one time axis
    sched::Time endOf(int side) const;
    void syncRange(int from, qint64 start, qint64 end);
    void syncSelection(int from, int task);

    Side sides_[2];
    sched::Time from_ = 0, to_ = 0; // the window asked for, in A's time
    sched::Time shift_ = 0;         // B's time = A's time + shift_
    std::vector<sched::AlignPoint> points_;
    QComboBox* align_ = nullptr;
    int applied_ = 0; // the combo entry in force
    QLabel* titles_[2] = {nullptr, nullptr};
    sched::Comparison cmp_;
    view::TimelineView* timelines_[2] = {nullptr, nullptr};
    QTableWidget* table_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    view::LatencyHistogram* distributions_ = nullptr;
    std::shared_ptr<const sched::Trace>
        windowed_[2]; // the runs over the table's window, for the distributions
    void updateDistributions();
    QLabel* summary_ = nullptr;
    QLabel* note_ = nullptr;
    bool syncing_ = false;
};
