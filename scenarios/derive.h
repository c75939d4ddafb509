// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario derived from a trace of a real machine: per task (tasks of one comm pooled into a
// group when there are many) the distributions of its CPU bursts (CPU time between two sleeps,
// across preemptions) and of its sleeps — in classes by burst length with the chain between one
// cycle's class and the next — how many of them, when it started, its policy and nice, and who
// woke it. Simulated on the traced machine's settings it should reproduce the trace's
// metrics; then the preemption model, a slice or a feature can be changed to see what would
// happen to that workload. Written as scenario JSON for people to read and edit.
#pragma once

#include "base/types.h"
#include "trace/trace.h"

#include <string>

namespace scen {

struct DeriveOptions {
    int32_t rootPid = -1; // the workload: this pid and its descendants; -1: every task
    int cpus = 0;         // 0: the trace's
    int hz = 250;
    std::string preempt = "none", kernel = "6.18";
    int poolAbove = 4;    // siblings (one comm, one parent) beyond this many become one group entry
    int cycleClasses = 3; // steady run-sleep cycles in this many classes by burst, a Markov chain between
                          // them (1: independent draws)
    std::string source;   // the trace's file name, for the description
};

struct DeriveSummary {
    int tasks = 0, entries = 0;
    sched::Time runtime = 0; // CPU time of the derived tasks in the trace
    int64_t bursts = 0, sleeps = 0;
};

// The workload's root pid named by a "root=PID" marker (the shared traces' "VALID root=" print),
// or -1 when there is none.
int workloadRootFromMarkers(const sched::Trace& trace);

// Scenario JSON text; the summary says what went in. Empty when no task of the workload ran in
// the trace (a scenario needs one).
std::string deriveScenarioJson(const sched::Trace& trace, const DeriveOptions& opts,
                               DeriveSummary* summary = nullptr);

} // namespace scen
