// SPDX-License-Identifier: GPL-3.0-or-later
// perf sched latency, perf stat's switch counts and each CPU's busy time, folded from a trace
// while it is recorded instead of read from the whole trace at the end. A metrics-only run
// (schedscope-cli run / experiment) folds a stretch of its trace, drops it
// (Engine::forgetRecorded()) and records the next into the same memory: the seed-size messaging
// run's 100 MB of slices and wake-ups never exist at once, and the few hundred kilobytes that
// do stay in the cache. The numbers are those perfSchedLatency(), countSwitches() and cpuUsage()
// give for the whole trace (tst_latency_fold compares them on seven workloads).
#pragma once

#include "metrics/latency.h"

#include <span>
#include <vector>

namespace sched {

// A slice switched in and not yet switched out: a CPU's current task while the run goes on.
struct RunningSlice {
    Time start = 0;
    TaskId task = kNoTask;
    uint16_t cpu = 0;
};

// How far a fold has read a trace that keeps growing (the live engine's, which is never
// dropped): the next slice, wake-up and migration to fold.
struct FoldCursor {
    size_t slices = 0, wakeups = 0, migrations = 0;
};

class LatencyFold {
  public:
    explicit LatencyFold(int cpus);

    // Folds every slice, wake-up and migration t holds. They must be the ones the engine recorded
    // after those of the previous call, in its order: each column in time order (slices by their
    // switch-out, pushed then; wake-ups by time), as a simulated trace always is. An imported
    // trace may not be: the whole-trace functions in latency.h sort what needs sorting.
    void add(const Trace& t);
    // The same for what t recorded after `at`, which moves to t's end: a view that folds the live
    // engine's trace a refresh at a time, and starts again from an empty fold when the trace is
    // cut back (a rewind).
    void add(const Trace& t, FoldCursor& at);

    // This fold as it would read if the run ended at `now`: each running slice closed there, as
    // Engine::finish() records it (still running; its switch-in closes the atom it ends).
    LatencyFold endedAt(std::span<const RunningSlice> running, Time now) const;

    // What the whole-trace functions give for everything folded (tasks: the trace's task table).
    std::vector<LatencyRow> rows(const std::vector<TraceTask>& tasks, const LatencyOptions& opts = {}) const;
    SwitchCounts switches() const;
    std::vector<CpuUsage> cpuUsage() const { return use_; }

  private:
    static constexpr Time kNone = INT64_MIN;
    // One task's open work atom (latency_switch_event() / latency_wakeup_event()) and its sums.
    struct TaskAtoms {
        Time outTime = 0;       // its last switch-out
        Time firstWake = kNone; // the first wake-up at or after outTime, once seen
        Time lastWake = kNone;  // its latest wake-up
        bool haveAtom = false;  // switched out (not still running at the end)
        bool slept = false;     // ... by blocking or exiting: the atom waits for a wake-up
        int64_t slices = 0;
        Time runtime = 0, totalDelay = 0, maxDelay = 0, maxStart = 0, maxEnd = 0;
        int64_t count = 0;
    };
    struct CpuLast { // the CPU's previous slice, for the switches to idle
        Time end = 0;
        uint8_t point = kStillRunning;
        bool any = false;
    };
    void slice(Time start, Time end, TaskId task, uint16_t cpu, uint8_t point);
    void wake(Time at, TaskId task);

    std::vector<TaskAtoms> tasks_;
    std::vector<CpuLast> last_;
    std::vector<CpuUsage> use_;
    SwitchCounts counts_; // without the switches to idle after each CPU's last slice
};

} // namespace sched
