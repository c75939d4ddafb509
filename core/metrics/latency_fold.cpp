// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/latency_fold.h"

#include <algorithm>

namespace sched {

LatencyFold::LatencyFold(int cpus) : last_(size_t(std::max(cpus, 1))), use_(size_t(std::max(cpus, 1))) {}

// The two columns merged by time, a wake-up before a switch-out at the same time. Which of the
// two the engine recorded first does not matter: an atom takes the first wake-up at or after its
// switch-out, and a wake-up at the very time of the switch-out is remembered (lastWake) for the
// atom that switch-out opens — the walk over each task's sorted wake-ups in latency.cpp does the
// same.
void LatencyFold::add(const Trace& t) {
    FoldCursor from;
    add(t, from);
}

void LatencyFold::add(const Trace& t, FoldCursor& at) {
    if (tasks_.size() < t.tasks.size()) tasks_.resize(t.tasks.size());
    const Slices& s = t.slices;
    const Wakeups& w = t.wakeups;
    size_t j = at.wakeups;
    for (size_t i = at.slices; i < s.size(); ++i) {
        for (; j < w.size() && w.time[j] <= s.end[i]; ++j)
            if (!w.isNew[j]) wake(w.time[j], w.wakee[j]); // sched_wakeup_new opens no atom
        slice(s.start[i], s.end[i], s.task[i], s.cpu[i], s.endPoint[i]);
    }
    for (; j < w.size(); ++j)
        if (!w.isNew[j]) wake(w.time[j], w.wakee[j]);
    counts_.migrations += int64_t(t.migrations.size() - std::min(at.migrations, t.migrations.size()));
    at = FoldCursor{s.size(), w.size(), t.migrations.size()};
}

LatencyFold LatencyFold::endedAt(std::span<const RunningSlice> running, Time now) const {
    LatencyFold f = *this;
    for (const RunningSlice& r : running)
        if (r.task >= 0) f.slice(r.start, std::max(now, r.start), r.task, r.cpu, kStillRunning);
    return f;
}

void LatencyFold::wake(Time at, TaskId task) {
    if (size_t(task) >= tasks_.size()) tasks_.resize(size_t(task) + 1);
    TaskAtoms& a = tasks_[size_t(task)];
    a.lastWake = at;
    if (a.haveAtom && a.slept && a.firstWake == kNone && at >= a.outTime) a.firstWake = at;
}

// walkTask() in latency.cpp, one slice at a time.
void LatencyFold::slice(Time start, Time end, TaskId task, uint16_t cpu, uint8_t point) {
    if (size_t(task) >= tasks_.size()) tasks_.resize(size_t(task) + 1);
    TaskAtoms& a = tasks_[size_t(task)];
    if (a.haveAtom) { // the switch-in closes the atom (add_sched_in_event)
        const Time runnable = a.slept ? a.firstWake : a.outTime;
        if (runnable != kNone && runnable <= start) {
            const Time d = start - runnable;
            a.count++;
            a.totalDelay += d;
            if (d > a.maxDelay) a.maxDelay = d, a.maxStart = runnable, a.maxEnd = start;
        }
    }
    a.slices++;
    a.runtime += end - start;
    // The switch-out opens the next atom (add_sched_out_event): 'R' waits for the CPU at once.
    const bool blocked = isBlockingPoint(point); // nvcsw
    a.haveAtom = point != kStillRunning;
    a.slept = blocked;
    a.outTime = end;
    a.firstWake = a.lastWake != kNone && a.lastWake >= end ? a.lastWake : kNone;

    // perf stat -e cs: the switch into this slice, and one to idle before it if the CPU's previous
    // slice ended (not still running) earlier than this one began (switchesToIdle()).
    if (cpu >= last_.size()) last_.resize(size_t(cpu) + 1), use_.resize(size_t(cpu) + 1);
    CpuLast& l = last_[cpu];
    counts_.total += 1 + (l.any && l.point != kStillRunning && l.end != start);
    if (point != kStillRunning) (blocked ? counts_.voluntary : counts_.involuntary)++;
    l = CpuLast{end, point, true};
    use_[cpu].busy += end - start;
    use_[cpu].switches++;
}

SwitchCounts LatencyFold::switches() const {
    SwitchCounts c = counts_;
    for (const CpuLast& l : last_)
        c.total += l.any && l.point != kStillRunning; // the CPU went idle after its last
    return c;
}

std::vector<LatencyRow> LatencyFold::rows(const std::vector<TraceTask>& tasks,
                                          const LatencyOptions& opts) const {
    std::vector<LatencyRow> rows;
    for (size_t t = 0; t < tasks.size() && t < tasks_.size(); ++t) {
        const TaskAtoms& a = tasks_[t];
        if (a.slices == 0) continue;
        if (opts.only && (t >= opts.only->size() || !(*opts.only)[t])) continue;
        LatencyRow r;
        r.comm = tasks[t].comm;
        r.pid = tasks[t].pid;
        r.runtime = a.runtime;
        r.count = a.count;
        r.totalDelay = a.totalDelay;
        r.maxDelay = a.maxDelay;
        r.maxStart = a.maxStart;
        r.maxEnd = a.maxEnd;
        rows.push_back(std::move(r));
    }
    return latencyTable(std::move(rows), opts);
}

} // namespace sched
