// SPDX-License-Identifier: GPL-3.0-or-later
// Statistics over repeated runs (--repeat N), computed with Eigen: perf stat reports the mean
// with its standard error, kernbench the mean with the sample standard deviation.
#pragma once

#include <vector>

namespace sched {

struct RunStats {
    int n = 0;
    double mean = 0, stddev = 0, stderror = 0, min = 0, max = 0;
    double relStderrPct() const { return mean != 0 ? 100.0 * stderror / mean : 0.0; }
};

RunStats computeRunStats(const std::vector<double>& samples);

} // namespace sched
