// SPDX-License-Identifier: GPL-3.0-or-later
// PREEMPT_SHORT (6.12+): a wakee with a shorter slice may preempt a task inside its slice
// protection (check_preempt_wakeup_fair(): __pick_eevdf(protect = !short)).
#include "tests/test_support.h"

using namespace sched;

namespace {

struct Outcome {
    Time wakeeMaxDelay = 0;
    Time wakeeAvgDelay = 0;
    int hogWakeupPreemptions = 0;
};

Outcome run(bool preemptShort, const char* kernel) {
    std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "full",
        "features": {"PREEMPT_SHORT": MODEL}},
      "tasks": [
        {"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [{"run": "8ms"}, {"sleep": "1ms"}]}]},
        {"comm": "wakee", "slice": "500us", "behavior": [{"repeat": "forever", "body": [{"timer": "1ms"}, {"run": "20us"}]}]} ]})J";
    json = withModel(withModel(json, preemptShort ? "true" : "false"), kernel, "KERNEL");
    Engine e = engineFrom(json);
    e.runUntil(2 * kNsPerSec);
    e.finish();
    const auto rows = perfSchedLatency(e.trace());
    Outcome o;
    o.wakeeMaxDelay = latencyRow(rows, "wakee")->maxDelay;
    o.wakeeAvgDelay = latencyRow(rows, "wakee")->avgDelay();
    for (const auto& s : slicesOf(e.trace(), taskByComm(e, "hog")))
        o.hogWakeupPreemptions += s.endReason == uint8_t(ReschedReason::WakeupPreempt);
    return o;
}

} // namespace

class TestPreemptShort : public QObject {
    Q_OBJECT
  private slots:
    void preemptShortLetsShortSliceWakeePreemptProtectedHog_data() {
        QTest::addColumn<QString>("kernel");
        QTest::newRow("6.18") << "6.18";
        QTest::newRow("6.12") << "6.12";
    }
    void preemptShortLetsShortSliceWakeePreemptProtectedHog() {
        QFETCH(QString, kernel);
        const Outcome on = run(true, kernel.toStdString().c_str());
        const Outcome off = run(false, kernel.toStdString().c_str());
        // On: the 0.5 ms wakee gets in at its wakeup (full model: at the IRQ return).
        QVERIFY2(on.wakeeMaxDelay < 50 * kNsPerUs, qPrintable(QString("on: max %1").arg(on.wakeeMaxDelay)));
        QVERIFY(on.hogWakeupPreemptions > 1000);
        // Off: the 100 ms hog keeps its protected slice; the wakee waits for the tick or the
        // hog's own sleep.
        QVERIFY2(off.wakeeMaxDelay > 2 * kNsPerMs, qPrintable(QString("off: max %1").arg(off.wakeeMaxDelay)));
        QVERIFY(off.wakeeAvgDelay > 20 * on.wakeeAvgDelay);
        QVERIFY(off.hogWakeupPreemptions < on.hogWakeupPreemptions / 10);
    }

    // check_preempt_wakeup_fair()'s verdict is kept with the bit it sets, and said in words (the
    // inspector and the lenses): under preempt=none a hog in kernel code leaves the bit pending, so
    // it can be read at many moments. A wakee with a shorter slice preempts by PREEMPT_SHORT where
    // the hog's slice protection (its first 0.7 ms) would have kept the CPU, and by the pick alone
    // after it; one with the same slice only by the pick.
    void aWakeupPreemptionSaysWhoAndWhy_data() {
        QTest::addColumn<QString>("hogSlice");
        QTest::addColumn<QString>("wakeeSlice");
        QTest::addColumn<bool>("shortSliceSeen");
        QTest::newRow("shorter slice") << "100ms"
                                       << "500us" << true;
        QTest::newRow("same slice") << "0.7ms"
                                    << "0.7ms" << false;
    }
    void aWakeupPreemptionSaysWhoAndWhy() {
        QFETCH(QString, hogSlice);
        QFETCH(QString, wakeeSlice);
        QFETCH(bool, shortSliceSeen);
        std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "6.18", "preempt": "none"},
          "tasks": [
            {"comm": "hog", "slice": "HOGSLICE", "behavior": [{"repeat": "forever", "body": [{"run": "8ms", "mode": "kernel"}, {"sleep": "1ms"}]}]},
            {"comm": "wakee", "slice": "WAKEESLICE", "behavior": [{"repeat": "forever", "body": [{"timer": "3ms"}, {"run": "20us"}]}]} ]})J";
        json = withModel(withModel(json, hogSlice.toStdString(), "HOGSLICE"), wakeeSlice.toStdString(),
                         "WAKEESLICE");
        Engine e = engineFrom(json);
        const TaskId hog = taskByComm(e, "hog"), wakee = taskByComm(e, "wakee");
        int byShort = 0, byPick = 0;
        for (Time t = 10 * kNsPerMs; t < 800 * kNsPerMs; t += 173 * kNsPerUs) {
            e.runUntil(t);
            const CpuRq& rq = e.cpus()[0];
            for (size_t bit = 0; bit < 2; ++bit) {
                if (!rq.flag[bit] || rq.flagReason[bit] != ReschedReason::WakeupPreempt) continue;
                const WakeupCause& w = rq.flagCause[bit];
                QCOMPARE(w.wakee, wakee);
                QCOMPARE(w.wakeeSe, EntityId(wakee));
                QCOMPARE(w.currSe, EntityId(hog));
                const std::string said = e.describePendingSwitch(0);
                if (w.rule == WakeupCause::Rule::ShortSlice) {
                    ++byShort;
                    QVERIFY2(said.find(
                                 "wakee:1001 woke with a shorter slice than hog:1000's, PREEMPT_SHORT set") !=
                                 std::string::npos,
                             said.c_str());
                } else {
                    QCOMPARE(int(w.rule), int(WakeupCause::Rule::Pick));
                    ++byPick;
                    QVERIFY2(said.find("wakee:1001 woke, and pick_eevdf() chose it over hog:1000") !=
                                 std::string::npos,
                             said.c_str());
                }
            }
        }
        qInfo("pending wakeup preemptions seen: %d by PREEMPT_SHORT, %d by the pick", byShort, byPick);
        QVERIFY(byShort + byPick > 10);
        if (shortSliceSeen)
            QVERIFY(byShort > 0);
        else
            QCOMPARE(byShort, 0);
    }
};

QTEST_GUILESS_MAIN(TestPreemptShort)
#include "tst_preempt_short.moc"
