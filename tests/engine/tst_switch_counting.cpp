// SPDX-License-Identifier: GPL-3.0-or-later
// Voluntary vs involuntary context switches by the kernel's rule (kernel/sched/core.c: __schedule()):
// voluntary only when the task blocks (or exits) outside a preemption; a preemption, a
// reschedule at return to user and sched_yield() are involuntary. Counts only when prev != next.
#include "tests/test_support.h"

using namespace sched;

class TestSwitchCounting : public QObject {
    Q_OBJECT
  private slots:
    void blockingIsVoluntaryEverythingElseInvoluntary() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "full"},
          "tasks": [
            {"comm": "sleeper", "behavior": [{"repeat": "forever", "body": [{"run": "300us"}, {"sleep": "2ms"}]}]},
            {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
            {"comm": "yielder", "behavior": [{"repeat": "forever", "body": [{"run": "500us"}, {"yield": true}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        const TaskId sleeper = taskByComm(e, "sleeper"), hog = taskByComm(e, "hog"),
                     yielder = taskByComm(e, "yielder");
        // Count slice ends by kind from the trace and compare with the kernel-style counters.
        for (TaskId t : {sleeper, hog, yielder}) {
            int64_t blocks = 0, others = 0;
            for (const auto& s : slicesOf(e.trace(), t)) {
                if (s.endPoint == kStillRunning) continue;
                if (s.endPoint == uint8_t(SwitchPoint::Block))
                    ++blocks;
                else
                    ++others;
            }
            QCOMPARE(e.tasks()[size_t(t)].nvcsw, blocks);
            QCOMPARE(e.tasks()[size_t(t)].nivcsw, others);
        }
        QCOMPARE(e.tasks()[size_t(hog)].nvcsw, int64_t(0)); // a hog never blocks
        QVERIFY(e.tasks()[size_t(hog)].nivcsw > 100);
        QVERIFY(e.tasks()[size_t(sleeper)].nvcsw > 200);
        // sched_yield() is involuntary (the task stays runnable)
        int yields = 0;
        for (const auto& s : slicesOf(e.trace(), yielder))
            yields += s.endPoint == uint8_t(SwitchPoint::Yield);
        QVERIFY(yields > 50);
        QCOMPARE(e.tasks()[size_t(yielder)].nvcsw, int64_t(0));
        // perf stat -e cs (system wide) = every switch, including those from and to idle
        const SwitchCounts c = countSwitches(e.trace());
        int64_t nv = 0, niv = 0;
        for (const auto& t : e.tasks())
            nv += t.nvcsw, niv += t.nivcsw;
        QCOMPARE(c.voluntary, nv);
        QCOMPARE(c.involuntary, niv);
        QCOMPARE(c.total, e.contextSwitches());
    }
    void aRepickOfTheSameTaskIsNoSwitch() {
        // A lone hog: the tick renews its request but the pick returns it again: no switch.
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full"},
          "tasks": [ {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        QCOMPARE(e.contextSwitches(), int64_t(1)); // idle -> hog, once
        QCOMPARE(e.tasks()[0].nivcsw + e.tasks()[0].nvcsw, int64_t(0));
    }
    void exitIsVoluntary() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "none"},
          "tasks": [ {"comm": "short", "count": 3, "behavior": [{"run": "2ms"}, {"exit": true}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        for (const auto& t : e.tasks()) {
            QCOMPARE(t.state, TaskState::Dead);
            QCOMPARE(t.nvcsw, int64_t(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestSwitchCounting)
#include "tst_switch_counting.moc"
