// SPDX-License-Identifier: GPL-3.0-or-later
// schbench (Chris Mason; masoncl/schbench: worker.c worker_thread()/msg_and_wait(), message.c): -m
// message threads, each with -t workers. A worker puts itself on its message thread's list and
// wakes it (futex), sleeps until the message thread wakes it — the wake-up latency, from that wake
// to the worker running — then usleep(-s) and -n passes of a naive matrix multiply over a -F KB
// footprint: the request latency is the sleep plus the work. The message thread wakes whoever is on
// its list. Prints the tool's percentile blocks, the requests per second and the per-thread
// scheduling delay (run_delay / pcount).
// Not modelled: the per-CPU lock held during a request (-L turns it off in the real tool).
#include "metrics/latency.h"
#include "scenarios/workload.h"

#include <cmath>
#include <cstdio>

namespace scen {

using namespace sched;

namespace {
// do_some_math(): a d x d naive multiply, d = sqrt(F KB / 3 / sizeof(unsigned long)), about
// 0.5 ns per multiply-add on a current core (104^3 for the default 256 KB: ~0.56 ms per pass).
Time passCost(int footprintKb) {
    const double d = std::sqrt(double(footprintKb) * 1024.0 / 3.0 / 8.0);
    return std::max<Time>(1000, Time(d * d * d * 0.5));
}
} // namespace

std::string parseSchbench(const std::vector<std::string>& argv, int cpus, SchbenchArgs& out) {
    out = SchbenchArgs{};
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        long long n = 0;
        const auto value = [&](long long lo, long long hi, const char* what) -> std::string {
            if (i + 1 >= argv.size()) return a + ": needs a value (" + what + ")";
            if (!wholeNumber(argv[++i], lo, hi, n))
                return a + ": '" + argv[i] + "' is not " + what + "; accepted: " + std::to_string(lo) +
                       " to " + std::to_string(hi);
            return {};
        };
        std::string e;
        if (a == "-m" || a == "--message-threads") {
            if ((e = value(1, 1024, "a thread count")).empty()) out.messageThreads = int(n);
        } else if (a == "-t" || a == "--threads") {
            if ((e = value(1, 4096, "a worker count")).empty()) out.workers = int(n);
        } else if (a == "-r" || a == "--runtime") {
            if ((e = value(1, 3600, "a runtime in seconds")).empty()) out.runtime = Time(n) * kNsPerSec;
        } else if (a == "-s" || a == "--sleeptime") {
            if ((e = value(0, 1000000, "a sleep in microseconds")).empty()) out.sleep = Time(n) * kNsPerUs;
        } else if (a == "-n" || a == "--operations") {
            if ((e = value(1, 10000, "a pass count")).empty()) out.operations = int(n);
        } else if (a == "-F" || a == "--cache_footprint") {
            if ((e = value(1, 1 << 20, "a footprint in KB")).empty()) out.footprintKb = int(n);
        } else if (a == "-i" || a == "--intervaltime") {
            if ((e = value(1, 3600, "an interval in seconds")).empty()) out.interval = Time(n) * kNsPerSec;
        } else if (a == "-L" || a == "--no-locking") {
            // the per-CPU lock is not modelled: -L changes nothing here
        } else if (a == "-R" || a == "-A" || a == "-p" || a == "-w" || a == "-C" || a == "-M" || a == "-W" ||
                   a == "-j") {
            return a + " is not modelled; accepted: -m N, -t N, -r SEC, -s USEC, -n N, -F KB, -i SEC, -L";
        } else {
            return "unsupported schbench option '" + a +
                   "'; accepted: -m N, -t N, -r SEC, -s USEC, -n N, -F KB, -i SEC, -L";
        }
        if (!e.empty()) return e;
    }
    if (out.workers == 0) out.workers = (cpus + out.messageThreads - 1) / out.messageThreads;
    if (int64_t(out.workers) * out.messageThreads > 100000) return "-m x -t: more than 100000 threads";
    return {};
}

void addSchbench(const SchbenchArgs& a, Scenario& s) {
    const int mainGroup = int(s.tasks.size());
    // The main thread creates the threads and sleeps for the run (the real one also prints
    // the interval statistics).
    TaskGroupSpec main;
    main.comm = "schbench";
    main.threads = true;
    main.program =
        addProgram(s, Program{"", {ops::sleep(a.runtime), ops::simple(OpKind::Exit)}, 0}, "schbench.main");
    s.tasks.push_back(main);
    const Time pass = passCost(a.footprintKb);
    for (int m = 0; m < a.messageThreads; ++m) {
        const int32_t post = int32_t(s.channels.size()), wake = post + 1;
        const std::string tag = "schbench.m" + std::to_string(m);
        s.channels.push_back({tag + ".list", a.workers + 1, -1,
                              false}); // workers queue themselves (futex wake of the message thread)
        s.channels.push_back(
            {tag + ".wake", a.workers + 1, -1, false}); // the message thread wakes them one by one
        // Message thread: take the next worker off the list, wake it; sleep when the list is empty.
        TaskGroupSpec mt;
        mt.comm = "schbench";
        mt.process = mainGroup;
        mt.program = addProgram(
            s,
            Program{"",
                    {ops::channel(OpKind::Read, post, 1000), ops::channel(OpKind::Write, wake, 1500),
                     ops::loop(0, 0, a.runtime), ops::simple(OpKind::Exit)},
                    0},
            tag + ".message");
        s.tasks.push_back(mt);
        // Worker: post, wait (the wake-up latency), usleep, the request's passes, again.
        Op post_ = ops::channel(OpKind::Write, post, 1000);
        post_.clock = 2; // the previous request ends here
        Op wait = ops::channel(OpKind::Read, wake, 1000);
        wait.measureWake = true;
        Op nap = ops::sleep(a.sleep);
        nap.clock = 1; // the request: usleep + the work
        nap.cost = 1000;
        std::vector<Op> body = {post_,
                                wait,
                                nap,
                                ops::run(pass),
                                ops::loop(3, a.operations),
                                ops::loop(0, 0, a.runtime),
                                ops::simple(OpKind::Exit)};
        if (a.sleep == 0) {
            body[2] = ops::run(1000, ExecMode::Kernel); // usleep(0): just the system call
            body[2].clock = 1;
        }
        TaskGroupSpec wk;
        wk.comm = "schbench";
        wk.count = a.workers;
        wk.process = mainGroup;
        wk.program = addProgram(s, Program{"", body, 0}, tag + ".worker");
        s.tasks.push_back(wk);
    }
}

namespace {
// show_latencies(): the percentiles with the samples of their bucket, and min/max.
std::string percentileBlock(const char* title, const char* unit, const std::vector<int64_t>& bins,
                            const std::vector<double>& pcts, double starred, Time runtime) {
    int64_t total = 0, lo = -1, hi = 0;
    for (size_t b = 0; b < bins.size(); ++b) {
        total += bins[b];
        if (bins[b] > 0) {
            if (lo < 0) lo = int64_t(b);
            hi = int64_t(b);
        }
    }
    char line[160];
    std::snprintf(line, sizeof line, "%s percentiles (%s) runtime %lld (s) (%lld total samples)\n", title,
                  unit, (long long)(runtime / kNsPerSec), (long long)total);
    std::string out = line;
    for (double p : pcts) {
        const int64_t v = histogramPercentile(bins, p / 100.0);
        std::snprintf(line, sizeof line, "\t%s%.1fth: %-10lld (%lld samples)\n", p == starred ? "* " : "  ",
                      p, (long long)v, (long long)(size_t(v) < bins.size() ? bins[size_t(v)] : 0));
        out += line;
    }
    std::snprintf(line, sizeof line, "\t  min=%lld, max=%lld\n", (long long)std::max<int64_t>(0, lo),
                  (long long)hi);
    return out + line;
}
} // namespace

std::string schbenchReport(const Workload& w, const Engine& e, const std::vector<LatencyRow>* perTask) {
    const auto& a = std::get<SchbenchArgs>(w.params);
    std::vector<int64_t> wake, req;
    std::vector<int64_t> perSecond;
    std::vector<TaskId> messages, workers;
    const TaskId first = w.firstTask;
    for (TaskId id = first + 1; id < first + TaskId(w.taskCount) && size_t(id) < e.tasks().size(); ++id) {
        const Task& t = e.tasks()[size_t(id)];
        if (t.latHist.empty() && t.reqHist.empty() && t.reqPerSec.empty()) {
            messages.push_back(id);
            continue;
        }
        workers.push_back(id);
        if (wake.size() < t.latHist.size()) wake.resize(t.latHist.size(), 0);
        for (size_t b = 0; b < t.latHist.size(); ++b)
            wake[b] += t.latHist[b];
        if (req.size() < t.reqHist.size()) req.resize(t.reqHist.size(), 0);
        for (size_t b = 0; b < t.reqHist.size(); ++b)
            req[b] += t.reqHist[b];
        if (perSecond.size() < t.reqPerSec.size()) perSecond.resize(t.reqPerSec.size(), 0);
        for (size_t b = 0; b < t.reqPerSec.size(); ++b)
            perSecond[b] += t.reqPerSec[b];
    }
    std::string out = percentileBlock("Wakeup Latencies", "usec", wake, {50, 90, 99, 99.9}, 99, a.runtime);
    out += percentileBlock("Request Latencies", "usec", req, {50, 90, 99, 99.9}, 99, a.runtime);
    // RPS: requests per second over each -i interval, as a histogram of whole requests/s.
    const int64_t secs = std::max<int64_t>(1, a.runtime / kNsPerSec),
                  step = std::max<int64_t>(1, a.interval / kNsPerSec);
    std::vector<int64_t> rps;
    int64_t requests = 0;
    for (int64_t s0 = 0; s0 + step <= secs; s0 += step) {
        int64_t n = 0;
        for (int64_t sec = s0; sec < s0 + step; ++sec)
            n += size_t(sec) < perSecond.size() ? perSecond[size_t(sec)] : 0;
        const size_t v = size_t(n / step);
        if (rps.size() <= v) rps.resize(v + 1, 0);
        rps[v]++;
    }
    for (int64_t n : perSecond)
        requests += n;
    out += percentileBlock("RPS", "requests", rps, {20, 50, 90}, 50, a.runtime);
    char line[160];
    std::snprintf(line, sizeof line, "average rps: %.2f\n", double(requests) / double(secs));
    out += line;
    // The scheduler's run_delay / pcount per thread, averaged over each kind of thread.
    LatencyOptions lo;
    lo.mergeByComm = false;
    const std::vector<LatencyRow> rows = perTask ? *perTask : perfSchedLatency(e.trace(), lo);
    const auto avgDelay = [&](const std::vector<TaskId>& ids) {
        double sum = 0;
        int n = 0;
        for (TaskId id : ids)
            for (const LatencyRow& r : rows)
                if (r.pid == e.tasks()[size_t(id)].pid) {
                    sum += double(r.avgDelay()) / 1e3;
                    ++n;
                }
        return n ? sum / n : 0.0;
    };
    std::snprintf(line, sizeof line, "sched delay: message %.0f (usec) worker %.0f (usec)\n",
                  avgDelay(messages), avgDelay(workers));
    return out + line;
}

} // namespace scen
