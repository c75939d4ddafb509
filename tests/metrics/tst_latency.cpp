// SPDX-License-Identifier: GPL-3.0-or-later
// perf sched latency and the switch counts, computed from hand-made traces whose answers are
// worked out here by the rules of tools/perf/builtin-sched.c (latency_switch_event(),
// latency_wakeup_event(), add_sched_in_event(), perf_sched__merge_lat()).
#include "metrics/latency.h"

#include <QtTest>

#include <algorithm>
#include <functional>

using namespace sched;

namespace {

struct TraceBuilder {
    Trace t;
    TraceBuilder(int cpus) { t.cpus = cpus; }
    TaskId task(const char* comm, int pid) {
        t.tasks.push_back(TraceTask{pid, pid, comm, 120});
        return TaskId(t.tasks.size() - 1);
    }
    void slice(TaskId task, int cpu, Time start, Time end, SwitchPoint how) {
        t.slices.push(start, end, task, uint16_t(cpu), uint8_t(how), kNoReason);
    }
    void running(TaskId task, int cpu, Time start, Time end) {
        slice(task, cpu, start, end, SwitchPoint::Block);
        t.slices.endPoint.back() = kStillRunning;
    }
    void wake(TaskId task, Time at, int cpu) {
        t.wakeups.push(at, kNoTask, task, uint16_t(cpu), uint16_t(cpu), false);
    }
};

} // namespace

class TestLatency : public QObject {
    Q_OBJECT
  private slots:
    // An imported trace's slices may overlap (its timestamps went backwards, kept and counted):
    // the sums stop at 2^63 - 1 ns instead of wrapping to a negative runtime or delay.
    void sumsSaturateInsteadOfWrapping() {
        TraceBuilder b(2);
        const Time half = INT64_MAX / 2 + 1;
        const TaskId a = b.task("a", 10), a2 = b.task("a", 11);
        b.slice(a, 0, 0, half, SwitchPoint::Block);
        b.slice(a, 1, 0, half, SwitchPoint::Block);
        b.slice(a2, 0, 0, half, SwitchPoint::Block);
        const auto perTid = perfSchedLatency(b.t, LatencyOptions{false, {LatencySortKey::Max}});
        const LatencyRow& ra = perTid[0].pid == 10 ? perTid[0] : perTid[1];
        QCOMPARE(ra.runtime, Time(INT64_MAX));
        const auto merged = perfSchedLatency(b.t);
        QCOMPARE(merged.size(), size_t(1));
        QCOMPARE(merged[0].merged, 2);
        QCOMPARE(merged[0].runtime, Time(INT64_MAX));
    }
    void delayRunsFromWakeupOrRunnableSwitchOutToSwitchIn() {
        TraceBuilder b(1);
        const TaskId a = b.task("a", 10), x = b.task("x", 20);
        b.slice(a, 0, 0, 10, SwitchPoint::Block); // first switch-in: no atom yet
        b.slice(x, 0, 10, 20, SwitchPoint::Block);
        b.wake(a, 15, 0);                              // woken at 15 ...
        b.slice(a, 0, 20, 30, SwitchPoint::IrqReturn); // ... runs at 20: delay 5; preempted (R+) at 30
        b.wake(x, 25, 0);
        b.slice(x, 0, 30, 35, SwitchPoint::ExitToUser); // x: delay 30 - 25 = 5; switched out R at 35
        b.running(a, 0, 42, 50);                        // a: runnable since 30, in at 42: delay 12
        const auto rows = perfSchedLatency(b.t, LatencyOptions{false, {LatencySortKey::Max}});
        QCOMPARE(rows.size(), size_t(2));
        const LatencyRow& ra = rows[0].comm == "a" ? rows[0] : rows[1];
        QCOMPARE(ra.count, int64_t(2));
        QCOMPARE(ra.totalDelay, Time(5 + 12));
        QCOMPARE(ra.maxDelay, Time(12));
        QCOMPARE(ra.maxStart, Time(30));
        QCOMPARE(ra.maxEnd, Time(42));
        QCOMPARE(ra.runtime, Time(10 + 10 + 8));
        QCOMPARE(rows[0].comm, std::string("a")); // sorted by max, descending
    }
    void onlyTheFirstWakeupAfterASleepCounts() {
        TraceBuilder b(1);
        const TaskId a = b.task("a", 10);
        b.slice(a, 0, 0, 10, SwitchPoint::Block);
        b.wake(a, 5, 0); // before the switch-out: ignored (unordered / still running)
        b.wake(a, 20, 0);
        b.wake(a, 25, 0); // a second wakeup of an already waiting task: ignored
        b.slice(a, 0, 40, 50, SwitchPoint::Block);
        const auto rows = perfSchedLatency(b.t);
        QCOMPARE(rows[0].count, int64_t(1));
        QCOMPARE(rows[0].totalDelay, Time(20));
    }
    void slicesRecordedOutOfOrderAreWalkedInTimeOrder() {
        // An imported trace may list a task's slices out of start order (two CPUs' buffers merged
        // late); the atoms are those of the time-ordered walk, as with the same slices in order.
        TraceBuilder ordered(2), shuffled(2);
        for (TraceBuilder* b : {&ordered, &shuffled})
            b->task("a", 10);
        const auto add = [](TraceBuilder& b, int i) {
            const Time at[3] = {0, 40, 90};
            b.slice(0, i % 2, at[i], at[i] + 10, SwitchPoint::Block);
        };
        for (int i : {0, 1, 2})
            add(ordered, i);
        for (int i : {2, 0, 1})
            add(shuffled, i);
        for (TraceBuilder* b : {&ordered, &shuffled}) {
            b->wake(0, 30, 1); // in at 40: delay 10
            b->wake(0, 60, 0); // in at 90: delay 30
        }
        for (const TraceBuilder* b : {&ordered, &shuffled}) {
            const auto rows = perfSchedLatency(b->t);
            QCOMPARE(rows.size(), size_t(1));
            QCOMPARE(rows[0].count, int64_t(2));
            QCOMPARE(rows[0].totalDelay, Time(10 + 30));
            QCOMPARE(rows[0].maxDelay, Time(30));
            QCOMPARE(rows[0].maxStart, Time(60));
        }
    }
    void aSleepWithoutWakeupIsNotMeasured() {
        TraceBuilder b(1);
        const TaskId a = b.task("a", 10);
        b.slice(a, 0, 0, 10, SwitchPoint::Block);
        b.slice(a, 0, 40, 50, SwitchPoint::Block); // no wakeup recorded in between
        QCOMPARE(perfSchedLatency(b.t)[0].count, int64_t(0));
    }
    void rowsMergeByCommAndSortAsPerf() {
        TraceBuilder b(2);
        const TaskId w1 = b.task("worker", 1), w2 = b.task("worker", 2), z = b.task("zed", 3),
                     m = b.task("mid", 4);
        // worker:1 waits 4, worker:2 waits 8, zed waits 6 (avg 6), mid waits 6 twice (avg 6)
        b.slice(w1, 0, 0, 10, SwitchPoint::ExitToUser);
        b.slice(w1, 0, 14, 20, SwitchPoint::Block);
        b.slice(w2, 1, 0, 10, SwitchPoint::ExitToUser);
        b.slice(w2, 1, 18, 20, SwitchPoint::Block);
        b.slice(z, 0, 20, 30, SwitchPoint::ExitToUser);
        b.slice(z, 0, 36, 40, SwitchPoint::Block);
        b.slice(m, 1, 20, 30, SwitchPoint::ExitToUser);
        b.slice(m, 1, 36, 40, SwitchPoint::ExitToUser);
        b.slice(m, 1, 46, 50, SwitchPoint::Block);
        const auto rows = perfSchedLatency(b.t); // default keys: avg, max, switch, runtime
        QCOMPARE(rows.size(), size_t(3));
        // All average 6: worker wins on max (8); mid and zed tie on max and split on switches.
        QCOMPARE(rows[0].comm, std::string("worker"));
        QCOMPARE(rows[0].merged, 2);
        QCOMPARE(rows[0].count, int64_t(2));
        QCOMPARE(rows[0].avgDelay(), Time(6));
        QCOMPARE(rows[0].maxDelay, Time(8));
        QCOMPARE(rows[1].comm, std::string("mid"));
        QCOMPARE(rows[2].comm, std::string("zed"));
        // per-thread rows (-p) keep the tids apart
        const auto perTid = perfSchedLatency(b.t, LatencyOptions{false, {LatencySortKey::Max}});
        QCOMPARE(perTid.size(), size_t(4));
        QCOMPARE(perTid[0].pid, 2);
    }
    void switchCountsIncludeIdle() {
        TraceBuilder b(1);
        const TaskId a = b.task("a", 10), x = b.task("x", 20);
        b.slice(a, 0, 0, 10, SwitchPoint::Block);      // idle -> a (1), a -> x (2)
        b.slice(x, 0, 10, 20, SwitchPoint::Block);     // x -> idle (3)
        b.slice(a, 0, 30, 40, SwitchPoint::IrqReturn); // idle -> a (4), a -> x (5)
        b.running(x, 0, 40, 50);
        const SwitchCounts c = countSwitches(b.t);
        QCOMPARE(c.total, int64_t(5));
        QCOMPARE(c.voluntary, int64_t(2));
        QCOMPARE(c.involuntary, int64_t(1));
    }
    void switchCountsDoNotDependOnTheOrderOfTheSlices() {
        // A simulated trace holds each CPU's slices in start order, an imported one may not:
        // the same slices pushed in start order and reversed count alike.
        // CPU 0: idle -> a -> x -> idle, idle -> a -> x (running): 5; CPU 1: idle -> y -> idle,
        // idle -> y -> idle (exit): 4.
        for (const bool reversed : {false, true}) {
            TraceBuilder b(2);
            const TaskId a = b.task("a", 10), x = b.task("x", 20), y = b.task("y", 30);
            std::vector<std::function<void()>> pushes{
                [&] { b.slice(a, 0, 0, 10, SwitchPoint::Block); },
                [&] { b.slice(y, 1, 5, 15, SwitchPoint::Block); },
                [&] { b.slice(x, 0, 10, 20, SwitchPoint::Block); },
                [&] { b.slice(y, 1, 20, 25, SwitchPoint::Exit); },
                [&] { b.slice(a, 0, 30, 40, SwitchPoint::IrqReturn); },
                [&] { b.running(x, 0, 40, 50); },
            };
            if (reversed) std::reverse(pushes.begin(), pushes.end());
            for (const auto& push : pushes)
                push();
            const SwitchCounts c = countSwitches(b.t);
            QCOMPARE(c.total, int64_t(9));
            QCOMPARE(c.voluntary, int64_t(4));
            QCOMPARE(c.involuntary, int64_t(1));
        }
    }
    void delayAtomsAddUpToTheTable() {
        TraceBuilder b(1);
        const TaskId a = b.task("a", 10), x = b.task("x", 20);
        b.slice(a, 0, 0, 10, SwitchPoint::Block);
        b.slice(x, 0, 10, 20, SwitchPoint::Block);
        b.wake(a, 15, 0);
        b.slice(a, 0, 20, 30, SwitchPoint::IrqReturn);
        b.wake(x, 25, 0);
        b.slice(x, 0, 30, 35, SwitchPoint::ExitToUser);
        b.running(a, 0, 42, 50);
        const auto all = schedDelays(b.t);
        QCOMPARE(all.size(), size_t(3));
        const auto onlyA = schedDelays(b.t, a);
        QCOMPARE(onlyA.size(), size_t(2));
        QCOMPARE(onlyA[0].runnableAt, Time(15));
        QCOMPARE(onlyA[0].switchedIn, Time(20));
        QCOMPARE(onlyA[1].runnableAt, Time(30));
        QCOMPARE(onlyA[1].switchedIn, Time(42));
    }
    void sortKeysParse() {
        std::vector<LatencySortKey> k;
        QVERIFY(parseLatencySort("runtime, sum", k));
        QCOMPARE(k.size(), size_t(2));
        QVERIFY(!parseLatencySort("runtime,bogus", k));
    }
};

QTEST_GUILESS_MAIN(TestLatency)
#include "tst_latency.moc"
