// SPDX-License-Identifier: GPL-3.0-or-later
// The reports of `schedscope-cli experiment`: the published post's own layout (perf stat block with
// the standard error, kernbench's mean (std deviation), perf sched latency rows per run in Mike
// Galbraith's -T layout), a side-by-side table of the configurations, and the same numbers as JSON
// or CSV with mean, stddev, standard error, min and max of every metric.
#pragma once

#include "app/cli/simulate.h"
#include "scenarios/experiment.h"

#include <string>
#include <vector>

struct ConfigRuns {
    std::string label;
    const scen::Scenario* scenario = nullptr;
    std::vector<RunResult> runs;
};

// One metric of one configuration: its value in each run.
struct MetricSamples {
    std::string name;
    std::vector<double> values;
};

std::vector<MetricSamples> experimentMetrics(const scen::Experiment& x, const ConfigRuns& c);
std::string formatExperiment(const scen::Experiment& x, const std::vector<ConfigRuns>& configs);
std::string experimentJson(const scen::Experiment& x, const std::vector<ConfigRuns>& configs);
std::string experimentCsv(const scen::Experiment& x, const std::vector<ConfigRuns>& configs);
