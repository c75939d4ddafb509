// SPDX-License-Identifier: GPL-3.0-or-later
// Text in the layouts the kernel discussions print: perf sched latency (Mike Galbraith's -T
// variant with the Sum column: "[hacklet] perf sched: Add report latency max/sum fields and body
// filter options", LKML, 3 Apr 2023) and perf stat -e cs (tools/perf/util/stat-display.c).
#pragma once

#include "metrics/latency.h"
#include "metrics/run_stats.h"

#include <string>
#include <vector>

namespace sched {

std::string formatLatencyTable(const std::vector<LatencyRow>& rows);
// 1234567 -> "1,234,567" (perf's %' grouping)
std::string groupThousands(double value);

struct PerfStatBlock {
    std::string target = "system wide";
    RunStats switches, voluntary, involuntary, elapsedSec;
};
std::string formatPerfStat(const PerfStatBlock& b);

} // namespace sched
