// SPDX-License-Identifier: GPL-3.0-or-later
// A run's distributions for the Distributions chart: the scheduling delays (perf sched latency's
// atoms: runnable -> on the CPU) or the run lengths (switch-in -> switch-out) of one task, of every
// task with its comm (the comm group perf sched latency merges), or of all tasks; as a sorted
// sample with its percentiles, a histogram on logarithmic bins and the points of its CDF.
#pragma once

#include "trace/trace.h"

#include <array>
#include <string>
#include <vector>

namespace sched {

enum class SampleKind : uint8_t { SchedDelay, RunLength };
// TaskGroup: every task in the selected task's cgroup or autogroup (a simulation knows them; a
// trace's sched events do not name them).
enum class SampleScope : uint8_t { Task, CommGroup, All, TaskGroup };

struct SampleDistribution {
    std::vector<Time> sorted; // ascending
    // The p-quantile by the nearest rank below (p in [0, 1]); 0 when empty.
    Time percentile(double p) const;
    // Bins 10^(k/5) us wide in log space, k = 0..30 (1 us .. 1 s); shorter to bin 0, longer to 30.
    static constexpr int kBins = 31;
    static int binOf(Time t);
    static double binLowerUs(int bin);
    std::array<int64_t, kBins> histogram() const;
    // The fraction of samples at or below each bin's upper edge.
    std::array<double, kBins> cdf() const;
};

// groupOf: each task's group name ("" for the root group), for the TaskGroup scope.
SampleDistribution sampleDistribution(const Trace& trace, SampleKind kind, SampleScope scope, TaskId task,
                                      const std::vector<std::string>& groupOf = {});
// "hackbench:1203", "hackbench (161 tasks)", "/autogroup-2 (161 tasks)", "all tasks": what the
// scope covers, for titles.
std::string sampleScopeName(const Trace& trace, SampleScope scope, TaskId task,
                            const std::vector<std::string>& groupOf = {});

} // namespace sched
