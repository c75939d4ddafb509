// SPDX-License-Identifier: GPL-3.0-or-later
#include "latency.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace sched {

namespace {

bool isVoluntaryEnd(uint8_t point) {
    return point == uint8_t(SwitchPoint::Block) || point == uint8_t(SwitchPoint::Exit);
}

// Slice indices grouped per task and per CPU, each in start order.
std::vector<std::vector<uint32_t>> groupBy(const Trace& trace, bool byTask) {
    std::vector<std::vector<uint32_t>> g(byTask ? trace.tasks.size() : size_t(std::max(trace.cpus, 1)));
    const Slices& s = trace.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
        const size_t k = byTask ? size_t(s.task[i]) : size_t(s.cpu[i]);
        if (k >= g.size()) g.resize(k + 1);
        g[k].push_back(i);
    }
    // A simulated trace records a task's slices in order already (one CPU at a time, pushed at
    // switch-out); an imported one may not be. Checking first saves the sort's n log n.
    const auto byStart = [&](uint32_t a, uint32_t b) { return s.start[a] < s.start[b]; };
    for (auto& v : g)
        if (!std::is_sorted(v.begin(), v.end(), byStart)) std::stable_sort(v.begin(), v.end(), byStart);
    return g;
}

// The work-atom walk of latency_switch_event() / latency_wakeup_event() for one task: calls
// atom(runnableAt, switchedIn) for each measured delay and ran(slice) for each slice.
template <class Atom, class Ran>
void walkTask(const Trace& trace, const std::vector<uint32_t>& slices, const std::vector<Time>& wakes, Atom&& atom, Ran&& ran) {
    const Slices& s = trace.slices;
    size_t w = 0;
    // The atom opened by the previous switch-out: SLEEPING until a wakeup, or WAIT_CPU.
    bool haveAtom = false, waiting = false;
    Time wakeTime = 0, outTime = 0;
    for (uint32_t i : slices) {
        if (haveAtom) { // switch-in closes the atom (add_sched_in_event)
            if (!waiting) { // the first wakeup after the switch-out
                while (w < wakes.size() && wakes[w] < outTime) ++w;
                if (w < wakes.size() && wakes[w] <= s.start[i]) {
                    waiting = true;
                    wakeTime = wakes[w];
                }
            }
            if (waiting && s.start[i] >= wakeTime) atom(wakeTime, s.start[i]);
        }
        ran(i);
        // switch-out opens a new atom (add_sched_out_event): 'R' waits for the CPU at once.
        haveAtom = s.endPoint[i] != kStillRunning;
        outTime = s.end[i];
        waiting = haveAtom && !isVoluntaryEnd(s.endPoint[i]);
        wakeTime = outTime;
        while (w < wakes.size() && wakes[w] < outTime) ++w;
    }
}

std::vector<std::vector<Time>> wakeTimes(const Trace& trace) {
    std::vector<std::vector<Time>> wakes(trace.tasks.size());
    for (size_t i = 0; i < trace.wakeups.size(); ++i)
        if (!trace.wakeups.isNew[i]) wakes[size_t(trace.wakeups.wakee[i])].push_back(trace.wakeups.time[i]);
    return wakes;
}

} // namespace

std::vector<DelayAtom> schedDelays(const Trace& trace, TaskId only) {
    const auto perTask = groupBy(trace, true);
    const auto wakes = wakeTimes(trace);
    std::vector<DelayAtom> out;
    for (size_t t = 0; t < trace.tasks.size() && t < perTask.size(); ++t) {
        if (only >= 0 && TaskId(t) != only) continue;
        walkTask(trace, perTask[t], wakes[t], [&](Time a, Time b) { out.push_back({TaskId(t), a, b}); }, [](uint32_t) {});
    }
    return out;
}

std::vector<LatencyRow> perfSchedLatency(const Trace& trace, const LatencyOptions& opts) {
    const Slices& s = trace.slices;
    const auto perTask = groupBy(trace, true);
    const auto wakes = wakeTimes(trace);
    std::vector<LatencyRow> rows;
    for (size_t t = 0; t < trace.tasks.size(); ++t) {
        if (t >= perTask.size() || perTask[t].empty()) continue;
        if (opts.only && (t >= opts.only->size() || !(*opts.only)[t])) continue;
        LatencyRow r;
        r.comm = trace.tasks[t].comm;
        r.pid = trace.tasks[t].pid;
        walkTask(
            trace, perTask[t], wakes[t],
            [&](Time wake, Time in) {
                const Time d = in - wake;
                r.count++;
                r.totalDelay += d;
                if (d > r.maxDelay) {
                    r.maxDelay = d;
                    r.maxStart = wake;
                    r.maxEnd = in;
                }
            },
            [&](uint32_t i) { r.runtime += s.end[i] - s.start[i]; });
        rows.push_back(std::move(r));
    }
    if (opts.mergeByComm) {
        std::map<std::string, LatencyRow> merged;
        for (auto& r : rows) {
            auto [it, fresh] = merged.try_emplace(r.comm, r);
            if (fresh) continue;
            LatencyRow& m = it->second;
            m.merged++;
            m.runtime += r.runtime;
            m.count += r.count;
            m.totalDelay += r.totalDelay;
            if (r.maxDelay > m.maxDelay) {
                m.maxDelay = r.maxDelay;
                m.maxStart = r.maxStart;
                m.maxEnd = r.maxEnd;
            }
        }
        rows.clear();
        for (auto it = merged.rbegin(); it != merged.rend(); ++it) rows.push_back(it->second); // descending comm
    } else {
        std::sort(rows.begin(), rows.end(), [](const LatencyRow& a, const LatencyRow& b) { return a.pid > b.pid; });
    }
    // Keys compared in order, all descending; rows equal on every key keep their order.
    std::stable_sort(rows.begin(), rows.end(), [&](const LatencyRow& a, const LatencyRow& b) {
        for (LatencySortKey k : opts.sort) {
            int64_t x = 0, y = 0;
            switch (k) {
            case LatencySortKey::Avg: x = a.avgDelay(), y = b.avgDelay(); break;
            case LatencySortKey::Max: x = a.maxDelay, y = b.maxDelay; break;
            case LatencySortKey::Switch: x = a.count, y = b.count; break;
            case LatencySortKey::Runtime: x = a.runtime, y = b.runtime; break;
            case LatencySortKey::Sum: x = a.totalDelay, y = b.totalDelay; break;
            }
            if (x != y) return x > y;
        }
        return false;
    });
    return rows;
}

bool parseLatencySort(const std::string& spec, std::vector<LatencySortKey>& out) {
    out.clear();
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t end = spec.find(',', pos);
        if (end == std::string::npos) end = spec.size();
        std::string k = spec.substr(pos, end - pos);
        k.erase(std::remove(k.begin(), k.end(), ' '), k.end());
        if (k == "avg") out.push_back(LatencySortKey::Avg);
        else if (k == "max") out.push_back(LatencySortKey::Max);
        else if (k == "switch") out.push_back(LatencySortKey::Switch);
        else if (k == "runtime") out.push_back(LatencySortKey::Runtime);
        else if (k == "sum") out.push_back(LatencySortKey::Sum);
        else return false;
        pos = end + 1;
    }
    return !out.empty();
}

SwitchCounts countSwitches(const Trace& trace) {
    SwitchCounts c;
    const Slices& s = trace.slices;
    const auto perCpu = groupBy(trace, false);
    for (const auto& v : perCpu) {
        for (size_t k = 0; k < v.size(); ++k) {
            const uint32_t i = v[k];
            ++c.total; // the switch into this slice (from a task or from idle)
            if (s.endPoint[i] == kStillRunning) continue;
            if (isVoluntaryEnd(s.endPoint[i])) c.voluntary++;
            else c.involuntary++;
            // A switch to idle: nothing starts on this CPU when this slice ends.
            if (k + 1 == v.size() || s.start[v[k + 1]] != s.end[i]) ++c.total;
        }
    }
    c.migrations = int64_t(trace.migrations.size());
    return c;
}

SwitchCounts countSwitchesOf(const Trace& trace, const std::vector<char>& tasks) {
    SwitchCounts c;
    const Slices& s = trace.slices;
    for (size_t i = 0; i < s.size(); ++i) {
        const size_t t = size_t(s.task[i]);
        // The last switch-out of an exiting task is not in any rusage: release_task() adds a
        // thread's counters into its process before do_task_dead() switches away for good.
        if (t >= tasks.size() || !tasks[t] || s.endPoint[i] == kStillRunning || s.endPoint[i] == uint8_t(SwitchPoint::Exit)) continue;
        if (isVoluntaryEnd(s.endPoint[i])) c.voluntary++;
        else c.involuntary++;
    }
    c.total = c.voluntary + c.involuntary;
    for (size_t i = 0; i < trace.migrations.size(); ++i) {
        const size_t t = size_t(trace.migrations.task[i]);
        if (t < tasks.size() && tasks[t]) c.migrations++;
    }
    return c;
}

std::vector<char> descendantsOf(const Trace& trace, int32_t rootPid) {
    std::vector<char> in(trace.tasks.size(), 0);
    std::map<int32_t, std::vector<size_t>> children;
    for (size_t t = 0; t < trace.tasks.size(); ++t) children[trace.tasks[t].ppid].push_back(t);
    std::vector<int32_t> todo{rootPid};
    for (size_t t = 0; t < trace.tasks.size(); ++t)
        if (trace.tasks[t].pid == rootPid) in[t] = 1;
    while (!todo.empty()) {
        const int32_t pid = todo.back();
        todo.pop_back();
        auto it = children.find(pid);
        if (it == children.end()) continue;
        for (size_t t : it->second)
            if (!in[t] && trace.tasks[t].pid != pid) {
                in[t] = 1;
                todo.push_back(trace.tasks[t].pid);
            }
    }
    return in;
}

std::vector<CpuUsage> cpuUsage(const Trace& trace) {
    std::vector<CpuUsage> u(size_t(std::max(trace.cpus, 1)));
    const Slices& s = trace.slices;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s.cpu[i] >= u.size()) u.resize(size_t(s.cpu[i]) + 1);
        u[s.cpu[i]].busy += s.end[i] - s.start[i];
        u[s.cpu[i]].switches++;
    }
    return u;
}

} // namespace sched
