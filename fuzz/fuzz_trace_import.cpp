// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: any bytes as a trace (ftrace text, trace-cmd report, perf script). A bad line
// is counted, never fatal; the imported trace must then go through perf sched latency, the switch
// counts and the ftrace export without tripping the sanitizers, and the scenario derived from it
// (when a task ran) must be one the scenario parser accepts. The input is fed in two chunks split
// where its first byte says, so that lines cut across feed() calls are covered too.
#include "metrics/latency.h"
#include "scenarios/derive.h"
#include "scenarios/scenario.h"
#include "trace/ftrace_text.h"
#include "trace/import.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const size_t cut = data[0] % (text.size() + 1);
    sched::TraceImporter imp;
    imp.feed(text.substr(0, cut));
    imp.feed(text.substr(cut));
    sched::ImportReport rep;
    const sched::Trace t = imp.finish(rep);
    if (rep.malformed > 0 && rep.problems.empty()) std::abort(); // a bad line is reported with its number
    (void)sched::perfSchedLatency(t);
    (void)sched::countSwitches(t);
    size_t bytes = 0;
    sched::writeFtraceText(t, [&](std::string_view s) { bytes += s.size(); }, {});
    {
        scen::DeriveOptions opts;
        opts.source = "fuzz.trace";
        const std::string json = scen::deriveScenarioJson(t, opts);
        if (json.empty()) return 0; // no task ran: the callers say there is nothing to derive
        scen::Scenario s;
        scen::ScenarioError err;
        if (!scen::parseScenario(json, "derived.json", s, err)) {
            std::fprintf(stderr, "derived scenario refused: %s\n%s\n", err.text().c_str(), json.c_str());
            std::abort();
        }
    }
    return 0;
}
