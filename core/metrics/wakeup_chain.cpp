// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/wakeup_chain.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace sched {

WakeupChains::Runs& WakeupChains::runs(TaskId t) {
    if (size_t(t) >= tasks_.size()) tasks_.resize(size_t(t) + 1);
    return tasks_[size_t(t)];
}

void WakeupChains::update(const Trace& trace) {
    if (&trace != trace_ || trace.slices.size() < slicesSeen_ || trace.wakeups.size() < wakesSeen_) {
        *this = WakeupChains{};
        trace_ = &trace;
    }
    const Slices& s = trace.slices;
    // A task's slices are recorded in its own time order (one ends before its next begins).
    for (; slicesSeen_ < s.size(); ++slicesSeen_) {
        const size_t i = slicesSeen_;
        if (s.task[i] < 0) continue;
        Runs& r = runs(s.task[i]);
        // In start order: an imported trace's estimated switch-in (a missing idle exit) can lie
        // before the task's run recorded just ahead of it.
        const size_t at =
            r.start.empty() || s.start[i] >= r.start.back()
                ? r.start.size()
                : size_t(std::upper_bound(r.start.begin(), r.start.end(), s.start[i]) - r.start.begin());
        r.start.insert(r.start.begin() + std::ptrdiff_t(at), s.start[i]);
        r.end.insert(r.end.begin() + std::ptrdiff_t(at), s.end[i]);
        r.cpu.insert(r.cpu.begin() + std::ptrdiff_t(at), s.cpu[i]);
    }
    const Wakeups& w = trace.wakeups;
    for (; wakesSeen_ < w.size(); ++wakesSeen_)
        if (w.wakee[wakesSeen_] >= 0) runs(w.wakee[wakesSeen_]).wakes.push_back(wakesSeen_);
}

size_t WakeupChains::firstRunFrom(const Runs& r, Time t) {
    return size_t(std::lower_bound(r.start.begin(), r.start.end(), t) - r.start.begin());
}

std::optional<WakeupLink> WakeupChains::link(size_t i) const {
    if (!trace_ || i >= wakesSeen_) return std::nullopt;
    const Wakeups& w = trace_->wakeups;
    const TaskId p = w.wakee[i];
    if (p < 0 || size_t(p) >= tasks_.size()) return std::nullopt;
    const Runs& r = tasks_[size_t(p)];
    const size_t k = firstRunFrom(r, w.time[i]);
    if (k == r.start.size()) return std::nullopt;
    return WakeupLink{w.time[i], w.waker[i], int(w.wakerCpu[i]), p, r.start[k], int(r.cpu[k])};
}

std::vector<PathStep> WakeupChains::criticalPath(TaskId task, Time at, size_t maxSteps) const {
    std::vector<PathStep> path;
    if (!trace_) return path;
    const Wakeups& w = trace_->wakeups;
    TaskId t = task;
    Time until = at;
    size_t before = SIZE_MAX; // after a preemption: the same task's previous run, by index
    while (path.size() < maxSteps && t >= 0 && size_t(t) < tasks_.size()) {
        const Runs& r = tasks_[size_t(t)];
        // The run that covers `until`, or the last one that began before it - by index when the
        // path steps back to the previous run (one can begin where the next ended).
        const size_t next =
            before != SIZE_MAX
                ? before
                : size_t(std::upper_bound(r.start.begin(), r.start.end(), until) - r.start.begin());
        before = SIZE_MAX;
        if (next == 0) break;
        const size_t k = next - 1;
        path.push_back({PathStep::Kind::Running, t, r.start[k], std::min(r.end[k], until), int(r.cpu[k])});
        const Time prevEnd = k > 0 ? r.end[k - 1] : -1;
        // The last wakeup between the previous run's end and this run's start.
        const auto wakeIt = std::upper_bound(r.wakes.begin(), r.wakes.end(), r.start[k],
                                             [&](Time v, size_t wi) { return v < w.time[wi]; });
        const bool woken = wakeIt != r.wakes.begin() && w.time[*(wakeIt - 1)] >= prevEnd;
        if (!woken) {
            if (prevEnd < 0) break; // its first run, and no wakeup recorded before it
            // Preempted at prevEnd and queued until this run: it waited for a CPU (no wait where
            // an estimated start overlaps the run before).
            if (path.size() < maxSteps)
                path.push_back({PathStep::Kind::Runnable, t, std::min(prevEnd, r.start[k]), r.start[k],
                                int(r.cpu[k - 1])});
            until = std::min(prevEnd, r.start[k]);
            before = k; // the same task, its run before
            continue;
        }
        const size_t wi = *(wakeIt - 1);
        if (path.size() < maxSteps)
            path.push_back({PathStep::Kind::Runnable, t, w.time[wi], r.start[k], int(w.targetCpu[wi])});
        if (path.size() < maxSteps)
            path.push_back({PathStep::Kind::Asleep, t, prevEnd < 0 ? w.time[wi] : prevEnd, w.time[wi],
                            int(w.wakerCpu[wi]), w.waker[wi]});
        t = w.waker[wi]; // the waker ran at the wakeup: go on with it (an interrupt ends the path)
        until = w.time[wi];
    }
    return path;
}

namespace {
std::string nameOf(const Trace& tr, TaskId t) {
    if (t < 0 || size_t(t) >= tr.tasks.size()) return "an interrupt";
    return tr.tasks[size_t(t)].comm + ":" + std::to_string(tr.tasks[size_t(t)].pid);
}
} // namespace

std::string formatCriticalPath(const Trace& tr, const std::vector<PathStep>& path, Time offset) {
    if (path.empty()) return " (the task had not run by then)\n";
    std::string out;
    char b[256];
    Time sum[3] = {0, 0, 0}; // per kind
    for (const PathStep& s : path) {
        sum[size_t(s.kind)] += s.to - s.from;
        const std::string who = nameOf(tr, s.task);
        std::string what;
        switch (s.kind) {
        case PathStep::Kind::Running:
            what = "ran on CPU " + std::to_string(s.cpu);
            break;
        case PathStep::Kind::Runnable:
            what = "waited for a CPU (runnable)";
            break;
        case PathStep::Kind::Asleep:
            what = "slept until " + nameOf(tr, s.wokenBy) + " woke it on CPU " + std::to_string(s.cpu);
            break;
        }
        std::snprintf(b, sizeof b, "   %.6f - %.6f s  %10.3f us  %-22s ", double(s.from + offset) / 1e9,
                      double(s.to + offset) / 1e9, double(s.to - s.from) / 1e3, who.c_str());
        out += b + what + "\n";
    }
    // A sleep overlaps its waker's steps: only running and waiting add up along the path.
    std::snprintf(b, sizeof b, "   along the path: running %.3f us, waiting for a CPU %.3f us\n",
                  double(sum[0]) / 1e3, double(sum[1]) / 1e3);
    return out + b;
}

} // namespace sched
