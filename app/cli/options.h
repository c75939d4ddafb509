// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line parsing for schedscope-cli: every error names the flag and what it accepts.
#pragma once

#include "scenarios/scenario.h"
#include "scenarios/scenario_settings.h"

#include <optional>
#include <string>
#include <vector>

// The scenario's settings (--preempt, --kernel, ...: scen::ScenarioSettings) and what to print.
struct RunOptions : scen::ScenarioSettings {
    std::string scenario;
    int repeat = 1;
    bool json = false;
    bool perTask = false; // one latency row per tid (perf sched latency -p)
    bool allTables = false;
    std::string sort = "avg,max,switch,runtime";
    std::string exportTimeline;      // PNG / SVG / PDF of run 1's timeline
    std::string exportChart;         // PNG / SVG / PDF of run 1's EEVDF chart or delay histogram
    bool delayChart = false;         // --chart delay: the histogram instead of the EEVDF chart
    std::vector<std::string> select; // --select: the charted tasks, by comm (default: the first task)
    int exportHeight = 0;            // --height; 0 = the timeline's lanes, 500 for a chart
    int chartHeight = 0;             // --chart-height; 0 = --height if only the chart is exported, else 500
    std::string exportFtrace;        // run 1 as ftrace text
    std::string lagCsv;              // run 1's lag tables, every CPU at every tick, as CSV
    sched::Time rangeStart = 0, rangeEnd = -1; // -1 = the end of the run
    int exportWidth = 1600;
    bool batch = true; // false: one event per operation (--no-batch; the same results, slower)
};

struct BenchOptions {
    std::vector<std::string> scenarios;
    std::optional<sched::Time> duration;
    int runs = 3;
    bool runsGiven = false;
    bool batch = true;
    bool suite = false; // --suite: every figure the docs claim (bench_suite.cpp)
    bool quick = false; // --quick: the suite at small sizes (minutes -> seconds; not the docs' figures)
};

// Returns an error text (empty on success).
// "trace.dat reader: PATH" (--version): which schedscope-dat-reader a trace.dat would be read with.
std::string traceDatReaderLine();

std::string parseRunOptions(const std::vector<std::string>& args, RunOptions& out);
std::string parseBenchOptions(const std::vector<std::string>& args, BenchOptions& out);

extern const char* const kCliHelp;
