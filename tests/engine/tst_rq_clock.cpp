// SPDX-License-Identifier: GPL-3.0-or-later
// The runqueue clock's skipped update (kernel/sched/core.c: wakeup_preempt() ->
// rq_clock_skip_update(); __schedule(): "Promote REQ to ACT"). A wakeup that leaves curr with
// TIF_NEED_RESCHED makes the next __schedule() account the switch at the clock of the wakeup, or
// of the last update since (a tick): prev is charged up to that clock and next from it. Where the
// switch waits for a preemption point (preempt=none: the end of the system call), next pays for
// prev's run in between; a lazy bit asks for no skip and is billed exactly.
#include "tests/test_support.h"

using namespace sched;

namespace {

constexpr Time kTick = 4 * kNsPerMs; // HZ 250; the hog never sleeps, so the tick never stops

// One CPU: a hog whose system calls last SECTION (no cond_resched() in them) and a waker with a
// short slice (PREEMPT_SHORT lets it past the hog's protection) that runs 20 us every 7 ms.
Engine make(const std::string& model, const std::string& section) {
    std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "MODEL"},
      "tasks": [
        {"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [
           {"run": "SECTION", "mode": "kernel"}, {"run": "10us"}]}]},
        {"comm": "waker", "slice": "100us", "behavior": [{"repeat": "forever", "body": [
           {"timer": "7ms"}, {"run": "20us"}]}]} ]})J";
    json = withModel(json, model);
    json = withModel(json, section, "SECTION");
    return engineFrom(json);
}

Engine run(const std::string& model, const std::string& section) {
    Engine e = make(model, section);
    e.runUntil(kNsPerSec);
    e.finish();
    return e;
}

Time ranFor(const Engine& e, TaskId t) {
    Time sum = 0;
    for (const auto& s : slicesOf(e.trace(), t))
        sum += s.end - s.start;
    return sum;
}

// What the rule moves from the running task to the woken one, from the trace alone: every TIF_NEED_RESCHED
// interval that saw a wakeup (whoever set the bit: the wakeup itself or a tick before it) ends
// in a switch accounted at the last clock update - that wakeup or a later tick, the clock's only
// updates on this CPU. Counts the intervals, and those a tick cut.
Time skippedTails(const Engine& e, int& skips, int& cutByTick) {
    const FlagIntervals& f = e.trace().flags;
    const Wakeups& w = e.trace().wakeups;
    Time sum = 0;
    skips = cutByTick = 0;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f.bit[i] != uint8_t(ReschedBit::Eager) || f.clearedBy[i] == kStillRunning) continue;
        if (f.task[i] < 0) continue; // the idle task's wakeups are activated after it wakes (TTWU_QUEUE)
        Time lastWakeup = -1;
        for (size_t k = 0; k < w.size(); ++k)
            if (w.targetCpu[k] == f.cpu[i] && w.time[k] >= f.set[i] && w.time[k] <= f.clear[i])
                lastWakeup = w.time[k];
        if (lastWakeup < 0) continue; // only wakeup_preempt() asks for the skip
        const Time lastTick = (f.clear[i] - 1) / kTick * kTick;
        const Time clock = std::max(lastWakeup, lastTick);
        cutByTick += lastTick > lastWakeup;
        sum += f.clear[i] - clock;
        ++skips;
    }
    return sum;
}

} // namespace

class TestRqClock : public QObject {
    Q_OBJECT
  private slots:
    // Under none the woken task is charged from the wakeup's clock, the hog only up to it; the CPU
    // time charged in all is the time run.
    void wakeupPreemptSkipsTheSwitchsClockUpdate() {
        for (const char* section : {"300us", "10ms"}) {
            const Engine e = run("none", section);
            const TaskId hog = taskByComm(e, "hog"), waker = taskByComm(e, "waker");
            int skips = 0, cut = 0;
            const Time moved = skippedTails(e, skips, cut);
            QVERIFY2(skips > 50, qPrintable(QString("%1 skips").arg(skips)));
            QVERIFY(moved > Time(skips) * 20 * kNsPerUs); // the switch waits for the system call's end
            const Time wakerSum = e.entities()[size_t(waker)].sumExecRuntime;
            const Time hogSum = e.entities()[size_t(hog)].sumExecRuntime;
            QCOMPARE(wakerSum, ranFor(e, waker) + moved);
            QCOMPARE(hogSum, ranFor(e, hog) - moved);
            if (std::string(section) == "10ms") QVERIFY2(cut > 20, qPrintable(QString::number(cut)));
        }
    }
    // test_tsk_need_resched() tests TIF_NEED_RESCHED alone: the lazy bit asks for no skip, so the
    // same switch at the end of the system call is billed exactly.
    void aLazyBitAsksForNoSkip() {
        const Engine e = run("lazy", "300us");
        const TaskId hog = taskByComm(e, "hog"), waker = taskByComm(e, "waker");
        int lazyBits = 0;
        for (size_t i = 0; i < e.trace().flags.size(); ++i)
            lazyBits += e.trace().flags.reason[i] == uint8_t(ReschedReason::WakeupPreempt) &&
                        e.trace().flags.bit[i] == uint8_t(ReschedBit::Lazy);
        QVERIFY(lazyBits > 100);
        QCOMPARE(e.entities()[size_t(waker)].sumExecRuntime, ranFor(e, waker));
        QCOMPARE(e.entities()[size_t(hog)].sumExecRuntime, ranFor(e, hog));
    }
    // Two CPUs under full: the wakeup is activated on the reader's CPU at once and the resched IPI
    // arrives later; the switch at the IPI's return to user mode is accounted at the wakeup's
    // clock, so the reader pays for the IPI's latency.
    void aRemoteWakeupChargesTheWakeeForTheIpi() {
        const std::string json = R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "full"},
          "channels": [{"name": "ch", "capacity": 8}],
          "tasks": [
            {"comm": "hog", "slice": "100ms", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "20ms"}]}]},
            {"comm": "sender", "cpus": [1], "behavior": [{"repeat": "forever", "body": [{"timer": "7ms"}, {"write": "ch"}]}]},
            {"comm": "reader", "slice": "100us", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"read": "ch"}, {"run": "20us"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        const TaskId hog = taskByComm(e, "hog"), reader = taskByComm(e, "reader");
        int skips = 0, cut = 0;
        const Time moved = skippedTails(e, skips, cut);
        QVERIFY2(skips > 100, qPrintable(QString::number(skips)));
        QVERIFY(moved >= Time(skips) * e.config().costs.ipiLatency);
        QCOMPARE(e.entities()[size_t(reader)].sumExecRuntime, ranFor(e, reader) + moved);
        QCOMPARE(e.entities()[size_t(hog)].sumExecRuntime, ranFor(e, hog) - moved);
    }
    // The inspector says so while the switch waits: under none it names who will pay; a lazy bit
    // asks for no skip.
    void theInspectorSaysTheWakeePaysForTheWait() {
        for (const char* model : {"none", "lazy"}) {
            Engine e = make(model, "300us");
            const TaskId hog = taskByComm(e, "hog");
            int seen = 0;
            while (seen < 5 && e.step() && e.now() < 200 * kNsPerMs) {
                const CpuRq& rq = e.cpus()[0];
                const size_t b = rq.flag[0] ? 0 : 1;
                if (rq.curr != hog || !rq.flag[b] || rq.flagReason[b] != ReschedReason::WakeupPreempt)
                    continue;
                const std::string text = e.describePendingSwitch(0);
                const bool says = text.find("rq_clock_skip_update()") != std::string::npos &&
                                  text.find("the next task pays for hog") != std::string::npos;
                QVERIFY2(says == (std::string(model) == "none"), text.c_str());
                ++seen;
            }
            QCOMPARE(seen, 5);
        }
    }
    // The built-in who-pays-the-wait shows it in one number: under none the waker, charged for the
    // hog's last stretch, sometimes wakes not eligible and waits for the tick; under lazy (no skip)
    // every wait ends with the hog's 1 ms system call.
    void theBuiltinShowsTheWakeePaying() {
        const auto maxDelay = [](const std::string& model) {
            scen::Scenario s;
            scen::ScenarioError err;
            if (!scen::loadScenario("who-pays-the-wait", s, err)) qFatal("%s", err.text().c_str());
            s.config.preempt = model == "lazy" ? PreemptModel::Lazy : PreemptModel::None;
            Engine e = scen::instantiate(s, 1, TraceOptions{false});
            e.runUntil(kNsPerSec);
            e.finish();
            return latencyRow(perfSchedLatency(e.trace()), "waker")->maxDelay;
        };
        const Time none = maxDelay("none"), lazy = maxDelay("lazy");
        QVERIFY2(lazy <= 1100 * kNsPerUs, qPrintable(QString::number(lazy)));
        QVERIFY2(none > 3 * kNsPerMs, qPrintable(QString::number(none)));
    }
};

QTEST_GUILESS_MAIN(TestRqClock)
#include "tst_rq_clock.moc"
