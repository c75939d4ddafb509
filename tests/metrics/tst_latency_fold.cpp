// SPDX-License-Identifier: GPL-3.0-or-later
// LatencyFold: perf sched latency, perf stat's switch counts and the CPUs' busy time folded a
// stretch of trace at a time (the stretch then dropped, Engine::forgetRecorded()) must give what
// the whole-trace functions of latency.h give for the whole trace — on every workload, however
// the run is cut into stretches, and when a wake-up falls at the very time of a switch-out.
#include "metrics/latency_fold.h"
#include "tests/test_support.h"

using namespace sched;

namespace {

void compareRows(const std::vector<LatencyRow>& folded, const std::vector<LatencyRow>& whole) {
    QCOMPARE(folded.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
        const LatencyRow &f = folded[i], &w = whole[i];
        const QByteArray where = QByteArray("row ") + QByteArray::number(qsizetype(i)) + " " + w.comm.c_str();
        QVERIFY2(f.comm == w.comm && f.pid == w.pid && f.merged == w.merged, where);
        QVERIFY2(f.runtime == w.runtime && f.count == w.count && f.totalDelay == w.totalDelay, where);
        QVERIFY2(f.maxDelay == w.maxDelay && f.maxStart == w.maxStart && f.maxEnd == w.maxEnd, where);
    }
}

void compareFold(const LatencyFold& fold, const Trace& whole) {
    for (bool merge : {true, false}) {
        LatencyOptions o;
        o.mergeByComm = merge;
        compareRows(fold.rows(whole.tasks, o), perfSchedLatency(whole, o));
    }
    const SwitchCounts f = fold.switches(), w = countSwitches(whole);
    QCOMPARE(f.total, w.total);
    QCOMPARE(f.voluntary, w.voluntary);
    QCOMPARE(f.involuntary, w.involuntary);
    QCOMPARE(f.migrations, w.migrations);
    const auto fu = fold.cpuUsage(), wu = cpuUsage(whole);
    QCOMPARE(fu.size(), wu.size());
    for (size_t c = 0; c < wu.size(); ++c) {
        QCOMPARE(fu[c].busy, wu[c].busy);
        QCOMPARE(fu[c].switches, wu[c].switches);
    }
}

// A trace recorded in the engine's order, by hand: columns in time order, each wake-up pushed
// before or after the switch-out at its time as `wakeFirst` says.
struct Recorded {
    Trace t;
    Recorded() {
        t.cpus = 1;
        t.tasks.push_back(TraceTask{10, 10, "a", 120});
        t.tasks.push_back(TraceTask{20, 20, "b", 120});
    }
    void slice(TaskId task, Time start, Time end, SwitchPoint how) {
        t.slices.push(start, end, task, 0, uint8_t(how), kNoReason);
    }
    void wake(TaskId task, Time at) { t.wakeups.push(at, kNoTask, task, 0, 0, false); }
};

} // namespace

class TestLatencyFold : public QObject {
    Q_OBJECT
  private slots:
    void foldingStretchByStretchEqualsTheWholeTrace_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<qint64>("until");
        QTest::addColumn<qint64>("stretch"); // simulated time folded at once; 0: one event at a time
        const auto row = [](const char* name, const std::string& json, Time until, Time stretch) {
            QTest::newRow(name) << QString::fromStdString(json) << qint64(until) << qint64(stretch);
        };
        const std::string messaging = workloads(
            R"({"cpus": 8, "hz": 250, "kernel": "auto-rfc", "preempt": "none"})",
            R"({"workload": "messaging", "args": "-g 4 -t -l 60"}, {"workload": "kthreads", "args": "-r 10 -c 20"})");
        row("messaging, every event", messaging, 300 * kNsPerMs, 0);
        row("messaging, 37 us stretches", messaging, 300 * kNsPerMs, 37 * kNsPerUs);
        row("messaging, 2 ms stretches", messaging, 300 * kNsPerMs, 2 * kNsPerMs);
        row("hackbench pipes, preempt=full",
            workloads(R"({"cpus": 4, "hz": 1000, "preempt": "full"})",
                      R"({"workload": "hackbench", "args": "-g 3 -l 80 -p"})"),
            300 * kNsPerMs, 1 * kNsPerMs);
        row("kernbench, forks and exits",
            workloads(R"({"cpus": 4, "hz": 250, "preempt": "none"})",
                      R"({"workload": "kernbench", "args": "-j 8"})"),
            5000 * kNsPerMs, 3 * kNsPerMs);
        row("schbench",
            workloads(R"({"cpus": 4, "hz": 1000, "preempt": "lazy"})",
                      R"({"workload": "schbench", "args": "-m 2 -t 4 -r 1"})"),
            600 * kNsPerMs, 500 * kNsPerUs);
        row("massive_intr, cyclictest, browser, preempt=voluntary",
            workloads(
                R"({"cpus": 2, "hz": 250, "preempt": "voluntary"})",
                R"({"workload": "massive_intr", "args": "4 1"}, {"workload": "cyclictest", "args": "-t 2 -i 1000 -l 400"}, {"workload": "browser", "args": ""})"),
            800 * kNsPerMs, 1 * kNsPerMs);
    }
    void foldingStretchByStretchEqualsTheWholeTrace() {
        QFETCH(QString, json);
        QFETCH(qint64, until);
        QFETCH(qint64, stretch);
        const scen::Scenario s = scenarioFrom(json.toStdString());
        Engine whole = scen::instantiate(s, 3, TraceOptions{.samples = false, .batchOps = true});
        whole.runUntil(until);
        whole.finish();

        Engine e = scen::instantiate(s, 3, TraceOptions{.samples = false, .batchOps = true, .flags = false});
        LatencyFold fold(e.config().cpus);
        size_t folds = 0, most = 0;
        const auto foldAndForget = [&] {
            most = std::max(most, e.trace().slices.size());
            fold.add(e.trace());
            e.forgetRecorded();
            QCOMPARE(e.trace().slices.size(), size_t(0));
            folds++;
        };
        if (stretch == 0) {
            while (e.nextEventTime() <= until)
                e.step(), foldAndForget();
            e.runUntil(until);
        } else {
            for (Time t = 0; t < until;)
                e.runUntil(t = std::min(until, t + stretch)), foldAndForget();
        }
        e.finish();
        foldAndForget();
        qInfo("%zu slices, %zu folds, at most %zu slices at once", whole.trace().slices.size(), folds, most);
        QVERIFY(whole.trace().slices.size() > 500);
        QVERIFY2(most * 4 < whole.trace().slices.size(), "no stretch should hold a quarter of the run");
        QVERIFY(folds > 10);
        compareFold(fold, whole.trace());
    }

    // The GUI's metrics panel: the live engine's trace folded a refresh at a time (never dropped),
    // then each CPU's running slice closed at now (endedAt()), must read as the same run ended
    // there by finish() — the CLI's numbers; and traceSoFar() must be the trace finish() leaves.
    void theLiveFoldWithItsRunningSlicesEqualsTheRunEndedNow_data() {
        foldingStretchByStretchEqualsTheWholeTrace_data();
    }
    void theLiveFoldWithItsRunningSlicesEqualsTheRunEndedNow() {
        QFETCH(QString, json);
        QFETCH(qint64, until);
        QFETCH(qint64, stretch);
        const scen::Scenario s = scenarioFrom(json.toStdString());
        const TraceOptions opts{.samples = false, .batchOps = true};
        { // cut inside the run's middle slice, so that a task is running there
            Engine probe = scen::instantiate(s, 3, opts);
            probe.runUntil(until);
            const Slices& m = probe.trace().slices;
            const size_t mid = m.size() / 2;
            until = m.start[mid] + (m.end[mid] - m.start[mid]) / 2 + 1;
        }
        Engine whole = scen::instantiate(s, 3, opts);
        whole.runUntil(until);
        whole.finish();

        Engine e = scen::instantiate(s, 3, opts);
        LatencyFold fold(e.config().cpus);
        FoldCursor at;
        const Time step = stretch ? stretch : 100 * kNsPerUs;
        for (Time t = 0; t < until;)
            e.runUntil(t = std::min(Time(until), t + step)), fold.add(e.trace(), at);
        QVERIFY(!e.finished());
        std::vector<RunningSlice> running;
        for (size_t c = 0; c < e.cpus().size(); ++c)
            if (e.cpus()[c].curr >= 0)
                running.push_back({e.cpus()[c].sliceStart, e.cpus()[c].curr, uint16_t(c)});
        QVERIFY2(!running.empty(), "the run must end with a task running for this test to mean anything");
        compareFold(fold.endedAt(running, e.now()), whole.trace());

        const Trace soFar = e.traceSoFar();
        const Trace& w = whole.trace();
        QCOMPARE(soFar.endTime, w.endTime);
        QCOMPARE(soFar.slices.size(), w.slices.size());
        for (size_t i = 0; i < w.slices.size(); ++i)
            QVERIFY(soFar.slices.start[i] == w.slices.start[i] && soFar.slices.end[i] == w.slices.end[i] &&
                    soFar.slices.task[i] == w.slices.task[i] &&
                    soFar.slices.endPoint[i] == w.slices.endPoint[i]);
        QCOMPARE(soFar.flags.size(), w.flags.size());
        for (size_t i = 0; i < w.flags.size(); ++i)
            QVERIFY(soFar.flags.set[i] == w.flags.set[i] && soFar.flags.clear[i] == w.flags.clear[i] &&
                    soFar.flags.clearedBy[i] == w.flags.clearedBy[i]);
        QCOMPARE(e.trace().slices.size() + running.size(), w.slices.size()); // e itself is untouched
    }

    // latency_wakeup_event(): the first wake-up at or after a sleep's switch-out opens the delay, one
    // at the same nanosecond included — whether it was recorded before the switch-out, after it,
    // or in the stretch before (the walk in latency.cpp sorts; the fold must not need to).
    void aWakeupAtTheSwitchOutsTimeStartsTheDelayInEitherOrder_data() {
        QTest::addColumn<bool>("wakeFirst");
        QTest::addColumn<int>("cutAfter"); // fold the events recorded up to this many, then the rest
        for (bool first : {true, false})
            for (int cut : {0, 1, 2, 3})
                QTest::newRow(
                    qPrintable(QString("wake %1, cut after %2").arg(first ? "first" : "second").arg(cut)))
                    << first << cut;
    }
    void aWakeupAtTheSwitchOutsTimeStartsTheDelayInEitherOrder() {
        QFETCH(bool, wakeFirst);
        QFETCH(int, cutAfter);
        // a runs 0-100 and blocks; b runs 100-150; a is woken at 100 (its switch-out's time) and
        // runs at 150: one atom of 50. Then a blocks at 180, a wake-up at 170 (while it ran) does
        // not count; woken at 200, in at 230: 30.
        std::vector<std::function<void(Recorded&)>> events;
        const auto aOut = [](Recorded& r) { r.slice(0, 0, 100, SwitchPoint::Block); };
        const auto aWake = [](Recorded& r) { r.wake(0, 100); };
        events.push_back(wakeFirst ? aWake : aOut);
        events.push_back(wakeFirst ? aOut : aWake);
        events.push_back([](Recorded& r) { r.slice(1, 100, 150, SwitchPoint::Block); });
        events.push_back([](Recorded& r) { r.wake(0, 170); });
        events.push_back([](Recorded& r) { r.slice(0, 150, 180, SwitchPoint::Block); });
        events.push_back([](Recorded& r) { r.wake(0, 200); });
        events.push_back([](Recorded& r) { r.slice(0, 230, 240, SwitchPoint::ExitToUser); });
        Recorded all, first, rest;
        for (size_t i = 0; i < events.size(); ++i)
            events[i](all), events[i](int(i) < cutAfter ? first : rest);
        LatencyFold fold(1);
        fold.add(first.t), fold.add(rest.t);
        LatencyOptions o;
        o.mergeByComm = false;
        const auto rows = fold.rows(all.t.tasks, o);
        const auto it =
            std::find_if(rows.begin(), rows.end(), [](const LatencyRow& r) { return r.comm == "a"; });
        QVERIFY(it != rows.end());
        QCOMPARE(it->count, int64_t(2));
        QCOMPARE(it->totalDelay, Time(50 + 30));
        QCOMPARE(it->maxDelay, Time(50));
        QCOMPARE(it->maxStart, Time(100));
        compareFold(fold, all.t);
    }

    // A metrics-only run that folds as it goes keeps no more than a stretch of trace.
    void forgettingKeepsTheTasksAndASnapshotFromBeforeRestoresNoEvents() {
        const scen::Scenario s =
            scenarioFrom(workloads(R"({"cpus": 2, "hz": 1000, "preempt": "full"})",
                                   R"({"workload": "hackbench", "args": "-g 1 -l 50 -p"})"));
        Engine e = scen::instantiate(s, 1, TraceOptions{false});
        e.runUntil(5 * kNsPerMs);
        const Engine snap = e.snapshot();
        const size_t tasks = e.trace().tasks.size();
        e.runUntil(10 * kNsPerMs);
        QVERIFY(e.trace().slices.size() > 0 && e.trace().wakeups.size() > 0);
        e.forgetRecorded();
        QCOMPARE(e.trace().slices.size(), size_t(0));
        QCOMPARE(e.trace().wakeups.size(), size_t(0));
        QCOMPARE(e.trace().flags.size(), size_t(0));
        QCOMPARE(e.trace().tasks.size(), tasks);
        e.runUntil(12 * kNsPerMs);
        QVERIFY(e.trace().slices.size() > 0);
        e.restore(snap);
        QCOMPARE(e.now(), 5 * kNsPerMs);
        QCOMPARE(e.trace().slices.size(), size_t(0)); // not the stale lengths of before the forgetting
        QCOMPARE(e.trace().wakeups.size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLatencyFold)
#include "tst_latency_fold.moc"
