// SPDX-License-Identifier: GPL-3.0-or-later
// The model x event matrix: where the switch happens when a task wakes while the running task is
// in user mode, in the kernel with cond_resched()/might_resched() points, or in a
// preemption-disabled section, under none / voluntary / full / lazy. The kernel decides it in
// kernel/sched/core.c (__resched_curr(), sched_tick()) and at the preemption points
// (kernel/entry/common.c: exit_to_user_mode_loop(), raw_irqentry_exit_cond_resched(); core.c:
// preempt_schedule(), __cond_resched()).
#include "tests/test_support.h"

using namespace sched;

namespace {

struct Result {
    Time maxDelay = 0, avgDelay = 0;
    Time maxBitLife = 0; // the longest a wakeup's need-resched bit waited for its switch
    int bits = 0;
    int64_t wakeups = 0;
    std::vector<SliceView> hogSlices;
    Trace trace;
};

// 1 CPU, HZ 250. A hog loops over a 20 ms section in the given mode; a waker with a 0.1 ms
// slice (so PREEMPT_SHORT lets it past the hog's protection) wakes from a 7 ms timer.
Result run(const std::string& model, const std::string& hogRun, const std::string& wakerPolicy = "") {
    std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "MODEL"},
      "tasks": [
        {"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [HOGRUN, {"run": "10us"}]}]},
        {"comm": "waker" WAKER, "behavior": [{"repeat": "forever", "body": [{"timer": "7ms"}, {"run": "20us"}]}]} ]})J";
    json = withModel(json, model);
    json = withModel(json, hogRun, "HOGRUN");
    json = withModel(json, wakerPolicy.empty() ? R"J(, "slice": "100us")J" : wakerPolicy, "WAKER");
    Engine e = engineFrom(json);
    e.runUntil(kNsPerSec);
    e.finish();
    const auto rows = perfSchedLatency(e.trace());
    const LatencyRow* w = latencyRow(rows, "waker");
    Result r;
    r.maxDelay = w->maxDelay;
    r.avgDelay = w->avgDelay();
    r.wakeups = w->count;
    r.hogSlices = slicesOf(e.trace(), taskByComm(e, "hog"));
    r.trace = e.trace();
    const FlagIntervals& f = r.trace.flags;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f.reason[i] != uint8_t(ReschedReason::WakeupPreempt)) continue;
        r.maxBitLife = std::max(r.maxBitLife, f.clear[i] - f.set[i]);
        ++r.bits;
    }
    return r;
}

const std::string kUser = R"J({"run": "20ms"})J";
const std::string kKernelCondResched =
    R"J({"run": "20ms", "mode": "kernel", "cond_resched_every": "100us"})J";
const std::string kKernelMightResched =
    R"J({"run": "20ms", "mode": "kernel", "might_resched_every": "100us"})J";
const std::string kKernelPlain = R"J({"run": "20ms", "mode": "kernel"})J";
const std::string kNoPreempt = R"J({"run": "20ms", "mode": "kernel-nopreempt"})J";

int countEnds(const Result& r, SwitchPoint p) {
    int n = 0;
    for (const auto& s : r.hogSlices)
        n += s.endPoint == uint8_t(p);
    return n;
}

} // namespace

class TestPreemptModels : public QObject {
    Q_OBJECT
  private slots:
    void userModeIsPreemptedAtIrqReturnToUserInEveryModel() {
        for (const char* m : {"none", "voluntary", "full", "lazy"}) {
            const Result r = run(m, kUser);
            QVERIFY(r.wakeups > 100);
            QVERIFY2(r.maxDelay < 20 * kNsPerUs, qPrintable(QString("%1: max %2").arg(m).arg(r.maxDelay)));
            QVERIFY(countEnds(r, SwitchPoint::ExitToUser) > 100); // prev_state R, not R+
            QCOMPARE(countEnds(r, SwitchPoint::IrqReturn), 0);
        }
    }
    void kernelWithCondReschedSwitchesAtTheNextPointUnderNoneAndVoluntary() {
        for (const char* m : {"none", "voluntary"}) {
            const Result r = run(m, kKernelCondResched);
            // Every preempting wakeup is acted on at the next point, 100 us on at most. (Not every
            // wakeup preempts: the waker pays for the hog's run up to that point - rq_clock.cpp -
            // and is sometimes not eligible at its next wakeup.)
            QVERIFY2(r.bits * 10 >= r.wakeups * 9,
                     qPrintable(QString("%1: %2 of %3").arg(m).arg(r.bits).arg(r.wakeups)));
            QVERIFY2(r.maxBitLife <= 110 * kNsPerUs,
                     qPrintable(QString("%1: max %2").arg(m).arg(r.maxBitLife)));
            QVERIFY(r.avgDelay > 10 * kNsPerUs); // it does wait for the point
            QVERIFY(countEnds(r, SwitchPoint::CondResched) > 50);
        }
    }
    void kernelIsPreemptedAtIrqReturnUnderFull() {
        for (const std::string& hog : {kKernelCondResched, kKernelPlain}) {
            const Result r = run("full", hog);
            QVERIFY2(r.maxDelay < 20 * kNsPerUs, qPrintable(QString("max %1").arg(r.maxDelay)));
            QVERIFY(countEnds(r, SwitchPoint::IrqReturn) > 50);  // preempt_schedule_irq(): R+
            QCOMPARE(countEnds(r, SwitchPoint::CondResched), 0); // cond_resched() is a no-op
        }
    }
    void kernelUnderLazyWaitsForTheTickPromotion() {
        const Result r = run("lazy", kKernelCondResched);
        const Time tick = 4 * kNsPerMs;
        QVERIFY2(r.maxDelay <= tick + 20 * kNsPerUs, qPrintable(QString("max %1").arg(r.maxDelay)));
        QVERIFY(r.avgDelay > 500 * kNsPerUs); // cond_resched() and IRQ return ignore the lazy bit
        QCOMPARE(countEnds(r, SwitchPoint::CondResched), 0);
        // Every lazy bit set by a wakeup is promoted to TIF_NEED_RESCHED at the next tick.
        const FlagIntervals& f = r.trace.flags;
        int promotions = 0;
        for (size_t i = 0; i < f.size(); ++i) {
            if (f.bit[i] != uint8_t(ReschedBit::Eager) || f.reason[i] != uint8_t(ReschedReason::LazyPromoted))
                continue;
            QCOMPARE(f.set[i] % tick, Time(0)); // on a jiffy
            ++promotions;
        }
        QVERIFY(promotions > 50);
    }
    void kernelWithoutPointsWaitsForReturnToUserUnderNone() {
        const Result r = run("none", kKernelPlain);
        QVERIFY2(r.maxDelay > 15 * kNsPerMs, qPrintable(QString("max %1").arg(r.maxDelay)));
        QVERIFY(countEnds(r, SwitchPoint::ExitToUser) > 30);
    }
    void mightReschedActsOnlyUnderVoluntary() {
        const Result vol = run("voluntary", kKernelMightResched);
        const Result none = run("none", kKernelMightResched);
        QVERIFY(vol.bits * 10 >= vol.wakeups * 9); // nearly every wakeup preempts
        QVERIFY2(vol.maxBitLife <= 110 * kNsPerUs,
                 qPrintable(QString("voluntary max %1").arg(vol.maxBitLife)));
        QVERIFY(countEnds(vol, SwitchPoint::MightResched) > 50);
        QVERIFY2(none.maxDelay > 15 * kNsPerMs, qPrintable(QString("none max %1").arg(none.maxDelay)));
        QCOMPARE(countEnds(none, SwitchPoint::MightResched), 0);
    }
    void preemptDisabledSectionDefersEveryModelToItsEnd() {
        for (const char* m : {"none", "voluntary", "full", "lazy"}) {
            const Result r = run(m, kNoPreempt);
            QVERIFY2(r.maxDelay > 15 * kNsPerMs, qPrintable(QString("%1: max %2").arg(m).arg(r.maxDelay)));
            const bool preemptible = std::string(m) == "full" || std::string(m) == "lazy";
            // full/lazy: at the preempt_enable() that ends the section (R+); none/voluntary: at
            // the return to user mode after it (R).
            if (preemptible)
                QVERIFY(countEnds(r, SwitchPoint::PreemptEnable) > 20);
            else
                QCOMPARE(countEnds(r, SwitchPoint::PreemptEnable), 0);
        }
    }
    void rtWakeupIsImmediateUnderFullAndLazy() {
        const std::string rt = R"J(, "policy": "fifo", "priority": 50)J";
        for (const char* m : {"full", "lazy"}) {
            const Result r = run(m, kKernelPlain, rt);
            QVERIFY2(r.maxDelay < 20 * kNsPerUs, qPrintable(QString("%1: max %2").arg(m).arg(r.maxDelay)));
        }
        const Result none = run("none", kKernelPlain, rt);
        QVERIFY2(none.maxDelay > 15 * kNsPerMs, qPrintable(QString("none: max %1").arg(none.maxDelay)));
    }
    void inspectorSaysWhereAPendingSwitchWillHappen_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("hog");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none, no points")
            << "none" << QString::fromStdString(kKernelPlain) << "no cond_resched() point";
        QTest::newRow("none, cond_resched")
            << "none" << QString::fromStdString(kKernelCondResched) << "at its next cond_resched()";
        QTest::newRow("voluntary, might_resched")
            << "voluntary" << QString::fromStdString(kKernelMightResched) << "at its next might_resched()";
        QTest::newRow("lazy") << "lazy" << QString::fromStdString(kKernelPlain)
                              << "after the next tick promotes the bit";
        QTest::newRow("full, no-preempt")
            << "full" << QString::fromStdString(kNoPreempt) << "at the preempt_enable()";
    }
    void inspectorSaysWhereAPendingSwitchWillHappen() {
        QFETCH(QString, model);
        QFETCH(QString, hog);
        QFETCH(QString, expected);
        std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "MODEL"},
          "tasks": [
            {"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [HOGRUN, {"run": "10us"}]}]},
            {"comm": "waker", "slice": "100us", "behavior": [{"repeat": "forever", "body": [{"timer": "7ms"}, {"run": "20us"}]}]} ]})J";
        Engine e = engineFrom(withModel(withModel(json, model.toStdString()), hog.toStdString(), "HOGRUN"));
        bool seen = false;
        while (!seen && e.step() && e.now() < 200 * kNsPerMs) {
            const CpuRq& rq = e.cpus()[0];
            if ((rq.flag[0] || rq.flag[1]) && rq.curr == taskByComm(e, "hog")) {
                const std::string text = e.describePendingSwitch(0);
                QVERIFY2(QString::fromStdString(text).contains(expected), text.c_str());
                seen = true;
            }
        }
        QVERIFY(seen);
    }
    void remoteLazyWakeupSendsNoIpi() {
        // 2 CPUs: a sender on CPU 1 wakes a reader that is pinned to CPU 0, where the hog runs
        // in user mode. Eager bit: the IPI preempts at once. Lazy bit: no IPI; the hog runs on
        // until CPU 0's next tick returns to user mode.
        const std::string json = R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "MODEL"},
          "channels": [{"name": "ch", "capacity": 8}],
          "tasks": [
            {"comm": "hog", "slice": "100ms", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "20ms"}]}]},
            {"comm": "sender", "cpus": [1], "behavior": [{"repeat": "forever", "body": [{"timer": "7ms"}, {"write": "ch"}]}]},
            {"comm": "waker", "slice": "100us", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"read": "ch"}, {"run": "20us"}]}]} ]})J";
        Time maxDelay[2] = {0, 0};
        int i = 0;
        for (const char* m : {"full", "lazy"}) {
            Engine e = engineFrom(withModel(json, m));
            e.runUntil(kNsPerSec);
            e.finish();
            maxDelay[i++] = latencyRow(perfSchedLatency(e.trace()), "waker")->maxDelay;
        }
        QVERIFY2(maxDelay[0] < 20 * kNsPerUs, qPrintable(QString("full %1").arg(maxDelay[0])));
        QVERIFY2(maxDelay[1] > 1 * kNsPerMs && maxDelay[1] <= 4 * kNsPerMs + 20 * kNsPerUs,
                 qPrintable(QString("lazy %1").arg(maxDelay[1])));
    }
};

QTEST_GUILESS_MAIN(TestPreemptModels)
#include "tst_preempt_models.moc"
