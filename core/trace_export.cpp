// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_export.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace sched {

namespace {

enum class Kind : uint8_t { Fork, WakeupNew, Waking, Migrate, Wakeup, Exit, Switch, Mark };

struct Line {
    Time time;
    uint64_t order; // ties at one time: in the order the kernel emits them
    Kind kind;
    uint16_t cpu;
    int32_t a = -1, b = -1; // kind-specific: wakeup / migration / marker index; switch: prev, next task (-1 = idle)
    uint8_t point = 0;       // switch: how prev left
};

// prev_state of a switch as __trace_sched_switch_state() prints it.
const char* stateLetter(uint8_t point, const TraceTask& t) {
    switch (SwitchPoint(point)) {
    case SwitchPoint::Block: return "S";
    case SwitchPoint::Exit: return t.pid == t.tgid ? "Z" : "X"; // a process leader stays a zombie until reaped
    case SwitchPoint::IrqReturn:
    case SwitchPoint::PreemptEnable:
    case SwitchPoint::CondResched:
    case SwitchPoint::MightResched: return "R+"; // SM_PREEMPT
    default: return "R";
    }
}

} // namespace

int64_t writeFtraceText(const Trace& trace, const std::function<void(std::string_view)>& sink, const FtraceExportOptions& opts) {
    const Time to = opts.to < 0 ? std::numeric_limits<Time>::max() : opts.to;
    std::vector<Line> lines;
    uint64_t seq = 0;
    const auto in = [&](Time t) { return t >= opts.from && t <= to; };
    // Switches: per CPU, between consecutive slices (a gap is a stretch of idle).
    const Slices& s = trace.slices;
    std::vector<std::vector<uint32_t>> perCpu(size_t(std::max(1, trace.cpus)));
    for (uint32_t i = 0; i < s.size(); ++i) {
        if (s.cpu[i] >= perCpu.size()) perCpu.resize(s.cpu[i] + 1u);
        perCpu[s.cpu[i]].push_back(i);
    }
    for (size_t c = 0; c < perCpu.size(); ++c) {
        auto& v = perCpu[c];
        std::stable_sort(v.begin(), v.end(), [&](uint32_t x, uint32_t y) { return s.start[x] < s.start[y]; });
        int32_t prev = -1; // the task (by TaskId) running before, -1 idle
        Time prevEnd = 0;
        uint8_t prevPoint = 0;
        for (uint32_t i : v) {
            if (prev >= 0 && prevEnd < s.start[i]) { // the previous one left for idle
                if (in(prevEnd)) lines.push_back({prevEnd, seq++, Kind::Switch, uint16_t(c), prev, -1, prevPoint});
                prev = -1;
            }
            if (in(s.start[i])) lines.push_back({s.start[i], seq++, Kind::Switch, uint16_t(c), prev, int32_t(s.task[i]), prevPoint});
            prev = int32_t(s.task[i]);
            prevEnd = s.end[i];
            prevPoint = s.endPoint[i];
        }
        if (prev >= 0 && prevPoint != kStillRunning && in(prevEnd)) lines.push_back({prevEnd, seq++, Kind::Switch, uint16_t(c), prev, -1, prevPoint});
    }
    // Exits: sched_process_exit just before the final switch.
    for (const Line& l : std::vector<Line>(lines))
        if (l.kind == Kind::Switch && l.a >= 0 && l.point == uint8_t(SwitchPoint::Exit))
            lines.push_back({l.time, l.order, Kind::Exit, l.cpu, l.a});
    // Wakeups: waking, the migration that try_to_wake_up() does, wakeup; forks before their wakeup_new.
    std::map<std::pair<TaskId, Time>, size_t> wakeMigrations;
    const Migrations& m = trace.migrations;
    const Wakeups& w = trace.wakeups;
    for (size_t i = 0; i < w.size(); ++i)
        if (!w.isNew[i]) wakeMigrations[{w.wakee[i], w.time[i]}] = SIZE_MAX;
    for (size_t i = 0; i < m.size(); ++i) {
        auto it = wakeMigrations.find({m.task[i], m.time[i]});
        if (it != wakeMigrations.end() && it->second == SIZE_MAX) it->second = i;
        else if (in(m.time[i])) lines.push_back({m.time[i], seq++, Kind::Migrate, m.to[i], int32_t(i)}); // load balancing: on the pulling CPU
    }
    for (size_t i = 0; i < w.size(); ++i) {
        if (!in(w.time[i])) continue;
        if (w.isNew[i]) {
            const TraceTask& child = trace.tasks[size_t(w.wakee[i])];
            if (child.ppid > 0) lines.push_back({w.time[i], seq++, Kind::Fork, w.wakerCpu[i], int32_t(i)});
            lines.push_back({w.time[i], seq++, Kind::WakeupNew, w.wakerCpu[i], int32_t(i)});
            continue;
        }
        const size_t mig = wakeMigrations[{w.wakee[i], w.time[i]}];
        lines.push_back({w.time[i], seq++, Kind::Waking, w.wakerCpu[i], int32_t(i), mig != SIZE_MAX ? int32_t(m.from[mig]) : -1});
        if (mig != SIZE_MAX) lines.push_back({w.time[i], seq++, Kind::Migrate, w.wakerCpu[i], int32_t(mig)});
        lines.push_back({w.time[i], seq++, Kind::Wakeup, w.wakerCpu[i], int32_t(i)});
    }
    for (size_t i = 0; i < trace.markers.size(); ++i)
        if (in(trace.markers[i].time)) lines.push_back({trace.markers[i].time, seq++, Kind::Mark, 0, int32_t(i)});
    // One time line: at equal times wakeups come before the switch they lead to, an exit's
    // line before its switch.
    std::stable_sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) {
        if (x.time != y.time) return x.time < y.time;
        const int rx = x.kind == Kind::Switch ? 2 : x.kind == Kind::Exit ? 1 : x.kind == Kind::Mark ? 3 : 0;
        const int ry = y.kind == Kind::Switch ? 2 : y.kind == Kind::Exit ? 1 : y.kind == Kind::Mark ? 3 : 0;
        if (rx != ry) return rx < ry;
        return x.order < y.order;
    });

    // Need-resched state per CPU over time: transitions sorted by time.
    struct Flip {
        Time t;
        int8_t bit, delta;
    };
    std::vector<std::vector<Flip>> flips(perCpu.size());
    const FlagIntervals& f = trace.flags;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f.cpu[i] >= flips.size()) flips.resize(f.cpu[i] + 1u);
        flips[f.cpu[i]].push_back({f.set[i], int8_t(f.bit[i]), +1});
        flips[f.cpu[i]].push_back({f.clear[i], int8_t(f.bit[i]), -1});
    }
    for (auto& v : flips) std::stable_sort(v.begin(), v.end(), [](const Flip& x, const Flip& y) { return x.t < y.t; });
    std::vector<size_t> cursor(flips.size(), 0);
    std::vector<std::array<int, 2>> bits(flips.size(), {0, 0});
    const auto needResched = [&](uint16_t c, Time t) {
        if (c >= flips.size()) return '.';
        while (cursor[c] < flips[c].size() && flips[c][cursor[c]].t <= t) {
            const Flip& fl = flips[c][cursor[c]++];
            bits[c][size_t(fl.bit)] += fl.delta;
        }
        const bool eager = bits[c][size_t(ReschedBit::Eager)] > 0, lazy = bits[c][size_t(ReschedBit::Lazy)] > 0;
        return eager && lazy ? 'B' : eager ? 'N' : lazy ? 'l' : '.';
    };

    std::vector<int32_t> current(perCpu.size(), -1); // TaskId running per CPU as the lines go
    std::string out;
    out.reserve(1 << 20);
    char b[1024];
    std::snprintf(b, sizeof b,
                  "# tracer: nop\n#\n# entries-in-buffer/entries-written: %zu/%zu   #P:%d\n#\n"
                  "#                                _-----=> irqs-off/BH-disabled\n"
                  "#                               / _----=> need-resched\n"
                  "#                              | / _---=> hardirq/softirq\n"
                  "#                              || / _--=> preempt-depth\n"
                  "#                              ||| / _-=> migrate-disable\n"
                  "#                              |||| /     delay\n"
                  "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                  "#              | |         |   |||||     |         |\n",
                  lines.size(), lines.size(), trace.cpus);
    out += b;
    const auto task = [&](int32_t id) -> const TraceTask& { return trace.tasks[size_t(id)]; };
    const auto prefix = [&](uint16_t c, Time t, const char* flags) {
        const int32_t cur = c < current.size() ? current[c] : -1;
        const std::string comm = cur >= 0 ? task(cur).comm : "<idle>";
        const Time ts = t + opts.offset;
        std::snprintf(b, sizeof b, "%16s-%-7d [%03u] %s %5lld.%06lld: ", comm.c_str(), cur >= 0 ? task(cur).pid : 0, unsigned(c), flags,
                      (long long)(ts / kNsPerSec), (long long)(ts % kNsPerSec / kNsPerUs));
        out += b;
    };
    const auto flagsFor = [&](uint16_t c, Time t, char depth) {
        static char fl[6];
        fl[0] = 'd', fl[1] = needResched(c, t), fl[2] = '.', fl[3] = depth, fl[4] = '.', fl[5] = 0;
        return fl;
    };
    const auto wakeText = [&](const char* event, size_t i, int target) {
        const TraceTask& t = task(w.wakee[i]);
        std::snprintf(b, sizeof b, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n", event, t.comm.c_str(), t.pid, t.prio, target);
        out += b;
    };
    for (const Line& l : lines) {
        switch (l.kind) {
        case Kind::Switch: {
            if (l.cpu < current.size()) current[l.cpu] = l.a; // the prefix shows prev
            prefix(l.cpu, l.time, "d..2."); // __schedule() has cleared need-resched before the tracepoint
            const std::string idle = "swapper/" + std::to_string(l.cpu);
            const TraceTask* p = l.a >= 0 ? &task(l.a) : nullptr;
            const TraceTask* n = l.b >= 0 ? &task(l.b) : nullptr;
            std::snprintf(b, sizeof b, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
                          p ? p->comm.c_str() : idle.c_str(), p ? p->pid : 0, p ? p->prio : 120, p ? stateLetter(l.point, *p) : "R",
                          n ? n->comm.c_str() : idle.c_str(), n ? n->pid : 0, n ? n->prio : 120);
            out += b;
            if (l.cpu < current.size()) current[l.cpu] = l.b;
            break;
        }
        case Kind::Waking:
            prefix(l.cpu, l.time, flagsFor(l.cpu, l.time, '3'));
            // target_cpu of sched_waking: the task's CPU before select_task_rq() (kernel §8).
            wakeText("sched_waking", size_t(l.a), l.b >= 0 ? l.b : w.targetCpu[size_t(l.a)]);
            break;
        case Kind::Wakeup:
            prefix(l.cpu, l.time, flagsFor(l.cpu, l.time, '4'));
            wakeText("sched_wakeup", size_t(l.a), w.targetCpu[size_t(l.a)]);
            break;
        case Kind::WakeupNew:
            prefix(l.cpu, l.time, flagsFor(l.cpu, l.time, '2'));
            wakeText("sched_wakeup_new", size_t(l.a), w.targetCpu[size_t(l.a)]);
            break;
        case Kind::Fork: {
            const TraceTask& child = task(w.wakee[size_t(l.a)]);
            prefix(l.cpu, l.time, ".....");
            const int32_t cur = l.cpu < current.size() ? current[l.cpu] : -1;
            const TraceTask* parent = cur >= 0 ? &task(cur) : nullptr;
            std::snprintf(b, sizeof b, "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d\n", parent ? parent->comm.c_str() : "",
                          child.ppid, child.comm.c_str(), child.pid);
            out += b;
            break;
        }
        case Kind::Migrate: {
            const TraceTask& t = task(m.task[size_t(l.a)]);
            prefix(l.cpu, l.time, flagsFor(l.cpu, l.time, '3'));
            std::snprintf(b, sizeof b, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\n", t.comm.c_str(), t.pid, t.prio,
                          int(m.from[size_t(l.a)]), int(m.to[size_t(l.a)]));
            out += b;
            break;
        }
        case Kind::Exit: {
            const TraceTask& t = task(l.a);
            prefix(l.cpu, l.time, ".....");
            std::snprintf(b, sizeof b, "sched_process_exit: comm=%s pid=%d prio=%d group_dead=%s\n", t.comm.c_str(), t.pid, t.prio,
                          t.pid == t.tgid ? "true" : "false");
            out += b;
            break;
        }
        case Kind::Mark:
            prefix(l.cpu, l.time, "...1.");
            out += "tracing_mark_write: " + trace.markers[size_t(l.a)].text + "\n";
            break;
        }
        if (out.size() > (1 << 20) - 1024) {
            sink(out);
            out.clear();
        }
    }
    sink(out);
    return int64_t(lines.size());
}

} // namespace sched
