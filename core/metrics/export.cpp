// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/export.h"

#include <cstdio>

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

std::string jsonQuote(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            o += '\\', o += c;
        else if (uint8_t(c) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else
            o += c;
    }
    return o + "\"";
}

std::string latencyRowJson(const LatencyRow& r) {
    return "{\"task\": " + jsonQuote(r.comm) + ", \"pid\": " + std::to_string(r.pid) +
           ", \"merged\": " + std::to_string(r.merged) + ", \"runtime_ns\": " + std::to_string(r.runtime) +
           ", \"switches\": " + std::to_string(r.count) +
           ", \"avg_delay_ns\": " + std::to_string(r.avgDelay()) +
           ", \"max_delay_ns\": " + std::to_string(r.maxDelay) +
           ", \"sum_delay_ns\": " + std::to_string(r.totalDelay) + "}";
}

std::string metricsCsv(const Trace& trace, Time now) {
    std::string out =
        "task,pid,merged,runtime_ns,switches,avg_delay_ns,max_delay_ns,sum_delay_ns,max_delay_start_ns\n";
    for (const LatencyRow& r : perfSchedLatency(trace)) {
        out += csvField(r.comm) + "," + std::to_string(r.pid) + "," + std::to_string(r.merged) + "," +
               std::to_string(r.runtime) + "," + std::to_string(r.count) + "," +
               std::to_string(r.avgDelay()) + "," + std::to_string(r.maxDelay) + "," +
               std::to_string(r.totalDelay) + "," + std::to_string(r.maxStart) + "\n";
    }
    const SwitchCounts c = countSwitches(trace);
    out += "\nmetric,value\nsimulated_ns," + std::to_string(now) + "\ncontext_switches," +
           std::to_string(c.total) + "\nvoluntary," + std::to_string(c.voluntary) + "\ninvoluntary," +
           std::to_string(c.involuntary) + "\nmigrations," + std::to_string(c.migrations) + "\n";
    const auto use = cpuUsage(trace);
    for (size_t i = 0; i < use.size(); ++i)
        out += "cpu" + std::to_string(i) + "_busy_ns," + std::to_string(use[i].busy) + "\n";
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
