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
};

QTEST_GUILESS_MAIN(TestPreemptShort)
#include "tst_preempt_short.moc"
