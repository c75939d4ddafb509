// SPDX-License-Identifier: GPL-3.0-or-later
// Per-task states over time for the optional task lanes: running (its slices), runnable
// (waiting for a CPU: from its wakeup, or from a preemption, to its next switch-in), asleep
// uninterruptibly (prev_state D: a kernel mutex, I/O; from the switch-out to the wakeup) and
// sleeping (the rest). Built incrementally as the trace grows; each column of a lane costs
// O(log n) through prefix sums of the covered time.
#pragma once

#include "trace/trace.h"

#include <vector>

namespace view {

using sched::TaskId;
using sched::Time;

enum class TaskState : uint8_t { Sleeping, Runnable, Running, Uninterruptible };

class TaskLaneIndex {
  public:
    void update(const sched::Trace& trace);
    size_t tasks() const { return lanes_.size(); }
    // The state covering most of each column of [t0, t1). The present is not in the trace yet:
    // with now >= 0 the task's open stretch is added - running since runningSince if it runs
    // now (runningSince >= 0), else runnable since it was preempted or woken, if it was.
    std::vector<TaskState> columns(TaskId task, Time t0, Time t1, int width, Time now = -1,
                                   Time runningSince = -1) const;

  private:
    // Sorted, non-overlapping intervals with prefix sums of their lengths.
    struct Series {
        std::vector<Time> start, end, before;
        void add(Time a, Time b);
        Time coveredUntil(Time t, size_t& hint) const; // covered time in (-inf, t)
    };
    struct Lane;
    Time waitingSince(const Lane& l, Time until) const; // start of the wait that ends at `until`, or -1
    struct Lane {
        Series running, runnable, uninterruptible;
        Time lastEnd = -1;
        bool lastPreempted = false;
        bool lastUninterruptible = false; // the last slice ended in a D sleep
        std::vector<Time> wakes;          // sched_waking / wakeup_new times, in order
        size_t nextWake = 0;
    };
    std::vector<Lane> lanes_;
    const sched::Trace* trace_ = nullptr;
    size_t slicesSeen_ = 0, wakesSeen_ = 0;
};

} // namespace view
