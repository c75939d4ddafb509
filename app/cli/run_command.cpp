// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/run_command.h"

#include "scenarios/workload.h"

#include "app/cli/export.h"
#include "app/cli/simulate.h"
#include "base/duration.h"
#include "metrics/export.h"
#include "metrics/latency.h"
#include "metrics/perf_report.h"
#include "scenarios/builtin_scenarios.h"
#include "scenarios/gallery.h"

#include <cstdio>
#include <numeric>
#include <sstream>

using namespace sched;

namespace {

std::string jsonStats(const RunStats& s) {
    char b[256];
    std::snprintf(
        b, sizeof b,
        "{\"mean\": %.6f, \"stddev\": %.6f, \"stderr\": %.6f, \"min\": %.6f, \"max\": %.6f, \"n\": %d}",
        s.mean, s.stddev, s.stderror, s.min, s.max, s.n);
    return b;
}

void printHeader(const scen::Scenario& s, std::ostream& out) {
    const SchedConfig& c = s.config;
    out << "# scenario " << s.name << " (" << s.source << ")\n";
    out << "# " << c.cpus << " CPUs, HZ=" << c.hz << ", kernel " << kernelSpecName(c.build, c.profile) << " "
        << kernelBuildName(c.build) << (c.arch ? ", " + std::string(archInfo(c.arch).name) : std::string())
        << ", preempt=" << preemptModelName(c.preempt) << ", base slice " << formatDuration(c.baseSlice())
        << ", simulated " << formatDuration(s.duration) << "\n";
    std::string off; // the bits that differ from this kernel's defaults
    for (size_t k = 0; k < kFeatureCount; ++k)
        if (const Feature f = Feature(k); c.feature(f) != c.featureDefault(f))
            off += (c.feature(f) ? " " : " NO_") + std::string(featureName(f));
    if (!off.empty()) out << "# features:" << off << "\n";
}

} // namespace

int runCommand(const RunOptions& o, std::ostream& out, std::ostream& err, RunImageWriter image) {
    // NAME@KEY=VALUE,...: its settings, with the command line's options over them, applied at once
    // (kernel=7.1 and --preempt full together, whatever the scenario chose).
    std::string name, error;
    scen::ScenarioSettings settings;
    if (!scen::parseScenarioSpec(o.scenario.empty() ? scen::kDefaultScenario : o.scenario, name, settings,
                                 error)) {
        err << "schedscope-cli: " << error << "\n";
        return 2;
    }
    scen::overlayScenarioSettings(settings, o);
    scen::Scenario s;
    scen::ScenarioError se;
    if (!scen::loadScenario(name, s, se)) {
        err << se.text() << "\n";
        return 2;
    }
    if (std::string e = scen::applyScenarioSettings(settings, s); !e.empty()) {
        err << "schedscope-cli: " << e << "\n";
        return 2;
    }
    LatencyOptions lo;
    lo.mergeByComm = !o.perTask;
    parseLatencySort(o.sort, lo.sort);

    std::vector<RunResult> runs;
    std::vector<double> cs, vol, invol, elapsed;
    for (int r = 0; r < o.repeat; ++r) {
        runs.push_back(simulate(s, s.seed + uint64_t(r), lo, o.batch));
        const RunResult& rr = runs.back();
        if (rr.halted) { // a limit stopped it: no table would be a run's
            err << "schedscope-cli: " << s.source << ": " << rr.engineError << "\n";
            return 1;
        }
        if (!rr.engineError.empty()) err << "schedscope-cli: warning: " << rr.engineError << "\n";
        cs.push_back(double(rr.switches.total));
        vol.push_back(double(rr.switches.voluntary));
        invol.push_back(double(rr.switches.involuntary));
        elapsed.push_back(double(rr.elapsed) / 1e9);
    }
    PerfStatBlock ps;
    ps.switches = computeRunStats(cs);
    ps.voluntary = computeRunStats(vol);
    ps.involuntary = computeRunStats(invol);
    ps.elapsedSec = computeRunStats(elapsed);

    if (!o.exportFtrace.empty()) {
        if (int rc = exportFtraceCommand(o, s, err); rc != 0) return rc;
    }
    if (!o.lagCsv.empty()) {
        if (int rc = exportLagCsvCommand(o, s, err); rc != 0) return rc;
    }
    if (!o.exportTimeline.empty() || !o.exportChart.empty()) {
        if (!image) {
            err << "schedscope-cli: --export-timeline, --export-chart: this program was built without the "
                   "image export\n";
            return 2;
        }
        if (int rc = image(o, s, err); rc != 0) return rc;
    }
    if (o.json) {
        std::ostringstream j;
        j << "{\n  \"scenario\": " << jsonQuote(s.name)
          << ",\n  \"preempt\": " << jsonQuote(std::string(preemptModelName(s.config.preempt)))
          << ",\n  \"kernel\": " << jsonQuote(std::string(kernelProfileName(s.config.profile)))
          << ",\n  \"build\": " << jsonQuote(std::string(kernelBuildName(s.config.build)))
          << ",\n  \"cpus\": " << s.config.cpus << ",\n  \"hz\": " << s.config.hz
          << ",\n  \"repeat\": " << o.repeat << ",\n  \"context_switches\": " << jsonStats(ps.switches)
          << ",\n  \"voluntary\": " << jsonStats(ps.voluntary)
          << ",\n  \"involuntary\": " << jsonStats(ps.involuntary)
          << ",\n  \"elapsed_s\": " << jsonStats(ps.elapsedSec) << ",\n  \"runs\": [";
        for (size_t r = 0; r < runs.size(); ++r) {
            j << (r ? "," : "") << "\n    {\"seed\": " << s.seed + r << ", \"latency\": [";
            for (size_t i = 0; i < runs[r].rows.size(); ++i) {
                j << (i ? ", " : "") << "\n      " << latencyRowJson(runs[r].rows[i]);
            }
            j << "],\n     \"cpu_busy_ns\": [";
            for (size_t c = 0; c < runs[r].cpu.size(); ++c)
                j << (c ? ", " : "") << runs[r].cpu[c].busy;
            j << "],\n     \"rseq_slice_ext\": {";
            for (size_t k = 0; k < runs[r].sliceExts.size(); ++k)
                j << (k ? ", " : "") << jsonQuote(std::string(sliceExtEndName(SliceExtEnd(k)))) << ": "
                  << runs[r].sliceExts[k];
            j << "},\n     \"tool_output\": {";
            for (size_t w = 0; w < s.workloads.size(); ++w)
                j << (w ? ", " : "") << jsonQuote(s.workloads[w].tool + " " + s.workloads[w].args) << ": "
                  << jsonQuote(runs[r].toolOutput[w]);
            j << "}}";
        }
        j << "\n  ]\n}\n";
        out << j.str();
        return 0;
    }

    printHeader(s, out);
    for (size_t r = 0; r < runs.size(); ++r) {
        if (r > 0 && !o.allTables) break;
        if (runs.size() > 1)
            out << "\n# perf sched latency, run " << r + 1 << " of " << runs.size() << " (seed " << s.seed + r
                << ")";
        out << formatLatencyTable(runs[r].rows);
    }
    ps.target = "system wide";
    out << formatPerfStat(ps);
    if (o.repeat > 1)
        out << " (+- is the standard error of the mean over " << o.repeat
            << " runs, as perf stat --repeat prints it)\n";
    out << "\n CPU utilisation (run 1):\n";
    const Time span = std::max<Time>(1, runs[0].elapsed);
    for (size_t c = 0; c < runs[0].cpu.size(); ++c) {
        char b[128];
        std::snprintf(b, sizeof b, "   CPU%-3zu %6.2f%% busy  %9lld slices\n", c,
                      100.0 * double(runs[0].cpu[c].busy) / double(span), (long long)runs[0].cpu[c].switches);
        out << b;
    }
    const auto& x = runs[0].sliceExts;
    if (const uint64_t granted = std::accumulate(x.begin(), x.end(), uint64_t(0)); granted > 0) {
        // the grants' outcomes as debugfs rseq/stats counts them (s_yielded, s_expired, s_revoked, s_aborted)
        out << "\n RSEQ slice extensions (run 1): " << granted << " granted:";
        for (size_t k = 0; k < x.size(); ++k)
            out << (k ? ", " : " ") << x[k] << " " << sliceExtEndName(SliceExtEnd(k));
        out << "\n";
    }
    // A legacy rseq area asks in vain where the v2 ABI is required (rseq-v2-slice-ext): a task group
    // whose program, or a program its forks run (children inherit the area), requests extensions.
    const auto requests = [&](int32_t program) {
        std::vector<bool> seen(s.programs.size());
        std::vector<int32_t> todo{program};
        while (!todo.empty()) {
            const int32_t p = todo.back();
            todo.pop_back();
            if (p < 0 || size_t(p) >= seen.size() || seen[size_t(p)]) continue;
            seen[size_t(p)] = true;
            for (const sched::Op& op : s.programs[size_t(p)].ops) {
                if (op.kind == sched::OpKind::SliceRequest) return true;
                if (op.kind == sched::OpKind::Fork) todo.push_back(op.target);
            }
        }
        return false;
    };
    if (s.config.sliceExtAvailable() && s.config.has(sched::Rule::RseqV2SliceExt))
        for (const scen::TaskGroupSpec& g : s.tasks) {
            if (g.rseqV1 && requests(g.program))
                out << "\n RSEQ slice extensions: none for " << g.comm
                    << ": its rseq area is the original 32 bytes (\"rseq\": \"v1\"), and since 7.1 (7.0.10) "
                       "prctl(PR_RSEQ_SLICE_EXTENSION) refuses it (-ENOTSUPP, 99428157dcf3)\n";
        }
    if (!runs[0].mutexes.empty()) {
        // per mutex: how often it was taken, how often that had to wait (spinning or asleep on the
        // wait list), the handoffs a first waiter asked for, and the wait from mutex_lock() to owning it
        out << "\n Kernel mutexes (run 1):\n";
        for (const Mutex& m : runs[0].mutexes) {
            char b[256];
            std::snprintf(
                b, sizeof b,
                "   %-16s %9lld acquired  %9lld contended  %9lld slept  %7lld handoffs  wait avg %.3f ms  "
                "max %.3f ms\n",
                m.name.c_str(), (long long)m.acquired, (long long)m.contended, (long long)m.slept,
                (long long)m.handoffs, m.contended ? double(m.waitSum) / double(m.contended) / 1e6 : 0.0,
                double(m.waitMax) / 1e6);
            out << b;
            if (!s.config.proxyExecOn()) continue;
            // proxy_exec.cpp: the owner's time in waiters' contexts, and the waiters that slept after all
            const bool migrates = s.config.has(sched::Rule::ProxyDonorMigration);
            std::snprintf(
                b, sizeof b,
                "   %-16s proxy execution: the owner ran %.3f ms in waiters' contexts (%lld picks of a "
                "waiter ran it); %lld waiters slept after all (owner asleep%s, or a cycle of owners)\n",
                "", double(m.proxied) / 1e6, (long long)m.proxyRuns, (long long)m.proxyDeactivations,
                migrates ? "" : " or on another CPU");
            out << b;
            if (!migrates) continue;
            std::snprintf(b, sizeof b,
                          "   %-16s %lld waiters moved to the owner's CPU (proxy_migrate_task()), %lld sent "
                          "back before they ran (proxy_force_return())\n",
                          "", (long long)m.proxyMigrations, (long long)m.proxyReturns);
            out << b;
        }
    }
    for (size_t w = 0; w < s.workloads.size(); ++w) // each tool's own output, as it prints it
        out << "\n$ " << s.workloads[w].tool << " " << s.workloads[w].args << "   (run 1)\n"
            << runs[0].toolOutput[w];
    return 0;
}

// The gallery's groups (scenarios/gallery.h), each scenario with its description. Written in one
// piece at the end: loading the scenarios sets errno, which must still say why a write failed.
int listCommand(std::ostream& to) {
    std::ostringstream out;
    for (const scen::GalleryGroup& g : scen::galleryGroups()) {
        out << "== " << g.title << ": " << g.blurb << "\n";
        for (const std::string& name : g.names) {
            scen::Scenario s;
            scen::ScenarioError e;
            if (!scen::loadScenario(name, s, e)) {
                out << name << "  (invalid: " << e.text() << ")\n";
                continue;
            }
            out << name << (name == scen::kDefaultScenario ? "  [default]" : "") << "\n    " << s.description
                << "\n";
        }
    }
    to << out.str();
    return 0;
}
