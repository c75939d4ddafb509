// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/ftrace_text.h"

#include "trace/comm.h"
#include "trace/ftrace_events.h"

#include <cstdio>
#include <string>

namespace sched {

int64_t writeFtraceText(const Trace& trace, const std::function<void(std::string_view)>& sink,
                        const FtraceExportOptions& opts) {
    using Kind = FtraceEvent::Kind;
    FtraceEvents events(trace, opts);
    const Wakeups& w = trace.wakeups;
    const Migrations& m = trace.migrations;
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
                  events.size(), events.size(), trace.cpus);
    out += b;
    // Every comm written is printable (trace/comm.h): a newline in one would end a line of the
    // text, or of trace.dat's saved_cmdlines, early.
    const std::vector<TraceTask> tasks = printableTasks(trace.tasks);
    const auto task = [&](int32_t id) -> const TraceTask& { return tasks[size_t(id)]; };
    const auto wakeText = [&](const char* event, size_t i, int target) {
        const TraceTask& t = task(w.wakee[i]);
        std::snprintf(b, sizeof b, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n", event, t.comm.c_str(),
                      t.pid, t.prio, target);
        out += b;
    };
    events.forEach([&](const FtraceEvent& l, const FtraceContext& ctx) {
        // The prefix: "comm-pid [cpu] flags seconds.micros: " (trace_output.c), flags as
        // trace_print_lat_fmt() letters them.
        const std::string comm = ctx.task >= 0 ? task(ctx.task).comm : "<idle>";
        const char nr = ctx.needResched && ctx.needReschedLazy ? 'B'
                        : ctx.needResched                      ? 'N'
                        : ctx.needReschedLazy                  ? 'l'
                                                               : '.';
        const char flags[6] = {ctx.irqsOff ? 'd' : '.',
                               nr,
                               ctx.hardirq && ctx.softirq ? 'H'
                               : ctx.hardirq              ? 'h'
                               : ctx.softirq              ? 's'
                                                          : '.',
                               ctx.preemptDepth ? char('0' + ctx.preemptDepth) : '.',
                               '.',
                               0};
        // lat_print_timestamp(): microseconds rounded to nearest (ns2usecs() adds 500 ns).
        const long long us = (l.time + opts.offset + 500) / 1000;
        std::snprintf(b, sizeof b, "%16s-%-7d [%03u] %s %5lld.%06lld: ", comm.c_str(),
                      ctx.task >= 0 ? task(ctx.task).pid : 0, unsigned(l.cpu), flags, us / 1000000,
                      us % 1000000);
        out += b;
        switch (l.kind) {
        case Kind::Switch: {
            const std::string idle = "swapper/" + std::to_string(l.cpu);
            const TraceTask* p = l.a >= 0 ? &task(l.a) : nullptr;
            const TraceTask* n = l.b >= 0 ? &task(l.b) : nullptr;
            std::snprintf(b, sizeof b,
                          "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
                          "next_comm=%s next_pid=%d next_prio=%d\n",
                          p ? p->comm.c_str() : idle.c_str(), p ? p->pid : 0, p ? p->prio : 120,
                          p ? FtraceEvents::prevStateText(l.point, *p) : "R",
                          n ? n->comm.c_str() : idle.c_str(), n ? n->pid : 0, n ? n->prio : 120);
            out += b;
            break;
        }
        case Kind::Waking:
            // target_cpu of sched_waking: the task's CPU before select_task_rq() (kernel/sched/core.c:
            // try_to_wake_up(); include/trace/events/sched.h: sched_wakeup_template).
            wakeText("sched_waking", size_t(l.a), l.b >= 0 ? l.b : w.targetCpu[size_t(l.a)]);
            break;
        case Kind::Wakeup:
            wakeText("sched_wakeup", size_t(l.a), w.targetCpu[size_t(l.a)]);
            break;
        case Kind::WakeupNew:
            wakeText("sched_wakeup_new", size_t(l.a), w.targetCpu[size_t(l.a)]);
            break;
        case Kind::Fork: {
            const TraceTask& child = task(w.wakee[size_t(l.a)]);
            const TraceTask* parent = ctx.task >= 0 ? &task(ctx.task) : nullptr;
            std::snprintf(b, sizeof b, "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d\n",
                          parent ? parent->comm.c_str() : "", child.ppid, child.comm.c_str(), child.pid);
            out += b;
            break;
        }
        case Kind::Migrate: {
            const TraceTask& t = task(m.task[size_t(l.a)]);
            std::snprintf(b, sizeof b, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\n",
                          t.comm.c_str(), t.pid, t.prio, int(m.from[size_t(l.a)]), int(m.to[size_t(l.a)]));
            out += b;
            break;
        }
        case Kind::Exit: {
            const TraceTask& t = task(l.a);
            std::snprintf(b, sizeof b, "sched_process_exit: comm=%s pid=%d prio=%d group_dead=%s\n",
                          t.comm.c_str(), t.pid, t.prio, t.pid == t.tgid ? "true" : "false");
            out += b;
            break;
        }
        case Kind::Mark:
            out += "tracing_mark_write: " + trace.markers[size_t(l.a)].text + "\n";
            break;
        }
        if (out.size() > (1 << 20) - 1024) {
            sink(out);
            out.clear();
        }
    });
    sink(out);
    return int64_t(events.size());
}

} // namespace sched
