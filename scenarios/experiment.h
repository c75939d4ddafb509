// SPDX-License-Identifier: GPL-3.0-or-later
// An experiment: one workload run under two (or more) configurations, repeated, with a report in
// the layout of the kernel discussion it reproduces (perf stat, kernbench, perf sched latency).
// The file holds a base scenario; each configuration and the --quick size are patches merged
// into it (objects by key, arrays by position), so both columns run the same workload.
// Format in scenarios/README.md ("Experiments").
#pragma once

#include "scenarios/scenario.h"

#include <string>
#include <vector>

namespace scen {

enum class ExperimentReport { PerfStat, Kernbench, PerfSchedLatency };

struct ExperimentConfig {
    std::string label;
    Scenario scenario;
};

struct Experiment {
    std::string name, title, description, source;
    ExperimentReport report = ExperimentReport::PerfStat;
    int repeat = 3;
    bool quick = false;                 // the quick size was applied
    std::vector<std::string> rows;      // perf-sched-latency: the comms shown, in order (empty: all)
    std::vector<std::string> reference; // the post's published numbers, printed under the report
    std::vector<ExperimentConfig> configs;
};

bool parseExperiment(const std::string& text, const std::string& fileName, bool quick, Experiment& out,
                     ScenarioError& err);
bool loadExperimentFile(const std::string& path, bool quick, Experiment& out, ScenarioError& err);

} // namespace scen
