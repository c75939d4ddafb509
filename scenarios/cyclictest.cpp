// SPDX-License-Identifier: GPL-3.0-or-later
// cyclictest (rt-tests' src/cyclictest/cyclictest.c), the options that shape the schedule: -t [N]
// threads, -i interval, -d distance (thread i's period = interval + i * distance), -l loops, -D
// duration, -p priority (SCHED_FIFO), -S (one pinned thread per CPU), -m / -q / --default-system
// (no effect here), -h histogram. Each thread sleeps with clock_nanosleep(TIMER_ABSTIME) on its
// grid; latency = the clock read after the wakeup - the programmed expiry. The main thread wakes
// every 10 ms. The report prints cyclictest's per-thread lines and the latency percentiles.
//
// Which CPUs a measuring thread may use depends on the release. From 2.0 to 2.4, process_options()
// turned "no -a, no -S" into AFFINITY_USEALL ("if smp wasn't requested, test for numa
// automatically": numa_initialize(), then setaffinity = AFFINITY_USEALL), so main() gave thread i
// cpu_for_thread_ua(i): the i-th CPU of the process's mask, which timerthread() pinned it to with
// pthread_setaffinity_np(). rt-tests 2.5 (January 2023) dropped that default (2d910eecf10c,
// "cyclictest: Fix threads being affined even when -a isn't set"): the threads are free to move.
// The traced machine's cyclictest (rt-tests 2.4, the release its README gives for hackbench) shows it: its
// measuring thread never left CPU 0 in 5,000 wakeups, 15 of them while CPU 0 was busy and CPU 1 idle, when
// select_idle_sibling() would have moved a free thread (scenarios/real-machine/cyclictest-i1000-l5000.json).
#include "scenarios/workload.h"

#include <cstdio>

namespace scen {

using namespace sched;

namespace {
// -D: seconds, or with a suffix s / m / h / d (rt-tests' parse_time_string).
bool durationArg(const std::string& s, Time& out) {
    long long n = 0;
    const char unit = s.empty() ? 0 : s.back();
    const bool suffixed = unit == 's' || unit == 'm' || unit == 'h' || unit == 'd';
    if (!wholeNumber(suffixed ? s.substr(0, s.size() - 1) : s, 1, 365LL * 24 * 3600, n)) return false;
    const long long mult = unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 1;
    out = Time(n * mult) * kNsPerSec;
    return true;
}
} // namespace

std::string parseCyclictest(const std::vector<std::string>& rawArgv, int cpus, int release,
                            CyclictestArgs& out) {
    out = CyclictestArgs{};
    out.release = release;
    bool threadsGiven = false;
    // getopt bundles flags without values: -Smq is -S -m -q (the preempt-short experiment uses it).
    std::vector<std::string> args;
    for (const std::string& a : rawArgv) {
        if (a.size() > 2 && a[0] == '-' && a[1] != '-' && a.find_first_not_of("SmqN", 1) == std::string::npos)
            for (size_t k = 1; k < a.size(); ++k)
                args.push_back(std::string("-") + a[k]);
        else
            args.push_back(a);
    }
    const std::vector<std::string>& argv = args;
    for (size_t i = 0; i < argv.size(); ++i) {
        std::string a = argv[i];
        std::string value;
        // -i1000, -i 1000, --interval=1000 and --interval 1000 are all accepted, as getopt does.
        const auto takeValue = [&](const std::string& shortOpt, const std::string& longOpt) -> bool {
            if (a == shortOpt || a == longOpt) {
                if (i + 1 >= argv.size()) return false;
                value = argv[++i];
                return true;
            }
            if (a.rfind(longOpt + "=", 0) == 0) {
                value = a.substr(longOpt.size() + 1);
                return true;
            }
            if (a.size() > 2 && a.rfind(shortOpt, 0) == 0 && shortOpt.size() == 2) {
                value = a.substr(2);
                return true;
            }
            return false;
        };
        long long n = 0;
        if (a == "-m" || a == "--mlockall" || a == "-q" || a == "--quiet" || a == "--default-system" ||
            a == "-N" || a == "--nsecs") {
            out.quiet = out.quiet || a == "-q" || a == "--quiet";
        } else if (a == "-S" || a == "--smp") {
            out.smp = true;
        } else if (a == "-t" || a == "--threads") { // -t alone: one per CPU; -t N
            threadsGiven = true;
            if (i + 1 < argv.size() && wholeNumber(argv[i + 1], 1, 4096, n)) {
                out.threads = int(n);
                ++i;
            } else {
                out.threads = cpus;
            }
        } else if (a.rfind("-t", 0) == 0 && a.size() > 2 && a[1] != '-') {
            if (!wholeNumber(a.substr(2), 1, 4096, n))
                return "-t: '" + a.substr(2) + "' is not a thread count; accepted: 1 to 4096";
            out.threads = int(n);
            threadsGiven = true;
        } else if (takeValue("-i", "--interval")) {
            if (!wholeNumber(value, 10, 10'000'000, n))
                return "-i: '" + value + "' is not an interval in us; accepted: 10 to 10000000";
            out.interval = Time(n) * kNsPerUs;
        } else if (takeValue("-d", "--distance")) {
            if (!wholeNumber(value, 0, 10'000'000, n))
                return "-d: '" + value + "' is not a distance in us; accepted: 0 to 10000000";
            out.distance = Time(n) * kNsPerUs;
        } else if (takeValue("-l", "--loops")) {
            if (!wholeNumber(value, 0, 1'000'000'000, n))
                return "-l: '" + value + "' is not a loop count; accepted: 0 (endless) to 1000000000";
            out.loops = n;
        } else if (takeValue("-D", "--duration")) {
            if (!durationArg(value, out.duration))
                return "-D: '" + value +
                       "' is not a duration; accepted: seconds, or a number with s, m, h or d";
        } else if (takeValue("-p", "--priority")) {
            if (!wholeNumber(value, 0, 99, n))
                return "-p: '" + value + "' is not an RT priority; accepted: 0 to 99";
            out.priority = int(n);
        } else if (takeValue("-h", "--histogram")) {
            if (!wholeNumber(value, 1, 1'000'000, n))
                return "-h: '" + value + "' is not a histogram size in us; accepted: 1 to 1000000";
            out.histogram = int(n);
        } else {
            return "unsupported cyclictest option '" + a +
                   "'; accepted: -t [N], -i US, -d US, -l N, -D TIME, -p PRIO, -S, -h US, -m, -q, -N, "
                   "--default-system";
        }
    }
    if (out.smp) {
        out.threads = cpus; // -S: one thread per CPU, each pinned to it
        if (threadsGiven) return "-S sets one thread per CPU; leave out -t";
    }
    if (out.histogram > 0) out.distance = 0;               // rt-tests forces -d 0 with -h
    if (out.priority == 0) out.priority = out.threads + 1; // "defaulting realtime priority to N+1"
    return {};
}

void addCyclictest(const CyclictestArgs& a, Scenario& s) {
    // The main thread (the process, lowest pid): wakes every 10 ms to refresh the display until
    // the measurement threads are done.
    const Time longest = a.interval + Time(std::max(0, a.threads - 1)) * a.distance;
    const Time mainFor = a.loops > 0 ? Time(a.loops) * longest : a.duration; // 0 with neither: forever
    Program main{"",
                 {ops::sleep(10 * kNsPerMs), ops::run(5 * kNsPerUs), ops::loop(0, 0, mainFor),
                  ops::simple(OpKind::Exit)},
                 0};
    main.finalize();
    const int mainGroup = int(s.tasks.size());
    TaskGroupSpec mg;
    mg.comm = "cyclictest";
    mg.program = int32_t(s.programs.size());
    mg.threads = true;
    s.programs.push_back(main);
    s.programNames.push_back("cyclictest.main");
    s.tasks.push_back(mg);
    // The measurement threads, threads of the main thread's process; one program each, as the
    // period is part of the timer op. Thread i's period is interval + i * distance.
    for (int i = 0; i < a.threads; ++i) {
        Op wait;
        wait.kind = OpKind::TimerWait;
        wait.period = a.interval + Time(i) * a.distance;
        wait.cost = 2 * kNsPerUs; // clock_nanosleep() entry
        // Then clock_gettime(), the statistics update, back into the syscall; -l samples, or for
        // -D, or forever.
        const Time threadFor = a.loops == 0 ? a.duration : 0;
        Program p{"",
                  {wait, ops::run(3 * kNsPerUs), ops::loop(0, a.loops, threadFor), ops::simple(OpKind::Exit)},
                  0};
        p.finalize();
        TaskGroupSpec g;
        g.comm = "cyclictest";
        g.program = int32_t(s.programs.size());
        g.process = mainGroup;
        if (a.priority > 0) {
            g.policy = Policy::Fifo;
            g.rtPriority = a.priority;
        }
        // -S: one per CPU, pinned (AFFINITY_USEALL); before 2.5 also without it (above). The
        // i-th CPU of the process's mask: the scenario's CPUs are all in it.
        if (a.smp || (a.release != 0 && a.release < 205)) {
            g.affinity.set(size_t(i % s.config.cpus));
            g.startCpu = i % s.config.cpus;
        }
        s.programs.push_back(p);
        s.programNames.push_back("cyclictest.thread" + std::to_string(i));
        s.tasks.push_back(g);
    }
}

std::string cyclictestReport(const Workload& w, const Engine& e) {
    const auto& a = std::get<CyclictestArgs>(w.params);
    std::string out;
    char line[256];
    int idx = 0;
    std::vector<int64_t> all; // 1 us bins over every thread, for the percentiles
    // The main thread is the first task, the measurement threads follow it.
    for (size_t g = size_t(w.firstTask) + 1;
         g <= size_t(w.firstTask) + size_t(a.threads) && g < e.tasks().size(); ++g) {
        const Task& t = e.tasks()[g];
        const Time period = a.interval + Time(idx) * a.distance;
        const auto us = [](Time ns) { return (long long)(ns / kNsPerUs); };
        // rt-tests' print_stat(): "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld Avg:%5ld Max:%8ld"
        std::snprintf(line, sizeof line,
                      "T:%2d (%5d) P:%2d I:%lld C:%7lld Min:%7lld Act:%5lld Avg:%5lld Max:%8lld\n", idx,
                      t.pid, a.priority > 0 ? a.priority : 0, (long long)(period / kNsPerUs),
                      (long long)t.latCount, t.latCount ? us(t.latMin) : 0LL, us(t.latLast),
                      t.latCount ? us(t.latSum / t.latCount) : 0LL, us(t.latMax));
        out += line;
        if (all.size() < t.latHist.size()) all.resize(t.latHist.size(), 0);
        for (size_t b = 0; b < t.latHist.size(); ++b)
            all[b] += t.latHist[b];
        ++idx;
    }
    int64_t total = 0;
    for (int64_t c : all)
        total += c;
    if (total > 0) {
        const auto pct = [&](double p) { return (long long)histogramPercentile(all, p); };
        std::snprintf(line, sizeof line,
                      "# latency percentiles (us, all threads): p50 %lld  p90 %lld  p99 %lld  p99.9 %lld\n",
                      pct(0.5), pct(0.9), pct(0.99), pct(0.999));
        out += line;
    }
    if (a.histogram > 0) { // -h: one line per us bucket, "%06d" then one count column per thread
        out += "# Histogram\n";
        for (int b = 0; b < a.histogram; ++b) {
            std::snprintf(line, sizeof line, "%06d", b);
            std::string row = line;
            for (size_t g = size_t(w.firstTask) + 1;
                 g <= size_t(w.firstTask) + size_t(a.threads) && g < e.tasks().size(); ++g) {
                const auto& h = e.tasks()[g].latHist;
                std::snprintf(line, sizeof line, " %06lld",
                              (long long)(size_t(b) < h.size() ? h[size_t(b)] : 0));
                row += line;
            }
            out += row + "\n";
        }
    }
    return out;
}

} // namespace scen
