// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/simulate.h"

#include "scenarios/workload.h"

#include "metrics/latency_fold.h"

using namespace sched;

RunResult simulate(const scen::Scenario& s, uint64_t seed, const LatencyOptions& lo, bool batch) {
    // The reports below read slices, wake-ups and task state only: no EEVDF samples, no flag intervals.
    Engine e = scen::instantiate(s, seed, TraceOptions{.samples = false, .batchOps = batch, .flags = false});
    // Background workloads (the machine's kernel threads) never exit: the run ends when every
    // other task has, as perf stat's measurement ends with its command.
    std::vector<char> background;
    for (const scen::Workload& w : s.workloads) {
        if (!w.background) continue;
        int count = 0;
        for (size_t g = w.firstGroup; g < w.firstGroup + w.groups; ++g)
            count += s.tasks[g].count;
        if (background.size() < size_t(w.firstTask + count))
            background.resize(size_t(w.firstTask + count), 0);
        std::fill(background.begin() + w.firstTask, background.begin() + w.firstTask + count, 1);
    }
    const auto foregroundDone = [&] {
        for (size_t t = 0; t < e.tasks().size(); ++t)
            if ((t >= background.size() || !background[t]) && e.tasks()[t].state != TaskState::Dead)
                return false;
        return true;
    };
    // The trace is folded into the reports and dropped every kFoldEvery of simulated time (see
    // LatencyFold); the foreground check stays every 10 ms, which decides when the run ends.
    constexpr Time kFoldEvery = 2 * kNsPerMs;
    LatencyFold fold(e.config().cpus);
    RunResult r;
    const auto foldAndForget = [&] {
        fold.add(e.trace());
        for (uint8_t how : e.trace().sliceExts.how)
            r.sliceExts[how]++;
        e.forgetRecorded();
    };
    for (Time t = 0; t < s.duration && !e.halted() && (background.empty() || !foregroundDone());) {
        for (const Time check = std::min(s.duration, t + 10 * kNsPerMs); t < check && !e.halted();) {
            t = std::min(check, t + kFoldEvery);
            e.runUntil(t);
            foldAndForget();
        }
    }
    e.finish();
    foldAndForget();
    const std::vector<TraceTask>& tasks = e.trace().tasks;
    r.rows = fold.rows(tasks, lo);
    r.switches = fold.switches();
    r.cpu = fold.cpuUsage();
    r.mutexes = e.mutexes();
    // Elapsed: until the last (foreground) task exited, or the scenario's duration.
    bool allDead = true;
    Time lastExit = 0;
    for (size_t t = 0; t < e.tasks().size(); ++t) {
        if (t < background.size() && background[t]) continue;
        allDead = allDead && e.tasks()[t].state == TaskState::Dead;
        lastExit = std::max(lastExit, e.tasks()[t].exitedAt);
    }
    r.elapsed = allDead ? lastExit : s.duration;
    r.engineError = e.error();
    r.halted = e.halted();
    LatencyOptions perTask = lo;
    perTask.mergeByComm = false, perTask.only = nullptr;
    const std::vector<LatencyRow> perTaskRows = fold.rows(tasks, perTask);
    for (const scen::Workload& w : s.workloads) {
        r.toolOutput.push_back(scen::workloadReport(w, e, &perTaskRows));
        if (std::holds_alternative<scen::KernbenchArgs>(w.params))
            r.kernbench.push_back(scen::kernbenchNumbers(w, e));
    }
    return r;
}
