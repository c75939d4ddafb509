// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/experiment_command.h"

#include "app/cli/experiment_report.h"
#include "app/common/atomic_file.h"
#include "scenarios/workload.h"

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

using namespace sched;

std::string parseExperimentOptions(const std::vector<std::string>& args, ExperimentOptions& out) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](long long lo, long long hi, int& dst, const char* what) -> std::string {
            long long n = 0;
            if (i + 1 >= args.size()) return a + ": needs " + what;
            if (!scen::wholeNumber(args[++i], lo, hi, n))
                return a + ": '" + args[i] + "' is not " + what + "; accepted: " + std::to_string(lo) +
                       " to " + std::to_string(hi);
            dst = int(n);
            return {};
        };
        if (a == "--quick")
            out.quick = true;
        else if (a == "--json")
            out.json = true;
        else if (a == "--csv")
            out.csv = true;
        else if (a == "--repeat" || a == "-r") {
            if (auto e = value(1, 1000, out.repeat, "a run count"); !e.empty()) return e;
        } else if (a == "--jobs" || a == "-j") {
            if (auto e = value(1, 256, out.jobs, "a thread count"); !e.empty()) return e;
        } else if (a == "--output" || a == "-o") {
            if (i + 1 >= args.size()) return a + ": needs a file name";
            out.output = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a +
                   "'; accepted: --quick, --repeat N, --json, --csv, --jobs N, --output FILE";
        } else if (out.file.empty()) {
            out.file = a;
        } else {
            return "one experiment file at a time (got '" + out.file + "' and '" + a + "')";
        }
    }
    if (out.file.empty()) return "needs an experiment file, e.g. scenarios/experiments/preempt-short.json";
    if (out.json && out.csv) return "--json and --csv: choose one";
    return {};
}

int experimentCommand(const ExperimentOptions& o, std::ostream& out, std::ostream& err) {
    scen::Experiment x;
    scen::ScenarioError se;
    if (!scen::loadExperimentFile(o.file, o.quick, x, se)) {
        err << se.text() << "\n";
        return 2;
    }
    if (o.repeat > 0) x.repeat = o.repeat;

    // Every (configuration, run) is independent: run them on worker threads, each into its own
    // slot, so the report does not depend on the order they finish in. Run r uses seed + r in
    // every configuration (the same random workload draws where the configurations agree).
    std::vector<ConfigRuns> configs(x.configs.size());
    for (size_t c = 0; c < x.configs.size(); ++c) {
        configs[c].label = x.configs[c].label;
        configs[c].scenario = &x.configs[c].scenario;
        configs[c].runs.resize(size_t(x.repeat));
    }
    const size_t total = x.configs.size() * size_t(x.repeat);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t jobs = std::min<size_t>(total, o.jobs > 0 ? size_t(o.jobs) : cores);
    LatencyOptions lo;
    lo.mergeByComm = true;
    std::atomic<size_t> next{0};
    const auto t0 = std::chrono::steady_clock::now();
    auto worker = [&] {
        for (size_t k; (k = next.fetch_add(1)) < total;) {
            const size_t c = k / size_t(x.repeat), r = k % size_t(x.repeat);
            const scen::Scenario& s = x.configs[c].scenario;
            configs[c].runs[r] = simulate(s, s.seed + r, lo);
        }
    };
    std::vector<std::thread> pool;
    for (size_t j = 1; j < jobs; ++j)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (size_t c = 0; c < configs.size(); ++c)
        for (size_t r = 0; r < configs[c].runs.size(); ++r)
            if (configs[c].runs[r].halted) { // a limit stopped it: no table would be a run's
                err << "schedscope-cli experiment: " << o.file << ": " << configs[c].label << ", run "
                    << r + 1 << ": " << configs[c].runs[r].engineError << "\n";
                return 1;
            }
    // Each row the file names must be a task group of the runs: a misspelt comm would print zeros.
    std::set<std::string> seen;
    for (const ConfigRuns& c : configs)
        for (const RunResult& r : c.runs)
            for (const LatencyRow& row : r.rows)
                seen.insert(row.comm);
    for (const std::string& comm : x.rows)
        if (!seen.count(comm)) {
            std::string have;
            for (const std::string& name : seen)
                have += (have.empty() ? "" : ", ") + name;
            err << "schedscope-cli experiment: " << o.file << ": rows: '" << comm
                << "' is no task group of the runs; their comms: " << have << "\n";
            return 2;
        }

    std::string text = o.json  ? experimentJson(x, configs)
                       : o.csv ? experimentCsv(x, configs)
                               : formatExperiment(x, configs);
    if (!o.json && !o.csv) {
        char b[200];
        std::snprintf(b, sizeof b, "\n %zu runs (%zu configurations x %d) in %.2f s wall on %zu threads\n",
                      total, x.configs.size(), x.repeat, wall, jobs);
        text += b;
    }
    if (o.output.empty()) {
        out << text;
        return 0;
    }
    if (std::string why; !saveTextAtomically(o.output, text, &why)) {
        err << "schedscope-cli experiment: cannot write " << o.output << ": " << why
            << " (nothing was changed)\n";
        return 1;
    }
    err << "wrote " << o.output << "\n";
    return 0;
}
