// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel profiles and builds: the 6.12 rules where they differ from 6.18, and the 2024
// PREEMPT_AUTO series (Ankur Arora, not merged), where none / voluntary / full only choose which
// need-resched bit is set.
#include "tests/test_support.h"

using namespace sched;

namespace {

struct FlagStats {
    int eager = 0, lazy = 0, promoted = 0;
};

FlagStats flagStats(const Trace& t) {
    FlagStats s;
    for (size_t i = 0; i < t.flags.size(); ++i) {
        if (t.flags.task[i] < 0) continue; // the idle task always gets the eager bit
        if (t.flags.bit[i] == uint8_t(ReschedBit::Lazy))
            ++s.lazy;
        else if (t.flags.reason[i] == uint8_t(ReschedReason::LazyPromoted))
            ++s.promoted;
        else
            ++s.eager;
    }
    return s;
}

Engine runHogsWaker(const std::string& kernel, const std::string& model, const std::string& hog) {
    std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "MODEL"},
      "tasks": [
        {"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [HOG, {"run": "10us"}]}]},
        {"comm": "waker", "slice": "100us", "behavior": [{"repeat": "forever", "body": [{"timer": "7ms"}, {"run": "20us"}]}]} ]})J";
    json = withModel(withModel(withModel(json, kernel, "KERNEL"), model), hog, "HOG");
    Engine e = engineFrom(json);
    e.runUntil(kNsPerSec);
    e.finish();
    return e;
}

const std::string kKernelCondResched =
    R"J({"run": "20ms", "mode": "kernel", "cond_resched_every": "100us"})J";

} // namespace

class TestKernelBuilds : public QObject {
    Q_OBJECT
  private slots:
    void profile612UsesThe075msBaseSliceAndOnlyTheEagerBit() {
        SchedConfig c;
        c.cpus = 2;
        c.profile = KernelProfile::V6_12;
        QCOMPARE(c.baseSlice(), 1500 * kNsPerUs);
        c.profile = KernelProfile::V6_18;
        QCOMPARE(c.baseSlice(), 1400 * kNsPerUs);
        c.cpus = 16;
        QCOMPARE(c.baseSlice(), 2800 * kNsPerUs); // factor 1 + log2(8) = 4
        const Engine e = runHogsWaker("6.12", "full", R"J({"run": "20ms"})J");
        const FlagStats s = flagStats(e.trace());
        QVERIFY(s.eager > 100);
        QCOMPARE(s.lazy, 0); // no TIF_NEED_RESCHED_LAZY before 6.13
    }
    void profile612StashesProtectionInVlag() {
        // set_next_entity() (6.12): vlag := deadline marks the protected slice.
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "6.12", "preempt": "full"},
          "tasks": [{"comm": "a", "count": 3, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]}]})J");
        int checked = 0;
        TaskId last = kNoTask;
        while (e.step() && e.now() < 200 * kNsPerMs) {
            const CpuRq& rq = e.cpus()[0];
            if (rq.curr >= 0 && rq.curr != last) {
                const SchedEntity& se = e.entities()[size_t(rq.curr)];
                QCOMPARE(se.vlag, se.deadline);
                ++checked;
            }
            last = rq.curr;
        }
        QVERIFY(checked > 50);
    }
    void autoNoneSetsTheLazyBitAndUpgradesItAtTheSecondTickRequest() {
        const Engine e = runHogsWaker("auto-rfc", "none", kKernelCondResched);
        const FlagStats s = flagStats(e.trace());
        QVERIFY(s.lazy > 100);    // wakeup preemption: lazy under AUTO none
        QVERIFY(s.promoted > 50); // a tick-originated request found it still set
        QCOMPARE(s.eager, 0);
        // cond_resched() compiled away (CONFIG_PREEMPTION); the switch happens at IRQ return.
        int condResched = 0, irqReturn = 0;
        for (const auto& sl : slicesOf(e.trace(), taskByComm(e, "hog"))) {
            condResched += sl.endPoint == uint8_t(SwitchPoint::CondResched);
            irqReturn += sl.endPoint == uint8_t(SwitchPoint::IrqReturn);
        }
        QCOMPARE(condResched, 0);
        QVERIFY(irqReturn > 50);
        const auto rows = perfSchedLatency(e.trace());
        const LatencyRow* w = latencyRow(rows, "waker");
        QVERIFY2(w->maxDelay <= 8 * kNsPerMs + 50 * kNsPerUs, qPrintable(QString::number(w->maxDelay)));
    }
    void autoFullIsAlwaysEager() {
        const Engine e = runHogsWaker("auto-rfc", "full", kKernelCondResched);
        const FlagStats s = flagStats(e.trace());
        QCOMPARE(s.lazy, 0);
        QVERIFY(s.eager > 100);
        QVERIFY(latencyRow(perfSchedLatency(e.trace()), "waker")->maxDelay < 20 * kNsPerUs);
    }
    void autoVoluntaryIsEagerOnlyForAHigherClass() {
        std::string json =
            R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "auto-rfc", "preempt": "voluntary"},
          "tasks": [
            {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "20ms", "mode": "kernel"}, {"run": "10us"}]}]},
            {"comm": "fair", "slice": "100us", "behavior": [{"repeat": "forever", "body": [{"timer": "7ms"}, {"run": "20us"}]}]},
            {"comm": "rt", "policy": "fifo", "priority": 10, "behavior": [{"repeat": "forever", "body": [{"timer": "11ms"}, {"run": "20us"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        const FlagIntervals& f = e.trace().flags;
        int rtEager = 0, fairLazy = 0, fairEager = 0;
        for (size_t i = 0; i < f.size(); ++i) {
            if (f.reason[i] == uint8_t(ReschedReason::ClassPreempt))
                rtEager += f.bit[i] == uint8_t(ReschedBit::Eager);
            if (f.reason[i] == uint8_t(ReschedReason::WakeupPreempt)) {
                fairLazy += f.bit[i] == uint8_t(ReschedBit::Lazy);
                fairEager += f.bit[i] == uint8_t(ReschedBit::Eager);
            }
        }
        QVERIFY(rtEager > 50);
        QVERIFY(fairLazy > 50);
        QCOMPARE(fairEager, 0);
        QVERIFY(latencyRow(perfSchedLatency(e.trace()), "rt")->maxDelay < 20 * kNsPerUs);
    }
    void lazyModelDoesNotExistOnAutoOr612() {
        SchedConfig c;
        c.preempt = PreemptModel::Lazy;
        QVERIFY(c.validate().empty());
        c.build = KernelBuild::Auto;
        QVERIFY(!c.validate().empty());
        c.build = KernelBuild::Dynamic;
        c.profile = KernelProfile::V6_12;
        QVERIFY(!c.validate().empty());
    }
};

QTEST_GUILESS_MAIN(TestKernelBuilds)
#include "tst_kernel_builds.moc"
