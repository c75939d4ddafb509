// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulate.h"

#include "workload.h"

using namespace sched;

RunResult simulate(const scen::Scenario& s, uint64_t seed, const LatencyOptions& lo, bool batch) {
    Engine e = scen::instantiate(s, seed, TraceOptions{false, batch});
    // Background workloads (the machine's kernel threads) never exit: the run ends when every
    // other task has, as perf stat's measurement ends with its command.
    std::vector<char> background;
    for (const scen::Workload& w : s.workloads) {
        if (!w.background) continue;
        int count = 0;
        for (size_t g = w.firstGroup; g < w.firstGroup + w.groups; ++g) count += s.tasks[g].count;
        if (background.size() < size_t(w.firstTask + count)) background.resize(size_t(w.firstTask + count), 0);
        std::fill(background.begin() + w.firstTask, background.begin() + w.firstTask + count, 1);
    }
    const auto foregroundDone = [&] {
        for (size_t t = 0; t < e.tasks().size(); ++t)
            if ((t >= background.size() || !background[t]) && e.tasks()[t].state != TaskState::Dead) return false;
        return true;
    };
    if (background.empty()) {
        e.runUntil(s.duration);
    } else {
        for (Time t = 0; t < s.duration && !foregroundDone();) {
            t = std::min(s.duration, t + 10 * kNsPerMs);
            e.runUntil(t);
        }
    }
    e.finish();
    RunResult r;
    r.rows = perfSchedLatency(e.trace(), lo);
    r.switches = countSwitches(e.trace());
    r.cpu = cpuUsage(e.trace());
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
    for (const scen::Workload& w : s.workloads) {
        r.toolOutput.push_back(scen::workloadReport(w, e));
        if (std::holds_alternative<scen::KernbenchArgs>(w.params)) r.kernbench.push_back(scen::kernbenchNumbers(w, e));
    }
    return r;
}
