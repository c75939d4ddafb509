// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: any bytes as a scenario file (or an rt-app file, or an experiment, as the CLI
// reads them). The parser must accept or name the file, line and field of what is wrong — never
// crash or hang — and whatever it accepts must build an engine that simulates without tripping
// the sanitizers. Runs are kept short (2 ms of simulated time, at most 200 tasks) so that the
// fuzzer spends its time on the parser's paths.
#include "scenarios/builtin_scenarios.h"
#include "scenarios/experiment.h"
#include "scenarios/scenario.h"
#include "scenarios/workload.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    scen::Experiment x;
    scen::ScenarioError xerr;
    if (!scen::parseExperiment(text, "fuzz.json", true, x, xerr) && xerr.message.empty()) std::abort();
    scen::Scenario s;
    scen::ScenarioError err;
    const bool ok = scen::looksLikeRtApp(text) ? scen::loadRtAppScenario(text, "fuzz.json", s, err)
                                               : scen::parseScenario(text, "fuzz.json", s, err);
    if (!ok) {
        // A refusal must say where and what.
        if (err.message.empty() || err.text().find("fuzz.json") == std::string::npos) std::abort();
        return 0;
    }
    int tasks = 0;
    for (const scen::TaskGroupSpec& g : s.tasks)
        tasks += g.count;
    if (tasks > 200 || s.config.cpus > 64) return 0;
    sched::Engine e = scen::instantiate(s, 1);
    e.runUntil(2'000'000);
    return 0;
}
