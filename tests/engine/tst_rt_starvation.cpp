// SPDX-License-Identifier: GPL-3.0-or-later
// What stops a real-time hog from starving fair tasks: the deferred fair_server of 6.12+
// (kernel/sched/deadline.c, dl_server_timer() at zero laxity; a110a81c52a9) and, in the
// PREEMPT_AUTO RFC's older kernel, RT throttling (kernel/sched/rt.c, sched_rt_runtime_exceeded()
// and the period timer). Each test is one CPU with a SCHED_FIFO task that never sleeps.
#include "tests/test_support.h"

using namespace sched;

namespace {

std::string hogs(const std::string& machine, const std::string& rtBody = R"([{"run": "10s"}])") {
    return R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full")J" + machine + R"J(},
      "tasks": [{"comm": "rt", "policy": "fifo", "priority": 50, "behavior": [{"repeat": "forever", "body": )J" +
           rtBody + R"J(}]},
                {"comm": "fair", "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]}]})J";
}

Time fairTime(const Engine& e) {
    Time sum = 0;
    for (const auto& s : slicesOf(e.trace(), taskByComm(e, "fair")))
        sum += s.end - s.start;
    return sum;
}

} // namespace

class TestRtStarvation : public QObject {
    Q_OBJECT
  private slots:
    // dl_server_start() arms the deferred server at the fair task's first enqueue (t = 0): its
    // zero-laxity timer fires at deadline - runtime = 1000 - 50 ms. From then on it runs the fair
    // task for its 50 ms budget (charged at the tick: HRTICK_DL is off) once per 1 s period.
    void fairServerRunsStarvedFairTasksAtZeroLaxity() {
        Engine e = engineFrom(hogs(""));
        e.runUntil(5 * kNsPerSec);
        e.finish();
        const auto fair = slicesOf(e.trace(), taskByComm(e, "fair"));
        QCOMPARE(int(fair.size()), 5);
        for (size_t k = 0; k < fair.size(); ++k) {
            const Time due = Time(k) * kNsPerSec + 950 * kNsPerMs;
            QVERIFY2(fair[k].start >= due && fair[k].start < due + 100 * kNsPerUs,
                     qPrintable(QString("run %1 starts at %2 ns").arg(k).arg(fair[k].start)));
            const Time len = fair[k].end - fair[k].start;
            QVERIFY2(len >= 50 * kNsPerMs && len <= 51 * kNsPerMs + 100 * kNsPerUs,
                     qPrintable(QString("run %1 lasts %2 ns").arg(k).arg(len)));
            if (fair[k].endPoint != kStillRunning)
                QCOMPARE(fair[k].endReason, uint8_t(ReschedReason::FairServerThrottle));
        }
        QCOMPARE(slicesEndingWith(e, "rt", ReschedReason::FairServerStart), 5);
    }
    // fair_server_runtime 0 switches the server off (the debugfs write the kernel warns about):
    // the RT hog starves the fair task for good.
    void withoutFairServerRtStarvesFairTasks() {
        Engine e = engineFrom(hogs(R"(, "fair_server_runtime": "0ms")"));
        e.runUntil(3 * kNsPerSec);
        e.finish();
        QCOMPARE(fairTime(e), Time(0));
    }
    // update_curr_dl_se(): fair run time charged while the server waits deferred counts against
    // its budget; once the fair class has had 50 ms on its own the period restarts, so a server
    // whose fair tasks get 200 ms of every second never queues.
    void fairServerStaysDeferredWhileFairTasksGetTheirShare() {
        Engine e = engineFrom(hogs("", R"([{"run": "800ms"}, {"sleep": "200ms"}])"));
        e.runUntil(5 * kNsPerSec);
        e.finish();
        QCOMPARE(slicesEndingWith(e, "rt", ReschedReason::FairServerStart), 0);
        QCOMPARE(slicesEndingWith(e, "fair", ReschedReason::FairServerThrottle), 0);
        const Time t = fairTime(e);
        QVERIFY2(t > 900 * kNsPerMs && t < 1100 * kNsPerMs, qPrintable(QString::number(t)));
    }
    // While the server waits, the inspector says when it will step in; while it runs, on whose
    // budget the fair task runs.
    void inspectorExplainsTheFairServer() {
        Engine e = engineFrom(hogs(""));
        e.runUntil(500 * kNsPerMs);
        QVERIFY2(e.describePick(0).find("zero laxity in 450") != std::string::npos,
                 e.describePick(0).c_str());
        e.runUntil(970 * kNsPerMs);
        QVERIFY2(e.describePick(0).find("fair_server's budget") != std::string::npos,
                 e.describePick(0).c_str());
    }
    // sched_rt_runtime_exceeded(): a zero runtime resets rt_time instead of throttling, so the
    // RT hog keeps the CPU (and the fair task starves: the RFC profile has no fair_server).
    void zeroRtRuntimeNeverThrottles() {
        Engine e = engineFrom(hogs(R"(, "kernel": "auto-rfc", "sched_rt_runtime": "0ms")"));
        e.runUntil(2 * kNsPerSec + 500 * kNsPerMs);
        e.finish();
        QCOMPARE(fairTime(e), Time(0));
        QCOMPARE(slicesEndingWith(e, "rt", ReschedReason::RtThrottle), 0);
    }
    // RT throttling (auto-rfc): the period timer starts with the first RT enqueue; the RT class is
    // throttled at the first tick past 950 ms of RT time and unthrottled (rt_time paid back by one
    // runtime) at the period's end, when the RT task preempts the fair one again.
    void rtThrottlingLeavesTheRestOfEachPeriodToFairTasks_data() {
        QTest::addColumn<QString>("kernel");
        QTest::newRow("auto-rfc") << "auto-rfc";
        QTest::newRow("6.6-queue (before 557a6bfc662c, the fair server)") << "6.6-queue";
    }
    void rtThrottlingLeavesTheRestOfEachPeriodToFairTasks() {
        QFETCH(QString, kernel);
        Engine e = engineFrom(hogs(std::string(", \"kernel\": \"") + kernel.toStdString() + "\""));
        e.runUntil(3 * kNsPerSec + 500 * kNsPerMs);
        e.finish();
        const auto fair = slicesOf(e.trace(), taskByComm(e, "fair"));
        QCOMPARE(int(fair.size()), 3);
        for (size_t k = 0; k < fair.size(); ++k) {
            const Time periodEnd = Time(k + 1) * kNsPerSec;
            QVERIFY2(fair[k].start >= periodEnd - 50 * kNsPerMs && fair[k].start <= periodEnd - 48 * kNsPerMs,
                     qPrintable(QString("run %1 starts at %2 ns").arg(k).arg(fair[k].start)));
            QVERIFY2(fair[k].end >= periodEnd && fair[k].end < periodEnd + 100 * kNsPerUs,
                     qPrintable(QString("run %1 ends at %2 ns").arg(k).arg(fair[k].end)));
            QCOMPARE(fair[k].endReason, uint8_t(ReschedReason::ClassPreempt));
        }
        QCOMPARE(slicesEndingWith(e, "rt", ReschedReason::RtThrottle), 3);
        // and these profiles have no fair_server
        QCOMPARE(slicesEndingWith(e, "rt", ReschedReason::FairServerStart), 0);
    }
};

QTEST_GUILESS_MAIN(TestRtStarvation)
#include "tst_rt_starvation.moc"
