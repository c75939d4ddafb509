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
        const size_t at = r.slice.empty() || s.start[i] >= start(r, r.slice.size() - 1)
                              ? r.slice.size()
                              : firstRunAfter(r, s.start[i]);
        r.slice.insert(r.slice.begin() + std::ptrdiff_t(at), uint32_t(i));
    }
    const Wakeups& w = trace.wakeups;
    for (; wakesSeen_ < w.size(); ++wakesSeen_)
        if (w.wakee[wakesSeen_] >= 0) runs(w.wakee[wakesSeen_]).wakes.push_back(uint32_t(wakesSeen_));
}

size_t WakeupChains::firstRunFrom(const Runs& r, Time t) const {
    const auto& st = trace_->slices.start;
    return size_t(
        std::lower_bound(r.slice.begin(), r.slice.end(), t, [&](uint32_t i, Time v) { return st[i] < v; }) -
        r.slice.begin());
}

size_t WakeupChains::firstRunAfter(const Runs& r, Time t) const {
    const auto& st = trace_->slices.start;
    return size_t(
        std::upper_bound(r.slice.begin(), r.slice.end(), t, [&](Time v, uint32_t i) { return v < st[i]; }) -
        r.slice.begin());
}

std::optional<WakeupLink> WakeupChains::link(size_t i) const {
    if (!trace_ || i >= wakesSeen_) return std::nullopt;
    const Wakeups& w = trace_->wakeups;
    const TaskId p = w.wakee[i];
    if (p < 0 || size_t(p) >= tasks_.size()) return std::nullopt;
    const Runs& r = tasks_[size_t(p)];
    const size_t k = firstRunFrom(r, w.time[i]);
    if (k == r.slice.size()) return std::nullopt;
    return WakeupLink{w.time[i], w.waker[i], int(w.wakerCpu[i]), p, start(r, k), cpu(r, k)};
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
        const size_t next = before != SIZE_MAX ? before : firstRunAfter(r, until);
        before = SIZE_MAX;
        if (next == 0) break;
        const size_t k = next - 1;
        const Time runStart = start(r, k);
        path.push_back({PathStep::Kind::Running, t, runStart, std::min(end(r, k), until), cpu(r, k)});
        const Time prevEnd = k > 0 ? end(r, k - 1) : -1;
        // The last wakeup between the previous run's end and this run's start.
        const auto wakeIt = std::upper_bound(r.wakes.begin(), r.wakes.end(), runStart,
                                             [&](Time v, uint32_t wi) { return v < w.time[wi]; });
        const bool woken = wakeIt != r.wakes.begin() && w.time[*(wakeIt - 1)] >= prevEnd;
        if (!woken) {
            if (prevEnd < 0) break; // its first run, and no wakeup recorded before it
            // Preempted at prevEnd and queued until this run: it waited for a CPU (no wait where
            // an estimated start overlaps the run before).
            if (path.size() < maxSteps)
                path.push_back(
                    {PathStep::Kind::Runnable, t, std::min(prevEnd, runStart), runStart, cpu(r, k - 1)});
            until = std::min(prevEnd, runStart);
            before = k; // the same task, its run before
            continue;
        }
        const size_t wi = *(wakeIt - 1);
        if (path.size() < maxSteps)
            path.push_back({PathStep::Kind::Runnable, t, w.time[wi], runStart, int(w.targetCpu[wi])});
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
