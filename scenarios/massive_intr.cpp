// SPDX-License-Identifier: GPL-3.0-or-later
// massive_intr (Satoru Takeuchi, 2007: massive_intr.c, one of the "attack" programs named in
// Documentation/scheduler/sched-design-CFS.rst): `massive_intr NPROC RUNTIME [RUN_MS SLEEP_MS]`,
// the last two our extension (the tool's fixed 8 ms / 1 ms are their defaults). The parent forks
// NPROC worker processes and waits. Each worker sleeps 200 ms (the signal that starts them all
// together is already pending when that sleep ends), then loops { busy-run RUN_MS of work;
// nanosleep(SLEEP_MS); count++ } until RUNTIME seconds after its start, and prints "%06d\t%08d"
// (pid, loops).
#include "scenarios/workload.h"

#include <cstdio>

namespace scen {

using namespace sched;

std::string parseMassiveIntr(const std::vector<std::string>& argv, MassiveIntrArgs& out) {
    if (argv.size() != 2 && argv.size() != 4)
        return "massive_intr takes NPROC RUNTIME [RUN_MS SLEEP_MS] (e.g. \"8 10\" or \"8 10 8 1\"); got " +
               std::to_string(argv.size()) + " arguments";
    long long n = 0, rt = 0, run = 8, sl = 1;
    if (!wholeNumber(argv[0], 1, 1024, n))
        return "NPROC: '" + argv[0] + "' is not a process count; accepted: 1 to 1024";
    if (!wholeNumber(argv[1], 1, 3600, rt))
        return "RUNTIME: '" + argv[1] + "' is not a whole number of seconds; accepted: 1 to 3600";
    if (argv.size() == 4) {
        if (!wholeNumber(argv[2], 1, 10000, run))
            return "RUN_MS: '" + argv[2] + "' is not a whole number of milliseconds; accepted: 1 to 10000";
        if (!wholeNumber(argv[3], 0, 10000, sl))
            return "SLEEP_MS: '" + argv[3] + "' is not a whole number of milliseconds; accepted: 0 to 10000";
    }
    out.nproc = int(n);
    out.runtime = Time(rt) * kNsPerSec;
    out.run = Time(run) * kNsPerMs;
    out.sleep = Time(sl) * kNsPerMs;
    return {};
}

void addMassiveIntr(const MassiveIntrArgs& a, Scenario& s) {
    // A worker: usleep(200000) before sigsuspend() (the start signal is pending by then), then a
    // fixed amount of calibrated work in user mode and a nanosleep(), while time() - start < runtime.
    // The calibrated loop's CPU time is not exactly RUN_MS: it varies from loop to loop with the
    // caches, the frequency and the interrupts it absorbs (traced `8 10 8 1` on the 2-CPU VM:
    // p10/p50/p90 7.92/8.14/8.33 ms per 8 ms loop), about 2 % standard deviation. That variation
    // is what keeps the workers out of step; with exact 8 ms loops and 4 ms ticks they would all
    // finish their loops at the same tick, sleep together and leave the CPU idle.
    Program worker{"", {}, 0}; // unnamed: the forked workers keep the parent's comm
    Distribution work = Distribution::normal(a.run, a.run / 50);
    work.min = a.run * 9 / 10;
    work.max = a.run * 12 / 10;
    worker.ops = {ops::sleep(200 * kNsPerMs), ops::run(work)};
    if (a.sleep > 0) worker.ops.push_back(ops::sleep(a.sleep));
    worker.ops.push_back(ops::loop(1, 0, a.runtime));
    worker.ops.push_back(ops::simple(OpKind::Exit));
    worker.finalize();
    const int32_t workerProg = int32_t(s.programs.size());
    s.programs.push_back(worker);
    s.programNames.push_back("massive_intr.worker");
    // The parent forks the workers (fork() of a small process) and waits for them.
    Program parent{"massive_intr",
                   {ops::fork(workerProg, a.nproc, false, 50 * kNsPerUs), ops::simple(OpKind::WaitChildren),
                    ops::simple(OpKind::Exit)},
                   0};
    parent.finalize();
    TaskGroupSpec g;
    g.comm = "massive_intr";
    g.program = int32_t(s.programs.size());
    s.programs.push_back(parent);
    s.programNames.push_back(parent.name);
    s.tasks.push_back(g);
}

std::string massiveIntrReport(const Workload& w, const Engine& e) {
    std::string out;
    char line[64];
    for (const Task& t : e.tasks()) {
        if (t.comm != w.comm || t.parent < 0 || e.tasks()[size_t(t.parent)].comm != w.comm)
            continue; // workers only
        // The loop op counts its passes; the last pass is the one that leaves the loop.
        std::snprintf(line, sizeof line, "%06d\t%08lld\n", t.pid, (long long)t.iterations);
        out += line;
    }
    return out;
}

} // namespace scen
