// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/trace_command.h"

#include "app/common/atomic_file.h"
#include "base/duration.h"
#include "metrics/latency.h"
#include "metrics/perf_report.h"
#include "metrics/wakeup_chain.h"
#include "scenarios/derive.h"
#include "scenarios/workload.h"
#include "trace/file.h"
#include "trace/text_fields.h"

#include <chrono>
#include <cstdio>

using namespace sched;

std::string parseTraceOptions(const std::vector<std::string>& args, TraceOptions2& out) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--all")
            out.all = true;
        else if (a == "--pids")
            out.perTask = true;
        else if (a == "--root") {
            long long n = 0;
            if (i + 1 >= args.size() || !scen::wholeNumber(args[++i], 1, 1 << 30, n))
                return "--root: needs a pid (a whole number above 0)";
            out.rootPid = int(n);
        } else if (a == "--sort") {
            if (i + 1 >= args.size()) return "--sort: needs keys, e.g. avg,max,switch,runtime";
            out.sort = args[++i];
        } else if (a == "--critical-path") {
            long long n = 0;
            const std::string v = i + 1 < args.size() ? args[++i] : std::string();
            const size_t at = v.find('@');
            if (at == std::string::npos || !scen::wholeNumber(v.substr(0, at), 1, 1 << 30, n) ||
                at + 1 >= v.size())
                return "--critical-path: '" + v +
                       "'; write PID@TIME, TIME a trace timestamp in seconds (1234.567890) or a time from "
                       "the "
                       "trace's start with a unit (250ms)";
            out.pathPid = int(n);
            out.pathAt = v.substr(at + 1);
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a +
                   "'; accepted: --root PID, --all, --pids, --sort KEYS, --critical-path PID@TIME";
        } else if (out.file.empty()) {
            out.file = a;
        } else {
            return "one trace at a time (got '" + out.file + "' and '" + a + "')";
        }
    }
    if (out.file.empty())
        return "needs a trace file (ftrace text, trace-cmd report or perf script output, trace.dat, "
               ".xz/.gz/.zst)";
    if (out.all && out.rootPid > 0) return "--all and --root: choose one";
    return {};
}

namespace {

// --critical-path PID@TIME: the task's path back from TIME, as WakeupChains walks it.
int criticalPathReport(const TraceOptions2& o, const Trace& trace, const ImportReport& rep, std::ostream& out,
                       std::ostream& err) {
    TaskId task = kNoTask;
    for (size_t t = 0; t < trace.tasks.size(); ++t)
        if (trace.tasks[t].pid == o.pathPid) task = TaskId(t);
    if (task == kNoTask) {
        err << "schedscope-cli trace: --critical-path: no task with pid " << o.pathPid << " in " << o.file
            << "\n";
        return 2;
    }
    Time at = -1;
    if (o.pathAt.find_first_not_of("0123456789.") ==
        std::string::npos) { // a timestamp as the trace prints it
        Time abs = 0;
        if (text::timestamp(o.pathAt, abs)) at = abs - rep.first;
    } else if (const auto d = parseDuration(o.pathAt)) {
        at = *d;
    }
    if (at < 0 || at > trace.endTime) {
        err << "schedscope-cli trace: --critical-path: '" << o.pathAt << "' is not a time inside the trace ("
            << formatDuration(0) << " .. " << formatDuration(trace.endTime) << " from its start, or "
            << double(rep.first) / 1e9 << " .. " << double(rep.first + trace.endTime) / 1e9 << " s)\n";
        return 2;
    }
    WakeupChains chains;
    chains.update(trace);
    char b[64];
    std::snprintf(b, sizeof b, "%.6f", double(at + rep.first) / 1e9);
    out << "\n Critical path of " << trace.tasks[size_t(task)].comm << ":" << o.pathPid << " back from " << b
        << " s (newest first):\n"
        << formatCriticalPath(trace, chains.criticalPath(task, at), rep.first);
    return 0;
}

} // namespace

int traceCommand(const TraceOptions2& o, std::ostream& out, std::ostream& err) {
    LatencyOptions lo;
    lo.mergeByComm = !o.perTask;
    if (!parseLatencySort(o.sort, lo.sort)) {
        err << "schedscope-cli trace: --sort: '" << o.sort
            << "' has an unknown key; accepted: avg, max, switch, runtime, sum\n";
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
    const int root = o.all ? -1 : o.rootPid > 0 ? o.rootPid : scen::workloadRootFromMarkers(trace);
    std::vector<char> workload;
    if (root > 0) {
        workload = descendantsOf(trace, root);
        size_t n = 0;
        for (char c : workload)
            n += c != 0;
        out << "# workload: pid " << root << " and its descendants, " << n << " tasks"
            << (o.rootPid > 0 ? "" : " (from the marker)") << "\n";
        lo.only = &workload;
    }
    out << formatLatencyTable(perfSchedLatency(trace, lo));
    const SwitchCounts all = countSwitches(trace);
    if (root > 0) {
        const SwitchCounts w = countSwitchesOf(trace, workload);
        out << "\n The workload's switches as the kernel counts them (nvcsw / nivcsw, summed as getrusage() "
               "does):\n";
        std::snprintf(b, sizeof b,
                      "%18s      voluntary context-switches\n%18s      involuntary context-switches\n%18s    "
                      "  context-switches "
                      "(perf stat -e cs of the workload)\n%18s      migrations\n",
                      groupThousands(double(w.voluntary)).c_str(),
                      groupThousands(double(w.involuntary)).c_str(), groupThousands(double(w.total)).c_str(),
                      groupThousands(double(w.migrations)).c_str());
        out << b;
    }
    std::snprintf(b, sizeof b, "\n System wide: %s context-switches (perf stat -a -e cs), %s migrations\n",
                  groupThousands(double(all.total)).c_str(), groupThousands(double(all.migrations)).c_str());
    out << b;
    if (o.pathPid > 0) return criticalPathReport(o, trace, rep, out, err);
    return 0;
}

std::string parseDeriveOptions(const std::vector<std::string>& args, DeriveCliOptions& out) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        long long n = 0;
        const auto need = [&]() -> bool { return i + 1 < args.size(); };
        if (a == "--all")
            out.all = true;
        else if (a == "-o" || a == "--output") {
            if (!need()) return a + ": needs a file name";
            out.output = args[++i];
        } else if (a == "--root") {
            if (!need() || !scen::wholeNumber(args[++i], 1, 1 << 30, n))
                return "--root: needs a pid (a whole number above 0)";
            out.rootPid = int(n);
        } else if (a == "--cpus") {
            if (!need() || !scen::wholeNumber(args[++i], 1, 256, n))
                return "--cpus: needs a CPU count from 1 to 256";
            out.cpus = int(n);
        } else if (a == "--hz") {
            if (!need() || !scen::wholeNumber(args[++i], 100, 1000, n) ||
                (n != 100 && n != 250 && n != 300 && n != 1000))
                return "--hz: accepted: 100, 250, 300, 1000";
            out.hz = int(n);
        } else if (a == "--preempt") {
            PreemptModel m;
            if (!need() || !parsePreemptModel(args[++i], m))
                return "--preempt: accepted: none, voluntary, full, lazy";
            out.preempt = args[i];
        } else if (a == "--kernel") {
            KernelBuild b;
            KernelProfile p;
            if (!need() || !parseKernelSpec(args[++i], b, p))
                return "--kernel: accepted: " + acceptedKernelNames();
            out.kernel = args[i];
        } else if (a == "--classes") {
            if (!need() || !scen::wholeNumber(args[++i], 1, 20, n))
                return "--classes: needs a count of burst classes from 1 (bursts drawn independently) to 20";
            out.cycleClasses = int(n);
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a +
                   "'; accepted: -o FILE, --root PID, --all, --cpus N, --hz N, --preempt M, --kernel K, "
                   "--classes N";
        } else if (out.file.empty()) {
            out.file = a;
        } else {
            return "one trace at a time (got '" + out.file + "' and '" + a + "')";
        }
    }
    if (out.file.empty()) return "needs a trace file to derive the scenario from";
    if (out.all && out.rootPid > 0) return "--all and --root: choose one";
    return {};
}

int deriveCommand(const DeriveCliOptions& o, std::ostream& out, std::ostream& err) {
    Trace trace;
    ImportReport rep;
    std::string error;
    if (!loadTrace(o.file, trace, rep, error)) {
        err << "schedscope-cli derive: " << error << "\n";
        return 2;
    }
    scen::DeriveOptions d;
    d.rootPid = o.all ? -1 : o.rootPid > 0 ? o.rootPid : scen::workloadRootFromMarkers(trace);
    d.cpus = o.cpus;
    d.hz = o.hz;
    d.preempt = o.preempt;
    d.kernel = o.kernel;
    d.cycleClasses = o.cycleClasses;
    d.source = o.file;
    scen::DeriveSummary sum;
    const std::string json = scen::deriveScenarioJson(trace, d, &sum);
    if (json.empty()) {
        err << "schedscope-cli derive: no task of "
            << (d.rootPid > 0 ? "pid " + std::to_string(d.rootPid) + " and its descendants" : "the trace")
            << " ran in " << o.file
            << ": nothing to derive (--all takes every task, --root PID one workload)\n";
        return 2;
    }
    err << "derived " << sum.tasks << " tasks in " << sum.entries << " entries (" << sum.bursts
        << " CPU bursts, " << sum.sleeps << " sleeps, " << double(sum.runtime) / 1e9 << " s of CPU)"
        << (d.rootPid > 0 ? " from pid " + std::to_string(d.rootPid) + " and its descendants" : "") << "\n";
    if (o.output.empty()) {
        out << json;
        return 0;
    }
    if (std::string why; !saveTextAtomically(o.output, json, &why)) {
        err << "schedscope-cli derive: cannot write " << o.output << ": " << why
            << " (nothing was changed)\n";
        return 1;
    }
    return 0;
}
