// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/ftrace_events.h"

#include <algorithm>
#include <limits>
#include <map>

namespace sched {

using Kind = FtraceEvent::Kind;

FtraceEvents::FtraceEvents(const Trace& trace, const FtraceExportOptions& opts) : trace_(trace) {
    const Time to = opts.to < 0 ? std::numeric_limits<Time>::max() : opts.to;
    std::vector<FtraceEvent>& lines = events_;
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
                if (in(prevEnd))
                    lines.push_back({prevEnd, seq++, Kind::Switch, uint16_t(c), prev, -1, prevPoint});
                prev = -1;
            }
            if (in(s.start[i]))
                lines.push_back(
                    {s.start[i], seq++, Kind::Switch, uint16_t(c), prev, int32_t(s.task[i]), prevPoint});
            prev = int32_t(s.task[i]);
            prevEnd = s.end[i];
            prevPoint = s.endPoint[i];
        }
        if (prev >= 0 && prevPoint != kStillRunning && in(prevEnd))
            lines.push_back({prevEnd, seq++, Kind::Switch, uint16_t(c), prev, -1, prevPoint});
    }
    // Exits: sched_process_exit just before the final switch.
    const size_t switches = lines.size();
    for (size_t i = 0; i < switches; ++i) {
        const FtraceEvent l = lines[i];
        if (l.a >= 0 && l.point == uint8_t(SwitchPoint::Exit))
            lines.push_back({l.time, l.order, Kind::Exit, l.cpu, l.a});
    }
    // Wakeups: waking, the migration that try_to_wake_up() does, wakeup; forks before their wakeup_new.
    std::map<std::pair<TaskId, Time>, size_t> wakeMigrations;
    const Migrations& m = trace.migrations;
    const Wakeups& w = trace.wakeups;
    for (size_t i = 0; i < w.size(); ++i)
        if (!w.isNew[i]) wakeMigrations[{w.wakee[i], w.time[i]}] = SIZE_MAX;
    for (size_t i = 0; i < m.size(); ++i) {
        auto it = wakeMigrations.find({m.task[i], m.time[i]});
        if (it != wakeMigrations.end() && it->second == SIZE_MAX)
            it->second = i;
        else if (in(m.time[i]))
            lines.push_back(
                {m.time[i], seq++, Kind::Migrate, m.on[i], int32_t(i)}); // on the CPU that moved it
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
        lines.push_back({w.time[i], seq++, Kind::Waking, w.wakerCpu[i], int32_t(i),
                         mig != SIZE_MAX ? int32_t(m.from[mig]) : -1});
        if (mig != SIZE_MAX)
            lines.push_back({w.time[i], seq++, Kind::Migrate, w.wakerCpu[i], int32_t(mig), int32_t(i)});
        lines.push_back({w.time[i], seq++, Kind::Wakeup, w.wakerCpu[i], int32_t(i)});
    }
    for (size_t i = 0; i < trace.markers.size(); ++i)
        if (in(trace.markers[i].time))
            lines.push_back({trace.markers[i].time, seq++, Kind::Mark, 0, int32_t(i)});
    // One time line: at equal times wakeups come before the switch they lead to, an exit's
    // record before its switch.
    const auto rank = [](Kind k) {
        return k == Kind::Switch ? 2 : k == Kind::Exit ? 1 : k == Kind::Mark ? 3 : 0;
    };
    std::stable_sort(lines.begin(), lines.end(), [&](const FtraceEvent& x, const FtraceEvent& y) {
        if (x.time != y.time) return x.time < y.time;
        if (rank(x.kind) != rank(y.kind)) return rank(x.kind) < rank(y.kind);
        return x.order < y.order;
    });
    for (const FtraceEvent& e : lines)
        perCpuCount_ = std::max(perCpuCount_, size_t(e.cpu) + 1);
    perCpuCount_ = std::max(perCpuCount_, perCpu.size());

    // Need-resched state per CPU over time: transitions sorted by time.
    flips_.resize(perCpuCount_);
    const FlagIntervals& f = trace.flags;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f.cpu[i] >= flips_.size()) flips_.resize(f.cpu[i] + 1u);
        flips_[f.cpu[i]].push_back({f.set[i], int8_t(f.bit[i]), +1});
        flips_[f.cpu[i]].push_back({f.clear[i], int8_t(f.bit[i]), -1});
    }
    for (auto& v : flips_)
        std::stable_sort(v.begin(), v.end(), [](const Flip& x, const Flip& y) { return x.t < y.t; });
    cursor_.assign(flips_.size(), 0);
    bits_.assign(flips_.size(), {0, 0});
}

// The bits after every change up to t; with setsOnlyAtT, the changes at t itself count only if
// they set a bit: a wakeup's own resched_curr() is visible on its line, while the switch that
// clears the bit at the same nanosecond (the IRQ exit right after) comes later in the file.
void FtraceEvents::needReschedAt(uint16_t c, Time t, FtraceContext& ctx, bool setsOnlyAtT) {
    if (c >= flips_.size()) return;
    const std::vector<Flip>& v = flips_[c];
    while (cursor_[c] < v.size() && (v[cursor_[c]].t < t || (!setsOnlyAtT && v[cursor_[c]].t == t))) {
        const Flip& fl = v[cursor_[c]++];
        bits_[c][size_t(fl.bit)] += fl.delta;
    }
    std::array<int, 2> bits = bits_[c];
    if (setsOnlyAtT)
        for (size_t k = cursor_[c]; k < v.size() && v[k].t == t; ++k)
            if (v[k].delta > 0) bits[size_t(v[k].bit)]++;
    ctx.needResched = bits[size_t(ReschedBit::Eager)] > 0;
    ctx.needReschedLazy = bits[size_t(ReschedBit::Lazy)] > 0;
}

// The context of each record, as the kernel path that emits it has it.
FtraceContext FtraceEvents::contextOf(const FtraceEvent& e, const std::vector<int32_t>& current) {
    FtraceContext ctx;
    ctx.task = e.cpu < current.size() ? current[e.cpu] : -1;
    switch (e.kind) {
    case Kind::Switch: // __schedule(): rq lock held, irqs off, need-resched already cleared
        ctx.irqsOff = true;
        ctx.preemptDepth = 2;
        break;
    case Kind::Migrate:
        if (const MigrationPath how = trace_.migrations.path[size_t(e.a)];
            how != MigrationPath::Wakeup && how != MigrationPath::Unknown) {
            // The real traces: a newly idle balance inside __schedule() "d..2." in the context of
            // the task going to sleep; a balance in SCHED_SOFTIRQ "d.s1." on a busy CPU, "d.s2." on
            // an idle one (whose idle task runs with preemption off), the rq lock held.
            ctx.irqsOff = true;
            ctx.softirq = how == MigrationPath::Balance || how == MigrationPath::NohzBalance;
            ctx.preemptDepth = ctx.softirq ? uint8_t(ctx.task < 0 ? 2 : 1) : 2;
            needReschedAt(e.cpu, e.time - 1, ctx);
            break;
        }
        [[fallthrough]];
    case Kind::Waking:   // try_to_wake_up() under p->pi_lock
    case Kind::Wakeup: { // ttwu_do_activate() under the rq lock as well
        ctx.irqsOff = true;
        // A wakeup from hrtimer_interrupt() runs in hardirq context, where the task-context
        // preempt_disable() of a syscall is absent: one level less (the real traces show d.h2.
        // for such a sched_waking, d.h3. for its sched_wakeup).
        const int32_t wake = e.kind == Kind::Migrate ? e.b : e.a;
        ctx.hardirq = wake >= 0 && trace_.wakeups.waker[size_t(wake)] == kNoTask;
        ctx.preemptDepth = uint8_t((e.kind == Kind::Wakeup ? 4 : 3) - (ctx.hardirq ? 1 : 0));
        // sched_waking and the migration come before wakeup_preempt(): a bit that the wakeup
        // itself sets at this instant is not there yet; sched_wakeup comes after it.
        if (e.kind == Kind::Wakeup)
            needReschedAt(e.cpu, e.time, ctx, true);
        else
            needReschedAt(e.cpu, e.time - 1, ctx);
        break;
    }
    case Kind::WakeupNew: // wake_up_new_task()
        ctx.irqsOff = true;
        ctx.preemptDepth = 2;
        needReschedAt(e.cpu, e.time, ctx, true);
        break;
    case Kind::Fork:
    case Kind::Exit:
        break; // process context, preemptible
    case Kind::Mark:
        ctx.preemptDepth = 1;
        break; // tracing_mark_write() reserves with preemption off
    }
    return ctx;
}

int64_t FtraceEvents::prevStateBits(uint8_t point, const TraceTask& t) {
    switch (SwitchPoint(point)) {
    case SwitchPoint::Block:
        return 0x1; // TASK_INTERRUPTIBLE
    case SwitchPoint::BlockUninterruptible:
        return 0x2; // TASK_UNINTERRUPTIBLE
    case SwitchPoint::BlockIdle:
        return 0x80; // TASK_REPORT_IDLE: TASK_IDLE reported as its own state (__task_state_index())
    case SwitchPoint::Exit:
        return t.pid == t.tgid ? 0x20 : 0x10; // a process leader stays a zombie until reaped
    case SwitchPoint::IrqReturn:
    case SwitchPoint::PreemptEnable:
    case SwitchPoint::CondResched:
    case SwitchPoint::MightResched:
        return 0x100; // TASK_REPORT_MAX: SM_PREEMPT
    default:
        return 0;
    }
}

const char* FtraceEvents::prevStateText(uint8_t point, const TraceTask& t) {
    switch (prevStateBits(point, t)) {
    case 0x1:
        return "S";
    case 0x2:
        return "D";
    case 0x10:
        return "X";
    case 0x20:
        return "Z";
    case 0x80:
        return "I";
    case 0x100:
        return "R+";
    default:
        return "R";
    }
}

} // namespace sched
