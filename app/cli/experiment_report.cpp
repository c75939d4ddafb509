// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/experiment_report.h"

#include "base/duration.h"
#include "metrics/perf_report.h"
#include "metrics/run_stats.h"
#include "scenarios/workload.h"

#include <cstdio>
#include <map>

using namespace sched;

namespace {

std::string configSummary(const scen::Scenario& s) {
    const SchedConfig& c = s.config;
    std::string out =
        "kernel " + std::string(kernelProfileName(c.profile)) + " " + std::string(kernelBuildName(c.build)) +
        ", preempt=" + std::string(preemptModelName(c.preempt)) + ", " + std::to_string(c.cpus) +
        " CPUs, HZ " + std::to_string(c.hz) + ", base slice " + formatDuration(c.baseSlice());
    for (size_t k = 0; k < kFeatureCount; ++k)
        if (const Feature f = Feature(k); c.feature(f) != c.featureDefault(f)) // as this kernel differs
            out += std::string(", ") + (c.feature(f) ? "" : "NO_") + std::string(featureName(f));
    return out;
}

std::string fmt(const char* f, double v) {
    char b[96];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string pad(std::string s, size_t w, bool right = false) {
    if (s.size() < w) s = right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
    return s;
}

// The latency row of `comm` in a run (merged by comm), or an empty row.
LatencyRow rowOf(const RunResult& r, const std::string& comm) {
    for (const LatencyRow& row : r.rows)
        if (row.comm == comm) return row;
    LatencyRow none;
    none.comm = comm;
    none.merged = 0;
    return none;
}

std::vector<std::string> latencyComms(const scen::Experiment& x, const ConfigRuns& c) {
    if (!x.rows.empty()) return x.rows;
    std::vector<std::string> comms;
    if (!c.runs.empty())
        for (const LatencyRow& r : c.runs[0].rows)
            comms.push_back(r.comm);
    return comms;
}

std::string change(double a, double b) {
    if (a == 0) return "";
    return fmt("%+.1f%%", 100.0 * (b - a) / a);
}

// Side-by-side table: one line per metric, a column per configuration (mean and spread), and
// the change of each later configuration against the first.
std::string sideBySide(const std::vector<ConfigRuns>& configs,
                       const std::vector<std::vector<MetricSamples>>& metrics,
                       const std::vector<std::pair<std::string, std::string>>& shown, bool stderrSpread) {
    std::string out = "\n Side by side: mean " +
                      std::string(stderrSpread ? "+- standard error" : "(std deviation)") + " over " +
                      std::to_string(configs.empty() ? 0 : configs[0].runs.size()) + " runs\n";
    const size_t col = 28;
    std::string head = pad("", 32);
    for (const auto& c : configs)
        head += pad(c.label, col, true);
    for (size_t i = 1; i < configs.size(); ++i)
        head += pad("vs " + configs[0].label, 20, true);
    out += head + "\n";
    for (const auto& [metric, title] : shown) {
        std::string line = pad(" " + title, 32);
        std::vector<double> means;
        for (size_t ci = 0; ci < configs.size(); ++ci) {
            const MetricSamples* m = nullptr;
            for (const auto& s : metrics[ci])
                if (s.name == metric) m = &s;
            if (!m) {
                line += pad("-", col, true);
                means.push_back(0);
                continue;
            }
            const RunStats st = computeRunStats(m->values);
            means.push_back(st.mean);
            const double spread = stderrSpread ? st.stderror : st.stddev;
            const bool whole = st.mean >= 1000;
            std::string cell =
                whole ? groupThousands(st.mean) : fmt(st.mean >= 10 ? "%.2f" : "%.4f", st.mean);
            cell += stderrSpread ? " +- " : " (";
            cell += whole ? groupThousands(spread) : fmt(st.mean >= 10 ? "%.2f" : "%.4f", spread);
            if (!stderrSpread) cell += ")";
            line += pad(cell, col, true);
        }
        for (size_t ci = 1; ci < configs.size(); ++ci)
            line += pad(change(means[0], means[ci]), 20, true);
        out += line + "\n";
    }
    return out;
}

std::string latencyRunRow(int run, const LatencyRow& r) {
    std::string name =
        std::to_string(run) + "  " + r.comm +
        (r.merged > 1 ? ":(" + std::to_string(r.merged) + ") " : ":" + std::to_string(r.merged) + " ");
    name = pad(name, 26);
    char b[200];
    std::snprintf(b, sizeof b, "|%11.3f ms |%9lld | avg:%8.3f ms | max:%8.3f ms | sum:%9.3f ms |",
                  double(r.runtime) / 1e6, (long long)r.count, double(r.avgDelay()) / 1e6,
                  double(r.maxDelay) / 1e6, double(r.totalDelay) / 1e6);
    return name + b + "\n";
}

} // namespace

// The involuntary count of a perf-stat experiment as the PREEMPT_AUTO posts made it: their
// voluntary and involuntary counts add up to perf stat -a -e cs exactly (3,173,961 = 2,286,220 +
// 887,742), so they split every switch on every CPU, the idle task's switch-outs included; by
// sched_switch's prev_state those are R, with the preempted (R+) and still-runnable tasks, while
// voluntary ones are the blocked (S, D) and exiting. So involuntary = all switches - voluntary,
// where the kernel's nivcsw (rusage, the real-machine traces) leaves the idle task out.
static int64_t postInvoluntary(const SwitchCounts& s) {
    return s.total - s.voluntary;
}

std::vector<MetricSamples> experimentMetrics(const scen::Experiment& x, const ConfigRuns& c) {
    const bool post = x.report == scen::ExperimentReport::PerfStat;
    std::vector<MetricSamples> m;
    auto add = [&](const std::string& name, auto get) {
        MetricSamples s{name, {}};
        for (const RunResult& r : c.runs)
            s.values.push_back(get(r));
        m.push_back(std::move(s));
    };
    add("context_switches", [](const RunResult& r) { return double(r.switches.total); });
    add("voluntary", [](const RunResult& r) { return double(r.switches.voluntary); });
    add("involuntary", [post](const RunResult& r) {
        return double(post ? postInvoluntary(r.switches) : r.switches.involuntary);
    });
    add("elapsed_s", [](const RunResult& r) { return double(r.elapsed) / 1e9; });
    const size_t kb = c.runs.empty() ? 0 : c.runs[0].kernbench.size();
    for (size_t k = 0; k < kb; ++k) {
        const std::string p = kb > 1 ? "kernbench" + std::to_string(k + 1) + "." : "kernbench.";
        add(p + "elapsed_s", [k](const RunResult& r) { return r.kernbench[k].elapsed; });
        add(p + "user_s", [k](const RunResult& r) { return r.kernbench[k].user; });
        add(p + "system_s", [k](const RunResult& r) { return r.kernbench[k].system; });
        add(p + "percent_cpu", [k](const RunResult& r) { return r.kernbench[k].percentCpu; });
        add(p + "involuntary", [k](const RunResult& r) { return r.kernbench[k].involuntary; });
        add(p + "voluntary", [k](const RunResult& r) { return r.kernbench[k].voluntary; });
    }
    for (const std::string& comm : latencyComms(x, c)) {
        add(comm + ".runtime_ms", [&](const RunResult& r) { return double(rowOf(r, comm).runtime) / 1e6; });
        add(comm + ".switches", [&](const RunResult& r) { return double(rowOf(r, comm).count); });
        add(comm + ".avg_delay_ms",
            [&](const RunResult& r) { return double(rowOf(r, comm).avgDelay()) / 1e6; });
        add(comm + ".max_delay_ms",
            [&](const RunResult& r) { return double(rowOf(r, comm).maxDelay) / 1e6; });
        add(comm + ".sum_delay_ms",
            [&](const RunResult& r) { return double(rowOf(r, comm).totalDelay) / 1e6; });
    }
    return m;
}

std::string formatExperiment(const scen::Experiment& x, const std::vector<ConfigRuns>& configs) {
    std::string out = "# " + (x.title.empty() ? x.name : x.title) + "\n# experiment " + x.source +
                      (x.quick ? " (quick size)" : "") + "\n";
    if (!configs.empty() && configs[0].scenario) {
        const scen::Scenario& s = *configs[0].scenario;
        for (const scen::Workload& w : s.workloads)
            out += "# $ " + w.tool + " " + w.args + "\n";
        out += "# simulated up to " + formatDuration(s.duration) + " per run, seeds " +
               std::to_string(s.seed) + ".." + std::to_string(s.seed + uint64_t(configs[0].runs.size()) - 1) +
               "\n";
    }
    std::vector<std::vector<MetricSamples>> metrics;
    for (const auto& c : configs)
        metrics.push_back(experimentMetrics(x, c));
    for (const auto& c : configs) {
        out += "\n## " + c.label + ": " + configSummary(*c.scenario) + "\n";
        for (const RunResult& r : c.runs)
            if (!r.engineError.empty()) out += "# warning: " + r.engineError + "\n";
        switch (x.report) {
        case scen::ExperimentReport::PerfStat: {
            PerfStatBlock b;
            std::vector<double> cs, vol, inv, el;
            for (const RunResult& r : c.runs) {
                cs.push_back(double(r.switches.total));
                vol.push_back(double(r.switches.voluntary));
                inv.push_back(double(postInvoluntary(r.switches)));
                el.push_back(double(r.elapsed) / 1e9);
            }
            b.switches = computeRunStats(cs);
            b.voluntary = computeRunStats(vol);
            b.involuntary = computeRunStats(inv);
            b.elapsedSec = computeRunStats(el);
            out += formatPerfStat(b);
            out += "# involuntary: every switch whose prev was still runnable, the idle task's "
                   "included, as the post counted (voluntary + involuntary = context-switches)\n";
            break;
        }
        case scen::ExperimentReport::Kernbench: {
            for (size_t k = 0; k < c.scenario->workloads.size(); ++k) {
                const scen::Workload& w = c.scenario->workloads[k];
                if (!std::holds_alternative<scen::KernbenchArgs>(w.params)) continue;
                size_t idx = 0;
                for (size_t j = 0; j < k; ++j)
                    idx += std::holds_alternative<scen::KernbenchArgs>(c.scenario->workloads[j].params);
                std::vector<scen::KernbenchNumbers> runs;
                for (const RunResult& r : c.runs)
                    runs.push_back(r.kernbench[idx]);
                out += scen::formatKernbench(
                    scen::kernbenchLoadName(std::get<scen::KernbenchArgs>(w.params), c.scenario->config.cpus),
                    runs);
                for (const auto& n : runs)
                    if (!n.finished) {
                        out += "(make had not finished within the simulated time in some runs)\n";
                        break;
                    }
            }
            break;
        }
        case scen::ExperimentReport::PerfSchedLatency: {
            const std::string header = "    Task                  |   Runtime ms  | Switches | Avg delay ms  "
                                       "  | Max delay ms    | Sum delay ms     |";
            const std::string dashes = " " + std::string(header.size() - 1, '-');
            out += dashes + "\n" + header + "\n" + dashes + "\n";
            for (const std::string& comm : latencyComms(x, c)) {
                for (size_t r = 0; r < c.runs.size(); ++r)
                    out += latencyRunRow(int(r + 1), rowOf(c.runs[r], comm));
            }
            out += dashes + "\n";
            break;
        }
        }
    }
    // The side-by-side comparison, in the spread the published numbers use (perf stat: standard
    // error; kernbench and perf sched latency: std deviation).
    std::vector<std::pair<std::string, std::string>> shown;
    bool stderrSpread = true;
    if (x.report == scen::ExperimentReport::PerfStat) {
        shown = {{"context_switches", "context-switches"},
                 {"voluntary", "voluntary"},
                 {"involuntary", "involuntary"},
                 {"elapsed_s", "seconds time elapsed"}};
    } else if (x.report == scen::ExperimentReport::Kernbench) {
        stderrSpread = false;
        shown = {{"kernbench.elapsed_s", "wall"},      {"kernbench.user_s", "utime"},
                 {"kernbench.system_s", "stime"},      {"kernbench.percent_cpu", "%cpu"},
                 {"kernbench.involuntary", "inv-csw"}, {"kernbench.voluntary", "vol-csw"}};
    } else {
        stderrSpread = false;
        for (const std::string& comm : latencyComms(x, configs.empty() ? ConfigRuns{} : configs[0])) {
            shown.push_back({comm + ".switches", comm + " switches"});
            shown.push_back({comm + ".avg_delay_ms", comm + " avg ms"});
            shown.push_back({comm + ".max_delay_ms", comm + " max ms"});
            shown.push_back({comm + ".sum_delay_ms", comm + " sum ms"});
        }
    }
    out += sideBySide(configs, metrics, shown, stderrSpread);
    if (!x.reference.empty()) {
        out += "\n The published numbers (the post in the title), for comparison:\n";
        for (const std::string& line : x.reference)
            out += "   " + line + "\n";
    }
    return out;
}

std::string experimentJson(const scen::Experiment& x, const std::vector<ConfigRuns>& configs) {
    std::string j = "{\n  \"experiment\": " + jsonQuote(x.name) + ",\n  \"source\": " + jsonQuote(x.source) +
                    ",\n  \"quick\": " + (x.quick ? "true" : "false") + ",\n  \"configurations\": [";
    for (size_t ci = 0; ci < configs.size(); ++ci) {
        const ConfigRuns& c = configs[ci];
        j += std::string(ci ? "," : "") + "\n    {\"label\": " + jsonQuote(c.label) +
             ", \"settings\": " + jsonQuote(configSummary(*c.scenario)) +
             ", \"runs\": " + std::to_string(c.runs.size()) + ",\n     \"metrics\": {";
        const auto metrics = experimentMetrics(x, c);
        for (size_t mi = 0; mi < metrics.size(); ++mi) {
            const RunStats s = computeRunStats(metrics[mi].values);
            char b[320];
            std::snprintf(b, sizeof b,
                          "{\"mean\": %.6f, \"stddev\": %.6f, \"stderr\": %.6f, \"min\": %.6f, \"max\": "
                          "%.6f, \"n\": %d, \"values\": [",
                          s.mean, s.stddev, s.stderror, s.min, s.max, s.n);
            j += std::string(mi ? "," : "") + "\n       " + jsonQuote(metrics[mi].name) + ": " + b;
            for (size_t v = 0; v < metrics[mi].values.size(); ++v)
                j += (v ? ", " : "") + fmt("%.6f", metrics[mi].values[v]);
            j += "]}";
        }
        j += "}}";
    }
    return j + "\n  ]\n}\n";
}

std::string experimentCsv(const scen::Experiment& x, const std::vector<ConfigRuns>& configs) {
    std::string out = "experiment,configuration,metric,n,mean,stddev,stderr,min,max\n";
    auto csvField = [](const std::string& s) {
        if (s.find_first_of(",\"\n") == std::string::npos) return s;
        std::string q = "\"";
        for (char ch : s)
            q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        return q + "\"";
    };
    for (const ConfigRuns& c : configs)
        for (const MetricSamples& m : experimentMetrics(x, c)) {
            const RunStats s = computeRunStats(m.values);
            char b[256];
            std::snprintf(b, sizeof b, ",%d,%.6f,%.6f,%.6f,%.6f,%.6f\n", s.n, s.mean, s.stddev, s.stderror,
                          s.min, s.max);
            out += csvField(x.name) + "," + csvField(c.label) + "," + csvField(m.name) + b;
        }
    return out;
}
