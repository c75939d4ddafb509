// SPDX-License-Identifier: GPL-3.0-or-later
// kernbench (Con Kolivas' kernbench script, v0.50): one load level, `/usr/bin/time make -j N` of a
// kernel tree. make keeps at most N compile jobs in flight (the jobserver: it reaps one exited
// child, then forks the next); each job execs cc1, which computes in user mode with ~15 % of its
// CPU in system calls and page faults, and sleeps briefly on I/O; serial phases at the start
// (configuration, generated headers, host tools) and at the end (vmlinux link, modpost, kallsyms)
// cap the parallelism. Calibrated on the PREEMPT_AUTO column of the half-load table (-j 32 on 64
// CPUs, the CPU count inferred from the half load) in Ankur Arora, "[PATCH v2 27/35] sched: support
// preempt=none under PREEMPT_AUTO", LKML, 27 May 2024: 74.4 s wall, 1667 CPU-s, 191 k voluntary
// switches.
#include "scenarios/workload.h"

#include <cmath>
#include <cstdio>

namespace scen {

using namespace sched;

namespace {
// One round of a compile job: user work, a system call path, a short I/O sleep. 8 ms user + 1.4 ms
// system = that table's 14.9 % system share; one voluntary sleep per 9.4 ms of CPU gives its ~75
// sleeps per object.
constexpr Time kRoundUser = 8 * kNsPerMs, kRoundSys = 1400 * kNsPerUs, kIoSleep = 100 * kNsPerUs;
// Objects of a defconfig-sized tree have heavy-tailed costs: per 20 objects, 10 small (~0.3 s of
// CPU), 6 medium (~0.7 s), 3 large (~1.3 s), 1 huge (~2.5 s): 0.68 s on average.
struct JobSize {
    const char* name;
    int rounds;
    int per20;
};
constexpr JobSize kSizes[] = {{"small", 32, 10}, {"medium", 75, 6}, {"large", 138, 3}, {"huge", 266, 1}};
constexpr int kPattern[20] = {0, 1, 0, 2, 0, 1, 0, 3, 0, 1,
                              0, 2, 0, 1, 0, 0, 1, 2, 0, 1}; // 10/6/3/1, interleaved
// Serial phases: 400 short steps of ~20 ms before the parallel build, 6 link steps of ~2.5 s after.
constexpr int kSerialStart = 400, kSerialEnd = 6;

Op userRun(Time mean) {
    Op o = ops::run(mean);
    o.duration = Distribution::lognormal(mean, mean);
    o.duration.min = mean / 20;
    o.duration.max = mean * 10;
    return o;
}

// exec of a fresh process (mm setup, page faults of the binary), then rounds of user work and a
// system call path that ends in a short I/O sleep, then exit. The sleep ends the kernel path, so a
// reschedule request pending there is consumed by the sleep (a voluntary switch) unless a
// cond_resched() point acts on it first (preempt=none/voluntary on PREEMPT_DYNAMIC).
int32_t addJob(Scenario& s, const char* comm, int rounds, Time user, Time sys, const std::string& name) {
    Op io = ops::sleep(kIoSleep);
    io.duration = Distribution::exponential(kIoSleep);
    io.duration.max = 10 * kIoSleep;
    io.cost = sys;
    io.condReschedEvery = 100 * kNsPerUs; // the page-fault and read paths call cond_resched()
    Program p{comm, {ops::run(300 * kNsPerUs, ExecMode::Kernel), userRun(user), io}, 0};
    p.ops.push_back(ops::loop(1, rounds));
    p.ops.push_back(ops::simple(OpKind::Exit));
    return addProgram(s, std::move(p), name);
}
} // namespace

std::string parseKernbench(const std::vector<std::string>& argv, int cpus, KernbenchArgs& out) {
    out = KernbenchArgs{};
    out.jobs = std::max(1, cpus / 2); // kernbench's first level: half load
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        long long n = 0;
        if (a == "-j" || a.rfind("-j", 0) == 0) {
            std::string v = a.size() > 2 ? a.substr(2) : (i + 1 < argv.size() ? argv[++i] : "");
            if (v.empty())
                return "-j: needs a job count (0 = make -j without a limit, kernbench's maximal load)";
            if (!wholeNumber(v, 0, 100000, n))
                return "-j: '" + v + "' is not a job count; accepted: 0 (no limit) to 100000";
            out.jobs = int(n);
        } else if (a == "--objects") {
            if (i + 1 >= argv.size()) return "--objects: needs a count of compile jobs";
            if (!wholeNumber(argv[++i], 20, 100000, n) || n % 20 != 0)
                return "--objects: '" + argv[i] +
                       "' is not a multiple of 20 between 20 and 100000 (objects come in mixes of 20 sizes)";
            out.objects = int(n);
        } else {
            return "unsupported kernbench option '" + a +
                   "'; accepted: -j N (0 = no limit), --objects N (multiple of 20)";
        }
    }
    return {};
}

void addKernbench(const KernbenchArgs& a, Scenario& s) {
    int32_t sizeProg[4];
    for (int k = 0; k < 4; ++k)
        sizeProg[k] = addJob(s, "cc1", kSizes[k].rounds, kRoundUser, kRoundSys,
                             std::string("kernbench.cc1.") + kSizes[k].name);
    const int32_t serial = addJob(s, "sh", 2, 8 * kNsPerMs, 1500 * kNsPerUs, "kernbench.serial-step");
    const int32_t link = addJob(s, "ld", 240, kRoundUser, kRoundSys, "kernbench.link");

    const Time forkCost = 150 * kNsPerUs; // make: fork() + the child's exec set-up in make's context
    Program make{"make", {}, 0};
    // Serial start: one step at a time.
    make.ops.push_back(ops::run(500 * kNsPerUs));
    make.ops.push_back(ops::fork(serial, 1, false, forkCost));
    make.ops.push_back(ops::simple(OpKind::WaitChild));
    make.ops.push_back(ops::loop(1, kSerialStart));
    // Parallel phase: fill the N slots, then for each exit fork the next (jobserver order of the
    // 20-object mix); -j 0 forks everything at once.
    const int slots = a.jobs == 0 ? a.objects : std::min(a.jobs, a.objects);
    int next = 0;
    for (; next < slots; ++next)
        make.ops.push_back(ops::fork(sizeProg[kPattern[next % 20]], 1, false, forkCost));
    const int remaining = a.objects - slots;
    if (remaining > 0) {
        // One loop over a 20-fork body, entered at the right phase of the pattern: unrolled
        // remainder first, then whole mixes.
        const int head = remaining % 20;
        for (int k = 0; k < head; ++k, ++next) {
            make.ops.push_back(ops::simple(OpKind::WaitChild));
            make.ops.push_back(ops::fork(sizeProg[kPattern[next % 20]], 1, false, forkCost));
        }
        if (remaining / 20 > 0) {
            const int32_t body = int32_t(make.ops.size());
            for (int k = 0; k < 20; ++k) {
                make.ops.push_back(ops::simple(OpKind::WaitChild));
                make.ops.push_back(ops::fork(sizeProg[kPattern[(next + k) % 20]], 1, false, forkCost));
            }
            make.ops.push_back(ops::loop(body, remaining / 20));
        }
    }
    make.ops.push_back(ops::simple(OpKind::WaitChildren));
    // Serial end: the link steps.
    const int32_t endAt = int32_t(make.ops.size());
    make.ops.push_back(ops::run(500 * kNsPerUs));
    make.ops.push_back(ops::fork(link, 1, false, forkCost));
    make.ops.push_back(ops::simple(OpKind::WaitChild));
    make.ops.push_back(ops::loop(endAt, kSerialEnd));
    make.ops.push_back(ops::simple(OpKind::Exit));
    TaskGroupSpec g;
    g.comm = "make";
    g.program = addProgram(s, std::move(make), "kernbench.make");
    s.tasks.push_back(g);
}

KernbenchNumbers kernbenchNumbers(const Workload& w, const Engine& e) {
    // GNU time around make: make's own counters plus every waited-for descendant's (RUSAGE_CHILDREN).
    KernbenchNumbers k;
    const auto& tasks = e.tasks();
    std::vector<char> in(tasks.size(), 0);
    const TaskId make = w.firstTask;
    if (size_t(make) >= tasks.size()) return k;
    Time utime = 0, stime = 0;
    for (size_t t = size_t(make); t < tasks.size(); ++t) {
        const Task& task = tasks[t];
        in[t] = t == size_t(make) || (task.parent >= 0 && in[size_t(task.parent)]);
        if (!in[t]) continue;
        utime += task.utime;
        stime += task.stime;
        // rusage misses each exited task's final switch (release_task() summed its counters before
        // do_task_dead() switched away), which the task's own nvcsw includes.
        k.voluntary += double(task.nvcsw - (task.exitedAt >= 0 ? 1 : 0));
        k.involuntary += double(task.nivcsw);
    }
    const Task& m = tasks[size_t(make)];
    const Time end = m.exitedAt >= 0 ? m.exitedAt : e.now();
    k.finished = m.exitedAt >= 0;
    k.elapsed = double(end - std::max<Time>(0, m.startedAt)) / 1e9;
    k.user = double(utime) / 1e9;
    k.system = double(stime) / 1e9;
    k.percentCpu = k.elapsed > 0 ? 100.0 * (k.user + k.system) / k.elapsed : 0;
    return k;
}

std::string kernbenchLoadName(const KernbenchArgs& a, int cpus) {
    if (a.jobs == 0) return "Maximal load -j";
    const std::string j = " -j " + std::to_string(a.jobs);
    if (a.jobs == cpus / 2) return "Half load" + j;
    if (a.jobs == 4 * cpus) return "Optimal load" + j;
    return "Custom load" + j;
}

std::string formatKernbench(const std::string& load, const std::vector<KernbenchNumbers>& runs) {
    // kernbench's average block: mean and sample standard deviation of each field.
    const auto stat = [&](double KernbenchNumbers::*f) {
        double mean = 0, var = 0;
        for (const auto& r : runs)
            mean += r.*f;
        mean /= double(std::max<size_t>(1, runs.size()));
        for (const auto& r : runs)
            var += (r.*f - mean) * (r.*f - mean);
        const double sd = runs.size() > 1 ? std::sqrt(var / double(runs.size() - 1)) : 0.0;
        char b[64];
        std::snprintf(b, sizeof b, "%.2f (%.2f)\n", mean, sd);
        return std::string(b);
    };
    std::string out = "Average " + load + " Run (std deviation):\n";
    out += "Elapsed Time " + stat(&KernbenchNumbers::elapsed);
    out += "User Time " + stat(&KernbenchNumbers::user);
    out += "System Time " + stat(&KernbenchNumbers::system);
    out += "Percent CPU " + stat(&KernbenchNumbers::percentCpu);
    out += "Context Switches " + stat(&KernbenchNumbers::involuntary);
    out += "Sleeps " + stat(&KernbenchNumbers::voluntary);
    return out;
}

std::string kernbenchReport(const Workload& w, const Engine& e) {
    const auto& a = std::get<KernbenchArgs>(w.params);
    const KernbenchNumbers k = kernbenchNumbers(w, e);
    // /usr/bin/time -f "%e %U %S %P %c %w" make -j N, then kernbench's block for this one run.
    char line[160];
    std::snprintf(line, sizeof line, "%.2f %.2f %.2f %.0f%% %.0f %.0f\n", k.elapsed, k.user, k.system,
                  k.percentCpu, k.involuntary, k.voluntary);
    std::string out = line;
    if (!k.finished)
        out += "(make had not finished when the run ended: the numbers cover the simulated time only)\n";
    return out + formatKernbench(kernbenchLoadName(a, e.config().cpus), {k});
}

} // namespace scen
