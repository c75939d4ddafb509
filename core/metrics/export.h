// SPDX-License-Identifier: GPL-3.0-or-later
// The metrics of a run as CSV or JSON text: the perf sched latency rows, switch counts and
// per-CPU busy time. Writing the file (atomically) is the caller's business.
#pragma once

#include "metrics/latency.h"

#include <string>

namespace sched {

// A JSON string literal for s (quotes, backslashes and control characters escaped).
std::string jsonQuote(const std::string& s);
// One perf sched latency row as a JSON object.
std::string latencyRowJson(const LatencyRow& r);

std::string metricsCsv(const Trace& trace, Time now);
std::string metricsJson(const Trace& trace, Time now);

} // namespace sched
