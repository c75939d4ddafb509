// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel mutexes (core/engine/mutex.cpp, kernel/locking/mutex.c): each test is named for the
// kernel's rule it holds the engine to. The machines have no costs, so that times are exact.
#include "tests/test_support.h"
#include "trace/ftrace_text.h"
#include "trace/import.h"

using namespace sched;

namespace {

std::string machine(int cpus, const std::string& preempt = "full") {
    return R"("machine": {"cpus": )" + std::to_string(cpus) +
           R"(, "hz": 250, "kernel": "6.18.44", "preempt": ")" + preempt +
           R"(", "costs": {"context_switch": "0us", "wakeup": "0us", "ipi": "0us", "timer_irq": "0us",
           "idle_exit": "0us", "migration": "0us", "timer_slack": "0us"}})";
}

std::string scenario(int cpus, const std::string& tasks, const std::string& preempt = "full") {
    return R"({"duration": "20ms", )" + machine(cpus, preempt) + R"(, "mutexes": ["m"], "tasks": [)" + tasks +
           "]}";
}

// A task pinned to cpu that starts at `start` (us) and runs body once.
std::string task(const std::string& comm, int cpu, int start, const std::string& body,
                 const std::string& extra = {}) {
    return R"({"comm": ")" + comm + R"(", "cpus": [)" + std::to_string(cpu) + R"(], "start": ")" +
           std::to_string(start) + R"(us", )" + extra + R"("behavior": [)" + body + "]}";
}

const std::string kHold500 = R"({"lock": "m"}, {"run": "500us"}, {"unlock": "m"})";
const std::string kTake10 = R"({"lock": "m"}, {"run": "10us"}, {"unlock": "m"})";
const std::string kFifo = R"("policy": "fifo", "priority": 50, )";

Time exitOf(const Engine& e, const std::string& comm) {
    return e.tasks()[size_t(taskByComm(e, comm))].exitedAt;
}

} // namespace

class TestMutex : public QObject {
    Q_OBJECT
  private slots:
    // mutex_lock()'s fast path: a free lock is taken without waiting; mutex_unlock() frees it.
    void aFreeLockIsTakenAtOnce() {
        Engine e = engineFrom(scenario(1, task("a", 0, 0, kHold500)));
        e.runUntil(2 * kNsPerMs);
        const Mutex& m = e.mutexes()[0];
        QCOMPARE(m.acquired, int64_t(1));
        QCOMPARE(m.contended, int64_t(0));
        QCOMPARE(m.owner, kNoTask);
        QCOMPARE(exitOf(e, "a"), 500 * kNsPerUs);
    }

    // mutex_optimistic_spin(): while the owner runs on another CPU the contender spins there
    // (the CPU stays busy with it, no switch) and takes the lock the moment it is released.
    void aContenderSpinsWhileTheOwnerRuns() {
        Engine e = engineFrom(scenario(2, task("a", 0, 0, kHold500) + "," + task("b", 1, 100, kTake10)));
        e.runUntil(2 * kNsPerMs);
        const Mutex& m = e.mutexes()[0];
        QCOMPARE(m.acquired, int64_t(2));
        QCOMPARE(m.contended, int64_t(1));
        QCOMPARE(m.slept, int64_t(0));
        QCOMPARE(m.waitMax, 400 * kNsPerUs);
        const TaskId b = taskByComm(e, "b");
        const auto s = slicesOf(e.trace(), b);
        QCOMPARE(s.size(), size_t(1)); // never switched out
        QCOMPARE(s[0].start, 100 * kNsPerUs);
        QCOMPARE(exitOf(e, "b"), 510 * kNsPerUs);
        QCOMPARE(e.tasks()[size_t(b)].stime, 410 * kNsPerUs); // the spin is kernel time
    }

    // owner_on_cpu() turning false ends the spin: the contender queues and sleeps; the unlock
    // wakes it (the first waiter) and it takes the free lock.
    void aSpinnerSleepsWhenTheOwnerIsPreempted() {
        const std::string rt = task("rt", 0, 300, R"({"run": "100us"})", kFifo);
        Engine e =
            engineFrom(scenario(2, task("a", 0, 0, kHold500) + "," + task("b", 1, 100, kTake10) + "," + rt));
        e.runUntil(2 * kNsPerMs);
        const Mutex& m = e.mutexes()[0];
        QCOMPARE(m.slept, int64_t(1));
        QCOMPARE(m.contended, int64_t(1));
        const auto s = slicesOf(e.trace(), taskByComm(e, "b"));
        QVERIFY(s.size() >= 2);
        QCOMPARE(s[0].end, 300 * kNsPerUs);                                  // a left its CPU for the RT task
        QCOMPARE(s[0].endPoint, uint8_t(SwitchPoint::BlockUninterruptible)); // prev_state D
        QCOMPARE(exitOf(e, "a"), 600 * kNsPerUs);
        QCOMPARE(s[1].start, 600 * kNsPerUs);
        QCOMPARE(exitOf(e, "b"), 610 * kNsPerUs);
        // the sleep is TASK_UNINTERRUPTIBLE: sched_switch prints prev_state=D, and an import keeps it
        std::string text;
        writeFtraceText(e.trace(), [&](std::string_view sv) { text += sv; });
        QVERIFY(text.find("prev_comm=b prev_pid=1001 prev_prio=120 prev_state=D ==>") != std::string::npos);
        ImportReport rep;
        const Trace back = importTraceText(text, rep);
        int d = 0;
        for (size_t i = 0; i < back.slices.size(); ++i)
            d += back.slices.endPoint[i] == uint8_t(SwitchPoint::BlockUninterruptible);
        QCOMPARE(d, 1);
    }

    // mutex_spin_on_owner() stops on need_resched(): the spinner calls schedule() while runnable
    // (prev_state R, an involuntary switch) and, run again, takes the slow path: it queues and
    // sleeps although the owner runs - only a woken first waiter spins again.
    void needReschedEndsTheSpin() {
        const std::string rt = task("rt", 1, 300, R"({"run": "50us"})", kFifo);
        Engine e =
            engineFrom(scenario(2, task("a", 0, 0, kHold500) + "," + task("b", 1, 100, kTake10) + "," + rt));
        e.runUntil(2 * kNsPerMs);
        const TaskId b = taskByComm(e, "b");
        const auto s = slicesOf(e.trace(), b);
        QVERIFY(s.size() >= 3);
        QCOMPARE(s[0].end, 300 * kNsPerUs);
        QCOMPARE(s[0].endPoint, uint8_t(SwitchPoint::Reschedule));
        QCOMPARE(s[1].start, 350 * kNsPerUs);
        QCOMPARE(s[1].end, 350 * kNsPerUs);
        QCOMPARE(s[1].endPoint, uint8_t(SwitchPoint::BlockUninterruptible));
        QCOMPARE(s[2].start, 500 * kNsPerUs);
        QVERIFY(e.tasks()[size_t(b)].nivcsw >= 1);
        QCOMPARE(e.mutexes()[0].slept, int64_t(1));
    }

    // mutex_optimistic_spin()'s fail path reschedules on need_resched() before the slow path
    // queues the task, even when it could not spin at all (the owner sleeps): under none, a
    // need-resched set during the lock's entry path makes the contender schedule() while runnable
    // first, and it sleeps on the wait list only when it runs again.
    void aContenderReschedulesBeforeItQueues() {
        const std::string a = task("a", 0, 0, R"({"lock": "m"}, {"sleep": "1ms"}, {"unlock": "m"})");
        const std::string b =
            task("b", 1, 0, R"({"lock": "m", "cost": "100us"}, {"run": "10us"}, {"unlock": "m"})");
        const std::string rt = task("rt", 1, 50, R"({"run": "50us"})", kFifo);
        Engine e = engineFrom(scenario(2, a + "," + b + "," + rt, "none"));
        e.runUntil(5 * kNsPerMs);
        const auto s = slicesOf(e.trace(), taskByComm(e, "b"));
        QVERIFY(s.size() >= 3);
        QCOMPARE(s[0].end, 100 * kNsPerUs);
        QCOMPARE(s[0].endPoint, uint8_t(SwitchPoint::Reschedule));
        QCOMPARE(s[1].start, 150 * kNsPerUs);
        QCOMPARE(s[1].endPoint, uint8_t(SwitchPoint::BlockUninterruptible));
        QCOMPARE(s[2].start, kNsPerMs); // a's unlock after its 1 ms sleep wakes it
    }

    // __mutex_unlock_slowpath() frees the owner word before it wakes anyone, and the osq's head
    // - the first to spin, not the lowest-numbered CPU - takes it; the other spinner goes on
    // spinning on the new owner, which runs.
    void theFirstSpinnerTakesAReleasedLock() {
        const std::string first = task("first", 2, 100, kTake10), second = task("second", 1, 200, kTake10);
        Engine e = engineFrom(scenario(3, task("a", 0, 0, kHold500) + "," + first + "," + second));
        e.runUntil(2 * kNsPerMs);
        QCOMPARE(exitOf(e, "first"), 510 * kNsPerUs);
        QCOMPARE(exitOf(e, "second"), 520 * kNsPerUs);
        QCOMPARE(e.mutexes()[0].slept, int64_t(0));
        QCOMPARE(e.mutexes()[0].contended, int64_t(2));
    }

    // struct mutex's wait list is FIFO (__mutex_add_waiter() at the tail; no priority order
    // without PREEMPT_RT): the first to wait is woken first, a higher RT priority behind it waits.
    void waitersAreWokenInArrivalOrder() {
        const std::string loTask = task("lo", 0, 100, kTake10, R"("policy": "fifo", "priority": 10, )");
        const std::string hiTask = task("hi", 0, 200, kTake10, R"("policy": "fifo", "priority": 90, )");
        Engine e = engineFrom(scenario(1, task("a", 0, 0, kHold500) + "," + loTask + "," + hiTask));
        e.runUntil(5 * kNsPerMs);
        QCOMPARE(e.mutexes()[0].slept, int64_t(2));
        // a's unlock at 500 us wakes lo, which takes the lock; hi is woken only by lo's unlock
        const auto lo = slicesOf(e.trace(), taskByComm(e, "lo")),
                   hi = slicesOf(e.trace(), taskByComm(e, "hi"));
        QVERIFY(lo.size() >= 2 && hi.size() >= 2);
        QCOMPARE(lo[0].endPoint, uint8_t(SwitchPoint::BlockUninterruptible));
        QCOMPARE(hi[0].endPoint, uint8_t(SwitchPoint::BlockUninterruptible));
        QCOMPARE(lo[1].start, 500 * kNsPerUs);
        QCOMPARE(hi[1].start, 510 * kNsPerUs);
    }

    // __mutex_trylock_or_handoff(): a woken first waiter that finds the lock taken again (a
    // running task took it before the waiter ran) sets MUTEX_FLAG_HANDOFF, and the next unlock
    // hands the lock to it (__mutex_handoff()) instead of freeing it.
    void aRobbedFirstWaiterGetsTheLockHandedOver() {
        const std::string a = task("a", 0, 0,
                                   R"({"repeat": 3, "body": [{"lock": "m"}, {"run": "300us"}, {"unlock": "m"},
                                      {"run": "20us"}]})");
        const std::string rt0 = task("rt0", 0, 50, R"({"run": "100us"})", kFifo);  // a off its CPU, holding
        const std::string rt1 = task("rt1", 1, 200, R"({"run": "300us"})", kFifo); // w cannot run when woken
        Engine e = engineFrom(scenario(2, a + "," + rt0 + "," + rt1 + "," + task("w", 1, 100, kTake10)));
        e.runUntil(5 * kNsPerMs);
        const Mutex& m = e.mutexes()[0];
        QCOMPARE(m.handoffs, int64_t(1));
        // a: 0-50, 150-400 (unlock, w woken but rt1 has CPU 1), takes the lock again at 420; w runs
        // at 500, finds it taken, asks for a handoff and spins on a; a's unlock at 720 hands it over.
        QCOMPARE(exitOf(e, "w"), 730 * kNsPerUs);
        QCOMPARE(m.acquired, int64_t(4));
    }

    // Between mutex_lock() and mutex_unlock() the task is inside the kernel: under preempt=none
    // a need-resched set meanwhile acts only at the return to user mode after the unlock.
    void aCriticalSectionDoesNotReturnToUser() {
        const std::string a = task("a", 0, 0,
                                   R"({"lock": "m"}, {"run": "300us"}, {"run": "300us"}, {"unlock": "m"},
                                      {"run": "100us"})");
        const std::string rt = task("rt", 0, 100, R"({"run": "50us"})", kFifo);
        Engine e = engineFrom(scenario(1, a + "," + rt, "none"));
        e.runUntil(5 * kNsPerMs);
        const auto s = slicesOf(e.trace(), taskByComm(e, "a"));
        QVERIFY(s.size() >= 2);
        QCOMPARE(s[0].end, 600 * kNsPerUs);
        QCOMPARE(s[0].endPoint, uint8_t(SwitchPoint::ExitToUser));
    }

    void scenariosSayWhatIsWrongWithALock() {
        const auto err = [](const std::string& body) {
            return parseError(R"({"mutexes": ["m"], "tasks": [{"comm": "t", "behavior": [)" + body + "]}]}");
        };
        QVERIFY(
            err(R"({"lock": "x"}, {"unlock": "x"})").find("no mutex named 'x'; named in \"mutexes\": m") !=
            std::string::npos);
        QVERIFY(err(R"({"unlock": "m"})").find("mutex 'm' is not held here") != std::string::npos);
        QVERIFY(err(R"({"lock": "m"}, {"lock": "m"}, {"unlock": "m"})").find("already held here") !=
                std::string::npos);
        QVERIFY(err(R"({"lock": "m"}, {"run": "1ms"})").find("the behaviour ends holding mutex 'm'") !=
                std::string::npos);
        QVERIFY(err(R"({"repeat": 2, "body": [{"lock": "m"}, {"run": "1ms"}]}, {"unlock": "m"})")
                    .find("the body ends holding mutex 'm'") != std::string::npos);
        QVERIFY(err(R"({"lock": "m"}, {"yield": true}, {"unlock": "m"})")
                    .find("'yield' inside a mutex's critical section") != std::string::npos);
        QVERIFY(err(R"({"lock": "m"}, {"run": "1ms", "mode": "user"}, {"unlock": "m"})")
                    .find("user mode inside a mutex's critical section") != std::string::npos);
        QVERIFY(parseError(R"({"mutexes": ["m", "m"], "tasks": []})").find("mutex 'm' is named twice") !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestMutex)
#include "tst_mutex.moc"
