// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli trace FILE: a real trace (ftrace text, trace-cmd report, perf script, trace.dat,
// compressed or not) imported and measured as perf sched latency and the kernel's counters would.
#pragma once

#include <ostream>
#include <string>
#include <vector>

struct TraceOptions2 {
    std::string file;
    int rootPid = -1; // the workload: this pid and its descendants; -1: from a "VALID root=" marker
    bool all = false; // every task of the trace
    bool perTask = false;
    std::string sort = "avg,max,switch,runtime";
    // --critical-path PID@TIME: what led to the task running at TIME (a trace timestamp in seconds,
    // or a duration with a unit from the trace's start)
    int pathPid = -1;
    std::string pathAt;
};

std::string parseTraceOptions(const std::vector<std::string>& args, TraceOptions2& out);
int traceCommand(const TraceOptions2& o, std::ostream& out, std::ostream& err);

// schedscope-cli derive TRACE [-o FILE] [--root PID | --all] [--cpus N] [--hz N] [--preempt M] [--kernel K]
struct DeriveCliOptions {
    std::string file, output;
    int rootPid = -1;
    bool all = false;
    int cpus = 0, hz = 250;
    std::string preempt = "none", kernel = "6.18";
    int cycleClasses = 3;
};
std::string parseDeriveOptions(const std::vector<std::string>& args, DeriveCliOptions& out);
int deriveCommand(const DeriveCliOptions& o, std::ostream& out, std::ostream& err);
