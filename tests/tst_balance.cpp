// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-CPU placement: load balancing spreads hogs; a wakeup prefers an idle CPU
// (select_idle_sibling()); migrations carry lag, not vruntime.
#include "test_support.h"

using namespace sched;

class TestBalance : public QObject {
    Q_OBJECT
private slots:
    void eightHogsOnFourCpusEndTwoPerCpu() {
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(kNsPerSec);
        for (const CpuRq& rq : e.cpus()) QCOMPARE(rq.nrRunning, 2u);
        QVERIFY(e.trace().migrations.size() >= 6);
        e.finish();
        // ... and they stay balanced: every CPU is busy after the first tens of milliseconds.
        const auto use = cpuUsage(e.trace());
        for (const auto& u : use) QVERIFY2(u.busy > 900 * kNsPerMs, qPrintable(QString::number(u.busy)));
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
        const Wakeups& w = e.trace().wakeups;
        for (size_t i = 0; i < w.size(); ++i) {
            if (w.wakee[i] != sl || w.isNew[i]) continue;
            ++total;
            onOther += w.targetCpu[i] != hogCpu;
        }
        QVERIFY(total > 300);
        QVERIFY2(onOther >= total - 2, qPrintable(QString("%1 of %2").arg(onOther).arg(total)));
        QVERIFY(e.tasks()[size_t(sl)].nivcsw < 5); // it never had to wait behind the hog
    }
    void affinityIsRespected() {
        const std::string json = R"J({"machine": {"cpus": 4, "hz": 250, "preempt": "full"},
          "tasks": [ {"comm": "pinned", "count": 6, "cpus": [1, 2], "behavior": [{"repeat": "forever", "body": [{"run": "2ms"}, {"sleep": "1ms"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(500 * kNsPerMs);
        e.finish();
        const Slices& s = e.trace().slices;
        for (size_t i = 0; i < s.size(); ++i) QVERIFY(s.cpu[i] == 1 || s.cpu[i] == 2);
    }
};

QTEST_GUILESS_MAIN(TestBalance)
#include "tst_balance.moc"
