// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/latency.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>

namespace sched {

namespace {

// Sums of an imported trace's times saturate instead of wrapping: a trace's slices may overlap
// (timestamps that went backwards are kept) and perf sched latency's merged rows add up many
// tasks, so a garbled trace could otherwise overflow 2^63 ns into a negative runtime.
Time addSaturated(Time a, Time b) {
    Time sum;
    return __builtin_add_overflow(a, b, &sum) ? (b > 0 ? INT64_MAX : INT64_MIN) : sum;
}

bool isVoluntaryEnd(uint8_t point) {
    return isBlockingPoint(point);
}

// Values grouped by a key, each group contiguous: group k is items[first[k], first[k + 1]). Two
// passes over the trace and one buffer on huge pages: a vector per group grown one push_back at a
// time (as before) made 7,000 of the seed-size messaging run's 19,000 page faults, with the
// copies of every growth.
template <class V> struct Groups {
    std::vector<uint32_t> first;
    TraceColumn<V> items; // a trace's size: on huge pages (trace/column.h), not 4 KiB faults
    size_t size() const { return first.size() - 1; }
    std::span<const V> operator[](size_t k) const {
        return {items.data() + first[k], items.data() + first[k + 1]};
    }
};

// keyOf(i) of each of the n items, or -1 for none; value(i) what the group holds for it.
template <class V, class Key, class Value>
Groups<V> group(size_t groups, size_t n, Key&& keyOf, Value&& value) {
    Groups<V> g;
    g.first.assign(groups + 2, 0);
    for (size_t i = 0; i < n; ++i)
        if (const int64_t k = keyOf(i); k >= 0) {
            if (size_t(k) + 2 >= g.first.size()) g.first.resize(size_t(k) + 3, 0);
            g.first[size_t(k) + 2]++;
        }
    for (size_t k = 2; k < g.first.size(); ++k)
        g.first[k] += g.first[k - 1];
    g.items.resize(g.first.back());
    for (size_t i = 0; i < n; ++i) // first[k + 1] is where group k's next item goes
        if (const int64_t k = keyOf(i); k >= 0) g.items[g.first[size_t(k) + 1]++] = value(i);
    g.first.pop_back();
    return g;
}

// Slice indices grouped per task and per CPU, each in start order.
Groups<uint32_t> groupBy(const Trace& trace, bool byTask) {
    const Slices& s = trace.slices;
    Groups<uint32_t> g = group<uint32_t>(
        byTask ? trace.tasks.size() : size_t(std::max(trace.cpus, 1)), s.size(),
        [&](size_t i) { return byTask ? int64_t(s.task[i]) : int64_t(s.cpu[i]); },
        [](size_t i) { return uint32_t(i); });
    // A simulated trace records a task's slices in order already (one CPU at a time, pushed at
    // switch-out); an imported one may not be. Checking first saves the sort's n log n.
    const auto byStart = [&](uint32_t a, uint32_t b) { return s.start[a] < s.start[b]; };
    for (size_t k = 0; k < g.size(); ++k) {
        uint32_t* const b = g.items.data() + g.first[k];
        uint32_t* const e = g.items.data() + g.first[k + 1];
        if (!std::is_sorted(b, e, byStart)) std::stable_sort(b, e, byStart);
    }
    return g;
}

// The work-atom walk of latency_switch_event() / latency_wakeup_event() for one task: calls
// atom(runnableAt, switchedIn) for each measured delay and ran(slice) for each slice.
template <class Atom, class Ran>
void walkTask(const Trace& trace, std::span<const uint32_t> slices, std::span<const Time> wakes, Atom&& atom,
              Ran&& ran) {
    const Slices& s = trace.slices;
    size_t w = 0;
    // The atom opened by the previous switch-out: SLEEPING until a wakeup, or WAIT_CPU.
    bool haveAtom = false, waiting = false;
    Time wakeTime = 0, outTime = 0;
    for (uint32_t i : slices) {
        if (haveAtom) {     // switch-in closes the atom (add_sched_in_event)
            if (!waiting) { // the first wakeup after the switch-out
                while (w < wakes.size() && wakes[w] < outTime)
                    ++w;
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
        while (w < wakes.size() && wakes[w] < outTime)
            ++w;
    }
}

// Each task's wake-up times (sched_wakeup; a new task's sched_wakeup_new opens no atom), in order.
Groups<Time> wakeTimes(const Trace& trace) {
    const Wakeups& w = trace.wakeups;
    return group<Time>(
        trace.tasks.size(), w.size(),
        [&](size_t i) { return w.isNew[i] ? int64_t(-1) : int64_t(w.wakee[i]); },
        [&](size_t i) { return w.time[i]; });
}

} // namespace

std::vector<DelayAtom> schedDelays(const Trace& trace, TaskId only) {
    const auto perTask = groupBy(trace, true);
    const auto wakes = wakeTimes(trace);
    std::vector<DelayAtom> out;
    for (size_t t = 0; t < trace.tasks.size() && t < perTask.size(); ++t) {
        if (only >= 0 && TaskId(t) != only) continue;
        walkTask(
            trace, perTask[t], wakes[t],
            [&](Time a, Time b) {
                out.push_back({TaskId(t), a, b});
            },
            [](uint32_t) {});
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
                r.totalDelay = addSaturated(r.totalDelay, d);
                if (d > r.maxDelay) {
                    r.maxDelay = d;
                    r.maxStart = wake;
                    r.maxEnd = in;
                }
            },
            [&](uint32_t i) { r.runtime = addSaturated(r.runtime, s.end[i] - s.start[i]); });
        rows.push_back(std::move(r));
    }
    return latencyTable(std::move(rows), opts);
}

std::vector<LatencyRow> latencyTable(std::vector<LatencyRow> rows, const LatencyOptions& opts) {
    if (opts.mergeByComm) {
        std::map<std::string, LatencyRow> merged;
        for (auto& r : rows) {
            auto [it, fresh] = merged.try_emplace(r.comm, r);
            if (fresh) continue;
            LatencyRow& m = it->second;
            m.merged++;
            m.runtime = addSaturated(m.runtime, r.runtime);
            m.count += r.count;
            m.totalDelay = addSaturated(m.totalDelay, r.totalDelay);
            if (r.maxDelay > m.maxDelay) {
                m.maxDelay = r.maxDelay;
                m.maxStart = r.maxStart;
                m.maxEnd = r.maxEnd;
            }
        }
        rows.clear();
        for (auto it = merged.rbegin(); it != merged.rend(); ++it)
            rows.push_back(it->second); // descending comm
    } else {
        std::sort(rows.begin(), rows.end(),
                  [](const LatencyRow& a, const LatencyRow& b) { return a.pid > b.pid; });
    }
    // Keys compared in order, all descending; rows equal on every key keep their order.
    std::stable_sort(rows.begin(), rows.end(), [&](const LatencyRow& a, const LatencyRow& b) {
        for (LatencySortKey k : opts.sort) {
            int64_t x = 0, y = 0;
            switch (k) {
            case LatencySortKey::Avg:
                x = a.avgDelay(), y = b.avgDelay();
                break;
            case LatencySortKey::Max:
                x = a.maxDelay, y = b.maxDelay;
                break;
            case LatencySortKey::Switch:
                x = a.count, y = b.count;
                break;
            case LatencySortKey::Runtime:
                x = a.runtime, y = b.runtime;
                break;
            case LatencySortKey::Sum:
                x = a.totalDelay, y = b.totalDelay;
                break;
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
        if (k == "avg")
            out.push_back(LatencySortKey::Avg);
        else if (k == "max")
            out.push_back(LatencySortKey::Max);
        else if (k == "switch")
            out.push_back(LatencySortKey::Switch);
        else if (k == "runtime")
            out.push_back(LatencySortKey::Runtime);
        else if (k == "sum")
            out.push_back(LatencySortKey::Sum);
        else
            return false;
        pos = end + 1;
    }
    return !out.empty();
}

namespace {
// The switches to idle: per CPU, the end of a slice (not still running) when the CPU's next slice
// does not start right then, or has none. A simulated trace holds each CPU's slices in start order
// (pushed at switch-out, one at a time), so one pass with each CPU's previous slice does; an
// imported trace out of that order is grouped and sorted first (groupBy()).
int64_t switchesToIdle(const Trace& trace) {
    constexpr size_t kNone = SIZE_MAX;
    const Slices& s = trace.slices;
    const auto idleAfter = [&](size_t i, size_t next) {
        return s.endPoint[i] != kStillRunning && (next == kNone || s.start[next] != s.end[i]);
    };
    int64_t n = 0;
    std::vector<size_t> prev(size_t(std::max(trace.cpus, 1)), kNone);
    bool ordered = true;
    for (size_t i = 0; i < s.size() && ordered; ++i) {
        const size_t cpu = s.cpu[i];
        if (cpu >= prev.size()) prev.resize(cpu + 1, kNone);
        if (const size_t p = prev[cpu]; p != kNone) {
            ordered = s.start[i] >= s.start[p];
            n += idleAfter(p, i);
        }
        prev[cpu] = i;
    }
    if (ordered) {
        for (const size_t p : prev)
            if (p != kNone) n += idleAfter(p, kNone);
        return n;
    }
    n = 0;
    const auto perCpu = groupBy(trace, false);
    for (size_t cpu = 0; cpu < perCpu.size(); ++cpu) {
        const std::span<const uint32_t> v = perCpu[cpu];
        for (size_t k = 0; k < v.size(); ++k)
            n += idleAfter(v[k], k + 1 < v.size() ? v[k + 1] : kNone);
    }
    return n;
}
} // namespace

SwitchCounts countSwitches(const Trace& trace) {
    SwitchCounts c;
    const Slices& s = trace.slices;
    for (size_t i = 0; i < s.size(); ++i) {
        ++c.total; // the switch into this slice (from a task or from idle)
        if (s.endPoint[i] == kStillRunning) continue;
        if (isVoluntaryEnd(s.endPoint[i]))
            c.voluntary++;
        else
            c.involuntary++;
    }
    c.total += switchesToIdle(trace);
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
        if (t >= tasks.size() || !tasks[t] || s.endPoint[i] == kStillRunning ||
            s.endPoint[i] == uint8_t(SwitchPoint::Exit))
            continue;
        if (isVoluntaryEnd(s.endPoint[i]))
            c.voluntary++;
        else
            c.involuntary++;
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
    for (size_t t = 0; t < trace.tasks.size(); ++t)
        children[trace.tasks[t].ppid].push_back(t);
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
