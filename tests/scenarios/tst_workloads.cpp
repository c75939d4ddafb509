// SPDX-License-Identifier: GPL-3.0-or-later
// The workload models with the real tools' command lines: massive_intr and cyclictest parse
// their arguments as the tools do (and say precisely what is wrong), behave as the tools' sources
// do (loop counts, one voluntary switch per loop, timer periods, the latency definition)
// and print their output in the tools' own layout.
#include "scenarios/workload.h"
#include "tests/test_support.h"

#include <QRegularExpression>

#include <map>
#include <set>

using namespace sched;
using namespace scen;

namespace {
Scenario withWorkload(const std::string& tool, const std::string& args, int cpus = 2,
                      const std::string& preempt = "none") {
    return scenarioFrom(R"J({"duration": "3s", "machine": {"cpus": )J" + std::to_string(cpus) +
                        R"J(, "hz": 250, "preempt": ")J" + preempt + R"J("}, "tasks": [{"workload": ")J" +
                        tool + R"J(", "args": ")J" + args + R"J("}]})J");
}
std::string parseError(const std::string& tool, const std::string& args) {
    Scenario s;
    ScenarioError e;
    const std::string json = R"J({"machine": {"cpus": 2}, "tasks": [{"workload": ")J" + tool +
                             R"J(", "args": ")J" + args + R"J("}]})J";
    if (parseScenario(json, "w.json", s, e)) return {};
    return e.text();
}
std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    size_t p = 0;
    for (size_t n; (n = text.find('\n', p)) != std::string::npos; p = n + 1)
        out.push_back(text.substr(p, n - p));
    return out;
}
} // namespace

class TestWorkloads : public QObject {
    Q_OBJECT
  private slots:
    void massiveIntrArgumentsAreCheckedAsTheToolTakesThem() {
        QVERIFY(parseError("massive_intr", "8 10").empty());
        QVERIFY(parseError("massive_intr", "8 10 8 1").empty());
        QVERIFY(parseError("massive_intr", "8").find("NPROC RUNTIME [RUN_MS SLEEP_MS]") != std::string::npos);
        QVERIFY(parseError("massive_intr", "0 10")
                    .find("NPROC: '0' is not a process count; accepted: 1 to 1024") != std::string::npos);
        QVERIFY(parseError("massive_intr", "8 ten").find("RUNTIME") != std::string::npos);
        QVERIFY(parseError("massive_intr", "8 10 x 1").find("RUN_MS") != std::string::npos);
        const std::string e = parseError("massive_intr", "8 10 8");
        QVERIFY2(e.find("w.json:1:") == 0 && e.find("tasks[0].args") != std::string::npos, e.c_str());
        QVERIFY(parseError("hackbenchx", "")
                    .find("unknown workload 'hackbenchx'; accepted: massive_intr, cyclictest, messaging, "
                          "hackbench") != std::string::npos);
    }

    // Alone on a CPU a worker loops {8 ms work, 1 ms sleep (+50 us timer slack)}: about 111 loops
    // per second after its 200 ms start sleep, one voluntary switch per loop.
    void massiveIntrAloneLoopsAtItsDutyCycle() {
        Scenario s = withWorkload("massive_intr", "1 2 8 1", 1);
        Engine e = instantiate(s, 1);
        e.runUntil(3 * kNsPerSec);
        const TaskId w = taskByComm(e, "massive_intr", 1);
        QVERIFY(w >= 0);
        const int64_t loops = e.tasks()[size_t(w)].iterations;
        QVERIFY2(loops >= 195 && loops <= 200, qPrintable(QString::number(loops))); // 1.8 s / 9.05 ms = 198.9
        QCOMPARE(e.tasks()[size_t(w)].nvcsw, loops + 2); // + the start sleep and do_task_dead()
        QCOMPARE(e.tasks()[size_t(w)].nivcsw, int64_t(0));
        QCOMPARE(e.tasks()[size_t(w)].state, TaskState::Dead);
        const auto out = lines(workloadReport(s.workloads[0], e));
        QCOMPARE(out.size(), size_t(1));
        QVERIFY(QRegularExpression("^\\d{6}\\t\\d{8}$")
                    .match(QString::fromStdString(out[0]))
                    .hasMatch()); // "%06d\t%08d"
        QCOMPARE(std::stoll(out[0].substr(7)), loops);
    }

    void massiveIntrWorkersShareFairly() {
        Scenario s = withWorkload("massive_intr", "8 3", 2);
        Engine e = instantiate(s, 1);
        e.runUntil(3500 * kNsPerMs);
        const auto out = lines(workloadReport(s.workloads[0], e));
        QCOMPARE(out.size(), size_t(8));
        long long lo = LLONG_MAX, hi = 0;
        for (const auto& l : out) {
            lo = std::min(lo, std::stoll(l.substr(7)));
            hi = std::max(hi, std::stoll(l.substr(7)));
        }
        QVERIFY2(lo > 60 && hi - lo <= hi / 20,
                 qPrintable(QString("%1..%2").arg(lo).arg(hi))); // 8 workers on 2 CPUs: ~70 each
    }

    void cyclictestOptionsAreCheckedAsTheToolTakesThem() {
        CyclictestArgs a;
        QVERIFY(parseCyclictest({"-t", "4", "-i", "1000", "-d", "500", "-l", "100"}, 2, 0, a).empty());
        QCOMPARE(a.threads, 4);
        QCOMPARE(a.distance, 500 * kNsPerUs);
        QVERIFY(parseCyclictest({"-t"}, 4, 0, a).empty());
        QCOMPARE(a.threads, 4); // -t alone: one per CPU
        QVERIFY(parseCyclictest({"-t2", "-i1234", "--distance=0", "-D", "1m"}, 4, 0, a).empty());
        QCOMPARE(a.interval, 1234 * kNsPerUs);
        QCOMPARE(a.duration, 60 * kNsPerSec);
        QVERIFY(parseCyclictest({"-p", "0", "-t", "3"}, 4, 0, a).empty());
        QCOMPARE(a.priority, 4); // "defaulting realtime priority to N+1"
        QVERIFY(parseCyclictest({"-S", "-h", "200"}, 4, 0, a).empty());
        QVERIFY(a.smp && a.threads == 4 && a.distance == 0); // -h forces -d 0
        QVERIFY(parseCyclictest({"-S", "-t", "2"}, 4, 0, a).find("leave out -t") != std::string::npos);
        QVERIFY(parseCyclictest({"-i", "5"}, 4, 0, a)
                    .find("-i: '5' is not an interval in us; accepted: 10 to 10000000") != std::string::npos);
        QVERIFY(parseCyclictest({"--foo"}, 4, 0, a).find("unsupported cyclictest option '--foo'") !=
                std::string::npos);
        QVERIFY(parseCyclictest({"-D", "3x"}, 4, 0, a).find("-D") != std::string::npos);
    }

    // rt-tests 2.0 - 2.4 pin measuring thread i to the i-th CPU without -a or -S (process_options()'s
    // AFFINITY_USEALL default, dropped in 2.5 by 2d910eecf10c); the current release leaves them
    // free. With a hog pinned to CPU 0, where the thread starts, the 2.4 thread waits its turn
    // there at every wakeup, and the current one moves to the idle CPU 1.
    void cyclictestBefore2_5PinsItsThreadsWithoutDashA() {
        const auto cpusOfThread = [](const char* version) {
            const std::string v = *version ? std::string("\"version\": \"") + version + "\", " : "";
            const Scenario s = scenarioFrom(
                R"J({"duration": "300ms", "machine": {"cpus": 2, "hz": 250, "preempt": "none"}, "tasks": [
                  {"comm": "hog", "cpus": [0], "behavior": [{"run": "10s"}]},
                  {"workload": "cyclictest", )J" +
                v + R"J("args": "-t2 -i 1000 -l 200"}]})J");
            Engine e = instantiate(s, 1);
            e.runUntil(300 * kNsPerMs);
            std::set<int> cpus; // where measuring thread 0 (task 2: after the hog and the main thread) ran
            const Slices& sl = e.trace().slices;
            for (size_t i = 0; i < sl.size(); ++i)
                if (sl.task[i] == 2) cpus.insert(sl.cpu[i]);
            return cpus;
        };
        const std::set<int> pinned = cpusOfThread("2.4"), free = cpusOfThread("");
        QCOMPARE(pinned, std::set<int>{0});
        QVERIFY2(free.count(1) == 1, "the current release's thread moves off the hog's CPU");
        QCOMPARE(cpusOfThread("2.5"), free);
        QCOMPARE(cpusOfThread("2.4.1"), pinned); // a patch release is its minor one's
    }

    // "version" names the field and what it accepts; only cyclictest's model follows a release.
    void aToolsReleaseIsCheckedWhereItMatters() {
        const auto error = [](const std::string& entry) {
            Scenario s;
            ScenarioError e;
            const std::string json = R"J({"machine": {"cpus": 2}, "tasks": [)J" + entry + "]}";
            return parseScenario(json, "w.json", s, e) ? std::string() : e.text();
        };
        const std::string bad = error(R"J({"workload": "cyclictest", "version": "2.x", "args": "-t1"})J");
        QVERIFY2(bad.find("tasks[0].version") != std::string::npos &&
                     bad.find("MAJOR.MINOR") != std::string::npos,
                 bad.c_str());
        QVERIFY(error(R"J({"workload": "cyclictest", "version": "2", "args": "-t1"})J").find("MAJOR.MINOR") !=
                std::string::npos);
        const std::string old = error(R"J({"workload": "cyclictest", "version": "1.9", "args": "-t1"})J");
        QVERIFY2(old.find("older than") != std::string::npos && old.find("2.0 or later") != std::string::npos,
                 old.c_str());
        const std::string other = error(R"J({"workload": "massive_intr", "version": "1.0", "args": "2 1"})J");
        QVERIFY2(other.find("tasks[0].version") != std::string::npos &&
                     other.find("does not depend on the tool's release") != std::string::npos,
                 other.c_str());
        QVERIFY(error(R"J({"workload": "cyclictest", "version": "2.4", "args": "-t1"})J").empty());
    }

    // Thread i sleeps on the absolute grid start + k * (interval + i * distance); every expiry
    // gives one sample; latency = run after the wakeup - programmed expiry.
    void cyclictestThreadsSampleOnTheirOwnPeriods() {
        Scenario s = withWorkload("cyclictest", "-t2 -i 1000 -d 500 -l 100 -q", 2);
        Engine e = instantiate(s, 1);
        e.runUntil(3 * kNsPerSec);
        const Task& t0 = e.tasks()[1];
        const Task& t1 = e.tasks()[2];
        QCOMPARE(t0.latCount, int64_t(100));
        QCOMPARE(t1.latCount, int64_t(100));
        // Wakeups on each thread's grid: exactly one period apart (the fixed path adds the same
        // to each).
        std::vector<Time> w0, w1;
        const Wakeups& w = e.trace().wakeups;
        for (size_t i = 0; i < w.size(); ++i) {
            if (w.wakee[i] == 1) w0.push_back(w.time[i]);
            if (w.wakee[i] == 2) w1.push_back(w.time[i]);
        }
        QCOMPARE(w0.size(), size_t(101)); // 100 timer wakeups + the start
        QCOMPARE(w1.size(), size_t(101));
        for (size_t k = 2; k < w0.size(); ++k)
            QCOMPARE(w0[k] - w0[k - 1], kNsPerMs);
        for (size_t k = 2; k < w1.size(); ++k)
            QCOMPARE(w1[k] - w1[k - 1], 1500 * kNsPerUs);
        const auto out = lines(workloadReport(s.workloads[0], e));
        QVERIFY(out[0].find("I:1000 C:    100") != std::string::npos);
        QVERIFY(out[1].find("I:1500 C:    100") != std::string::npos);
        QCOMPARE(t0.tgid, t1.tgid); // threads of one process, the main thread's
        QCOMPARE(t0.tgid, e.tasks()[0].pid);
    }

    // hrtimer_nanosleep(): fair tasks sleep with timer_slack_ns (50 us), RT tasks with none, so a
    // SCHED_FIFO cyclictest thread measures exactly 50 us less on an idle machine.
    void timerSlackAppliesToFairTasksOnly() {
        auto minLatency = [](const std::string& args) {
            Scenario s = withWorkload("cyclictest", args, 2);
            Engine e = instantiate(s, 1);
            e.runUntil(2 * kNsPerSec);
            return std::pair{e.tasks()[1].latMin, e.tasks()[1].latMax};
        };
        const auto other = minLatency("-t1 -i 1000 -l 200");
        const auto fifo = minLatency("-t1 -i 1000 -l 200 -p 80");
        QCOMPARE(other.first - fifo.first, 50 * kNsPerUs);
        QCOMPARE(other.first, other.second); // no jitter configured: every sample the same
    }

    // A task's timed sleep arms an hrtimer, and hrtimer_start_range_ns() reprograms the clock
    // event device when it expires first (hrtimer_reprogram()): the machine's timer_arm is kernel
    // time the sleeper spends before it blocks - not after its wakeup (cyclictest's latencies
    // stay), and not in schedule_timeout(), whose timer is the wheel's, nor in the kthreads
    // stand-in's gaps.
    void timerArmIsPaidBeforeATimedSleepOnly() {
        struct Seen {
            Time stime = 0, latMin = 0, latMax = 0;
            int64_t nvcsw = 0, samples = 0;
        };
        // Each task alone on the machine, so that nothing else moves with the 7 us.
        const auto run = [](const std::string& arm, const std::string& task, const std::string& comm) {
            Scenario s = scenarioFrom(R"J({"machine": {"cpus": 2, "costs": {"timer_arm": ")J" + arm +
                                      R"J("}}, "tasks": [)J" + task + "]}");
            Engine e = instantiate(s, 1);
            e.runUntil(kNsPerSec);
            Seen out;
            for (const Task& t : e.tasks()) {
                if (t.comm.rfind(comm, 0) != 0) continue;
                out.stime += t.stime;
                out.nvcsw += t.nvcsw;
                if (t.latCount > 0) out.latMin = t.latMin, out.latMax = t.latMax, out.samples = t.latCount;
            }
            return out;
        };
        const auto both = [&](const std::string& task, const std::string& comm) {
            return std::pair{run("0us", task, comm), run("7us", task, comm)};
        };
        const auto [napNone, napArmed] = both(
            R"J({"comm": "nap", "behavior": [{"repeat": 100, "body": [{"sleep": "2ms"}, {"run": "10us"}]}]})J",
            "nap");
        QCOMPARE(napArmed.nvcsw, int64_t(101)); // 100 sleeps and the exit
        QCOMPARE(napArmed.stime - napNone.stime, 100 * 7 * kNsPerUs);
        const auto [cycNone, cycArmed] =
            both(R"J({"workload": "cyclictest", "args": "-t1 -i 1000 -l 200"})J", "cyclictest");
        QCOMPARE(cycArmed.samples, int64_t(200));
        // 200 clock_nanosleep()s of the measuring thread, and the main thread's usleep(10000)s
        const int64_t mainSleeps = cycArmed.nvcsw - 200 - 2; // less both exits
        QVERIFY(mainSleeps >= 15 && mainSleeps <= 25);
        QCOMPARE(cycArmed.stime - cycNone.stime, (200 + mainSleeps) * 7 * kNsPerUs);
        QCOMPARE(cycArmed.latMin, cycNone.latMin);
        QCOMPARE(cycArmed.latMax, cycNone.latMax);
        const auto [wheelNone, wheelArmed] =
            both(R"J({"comm": "wheel", "behavior": [{"repeat": 50, "body": [{"sleep": "4ms", "jiffies": true},
                                                                            {"run": "10us"}]}]})J",
                 "wheel");
        QCOMPARE(wheelArmed.nvcsw, int64_t(51));
        QCOMPARE(wheelArmed.stime, wheelNone.stime);
        const auto [ktNone, ktArmed] =
            both(R"J({"workload": "kthreads", "args": "-r 20 -c 20"})J", "kworker/");
        QVERIFY(ktArmed.nvcsw > 20);
        QCOMPARE(ktArmed.stime, ktNone.stime);
    }

    // rt-tests' print_stat(): "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld Avg:%5ld Max:%8ld";
    // the fields stand where they stand in cyclictest's own output (src/cyclictest/cyclictest.c).
    void cyclictestLineHasTheToolsLayout() {
        Scenario s = withWorkload("cyclictest", "-t1 -i 1000 -l 50", 2);
        Engine e = instantiate(s, 1);
        e.runUntil(kNsPerSec);
        const std::string ours = lines(workloadReport(s.workloads[0], e))[0];
        const std::string real =
            "T: 0 ( 9136) P: 0 I:1000 C: 299848 Min:      5 Act:   11 Avg:   11 Max:   21205";
        for (const char* label : {"T:", "(", "P:", "I:", "C:", "Min:", "Act:", "Avg:", "Max:"})
            QCOMPARE(ours.find(label), real.find(label));
        QCOMPARE(ours.size(), real.size());
    }

    void messagingOptionsAreCheckedAsTheToolsTakeThem() {
        MessagingArgs a;
        QVERIFY(parseMessaging({"-g", "20", "-t", "-l", "5000"}, true, a).empty());
        QVERIFY(a.threads && a.groups == 20 && a.loops == 5000 && a.fds == 20 && !a.pipe);
        QVERIFY(
            parseMessaging({"-g", "4", "-l", "2000", "-T", "-f", "10", "-s", "200", "-p"}, false, a).empty());
        QVERIFY(a.threads && a.fds == 10 && a.datasize == 200 && a.pipe);
        QVERIFY(parseMessaging({"-T"}, true, a)
                    .find("unsupported messaging option '-T'; accepted: -g N, -l N, -t, -p") !=
                std::string::npos);
        QVERIFY(
            parseMessaging({"-g", "0"}, false, a).find("-g: '0' is not a group count; accepted: 1 to 1000") !=
            std::string::npos);
        QVERIFY(parseMessaging({"-l"}, false, a).find("-l: needs a value") != std::string::npos);
        QVERIFY(parseMessaging({"-g", "1000", "-f", "1000"}, false, a).find("more than 100000 tasks") !=
                std::string::npos);
    }

    // Every sender writes loops rounds of one message to each receiver of its group; every
    // receiver reads fds * loops; all finish, and the channels end empty.
    void messagingMovesExactlyTheMessagesOfTheTopology() {
        Scenario s = withWorkload("hackbench", "-g 2 -l 30 -f 5 -T", 2);
        Engine e = instantiate(s, 1);
        e.runUntil(3 * kNsPerSec);
        int senders = 0, receivers = 0;
        for (const Task& t : e.tasks()) {
            if (t.parent < 0) {
                QCOMPARE(t.state, TaskState::Dead); // main: all workers reaped
                continue;
            }
            QCOMPARE(t.state, TaskState::Dead);
            const Program& p = s.programs[size_t(t.program)];
            const bool sender = p.ops.size() > 1 && p.ops[1].kind == OpKind::Write;
            (sender ? senders : receivers)++;
            QCOMPARE(t.iterations, sender ? int64_t(30) : int64_t(5 * 30)); // loop passes
            QCOMPARE(t.tgid, e.tasks()[0].pid);                             // -T: threads of the main process
        }
        QCOMPARE(senders, 10);
        QCOMPARE(receivers, 10);
        const auto out = lines(workloadReport(s.workloads[0], e));
        QCOMPARE(out[0],
                 std::string(
                     "Running in threaded mode with 2 groups using 10 file descriptors each (== 20 tasks)"));
        QCOMPARE(out[1], std::string("Each sender will pass 30 messages of 100 bytes"));
        QVERIFY(QRegularExpression("^Time: \\d+\\.\\d{3}$").match(QString::fromStdString(out[2])).hasMatch());
    }

    void perfMessagingPrintsPerfBenchsHeader() {
        Scenario s = withWorkload("messaging", "-g 1 -l 10 -p", 2);
        Engine e = instantiate(s, 1);
        e.runUntil(3 * kNsPerSec);
        const auto out = lines(workloadReport(s.workloads[0], e));
        QCOMPARE(out[0], std::string("# Running 'sched/messaging' benchmark:"));
        QCOMPARE(out[1], std::string("# 20 sender and receiver processes per group"));
        QCOMPARE(out[2], std::string("# 1 groups == 40 processes run"));
        QVERIFY(QRegularExpression("^     Total time: \\d+\\.\\d{3} \\[sec\\]$")
                    .match(QString::fromStdString(out[4]))
                    .hasMatch());
        for (const Task& t : e.tasks())
            QCOMPARE(t.comm, std::string("sched-messaging"));
    }

    void workloadTasksTakeTheEntrysSliceAndInheritItWhenForked() {
        Scenario s = scenarioFrom(R"J({"machine": {"cpus": 1}, "tasks": [
            {"workload": "massive_intr", "args": "2 1", "slice": "100ms"},
            {"workload": "cyclictest", "args": "-t1 -l 10", "slice": "500us"} ]})J");
        Engine e = instantiate(s, 1);
        e.runUntil(300 * kNsPerMs);
        for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t) {
            const Time want = e.tasks()[size_t(t)].comm == "massive_intr" ? 100 * kNsPerMs : 500 * kNsPerUs;
            QCOMPARE(e.entities()[size_t(t)].slice, want);
        }
        QCOMPARE(s.workloads.size(), size_t(2));
        QCOMPARE(s.workloads[1].firstTask, TaskId(1)); // after massive_intr's parent
    }

    // The browser's video path wakes along Chromium's paths: the renderer's IO thread wakes
    // VideoFrameCompositor on every BeginFrame (60 Hz), which wakes Media; the GPU main thread wakes
    // the V4L2 decoder and Xorg once per video frame (24 fps), mutter wakes Xorg; viz is woken by
    // the GPU process's IO thread and the GPU main thread besides its own timer. Each comm switches
    // at the rate of Mike Galbraith's table within a quarter.
    void browserWakesAlongChromiumsPaths() {
        Scenario s = withWorkload("browser", "", 4, "full");
        Engine e = instantiate(s, 1);
        const Time secs = 10;
        e.runUntil(secs * kNsPerSec);
        std::map<std::pair<std::string, std::string>, int> woke; // (waker, wakee) -> wake-ups
        const Wakeups& w = e.trace().wakeups;
        for (size_t i = 0; i < w.size(); ++i)
            if (w.waker[i] != kNoTask)
                woke[{e.tasks()[size_t(w.waker[i])].comm, e.tasks()[size_t(w.wakee[i])].comm}]++;
        const auto wakers = [&](const std::string& wakee) {
            std::set<std::string> out;
            for (const auto& [edge, n] : woke)
                if (edge.second == wakee) out.insert(edge.first);
            return out;
        };
        QCOMPARE(wakers("VideoFrameCompo"), std::set<std::string>{"Chrome_ChildIOT"});
        QCOMPARE(wakers("Media"), (std::set<std::string>{"Chrome_ChildIOT", "VideoFrameCompo"}));
        QCOMPARE(wakers("V4L2DecoderThre"), std::set<std::string>{"chromium-browse"});
        QCOMPARE(wakers("Xorg"), (std::set<std::string>{"chromium-browse", "mutter"}));
        QCOMPARE(wakers("mutter"), std::set<std::string>{"Xorg"});
        QCOMPARE(wakers("VizCompositorTh"), (std::set<std::string>{"Chrome_ChildIOT", "chromium-browse"}));
        // A reader that finds its message already queued is not woken: at least nine in ten are.
        const auto atLeast = [&](const std::string& by, const std::string& wakee, double perSec) {
            const int n = woke[{by, wakee}];
            QVERIFY2(n >= 0.9 * perSec * secs && n <= perSec * secs + 1,
                     qPrintable(QString("%1 -> %2: %3").arg(by.c_str(), wakee.c_str()).arg(n)));
        };
        atLeast("Chrome_ChildIOT", "VideoFrameCompo", 60);
        atLeast("chromium-browse", "V4L2DecoderThre", 24);
        atLeast("mutter", "Xorg", 24);
        const std::map<std::string, double> table = {{"chromium-browse", 462}, {"Chrome_ChildIOT", 441},
                                                     {"ThreadPoolSingl", 145}, {"VizCompositorTh", 216},
                                                     {"VideoFrameCompo", 158}, {"Media", 214},
                                                     {"V4L2DecoderThre", 210}, {"Xorg", 225},
                                                     {"mutter", 174}};
        std::map<std::string, int64_t> switches;
        for (const Task& t : e.tasks())
            switches[t.comm] += t.nvcsw + t.nivcsw;
        for (const auto& [comm, rate] : table) {
            const double got = double(switches[comm]) / double(secs);
            QVERIFY2(got > 0.75 * rate && got < 1.25 * rate,
                     qPrintable(QString("%1: %2 switches/s, table %3").arg(comm.c_str()).arg(got).arg(rate)));
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkloads)
#include "tst_workloads.moc"
