// SPDX-License-Identifier: GPL-3.0-or-later
// The metrics of a run as CSV or JSON text: the perf sched latency rows, switch counts and
// per-CPU busy time. Writing the file (atomically) is the caller's business.
#pragma once

#include "latency.h"

#include <string>

namespace sched {

std::string metricsCsv(const Trace& trace, Time now);
std::string metricsJson(const Trace& trace, Time now);

} // namespace sched
