// SPDX-License-Identifier: GPL-3.0-or-later
// The metrics of a run as CSV or JSON text: the perf sched latency rows, switch counts and
// per-CPU busy time. Writing the file (atomically) is the caller's business.
#pragma once

#include "base/json_text.h"
#include "metrics/latency.h"

#include <string>

namespace sched {

// One perf sched latency row as a JSON object.
std::string latencyRowJson(const LatencyRow& r);

// One table: perf sched latency's row per comm with its tasks' switch-outs and migrations, TOTAL last.
std::string metricsCsv(const Trace& trace, Time now);
// The table, the run's switch counts (perf stat's, the idle task's switches included) and each
// CPU's busy time.
std::string metricsJson(const Trace& trace, Time now);

} // namespace sched
