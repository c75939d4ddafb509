// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_command.h"

#include "latency.h"
#include "perf_report.h"
#include "trace_file.h"
#include "workload.h"

#include <chrono>
#include <cstdio>

using namespace sched;

std::string parseTraceOptions(const std::vector<std::string>& args, TraceOptions2& out) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--all") out.all = true;
        else if (a == "--pids") out.perTask = true;
        else if (a == "--root") {
            long long n = 0;
            if (i + 1 >= args.size() || !scen::wholeNumber(args[++i], 1, 1 << 30, n)) return "--root: needs a pid (a whole number above 0)";
            out.rootPid = int(n);
        } else if (a == "--sort") {
            if (i + 1 >= args.size()) return "--sort: needs keys, e.g. avg,max,switch,runtime";
            out.sort = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a + "'; accepted: --root PID, --all, --pids, --sort KEYS";
        } else if (out.file.empty()) {
            out.file = a;
        } else {
            return "one trace at a time (got '" + out.file + "' and '" + a + "')";
        }
    }
    if (out.file.empty()) return "needs a trace file (ftrace text, trace-cmd report or perf script output, trace.dat, .xz/.gz/.zst)";
    if (out.all && out.rootPid > 0) return "--all and --root: choose one";
    return {};
}

int traceCommand(const TraceOptions2& o, std::ostream& out, std::ostream& err) {
    LatencyOptions lo;
    lo.mergeByComm = !o.perTask;
    if (!parseLatencySort(o.sort, lo.sort)) {
        err << "schedscope-cli trace: --sort: '" << o.sort << "' has an unknown key; accepted: avg, max, switch, runtime, sum\n";
        return 2;
    }
    Trace trace;
    ImportReport rep;
    std::string error;
    const auto t0 = std::chrono::steady_clock::now();
    if (!loadTrace(o.file, trace, rep, error)) {
        err << "schedscope-cli trace: " << error << "\n";
        return 2;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out << "# trace " << o.file << "\n# " << rep.summary();
    for (size_t i = 0; i < rep.problems.size() && i < 5; ++i)
        out << "#   line " << rep.problems[i].line << ": " << rep.problems[i].what << "\n";
    char b[512];
    std::snprintf(b, sizeof b, "# imported in %.3f s\n", secs);
    out << b;
    for (const Marker& m : trace.markers) {
        std::snprintf(b, sizeof b, "# marker at %.6f s: ", double(m.time + rep.first) / 1e9);
        out << b << m.text << "\n";
    }
    // The workload: a root pid and its descendants, named on the command line or by the first
    // "VALID root=PID" marker (the shared traces' convention).
    int root = o.rootPid;
    if (!o.all && root < 0)
        for (const Marker& m : trace.markers)
            if (const size_t p = m.text.find("root="); p != std::string::npos) {
                long long n = 0;
                const std::string digits = m.text.substr(p + 5, m.text.find(' ', p) - p - 5);
                if (scen::wholeNumber(digits, 1, 1 << 30, n)) root = int(n);
                break;
            }
    std::vector<char> workload;
    if (root > 0) {
        workload = descendantsOf(trace, root);
        size_t n = 0;
        for (char c : workload) n += c != 0;
        out << "# workload: pid " << root << " and its descendants, " << n << " tasks" << (o.rootPid > 0 ? "" : " (from the marker)") << "\n";
        lo.only = &workload;
    }
    out << formatLatencyTable(perfSchedLatency(trace, lo));
    const SwitchCounts all = countSwitches(trace);
    if (root > 0) {
        const SwitchCounts w = countSwitchesOf(trace, workload);
        out << "\n The workload's switches as the kernel counts them (nvcsw / nivcsw, summed as getrusage() does):\n";
        std::snprintf(b, sizeof b, "%18s      voluntary context-switches\n%18s      involuntary context-switches\n%18s      context-switches "
                                   "(perf stat -e cs of the workload)\n%18s      migrations\n",
                      groupThousands(double(w.voluntary)).c_str(), groupThousands(double(w.involuntary)).c_str(),
                      groupThousands(double(w.total)).c_str(), groupThousands(double(w.migrations)).c_str());
        out << b;
    }
    std::snprintf(b, sizeof b, "\n System wide: %s context-switches (perf stat -a -e cs), %s migrations\n", groupThousands(double(all.total)).c_str(),
                  groupThousands(double(all.migrations)).c_str());
    out << b;
    return 0;
}
