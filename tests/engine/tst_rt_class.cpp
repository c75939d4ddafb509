// SPDX-License-Identifier: GPL-3.0-or-later
// The RT class: FIFO/RR run before fair tasks, RR shares a priority level in time slices,
// FIFO keeps the CPU until it blocks, a higher priority preempts a lower one.
#include "tests/test_support.h"

using namespace sched;

class TestRtClass : public QObject {
    Q_OBJECT
  private slots:
    void rrTasksOfOnePriorityAlternateEveryTimeslice() {
        Engine e =
            engineFrom(R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full", "rr_timeslice": "20ms"},
          "tasks": [{"comm": "rr", "count": 2, "policy": "rr", "priority": 10, "behavior": [{"repeat": "forever", "body": [{"run": "50ms"}]}]},
                    {"comm": "fair", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]}]})J");
        e.runUntil(500 * kNsPerMs);
        e.finish();
        int checked = 0;
        for (int k = 0; k < 2; ++k)
            for (const auto& s : slicesOf(e.trace(), taskByComm(e, "rr", k))) {
                if (s.endPoint == kStillRunning || s.start < 25 * kNsPerMs) continue;
                QCOMPARE(s.end - s.start, 20 * kNsPerMs);
                QCOMPARE(s.endReason, uint8_t(ReschedReason::RrSliceExpired));
                ++checked;
            }
        QVERIFY(checked > 15);
        QVERIFY(slicesOf(e.trace(), taskByComm(e, "fair")).empty()); // starved by RT
    }
    // task_tick_rt() requeues an RR task whose slice ran out at once; if the task cannot switch
    // then (inside a non-preemptible kernel path under none) and blocks, it takes no pending
    // requeue with it: woken, run again and preempted by a higher priority, it goes back to the
    // head of its level (a's 3 ms resume at once after c's 100 us, ahead of b).
    void aBlockedRrTaskTakesNoPendingRequeueWithIt() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "6.18", "preempt": "none",
            "rr_timeslice": "4ms", "costs": {"context_switch": "0us", "wakeup": "0us", "ipi": "0us",
            "timer_irq": "0us", "idle_exit": "0us", "timer_slack": "0us"}},
          "tasks": [{"comm": "a", "policy": "rr", "priority": 10, "behavior": [{"timer": "20ms", "cost": "5ms"}, {"run": "3ms"}]},
                    {"comm": "b", "policy": "rr", "priority": 10, "start": "1ms", "behavior": [{"run": "1000s"}]},
                    {"comm": "c", "policy": "fifo", "priority": 50, "start": "29ms", "behavior": [{"run": "100us"}]}]})J");
        e.runUntil(60 * kNsPerMs);
        const Time cEnds = e.tasks()[size_t(taskByComm(e, "c"))].exitedAt;
        QVERIFY(cEnds > 29 * kNsPerMs);
        bool aResumed = false;
        for (const auto& s : slicesOf(e.trace(), taskByComm(e, "a")))
            aResumed |= s.start == cEnds;
        QVERIFY2(aResumed, std::to_string(cEnds).c_str());
    }
    void fifoRunsUntilItBlocksAndHigherPriorityPreempts() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full"},
          "tasks": [{"comm": "lo", "policy": "fifo", "priority": 10, "behavior": [{"repeat": "forever", "body": [{"run": "30ms"}, {"sleep": "5ms"}]}]},
                    {"comm": "same", "policy": "fifo", "priority": 10, "start": "1ms", "behavior": [{"repeat": "forever", "body": [{"run": "30ms"}, {"sleep": "5ms"}]}]},
                    {"comm": "hi", "policy": "fifo", "priority": 20, "behavior": [{"repeat": "forever", "body": [{"timer": "10ms"}, {"run": "1ms"}]}]}]})J");
        e.runUntil(400 * kNsPerMs);
        e.finish();
        // hi preempts whoever runs, within the IPI/IRQ path
        QVERIFY(latencyRow(perfSchedLatency(e.trace()), "hi")->maxDelay < 20 * kNsPerUs);
        // an equal-priority FIFO task never preempts the running one: lo and same only leave the
        // CPU by blocking or by being preempted by hi
        for (const char* c : {"lo", "same"})
            for (const auto& s : slicesOf(e.trace(), taskByComm(e, c))) {
                if (s.endPoint == kStillRunning || s.endPoint == uint8_t(SwitchPoint::Block)) continue;
                QCOMPARE(s.endReason, uint8_t(ReschedReason::ClassPreempt));
            }
    }
};

QTEST_GUILESS_MAIN(TestRtClass)
#include "tst_rt_class.moc"
