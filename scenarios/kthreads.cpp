// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel's own threads on a real machine (kworker/N:M, rcu_preempt, ksoftirqd/N, kcompactd,
// ...): per CPU one bound kernel thread woken at random times that runs a short kernel path and
// sleeps again. The traced 2-CPU 6.18 machine shows ~9 such switch-ins per CPU per second while
// massive_intr ran (tests/data/traces, massive_intr trace: ~190 in 10.3 s). A wakeup of a bound
// kthread on a CPU busy with a user task is a wakeup preemption the task cannot escape by
// migration, which is where a half-loaded machine's involuntary switches come from (kernbench's
// 13-19 k at -j 32 on 64 CPUs in Ankur Arora, "[PATCH v2 27/35] sched: support preempt=none under
// PREEMPT_AUTO", LKML, 27 May 2024).
// `kthreads [-r WAKEUPS_PER_SEC_PER_CPU] [-c RUN_US]`.
#include "scenarios/workload.h"

#include <cstdio>

namespace scen {

using namespace sched;

std::string parseKthreads(const std::vector<std::string>& argv, KthreadsArgs& out) {
    out = KthreadsArgs{};
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        long long n = 0;
        if (i + 1 >= argv.size())
            return a + ": needs a value; accepted options: -r WAKEUPS_PER_SEC (per CPU), -c RUN_US";
        const std::string& v = argv[++i];
        if (a == "-r") {
            if (!wholeNumber(v, 1, 100000, n))
                return "-r: '" + v + "' is not a wake-up rate; accepted: 1 to 100000 per second per CPU";
            out.rate = int(n);
        } else if (a == "-c") {
            if (!wholeNumber(v, 1, 100000, n))
                return "-c: '" + v + "' is not a run length; accepted: 1 to 100000 us";
            out.run = Time(n) * kNsPerUs;
        } else {
            return "unsupported kthreads option '" + a +
                   "'; accepted: -r WAKEUPS_PER_SEC (per CPU), -c RUN_US";
        }
    }
    return {};
}

void addKthreads(const KthreadsArgs& a, Scenario& s) {
    // Most of a bound kworker's wake-ups come from other CPUs (queue_work_on(), RCU callbacks,
    // IRQs routed elsewhere): here an unbound dispatcher wakes the CPUs' kworkers in turn at
    // exponential gaps, RATE times per second per CPU. Such a remote wake-up preempts a running
    // task through the reschedule IPI (eager bit) but, as a lazy request, sends no IPI and waits
    // for the task's next kernel exit, tick or sleep (__resched_curr()).
    const int cpus = s.config.cpus;
    const int32_t first = int32_t(s.channels.size());
    for (int c = 0; c < cpus; ++c)
        s.channels.push_back({"kthreads.work" + std::to_string(c), 1 << 20, -1, false});
    Op work = ops::run(a.run, ExecMode::Kernel);
    work.duration = Distribution::exponential(a.run);
    work.duration.min = a.run / 10;
    work.duration.max = a.run * 10;
    const Time gap = std::max<Time>(1000, kNsPerSec / (Time(a.rate) * cpus));
    Program dispatcher{"", {}, 0};
    for (int c = 0; c < cpus; ++c) {
        Op sleep = ops::sleep(gap);
        sleep.duration = Distribution::exponential(gap);
        // Not a task's nanosleep(): the gaps between events elsewhere in the kernel, so the
        // machine's timer_arm cost (which the engine adds to user-mode sleeps only) is not paid.
        sleep.mode = ExecMode::Kernel;
        sleep.idleWait = true; // worker_thread() waits in TASK_IDLE: prev_state I, as traced
        dispatcher.ops.push_back(sleep);
        dispatcher.ops.push_back(ops::channel(OpKind::Write, first + c, 1000)); // queue_work_on(c)
    }
    dispatcher.ops.push_back(ops::loop(0, 0));
    dispatcher.finalize();
    // One bound worker per CPU: wait for work, do it in the kernel, wait again.
    for (int c = 0; c < cpus; ++c) {
        Op wait = ops::channel(OpKind::Read, first + c, 1000);
        wait.idleWait = true; // worker_thread(): set_current_state(TASK_IDLE), then schedule()
        Program p{"", {wait, work, ops::loop(0, 0)}, 0};
        p.finalize();
        TaskGroupSpec g;
        g.comm = "kworker/" + std::to_string(c) + ":1";
        g.program = int32_t(s.programs.size());
        g.affinity.set(size_t(c));
        g.startCpu = c;
        s.programs.push_back(p);
        s.programNames.push_back("kthreads.kworker" + std::to_string(c));
        s.tasks.push_back(g);
    }
    TaskGroupSpec d;
    d.comm = "kworker/u:0";
    d.program = int32_t(s.programs.size());
    s.programs.push_back(dispatcher);
    s.programNames.push_back("kthreads.dispatcher");
    s.tasks.push_back(d);
}

std::string kthreadsReport(const Workload& w, const Engine& e) {
    int64_t runs = 0;
    Time busy = 0;
    size_t n = 0;
    for (size_t t = size_t(w.firstTask); t < e.tasks().size() && n + 1 < w.groups;
         ++t, ++n) { // the bound ones
        runs += e.tasks()[t].nvcsw + e.tasks()[t].nivcsw;
        busy += e.tasks()[t].utime + e.tasks()[t].stime;
    }
    char b[160];
    std::snprintf(b, sizeof b, "%zu bound kernel threads: %lld runs, %.3f ms of CPU\n", n, (long long)runs,
                  double(busy) / 1e6);
    return b;
}

} // namespace scen
