// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/export.h"

#include <cstdio>
#include <map>
#include <vector>

namespace sched {

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s)
        o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

} // namespace

std::string latencyRowJson(const LatencyRow& r) {
    return "{\"task\": " + jsonQuote(r.comm) + ", \"pid\": " + std::to_string(r.pid) +
           ", \"merged\": " + std::to_string(r.merged) + ", \"runtime_ns\": " + std::to_string(r.runtime) +
           ", \"switches\": " + std::to_string(r.count) +
           ", \"avg_delay_ns\": " + std::to_string(r.avgDelay()) +
           ", \"max_delay_ns\": " + std::to_string(r.maxDelay) +
           ", \"sum_delay_ns\": " + std::to_string(r.totalDelay) + "}";
}

// One table, as perf sched latency prints it: a row per comm, then TOTAL. Its tasks' switch-outs
// (voluntary: they blocked or exited, perf stat's nvcsw) and migrations are columns of the row, so
// a spreadsheet or pandas reads the file as it is; the run-wide counts with the idle task's
// switches and each CPU's busy time are in the JSON export.
std::string metricsCsv(const Trace& trace, Time /*now*/) {
    struct Outs {
        int64_t voluntary = 0, involuntary = 0, migrations = 0;
    };
    std::vector<Outs> outs(trace.tasks.size());
    const Slices& s = trace.slices;
    for (size_t i = 0; i < s.size(); ++i) {
        if (size_t(s.task[i]) >= outs.size() || s.endPoint[i] == kStillRunning) continue;
        const auto p = SwitchPoint(s.endPoint[i]);
        (isBlockingPoint(p) ? outs[size_t(s.task[i])].voluntary : outs[size_t(s.task[i])].involuntary)++;
    }
    for (size_t i = 0; i < trace.migrations.size(); ++i)
        if (size_t(trace.migrations.task[i]) < outs.size())
            outs[size_t(trace.migrations.task[i])].migrations++;
    // perf sched latency merges its rows by comm (a row "hog:(8)" is eight tasks): the switch-outs
    // and migrations are summed the same way.
    std::map<std::string, Outs> byComm;
    for (size_t t = 0; t < trace.tasks.size(); ++t) {
        Outs& o = byComm[trace.tasks[t].comm];
        o.voluntary += outs[t].voluntary, o.involuntary += outs[t].involuntary,
            o.migrations += outs[t].migrations;
    }
    std::string out = "task,pid,merged,runtime_ns,switches,avg_delay_ns,max_delay_ns,sum_delay_ns,"
                      "max_delay_start_ns,voluntary,involuntary,migrations\n";
    LatencyRow total;
    total.comm = "TOTAL";
    total.merged = 0;
    Outs all;
    const auto row = [&](const LatencyRow& r, const std::string& pid, const Outs& o) {
        out += csvField(r.comm) + "," + pid + "," + std::to_string(r.merged) + "," +
               std::to_string(r.runtime) + "," + std::to_string(r.count) + "," +
               std::to_string(r.avgDelay()) + "," + std::to_string(r.maxDelay) + "," +
               std::to_string(r.totalDelay) + "," + std::to_string(r.maxStart) + "," +
               std::to_string(o.voluntary) + "," + std::to_string(o.involuntary) + "," +
               std::to_string(o.migrations) + "\n";
    };
    for (const LatencyRow& r : perfSchedLatency(trace)) {
        const Outs o = byComm[r.comm];
        row(r, r.merged > 1 ? std::string() : std::to_string(r.pid), o); // a merged row has no one pid
        total.merged += r.merged;
        total.runtime += r.runtime;
        total.count += r.count;
        total.totalDelay += r.totalDelay;
        if (r.maxDelay > total.maxDelay) total.maxDelay = r.maxDelay, total.maxStart = r.maxStart;
        all.voluntary += o.voluntary, all.involuntary += o.involuntary, all.migrations += o.migrations;
    }
    row(total, "", all);
    return out;
}

std::string metricsJson(const Trace& trace, Time now) {
    std::string out = "{\n  \"simulated_ns\": " + std::to_string(now) + ",\n  \"latency\": [";
    const auto rows = perfSchedLatency(trace);
    for (size_t i = 0; i < rows.size(); ++i) {
        out += std::string(i ? "," : "") + "\n    " + latencyRowJson(rows[i]);
    }
    const SwitchCounts c = countSwitches(trace);
    out += "\n  ],\n  \"context_switches\": " + std::to_string(c.total) +
           ",\n  \"voluntary\": " + std::to_string(c.voluntary) +
           ",\n  \"involuntary\": " + std::to_string(c.involuntary) +
           ",\n  \"migrations\": " + std::to_string(c.migrations) + ",\n  \"cpu_busy_ns\": [";
    const auto use = cpuUsage(trace);
    for (size_t i = 0; i < use.size(); ++i)
        out += (i ? ", " : "") + std::to_string(use[i].busy);
    return out + "]\n}\n";
}

} // namespace sched
