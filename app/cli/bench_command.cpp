// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli bench: the simulator's own speed, measured in wall time on this machine.
#include "app/cli/run_command.h"

#include "app/cli/bench_suite.h"

#include "base/duration.h"
#include "scenarios/builtin_scenarios.h"

#include <chrono>
#include <cstdio>

using namespace sched;

int benchCommand(const BenchOptions& o, std::ostream& out, std::ostream& err) {
    if (o.suite) return benchSuite(o, out, err);
    std::vector<std::string> names = o.scenarios;
    if (names.empty()) names = {"bench-1cpu-100", "bench-1cpu-10000", "kernel-hogs-waker", "bench-64cpu-800"};
    char b[512];
    std::snprintf(b, sizeof b, "%-20s %5s %6s %10s %9s %12s %12s %10s %11s %8s\n", "scenario", "cpus",
                  "tasks", "sim time", "wall s", "events/s", "switches/s", "ns/event", "sim/wall", "B/slice");
    out << b;
    double costSmall = 0, costLarge = 0;
    for (const std::string& name : names) {
        scen::Scenario s;
        scen::ScenarioError e;
        if (!scen::loadScenario(name, s, e)) {
            err << e.text() << "\n";
            return 2;
        }
        if (o.duration) s.duration = *o.duration;
        // Best of N identical runs: the machine's noise only ever adds time.
        double wall = 1e300;
        Engine eng = scen::instantiate(s, s.seed, TraceOptions{false, o.batch});
        for (int run = 0; run < o.runs; ++run) {
            Engine e = scen::instantiate(s, s.seed, TraceOptions{false, o.batch});
            const auto t0 = std::chrono::steady_clock::now();
            e.runUntil(s.duration);
            const auto t1 = std::chrono::steady_clock::now();
            wall = std::min(wall, std::chrono::duration<double>(t1 - t0).count());
            if (run + 1 == o.runs) eng = std::move(e);
        }
        eng.finish();
        const double events = double(eng.eventsProcessed());
        const double switches = double(eng.contextSwitches());
        const double nsPerEvent = wall * 1e9 / std::max(1.0, events);
        const Trace& tr = eng.trace();
        const double bytesPerSlice =
            tr.slices.size() ? double(tr.slices.bytes()) / double(tr.slices.size()) : 0.0;
        std::snprintf(b, sizeof b, "%-20s %5d %6zu %10s %9.3f %12.0f %12.0f %10.1f %11.2f %8.0f\n",
                      name.c_str(), s.config.cpus, eng.tasks().size(), formatDuration(s.duration).c_str(),
                      wall, events / wall, switches / wall, nsPerEvent, double(s.duration) / 1e9 / wall,
                      bytesPerSlice);
        out << b;
        if (name == "bench-1cpu-100") costSmall = nsPerEvent;
        if (name == "bench-1cpu-10000") costLarge = nsPerEvent;
    }
    if (costSmall > 0 && costLarge > 0) {
        std::snprintf(b, sizeof b, "\nper-event cost, 10000 vs 100 runnable tasks on one CPU: %.2fx\n",
                      costLarge / costSmall);
        out << b;
    }
    out << "(one core, best of " << o.runs
        << " runs; events = scheduler events processed: ticks, work ends,\n"
           " preemption points, timer wakeups, IPIs; B/slice = bytes per recorded slice in the trace "
           "columns)\n";
    return 0;
}
