// SPDX-License-Identifier: GPL-3.0-or-later
// A stateless render pass for the timeline: the same code paints the widget, PNG, SVG and PDF
// exports. It draws from the pixel-bounded lane and flag summaries, merging equal neighbouring
// columns into one rectangle, so a frame costs about width x lanes whatever the run's length.
#pragma once

#include "metrics/wakeup_chain.h"
#include "widgets/model/flag_index.h"
#include "widgets/model/lane_index.h"
#include "widgets/model/task_lane_index.h"
#include "widgets/model/time_axis.h"

#include <QFont>
#include <QPalette>
#include <algorithm>
#include <array>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace view {

// What the engine looks like right now, beyond the closed slices of the trace.
struct LiveState {
    Time now = 0;
    std::vector<TaskId> curr;     // per CPU, kNoTask = idle
    std::vector<Time> sliceStart; // per CPU
    std::vector<std::array<bool, 2>> flag;
    std::vector<std::array<Time, 2>> flagSetAt;
    std::vector<std::array<uint8_t, 2>> flagReason; // ReschedReason of a bit still set
    std::vector<Time>
        sliceExtSince; // per CPU: when the running task's RSEQ slice extension was granted, or -1
    int hz = 0;        // for tick marks at high zoom; 0 = unknown (an imported trace)
};

struct TimelineData {
    const sched::Trace* trace = nullptr;
    const LaneIndex* lanes = nullptr;
    const FlagIndex* flags = nullptr;
    const TaskLaneIndex* taskLanes = nullptr;    // non-null: draw a lane per task under the CPUs
    const sched::WakeupChains* chains = nullptr; // non-null: wakeup arrows at high zoom
    LiveState live;
    std::vector<TaskId> selection; // selected tasks, the primary one first
    bool hasSelection() const { return !selection.empty(); }
    bool isSelected(TaskId t) const {
        return std::find(selection.begin(), selection.end(), t) != selection.end();
    }
    bool dimmed(TaskId t) const {
        return hasSelection() && !isSelected(t);
    } // others fade when something is selected
    std::optional<Time> cursor, markerA, markerB;
};

struct TimelineLayout {
    int gutter = 64; // lane labels
    int ruler = 24;  // time ruler on top
    int markerBand = 16;
    int lane = 26;    // a CPU lane
    int flagLane = 9; // its need-resched lane
    int gap = 7;
    int taskRow = 13; // optional per-task lanes
    int legend = 18;  // the colour legend under the CPU lanes
    int minLane = 22; // the lowest a CPU lane gets when many share the height
    int laneTop(int cpu) const { return ruler + markerBand + cpu * (lane + flagLane + gap); }
    int legendTop(int cpus) const { return laneTop(cpus); }
    int taskTop(int cpus, int task) const { return laneTop(cpus) + legend + 14 + task * taskRow; }
    int height(int cpus, int tasks = 0) const {
        return tasks > 0 ? taskTop(cpus, tasks) + 4 : laneTop(cpus) + legend + 4;
    }
    int cpuAt(int y, int cpus) const; // -1 if y is not on a CPU lane
};

// The layout for a font: the defaults at the normal size (9 pt) and below, every band grown with
// the text above it (the presentation mode's larger text), so no label is cut.
TimelineLayout timelineLayoutFor(const QFont& font);

// What one CPU lane shows at one zoom, computed before painting (and off the painting thread).
struct LaneSummary {
    bool exact = false;                        // few slices in view: drawn one by one, no columns
    std::vector<Column> cols;                  // else one per pixel column
    std::array<std::vector<uint8_t>, 2> flags; // per ReschedBit, one per pixel column
};

class TimelinePainter {
  public:
    static void paint(QPainter& p, const QRect& rect, const TimeAxis& axis, const TimelineData& d,
                      const TimelineLayout& layout, const QPalette& pal, const QFont& font);
    // The tasks seen in the CPU lanes of [axis.start, axis.end), with the CPU time each shows
    // there (ns, from the same summaries the lanes are drawn from), largest first: the legend.
    static std::vector<std::pair<TaskId, double>> visibleTasks(const TimeAxis& axis, const TimelineData& d);

  private:
    static void paintRuler(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineLayout& L,
                           const QPalette& pal);
    static LaneSummary summarize(int cpu, const TimeAxis& axis, const TimelineData& d);
    static std::vector<std::pair<TaskId, double>> visibleTasks(const TimeAxis& axis, const TimelineData& d,
                                                               const std::vector<int>& cpus,
                                                               const std::vector<LaneSummary>& sums);
    static void paintLegend(QPainter& p, const QRect& r, const TimelineLayout& L, const TimelineData& d,
                            const QPalette& pal, const std::vector<std::pair<TaskId, double>>& tasks);
    static void paintLane(QPainter& p, int cpu, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                          const TimelineLayout& L, bool dark, const LaneSummary& sum);
    static void paintSlicesExact(QPainter& p, int cpu, const QRect& r, const TimeAxis& axis,
                                 const TimelineData& d, const TimelineLayout& L, bool dark);
    static void paintFlags(QPainter& p, int cpu, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                           const TimelineLayout& L, bool dark, const LaneSummary& sum);
    static void paintSliceExts(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                               const TimelineLayout& L, bool dark);
    static void paintTaskLanes(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                               const TimelineLayout& L, const QPalette& pal);
    static void paintWakeupArrows(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                                  const TimelineLayout& L, const QPalette& pal);
    static void paintMarkers(QPainter& p, const QRect& r, const TimeAxis& axis, const TimelineData& d,
                             const TimelineLayout& L, const QPalette& pal);
};

} // namespace view
