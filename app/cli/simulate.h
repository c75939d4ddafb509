// SPDX-License-Identifier: GPL-3.0-or-later
// One simulated run of a scenario reduced to what the command-line reports print: the perf
// sched latency rows, perf stat's switch counts, CPU use, the elapsed time and each workload's
// own output and numbers. Shared by `run` and `experiment`.
#pragma once

#include "metrics/export.h"
#include "metrics/latency.h"
#include "scenarios/scenario.h"

#include <array>
#include <string>
#include <vector>

struct RunResult {
    std::vector<sched::LatencyRow> rows;
    sched::SwitchCounts switches;
    std::vector<sched::CpuUsage> cpu;
    std::array<uint64_t, size_t(sched::SliceExtEnd::Count)>
        sliceExts{};                   // RSEQ slice extensions by how they ended
    std::vector<sched::Mutex> mutexes; // the scenario's kernel mutexes with their counters, at the end
    sched::Time elapsed = 0;
    std::string engineError;
    bool halted = false; // the run stopped at a limit (engineError says which): its numbers are not a run's
    std::vector<std::string> toolOutput;           // per scenario workload, the tool's own output
    std::vector<scen::KernbenchNumbers> kernbench; // per kernbench workload, in scenario order
};

// batch: run operations that cannot interact ahead (sched::TraceOptions::batchOps; same results).
RunResult simulate(const scen::Scenario& s, uint64_t seed, const sched::LatencyOptions& lo,
                   bool batch = true);
