// SPDX-License-Identifier: GPL-3.0-or-later
// Metrics computed from a Trace exactly as the tools compute them, so that a simulated run and
// an imported trace of a real machine are measured the same way:
//  - perf sched latency (tools/perf/builtin-sched.c: work atoms, delay from wakeup or from a
//    runnable switch-out to the next switch-in, merged by comm);
//  - context switches as perf stat -e cs counts them system-wide, split voluntary/involuntary
//    by the kernel's rule (__schedule()), and per-CPU busy time.
#pragma once

#include "trace/trace.h"

#include <string>
#include <vector>

namespace sched {

struct LatencyRow {
    std::string comm;
    int32_t pid = 0; // tid when not merged
    int merged = 1;  // number of tasks merged into this row ("comm:(N)")
    Time runtime = 0;
    int64_t count = 0; // delay measurements ("Switches" / "Count")
    Time totalDelay = 0;
    Time maxDelay = 0;
    Time maxStart = 0, maxEnd = 0;
    Time avgDelay() const { return count ? totalDelay / count : 0; }
};

enum class LatencySortKey { Avg, Max, Switch, Runtime, Sum };

struct LatencyOptions {
    bool mergeByComm = true; // perf's default; -p gives one row per tid
    std::vector<LatencySortKey> sort{LatencySortKey::Avg, LatencySortKey::Max, LatencySortKey::Switch,
                                     LatencySortKey::Runtime};
    const std::vector<char>* only =
        nullptr; // if set: the tasks (by TaskId) to report, as perf sched latency -p/--pid filters
};

std::vector<LatencyRow> perfSchedLatency(const Trace& trace, const LatencyOptions& opts = {});
// perf sched latency's table from one row per task (in TaskId order): merged by comm or not,
// sorted by opts.sort.
std::vector<LatencyRow> latencyTable(std::vector<LatencyRow> perTask, const LatencyOptions& opts);

// Every delay measurement ("atom") of perf sched latency for the tasks accepted by `want`
// (kNoTask = all): the time the task became runnable and the time it got the CPU.
struct DelayAtom {
    TaskId task;
    Time runnableAt, switchedIn;
};
std::vector<DelayAtom> schedDelays(const Trace& trace, TaskId only = kNoTask);
bool parseLatencySort(const std::string& spec, std::vector<LatencySortKey>& out);

struct SwitchCounts {
    int64_t total = 0;       // every switch with prev != next, idle included (perf stat -a -e cs)
    int64_t voluntary = 0;   // prev blocked or exited (nvcsw)
    int64_t involuntary = 0; // prev still runnable (nivcsw)
    int64_t migrations = 0;
};
SwitchCounts countSwitches(const Trace& trace);
// The switches of some tasks as the kernel counts them into nvcsw / nivcsw (each switch-out of the
// task: voluntary if it blocked), which getrusage() and GNU time add up — without the final
// switch of an exiting task, which happens after its counters were summed; total = both, what
// perf stat -e cs counts for those tasks without -a.
SwitchCounts countSwitchesOf(const Trace& trace, const std::vector<char>& tasks);
// A task and all its descendants (sched_process_fork parentage), by TaskId.
std::vector<char> descendantsOf(const Trace& trace, int32_t rootPid);

struct CpuUsage {
    Time busy = 0;
    int64_t switches = 0;
};
std::vector<CpuUsage> cpuUsage(const Trace& trace);

} // namespace sched
