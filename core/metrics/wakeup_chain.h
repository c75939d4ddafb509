// SPDX-License-Identifier: GPL-3.0-or-later
// Who woke whom, and what a task waited for: each wakeup joined to the wakee's next switch-in
// (the arrow the timeline draws from the waker's CPU at sched_waking to the wakee's run), and a
// task's critical path walked backwards from a moment - it ran; before that it waited for a CPU
// (runnable: woken or preempted, not yet switched in); before that it slept until a task (or an
// interrupt) woke it, and the path goes on with the waker. The same for a simulation and an
// imported trace: it reads only slices and wakeups. Built incrementally, as a live run grows.
#pragma once

#include "trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace sched {

struct WakeupLink {
    Time wake = 0;          // sched_waking (or sched_wakeup_new)
    TaskId waker = kNoTask; // kNoTask: an interrupt (a timer) woke it
    int wakerCpu = 0;
    TaskId wakee = kNoTask;
    Time run = 0; // the wakee's first switch-in at or after the wakeup
    int runCpu = 0;
};

struct PathStep {
    enum class Kind : uint8_t {
        Running,  // on `cpu` from `from` to `to`
        Runnable, // queued, waiting for a CPU (after a wakeup or a preemption)
        Asleep,   // blocked until `wokenBy` (kNoTask: an interrupt) woke it at `to`
    };
    Kind kind;
    TaskId task;
    Time from, to;
    int cpu = -1;             // Running: where; Asleep: the waker's CPU
    TaskId wokenBy = kNoTask; // Asleep only
};

class WakeupChains {
  public:
    // Takes in what was added to the trace since the last call (or, for another trace, all of it).
    void update(const Trace& trace);
    // Wakeup i of the trace with the wakee's run, or none if the wakee has not run since.
    std::optional<WakeupLink> link(size_t wakeup) const;
    // The path that led to `task` running at (or last before) `at`, newest step first, at most
    // maxSteps long; empty if the task had not run by then.
    std::vector<PathStep> criticalPath(TaskId task, Time at, size_t maxSteps = 32) const;

  private:
    // One task's slices in start order and its wakeups in time order, as indices into the trace's
    // columns: the trace is shared, not copied (issue 31: 8 bytes a slice and a wakeup instead of 26).
    struct Runs {
        std::vector<uint32_t> slice;
        std::vector<uint32_t> wakes;
    };
    Runs& runs(TaskId t);
    Time start(const Runs& r, size_t k) const { return trace_->slices.start[r.slice[k]]; }
    Time end(const Runs& r, size_t k) const { return trace_->slices.end[r.slice[k]]; }
    int cpu(const Runs& r, size_t k) const { return int(trace_->slices.cpu[r.slice[k]]); }
    // The first run that starts at or after t (lower bound), or after t (upper bound); size() if none.
    size_t firstRunFrom(const Runs& r, Time t) const;
    size_t firstRunAfter(const Runs& r, Time t) const;
    const Trace* trace_ = nullptr;
    size_t slicesSeen_ = 0, wakesSeen_ = 0;
    std::vector<Runs> tasks_;
};

// The path as text, newest step first, one line each ("running", "waiting for a CPU", "asleep
// until woken by ..."), times in seconds plus `offset` (an imported trace's first timestamp), and
// the totals per kind.
std::string formatCriticalPath(const Trace& trace, const std::vector<PathStep>& path, Time offset = 0);

} // namespace sched
