// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/run_stats.h"

#include <Eigen/Core>
#include <cmath>

namespace sched {

RunStats computeRunStats(const std::vector<double>& samples) {
    RunStats r;
    r.n = int(samples.size());
    if (samples.empty()) return r;
    const Eigen::Map<const Eigen::VectorXd> v(samples.data(), Eigen::Index(samples.size()));
    r.mean = v.mean();
    r.min = v.minCoeff();
    r.max = v.maxCoeff();
    if (r.n > 1) {
        // Sample variance (n - 1), as perf's stats.c and kernbench's awk both use.
        const double var = (v.array() - r.mean).square().sum() / double(r.n - 1);
        r.stddev = std::sqrt(var);
        r.stderror = std::sqrt(var / double(r.n));
    }
    return r;
}

} // namespace sched
