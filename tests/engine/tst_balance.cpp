// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-CPU placement: load balancing spreads hogs; a wakeup prefers an idle CPU
// (select_idle_sibling()) and weighs the two CPUs' loads (wake_affine_weight(), with WF_SYNC)
// unless the wake-up is one-to-many (record_wakee(), wake_wide());
// migrations carry lag, not vruntime.
#include "tests/test_support.h"

#include "engine/wake_wide.h"

#include <map>
#include <set>

using namespace sched;

namespace {

// Scenario tasks: a hog pinned to each of CPUs 0 .. n-1, comma-separated.
std::string pinnedHogs(int n) {
    std::string tasks;
    for (int c = 0; c < n; ++c)
        tasks += std::string(c ? "," : "") + R"({"comm": "hog", "cpus": [)" + std::to_string(c) +
                 R"(], "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]})";
    return tasks;
}

struct WakeupCpus {
    uint16_t waker, target;
};

// The waker's and the chosen CPU of each wake-up of t (sched_wakeup_new left out).
std::vector<WakeupCpus> wakeupsOf(const Engine& e, TaskId t) {
    std::vector<WakeupCpus> v;
    const Wakeups& w = e.trace().wakeups;
    for (size_t i = 0; i < w.size(); ++i)
        if (w.wakee[i] == t && !w.isNew[i]) v.push_back({w.wakerCpu[i], w.targetCpu[i]});
    return v;
}

} // namespace

class TestBalance : public QObject {
    Q_OBJECT
  private slots:
    // update_idle_cpu_scan() (SIS_UTIL): nr_idle_scan = llc_weight * (1024 - min(1024, x^2 *
    // 117^2 / (10000 * 1024))) / 1024 with x the LLC's mean utilisation. With k of 4 CPUs busy
    // for half a second (PELT's util_avg has converged to ~1023 on those, 0 on the others):
    // k = 1 -> x 255 -> 3 CPUs; 2 -> 511 -> 2; 3 -> 767 -> 0.
    void idleCpuScanDepthFollowsTheLlcUtilisation() {
        const int expected[] = {4, 3, 2, 0};
        for (int k = 1; k <= 3; ++k) {
            Engine e = engineFrom(R"({"machine": {"cpus": 4, "hz": 250}, "tasks": [)" + pinnedHogs(k) + "]}");
            e.runUntil(500 * kNsPerMs);
            QCOMPARE(e.nrIdleScan(), expected[k]);
        }
    }
    // select_idle_cpu() looks at no more than nr_idle_scan CPUs after the target. Five of eight
    // CPUs busy: nr_idle_scan is 3 once their periodic balance (every 256 ms when busy) has seen
    // the utilisation. A sleeper started on busy CPU 0 wakes from its timer (target =
    // prev = 0): the scan sees CPUs 1-3, all busy, and the wakee stays on CPU 0 although 5-7 are
    // idle; without SIS_UTIL it finds CPU 5. (DELAY_DEQUEUE off: a delayed sleeper would be
    // requeued in place by ttwu_runnable() without a CPU being selected at all.)
    void selectIdleCpuScansNoMoreThanNrIdleScanCpus() {
        for (const bool sis : {true, false}) {
            std::string json =
                R"({"machine": {"cpus": 8, "hz": 250, "features": {"DELAY_DEQUEUE": false, "SIS_UTIL": )" +
                std::string(sis ? "true" : "false") + R"(}}, "tasks": [)" + pinnedHogs(5) + ",";
            json +=
                R"({"comm": "sleeper", "start_cpu": 0, "start": "301ms", "behavior": [{"run": "100us"}, {"sleep": "1ms"}, {"run": "100us"}]}]})";
            Engine e = engineFrom(json);
            e.runUntil(310 * kNsPerMs);
            if (sis) QCOMPARE(e.nrIdleScan(), 3); // set by the busy CPUs' balance at 256 ms
            const auto wakeups = wakeupsOf(e, taskByComm(e, "sleeper"));
            QCOMPARE(wakeups.size(), size_t(1));
            QCOMPARE(wakeups[0].target, uint16_t(sis ? 0 : 5));
        }
    }
    // rq->cfs_tasks: account_entity_enqueue() adds a task at the head, __set_next_task_fair()
    // moves the picked one back there. Checked against the trace after 100 ms of hogs of three
    // weights: the running task first, then the others by their last switch-in, newest first
    // (tasks that never ran behind them, the later enqueued first).
    void cfsTasksListsTheMostRecentlyPickedFirst() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "full"},
          "tasks": [{"comm": "n0", "count": 3, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                    {"comm": "n5", "nice": 5, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                    {"comm": "n19", "nice": 19, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]}]})J");
        e.runUntil(101 * kNsPerMs);
        const CpuRq& rq = e.cpus()[0];
        std::vector<TaskId> list;
        for (TaskId p = rq.cfsTasks.head; p >= 0; p = e.entities()[size_t(p)].groupNext)
            list.push_back(p);
        QCOMPARE(list.size(), size_t(rq.cfs.nrQueued));
        QCOMPARE(list.size(), size_t(5));
        QCOMPARE(list.front(), rq.curr);
        QCOMPARE(rq.cfsTasks.tail, list.back());
        std::map<TaskId, Time> lastIn;
        const Slices& s = e.trace().slices;
        for (size_t i = 0; i < s.size(); ++i)
            lastIn[s.task[i]] = std::max(lastIn.count(s.task[i]) ? lastIn[s.task[i]] : Time(-1), s.start[i]);
        for (size_t k = 2; k < list.size(); ++k) {
            const Time a = lastIn.count(list[k - 1]) ? lastIn[list[k - 1]] : -1;
            const Time b = lastIn.count(list[k]) ? lastIn[list[k]] : -1;
            QVERIFY2(a > b || (a == -1 && b == -1 && list[k - 1] > list[k]),
                     qPrintable(QString("position %1: last in %2 ns, before it %3 ns").arg(k).arg(b).arg(a)));
        }
    }
    // detach_tasks() walks cfs_tasks from the tail: the task that ran longest ago goes first,
    // whatever its deadline. CPU 1's pinned tasks exit after ~200 ms; CPU 1's newly-idle balance
    // pulls one of CPU 0's four hogs (a preemptible kernel stops after one task on newidle), and
    // it must be the one that left the CPU longest ago (read off the trace): the nice-19 hog,
    // whose far virtual deadline put it last in deadline order.
    void detachTasksTakesTheLeastRecentlyRunFirst() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "none"},
          "tasks": [{"comm": "pinned", "count": 4, "cpus": [1], "behavior": [{"run": "50ms"}]},
                    {"comm": "w0", "count": 3, "start_cpu": 0, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                    {"comm": "w19", "nice": 19, "start_cpu": 0, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]}]})J");
        e.runUntil(400 * kNsPerMs);
        e.finish();
        const Migrations& m = e.trace().migrations;
        QVERIFY(m.size() > 0);
        const Time at = m.time[0];
        QVERIFY2(at > 150 * kNsPerMs, qPrintable(QString::number(at))); // not before CPU 1 went idle
        std::set<TaskId> moved;
        for (size_t i = 0; i < m.size() && m.time[i] == at; ++i) {
            QCOMPARE(m.from[i], uint16_t(0));
            moved.insert(m.task[i]);
        }
        QCOMPARE(moved.size(), size_t(1));
        // CPU 0's hogs at that moment: the running one cannot move; the others by when they last
        // left the CPU, oldest first.
        std::vector<std::pair<Time, TaskId>> waiting;
        const Slices& s = e.trace().slices;
        for (TaskId t :
             {taskByComm(e, "w0", 0), taskByComm(e, "w0", 1), taskByComm(e, "w0", 2), taskByComm(e, "w19")}) {
            Time lastOut = -1;
            bool running = false;
            for (size_t i = 0; i < s.size(); ++i) {
                if (s.task[i] != t || s.cpu[i] != 0 || s.start[i] > at) continue;
                if (s.end[i] > at)
                    running = true;
                else
                    lastOut = std::max(lastOut, s.end[i]);
            }
            if (!running) waiting.push_back({lastOut, t});
        }
        QCOMPARE(waiting.size(), size_t(3));
        std::sort(waiting.begin(), waiting.end());
        QVERIFY(waiting[0].first < at - e.config().migrationCost); // not cache hot
        QVERIFY(waiting[0].first < waiting[1].first);
        QCOMPARE(*moved.begin(), waiting[0].second);
        QCOMPARE(*moved.begin(), taskByComm(e, "w19"));
    }
    void eightHogsOnFourCpusEndTwoPerCpu() {
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(kNsPerSec);
        for (const CpuRq& rq : e.cpus())
            QCOMPARE(rq.nrRunning, 2u);
        QVERIFY(e.trace().migrations.size() >= 6);
        e.finish();
        // ... and they stay balanced: every CPU is busy after the first tens of milliseconds.
        const auto use = cpuUsage(e.trace());
        for (const auto& u : use)
            QVERIFY2(u.busy > 900 * kNsPerMs, qPrintable(QString::number(u.busy)));
    }
    // calculate_imbalance()'s migrate_load and detach_tasks()' task_h_load(): a balance between
    // busy CPUs moves load, not a count of tasks. Eight hogs of one session (an autogroup) on
    // CPU 0 weigh what the group entity does, 1024, as much as one hog of another session on
    // CPU 1, so CPU 1 - fully busy, with a load no lower than CPU 0's - pulls none of them, and
    // each session keeps one CPU. (A balancer on runnable counts pulled three, and the lone hog
    // had to share its CPU.)
    void migrateLoadWeighsAGroupsThreadsByTheirTaskHLoad() {
        const std::string json = R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "none"},
          "tasks": [ {"comm": "make", "count": 8, "session": "a", "start_cpu": 0, "behavior": [{"run": "2s"}]},
                     {"comm": "hog", "session": "b", "start_cpu": 1, "behavior": [{"run": "2s"}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        const auto rows = perfSchedLatency(e.trace());
        const Time hog = latencyRow(rows, "hog")->runtime, make = latencyRow(rows, "make")->runtime;
        QVERIFY2(hog > 950 * kNsPerMs, qPrintable(QString::number(hog)));
        QVERIFY2(make > 950 * kNsPerMs && make < 1050 * kNsPerMs, qPrintable(QString::number(make)));
    }
    void wakeupLandsOnAnIdleCpu() {
        const std::string json = R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "none"},
          "tasks": [ {"comm": "hog", "start_cpu": 0, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "sleeper", "start_cpu": 0, "behavior": [{"repeat": "forever", "body": [{"run": "100us"}, {"sleep": "1ms"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(500 * kNsPerMs);
        e.finish();
        const TaskId hog = taskByComm(e, "hog"), sl = taskByComm(e, "sleeper");
        // The hog keeps one CPU busy; the sleeper's wakeups find the other, idle CPU.
        int onOther = 0, total = 0;
        const CpuId hogCpu = e.tasks()[size_t(hog)].cpu;
        for (const WakeupCpus& w : wakeupsOf(e, sl)) {
            ++total;
            onOther += w.target != hogCpu;
        }
        QVERIFY(total > 300);
        QVERIFY2(onOther >= total - 2, qPrintable(QString("%1 of %2").arg(onOther).arg(total)));
        QVERIFY(e.tasks()[size_t(sl)].nivcsw < 5); // it never had to wait behind the hog
    }
    // wake_affine_weight() on PELT loads: with WF_SYNC the waker's own load is taken off its CPU.
    // The waker shares CPU 0 with a hog (cpu_load() about 2048: a new task starts at its full
    // weight) and writes after 20 ms of its own, at about 40 ms; the wakee started on CPU 1
    // beside three hogs at 10 ms and blocked at once, so its blocked load, decayed to about
    // 1024 / 2^(30/32) = 535, is still CPU 1's (about 3072 + 535), and its task_h_load() is
    // what it had when it slept (1024: the kernel does not age it for wake_affine()). A plain
    // wakeup compares (2048 + 1024) * 100 with (3607 - 1024) * 108 and leaves the wakee on CPU
    // 1; a pipe's (WF_SYNC) takes the waker's 1024 off CPU 0's side, 2048 * 100, and pulls it to
    // CPU 0. (The hogs are pinned and the wakee is asleep, so the balancer moves nothing.)
    void wakeAffineWeightDiscountsASyncWaker() {
        for (const bool sync : {false, true}) {
            const std::string json = std::string(R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "none"},
              "channels": [ {"name": "pipe", "capacity": 4, "sync": )J") +
                                     (sync ? "true" : "false") + R"J(} ],
              "tasks": [ {"comm": "hog0", "cpus": [0], "behavior": [{"run": "50ms"}]},
                         {"comm": "hog1", "count": 3, "cpus": [1], "behavior": [{"run": "50ms"}]},
                         {"comm": "waker", "cpus": [0], "behavior": [{"run": "20ms"}, {"write": "pipe"}, {"run": "5ms"}]},
                         {"comm": "wakee", "start_cpu": 1, "start": "10ms", "behavior": [{"read": "pipe"}, {"run": "1ms"}]} ]})J";
            Engine e = engineFrom(json);
            e.runUntil(60 * kNsPerMs);
            e.finish();
            const auto wakeups = wakeupsOf(e, taskByComm(e, "wakee"));
            QCOMPARE(wakeups.size(), size_t(1));
            QCOMPARE(wakeups[0].waker, uint16_t(0));
            QCOMPARE(wakeups[0].target, uint16_t(sync ? 0 : 1));
        }
    }
    // wake_wide(): wide only when the smaller flip count reaches sd_llc_size and the larger is at
    // least llc_size times it, whichever of waker and wakee has which.
    void wakeWideNeedsFlipsOnBothSides() {
        QVERIFY(!wakeWide(0, 0, 2));
        QVERIFY(!wakeWide(100, 1, 2)); // a one-to-many waker, but the wakee flips less than llc_size
        QVERIFY(wakeWide(100, 2, 2));
        QVERIFY(wakeWide(2, 100, 2));
        QVERIFY(!wakeWide(3, 2, 2));
        QVERIFY(wakeWide(4, 2, 2));
        QVERIFY(!wakeWide(4095, 64, 64));
        QVERIFY(wakeWide(4096, 64, 64));
    }
    // record_wakee(): a waker that alternates between two wakees flips on every wake-up; one that
    // always wakes the same task has flipped once.
    void recordWakeeCountsFlips() {
        const std::string json = R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "none"},
          "channels": [ {"name": "a", "capacity": 1}, {"name": "b", "capacity": 1}, {"name": "c", "capacity": 1} ],
          "tasks": [ {"comm": "disp", "behavior": [{"repeat": 100, "body": [{"run": "1ms"}, {"write": "a"}, {"run": "1ms"}, {"write": "b"}]}]},
                     {"comm": "ra", "behavior": [{"repeat": "forever", "body": [{"read": "a"}, {"run": "100us"}]}]},
                     {"comm": "rb", "behavior": [{"repeat": "forever", "body": [{"read": "b"}, {"run": "100us"}]}]},
                     {"comm": "pinger", "behavior": [{"repeat": 100, "body": [{"run": "1ms"}, {"write": "c"}]}]},
                     {"comm": "ponger", "behavior": [{"repeat": "forever", "body": [{"read": "c"}, {"run": "100us"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(500 * kNsPerMs);
        e.finish();
        const Task& disp = e.tasks()[size_t(taskByComm(e, "disp"))];
        const Task& pinger = e.tasks()[size_t(taskByComm(e, "pinger"))];
        int dispWakes = 0;
        const Wakeups& w = e.trace().wakeups;
        for (size_t i = 0; i < w.size(); ++i)
            dispWakes += w.waker[i] == taskByComm(e, "disp") && !w.isNew[i];
        QVERIFY2(dispWakes > 150, qPrintable(QString::number(dispWakes)));
        // Every wake-up that goes through select_task_rq_fair() flips; a delayed sleeper's is
        // requeued in place before it (ttwu_runnable()) and records nothing.
        QVERIFY2(int(disp.wakeeFlips) <= dispWakes && int(disp.wakeeFlips) >= dispWakes * 9 / 10,
                 qPrintable(QString("%1 flips, %2 wake-ups").arg(disp.wakeeFlips).arg(dispWakes)));
        QCOMPARE(pinger.wakeeFlips, 1u);
    }
    void affinityIsRespected() {
        const std::string json = R"J({"machine": {"cpus": 4, "hz": 250, "preempt": "full"},
          "tasks": [ {"comm": "pinned", "count": 6, "cpus": [1, 2], "behavior": [{"repeat": "forever", "body": [{"run": "2ms"}, {"sleep": "1ms"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(500 * kNsPerMs);
        e.finish();
        const Slices& s = e.trace().slices;
        for (size_t i = 0; i < s.size(); ++i)
            QVERIFY(s.cpu[i] == 1 || s.cpu[i] == 2);
    }
    // select_idle_cpu(): from a busy target the scan goes on from the next CPU and wraps round
    // (for_each_cpu_wrap), over more CPUs than one word of the engine's busy-CPU bitmask holds,
    // skipping idle CPUs the wakee may not use. 70 CPUs, all but 3 and 68 kept busy by pinned
    // hogs; the sleeper's first wake-up from CPU 66 finds 68, or, not allowed there, wraps to 3.
    // (Without DELAY_DEQUEUE: a sleeper left queued with negative lag is requeued where it is,
    // ttwu_runnable(), without select_task_rq().)
    void selectIdleCpuScansOnFromTheTargetAndWraps() {
        for (const bool allowed68 : {true, false}) {
            std::string tasks, sleeperCpus;
            for (int c = 0; c < 70; ++c) {
                if (c == 3 || c == 68) continue;
                tasks += R"({"comm": "hog", "cpus": [)" + std::to_string(c) +
                         R"(], "behavior": [{"run": "1s"}]}, )";
            }
            for (int c = 0; c < 70; ++c)
                if (allowed68 || c != 68)
                    sleeperCpus += (sleeperCpus.empty() ? "" : ", ") + std::to_string(c);
            const std::string json =
                R"J({"machine": {"cpus": 70, "hz": 250, "preempt": "none", "features": {"DELAY_DEQUEUE": false}},
                                     "tasks": [ )J" +
                tasks + R"J({"comm": "sleeper", "start_cpu": 66, "start": "5ms", "cpus": [)J" + sleeperCpus +
                R"J(], "behavior": [{"run": "50us"}, {"sleep": "1ms"}, {"run": "50us"}]} ]})J";
            Engine e = engineFrom(json);
            e.runUntil(20 * kNsPerMs);
            e.finish();
            const auto wakeups = wakeupsOf(e, taskByComm(e, "sleeper"));
            QCOMPARE(wakeups.size(), size_t(1));
            QCOMPARE(int(wakeups[0].target), allowed68 ? 68 : 3);
        }
    }
};

QTEST_GUILESS_MAIN(TestBalance)
#include "tst_balance.moc"
