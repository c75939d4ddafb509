// SPDX-License-Identifier: GPL-3.0-or-later
// The training run of the profile-guided build (CMakeLists.txt, SCHEDSCOPE_PGO): the engine on
// the kinds of runs SchedScope is used for, each small enough for the instrumented build to take
// a few seconds. The profile steers only how GCC lays out and inlines the code: what the engine
// computes is the same with or without it (the tests and the determinism checks run on the
// profiled build).
#include "metrics/latency.h"
#include "scenarios/scenario.h"
#include "trace/ftrace_text.h"
#include "trace/import.h"

#include <cstdio>
#include <string>

using namespace sched;

namespace {

struct Training {
    const char* name;
    const char* json;
    bool batch;   // run ops ahead (the CLI, experiments) or one event each (the GUI)
    bool samples; // record the EEVDF samples (the GUI's charts)
};

// The published experiments' workloads (scenarios/experiments/*.json), scaled down; a GUI-style
// run; a trace written and read back.
const Training kRuns[] = {
    {"messaging",
     R"({"name": "train", "duration": "20s", "machine": {"cpus": 64, "hz": 250, "kernel": "auto-rfc", "preempt": "none"},
        "tasks": [{"workload": "messaging", "args": "-g 20 -t -l 150"}, {"workload": "kthreads", "args": "-r 10 -c 20"}]})",
     true, false},
    {"hackbench pipes",
     R"({"name": "train", "duration": "2s", "machine": {"cpus": 8, "hz": 1000, "preempt": "full"},
        "tasks": [{"workload": "hackbench", "args": "-g 4 -l 300 -p"}]})",
     true, false},
    {"kernbench", R"({"name": "train", "duration": "3s", "machine": {"cpus": 8, "hz": 250, "preempt": "none"},
        "tasks": [{"workload": "kernbench", "args": "-j 16"}]})",
     true, false},
    {"preempt-short",
     R"({"name": "train", "duration": "2s", "machine": {"cpus": 2, "hz": 250, "preempt": "lazy"},
        "tasks": [{"workload": "massive_intr", "args": "8 2"}, {"workload": "cyclictest", "args": "-t 2 -i 1000 -l 1500"},
                  {"workload": "browser", "args": ""}, {"workload": "schbench", "args": "-m 1 -t 4 -r 2"}]})",
     true, false},
    {"gui",
     R"({"name": "train", "duration": "150ms", "machine": {"cpus": 64, "hz": 250, "preempt": "voluntary"},
        "tasks": [{"workload": "messaging", "args": "-g 10 -t -l 100"}, {"workload": "kthreads", "args": "-r 10 -c 20"}]})",
     false, true},
};

} // namespace

int main() {
    for (const Training& r : kRuns) {
        scen::Scenario s;
        scen::ScenarioError err;
        if (!scen::parseScenario(r.json, r.name, s, err)) {
            std::fprintf(stderr, "schedscope-pgo-train: %s\n", err.text().c_str());
            return 1;
        }
        Engine e = scen::instantiate(s, s.seed, TraceOptions{r.samples, r.batch});
        e.runUntil(s.duration);
        e.finish();
        const auto rows = perfSchedLatency(e.trace());
        const SwitchCounts sw = countSwitches(e.trace());
        std::printf("%-16s %8llu events %6zu latency rows %8lld switches\n", r.name,
                    (unsigned long long)e.eventsProcessed(), rows.size(), (long long)sw.total);
        if (!r.samples) continue;
        // The exporter and the importer, on the GUI-style run's trace.
        std::string text;
        writeFtraceText(e.trace(), [&](std::string_view part) { text.append(part); });
        ImportReport report;
        const Trace back = importTraceText(text, report);
        std::printf("%-16s %8zu bytes of ftrace text, %zu slices read back\n", "export/import", text.size(),
                    back.slices.size());
    }
    return 0;
}
