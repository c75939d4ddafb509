// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/options.h"

#include "engine/custom_slice.h"
#include "trace/file.h"

#include "base/duration.h"
#include "metrics/latency.h"

#include <cctype>
#include <cstdlib>

using namespace sched;

const char* const kCliHelp = R"(schedscope-cli - run the SchedScope scheduler simulator without a GUI

Usage:
  schedscope-cli run SCENARIO [options]   simulate and print perf-style tables
  schedscope-cli list                     list the built-in scenarios
  schedscope-cli bench [SCENARIO...] [--runs N] [--duration D] [--no-batch]
                                          measure the simulator's speed (best of N runs, default 3)
  schedscope-cli bench --suite [--quick]  every figure of docs/performance.md, with the machine and
                                          date: engine, messaging run (instructions with valgrind),
                                          timeline (a build tree's bench_view), trace import beside
                                          trace-cmd report; --quick: small sizes, seconds
  schedscope-cli experiment FILE [options]
                                          run an experiment (scenarios/experiments/*.json): every
                                          configuration N times, then the post's report layout
  schedscope-cli trace FILE [--root PID | --all] [--pids] [--sort KEYS] [--critical-path PID@TIME]
                                          import a real trace (ftrace text, trace-cmd report, perf
                                          script, trace.dat; .xz/.gz/.zst) and print its metrics;
                                          --critical-path: what led to the task running at TIME
  schedscope-cli derive TRACE [-o FILE] [--root PID | --all] [--cpus N] [--hz N] [--preempt M] [--kernel K] [--classes N]
                                          a scenario from a trace: per task its bursts and sleeps
                                          (N classes with memory, default 3), policy and nice, to
                                          re-simulate and then change
  schedscope-cli compare A B [--from T] [--to T] [--align EVENT]
                                          two runs side by side per task group; A and B are each a
                                          scenario with optional settings (NAME@preempt=full,cpus=4,
                                          feature=PREEMPT_SHORT=off) or a trace file; --align lines B
                                          up with A at an event both have: start, run:COMM (first
                                          run), wake:COMM (first wakeup), marker:TEXT
  schedscope-cli kernels [--markdown | KERNEL KERNEL]
                                          the kernel profiles as tables of rules, each with its
                                          commit (--markdown: docs/kernels.md); with two names,
                                          the rules that differ between them
  schedscope-cli --help
  schedscope-cli --version

SCENARIO is a scenario file (JSON, see scenarios/README.md) or the name of a scenario the program
ships: a built-in one, a real-machine one (real-machine/cyclictest-i1000-l5000) or an experiment's
first configuration at its quick size (experiments/preempt-short); schedscope-cli list shows them
all. The default scenario is kernel-hogs-waker. Settings may follow an @, as the options below
without their dashes: preempt-short@kernel=7.1,preempt=lazy (run's own options go over them).

Options of run (each overrides the scenario's own setting):
  --preempt MODEL        none | voluntary | full | lazy   (/sys/kernel/debug/sched/preempt)
  --kernel K             6.6-queue | 6.12 | 6.18 | 6.18.44 | 6.18.45 | 7.0 | 7.1 | auto-rfc   (6.18 = 6.18.0;
                         auto-rfc = the 2024 PREEMPT_AUTO build; 6.6-queue = the sched/eevdf queue of
                         autumn 2023; schedscope-cli kernels lists their rules)
  --arch A               x86_64 (default), arm64, ..., arm, alpha: which preemption models the kernel
                         builds (7.0 keeps none and voluntary only where there is no lazy preemption)
  --cpus N               number of CPUs, 1..256
  --hz N                 tick rate: 100 | 250 | 300 | 1000
  --base-slice D         normalized base slice, e.g. 0.7ms; the kernel scales it by
                         1 + log2(min(cpus, 8)) (0.7ms on 2 CPUs gives 1.4ms)
  --sysctl-base-slice D  the scaled value, as written to /sys/kernel/debug/sched/base_slice_ns
  --feature NAME=on|off  a scheduler feature, e.g. PREEMPT_SHORT=off (repeatable)
  --rseq-slice-ext D     7.0's RSEQ slice extension, 5us..50us (/sys/kernel/debug/rseq/slice_ext_nsec),
                         or off: a kernel built without CONFIG_RSEQ_SLICE_EXTENSION
  --proxy-exec on|off    proxy execution (CONFIG_SCHED_PROXY_EXEC, 6.17+): a mutex waiter stays
                         queued and lends its slice to the owner; off by default
  --seed N               random seed (default: the scenario's, else 1)
  --duration D           simulated time, e.g. 500ms, 10s
  --repeat N             run N times with seeds seed, seed+1, ...; the perf stat block then
                         shows mean +- standard error, as perf stat --repeat does
  --sort KEYS            latency table order, perf's keys: avg,max,switch,runtime,sum
  --pids                 one latency row per thread instead of merging by comm
  --all-tables           with --repeat, print the latency table of every run
  --no-batch             give every operation of a task its own event instead of running the
                         ones that cannot interact ahead in batches: the same results, slower
                         (a check, and the speed-up's measure)
  --json                 machine-readable output instead of tables
  --export-timeline F    also draw run 1's timeline to F (.png, .svg or .pdf)
  --export-ftrace F      also write run 1 as ftrace text (the kernel's trace layout; Perfetto,
                         trace viewers and `schedscope-cli trace` read it), or, when F ends
                         in .dat, as trace-cmd's trace.dat (trace-cmd report, KernelShark);
                         --range limits it
  --lag-csv F            also write run 1's lag tables as CSV: at every tick (and the run's end),
                         per CPU each queued entity's weight, vruntime, vlag = V - v, lag =
                         weight x vlag / 1024 (ns of CPU time owed), deadline, slice and
                         eligibility, then a sum row whose weighted vlag is 0 up to V's
                         rounding; --range limits it
  --export-chart F       also draw run 1's EEVDF chart (the selected tasks' vruntime, deadline
                         and lag against V) or, with --chart delay, the first selected task's
                         scheduling-delay histogram, to F (.png, .svg or .pdf), as the app's
                         File > Export chart does
  --chart eevdf|delay    which chart --export-chart draws (default eevdf)
  --select COMM[,COMM]   the charted tasks: the first task of each comm (default: the first task)
  --range A-B            the time range to draw, e.g. 0ms-50ms (default: the whole run)
  --width N              image width in pixels (default 1600)
  --height N             image height in pixels (default: the timeline's lanes; 500 for a chart)
  --chart-height N       the chart's height when both pictures are exported (default 500)

Options of experiment:
  --quick                the experiment's quick size (fewer CPUs and runs; for tests)
  --repeat N             runs per configuration (default: the file's)
  --json | --csv         every metric's mean, stddev, standard error, min and max instead of text
  --jobs N               worker threads (default: one per core)
  --output FILE          write the report to FILE (atomically) instead of standard output

Durations take a unit: ns, us, ms or s (0.7ms, 500us, 2s).

Examples:
  schedscope-cli run kernel-hogs-waker --preempt full
  schedscope-cli run preempt-short --feature PREEMPT_SHORT=off --repeat 5
  schedscope-cli run my-workload.json --kernel 6.12 --cpus 4 --json > out.json
  schedscope-cli run kernel-hogs-waker --export-timeline out.svg --range 0ms-50ms
  schedscope-cli experiment scenarios/experiments/preempt-short.json --quick
  schedscope-cli trace tests/data/traces/hackbench-g4-l2000-threads.trace.xz
  schedscope-cli compare kernel-hogs-waker@preempt=none kernel-hogs-waker@preempt=full
  schedscope-cli compare massive.trace scenarios/real-machine/massive_intr-8x8ms-1ms.json
)";

namespace {

// The last four characters in lower case: ".png", ".svg", ".pdf" whatever their case.
std::string lowerExtension(const std::string& path) {
    std::string low = path.size() >= 4 ? path.substr(path.size() - 4) : path;
    for (char& c : low)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return low;
}

std::string needValue(const std::string& flag) {
    return flag + ": a value is missing";
}

} // namespace

std::string traceDatReaderLine() {
    const std::string reader = traceDatReaderPath();
    return "trace.dat reader: " +
           (reader.empty() ? std::string("not found (reading a trace.dat will fail)") : reader) + "\n";
}

std::string parseRunOptions(const std::vector<std::string>& args, RunOptions& o) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& v) -> bool {
            if (i + 1 >= args.size()) return false;
            v = args[++i];
            return true;
        };
        std::string v;
        long long n = 0;
        if (a == "--json") {
            o.json = true;
            continue;
        }
        if (a == "--pids") {
            o.perTask = true;
            continue;
        }
        if (a == "--all-tables") {
            o.allTables = true;
            continue;
        }
        if (a == "--no-batch") {
            o.batch = false;
            continue;
        }
        if (a.rfind("--", 0) != 0) {
            if (!o.scenario.empty())
                return "unexpected argument '" + a + "' (the scenario is already '" + o.scenario + "')";
            o.scenario = a;
            continue;
        }
        if (!value(v)) return needValue(a);
        if (a.size() > 2 && scen::isScenarioSetting(a.substr(2))) {
            if (std::string e = scen::parseScenarioSetting(a.substr(2), v, o); !e.empty()) return e;
        } else if (a == "--repeat") {
            if (!scen::parseWholeArg(v, 1, 10000, n))
                return "--repeat: '" + v + "' is not a run count; accepted: 1 to 10000";
            o.repeat = int(n);
        } else if (a == "--export-timeline") {
            const std::string low = lowerExtension(v); // out.SVG is an SVG too
            if (low != ".png" && low != ".svg" && low != ".pdf")
                return "--export-timeline: '" + v + "' must end in .png, .svg or .pdf";
            o.exportTimeline = v;
        } else if (a == "--export-chart") {
            const std::string low = lowerExtension(v); // out.SVG is an SVG too
            if (low != ".png" && low != ".svg" && low != ".pdf")
                return "--export-chart: '" + v + "' must end in .png, .svg or .pdf";
            o.exportChart = v;
        } else if (a == "--chart") {
            if (v != "eevdf" && v != "delay")
                return "--chart: '" + v + "' is not a chart; accepted: eevdf, delay";
            o.delayChart = v == "delay";
        } else if (a == "--select") {
            o.select.clear();
            for (size_t from = 0; from <= v.size();) {
                const size_t comma = std::min(v.find(',', from), v.size());
                if (comma == from) return "--select: '" + v + "' has an empty comm; write COMM or COMM,COMM";
                o.select.push_back(v.substr(from, comma - from));
                from = comma + 1;
            }
        } else if (a == "--height" || a == "--chart-height") {
            if (!scen::parseWholeArg(v, 100, 20000, n))
                return a + ": '" + v + "' is not an image height; accepted: 100 to 20000 pixels";
            (a == "--height" ? o.exportHeight : o.chartHeight) = int(n);
        } else if (a == "--export-ftrace") {
            o.exportFtrace = v;
        } else if (a == "--lag-csv") {
            o.lagCsv = v;
        } else if (a == "--range") {
            const size_t dash = v.find('-');
            const auto a0 = dash == std::string::npos ? std::nullopt : parseDuration(v.substr(0, dash));
            const auto a1 = dash == std::string::npos ? std::nullopt : parseDuration(v.substr(dash + 1));
            if (!a0 || !a1 || *a1 <= *a0)
                return "--range: '" + v + "' is not a range; write START-END with units, e.g. 0ms-50ms";
            o.rangeStart = *a0;
            o.rangeEnd = *a1;
        } else if (a == "--width") {
            if (!scen::parseWholeArg(v, 200, 20000, n))
                return "--width: '" + v + "' is not an image width; accepted: 200 to 20000 pixels";
            o.exportWidth = int(n);
        } else if (a == "--sort") {
            std::vector<LatencySortKey> keys;
            if (!parseLatencySort(v, keys))
                return "--sort: '" + v + "' is not a key list; accepted keys: avg, max, switch, runtime, sum";
            o.sort = v;
        } else {
            return "unknown option '" + a + "' (see schedscope-cli --help)";
        }
    }
    if (o.exportChart.empty() && (o.delayChart || !o.select.empty() || o.chartHeight > 0))
        return "--chart, --chart-height and --select choose what --export-chart draws: give --export-chart F "
               "too";
    return {};
}

std::string parseBenchOptions(const std::vector<std::string>& args, BenchOptions& o) {
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--duration") {
            if (i + 1 >= args.size()) return needValue("--duration");
            if (auto e = scen::parseDurationSetting("--duration", args[++i], kNsPerMs, 3600 * kNsPerSec,
                                                    o.duration);
                !e.empty())
                return e;
        } else if (args[i] == "--runs") {
            long long n = 0;
            if (i + 1 >= args.size()) return needValue("--runs");
            if (!scen::parseWholeArg(args[++i], 1, 100, n))
                return "--runs: '" + args[i] + "' is not a run count; accepted: 1 to 100";
            o.runs = int(n);
            o.runsGiven = true;
        } else if (args[i] == "--no-batch") {
            o.batch = false;
        } else if (args[i] == "--suite") {
            o.suite = true;
        } else if (args[i] == "--quick") {
            o.quick = true;
        } else if (args[i].rfind("--", 0) == 0) {
            return "unknown option '" + args[i] +
                   "' for bench; accepted: --duration D, --runs N, --no-batch, --suite [--quick]";
        } else {
            o.scenarios.push_back(args[i]);
        }
    }
    if (o.quick && !o.suite) return "--quick goes with --suite (bench --suite --quick)";
    if (o.suite && (!o.scenarios.empty() || o.duration || !o.batch || o.runsGiven))
        return "--suite measures its own set: no scenarios, --duration, --runs or --no-batch with it";
    return {};
}
