// SPDX-License-Identifier: GPL-3.0-or-later
// A/B comparison of two runs (two simulations, or a simulation and an imported trace) over one
// time window: per task group (comm) the runtime, the switches out split voluntary/involuntary
// by the kernel's rule, and the perf-sched-latency delays (count, avg, max, sum, p50, p99), plus
// the system-wide perf-stat counts. The window is measured as if perf had recorded only that
// window: slices are cut at its edges and a delay is measured only from an event inside it.
#pragma once

#include "metrics/latency.h"

#include <string>
#include <vector>

namespace sched {

struct GroupSide {
    int tasks = 0; // tasks of the group that ran in the window
    Time runtime = 0;
    int64_t voluntary = 0, involuntary = 0; // switches out (nvcsw / nivcsw)
    int64_t delays = 0;                     // delay measurements (perf sched latency "Switches")
    Time sumDelay = 0, maxDelay = 0, p50 = 0, p99 = 0;
    int64_t switches() const { return voluntary + involuntary; }
    Time avgDelay() const { return delays ? sumDelay / delays : 0; }
};

struct CompareRow {
    std::string group; // comm
    GroupSide a, b;
};

struct Comparison {
    Time from = 0, to = 0;        // A's window; B's is shifted by shiftB
    Time shiftB = 0;              // B's time = A's time + shiftB (runs aligned at an event)
    std::string alignedAt;        // the event they were aligned at, if any
    std::vector<CompareRow> rows; // by runtime in A, then B, descending
    SwitchCounts a, b;            // perf stat -a -e cs over the window
    Time busyA = 0, busyB = 0;    // CPU time used, all CPUs
};

// The part of a trace inside [from, to): slices cut at the edges (a slice cut at `to` has not
// ended), wakeups, migrations, flag intervals and markers inside. *clippedAtStart counts slices
// that began before `from`: their switch-in is not an event of the window.
Trace traceWindow(const Trace& t, Time from, Time to, size_t* clippedAtStart = nullptr);

// A over [from, to), B over [from + shiftB, to + shiftB).
Comparison compareRuns(const Trace& a, const Trace& b, Time from, Time to, Time shiftB = 0);

// Empty, or a warning that A and B share no task group that ran in the window (say, a simulation
// of one workload beside the trace of another): then every row is one side's alone, and the
// comparison compares different programs. It names a few comms of each side.
std::string unrelatedRunsWarning(const Comparison& c);

// Text table in the manner of perf's: one row per group, A, B and the change for each metric.
std::string formatComparison(const Comparison& c, const std::string& labelA, const std::string& labelB);

// The task of run b that stands for task t of run a: the same id if its comm is the same (a branch
// or a rerun creates its tasks in the same order), else b's first task with that comm; kNoTask if
// none has it.
TaskId counterpartTask(const Trace& a, TaskId t, const Trace& b);

} // namespace sched
