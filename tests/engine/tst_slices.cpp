// SPDX-License-Identifier: GPL-3.0-or-later
// Run lengths of competing CPU hogs: the request (slice) is noticed at the tick, so runs are the
// slice rounded up to the tick (kernel/sched/fair.c: update_deadline(), called from update_curr()
// in the tick's task_tick_fair() -> entity_tick()); custom slices and HRTICK change that.
#include "tests/test_support.h"

using namespace sched;

namespace {

// Durations of the completed slices of every hog, leaving out the start-up (a new task's first
// request is half a slice: PLACE_DEADLINE_INITIAL) and the last, still running slice.
std::vector<Time> runLengths(const std::string& json, Time until) {
    Engine e = engineFrom(json);
    e.runUntil(until);
    e.finish();
    std::vector<Time> v;
    const Slices& s = e.trace().slices;
    for (size_t i = 0; i < s.size(); ++i)
        if (s.endPoint[i] != kStillRunning && s.start[i] >= 30 * kNsPerMs) v.push_back(s.end[i] - s.start[i]);
    return v;
}

std::string twoHogs(const std::string& machine, const std::string& slice) {
    return R"J({"machine": )J" + machine + R"J(, "tasks": [ {"comm": "hog", "count": 2, "cpus": [0], )J" +
           slice + R"J( "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ]})J";
}

} // namespace

class TestSlices : public QObject {
    Q_OBJECT
  private slots:
    void hogRunsAreSliceRoundedUpToTheTick() {
        // 2 CPUs: base slice 0.7 ms * (1 + log2 2) = 1.4 ms; HZ 250 ticks every 4 ms.
        const auto runs =
            runLengths(twoHogs(R"J({"cpus": 2, "hz": 250, "preempt": "none"})J", ""), kNsPerSec);
        QVERIFY(runs.size() > 200);
        for (Time r : runs)
            QCOMPARE(r, 4 * kNsPerMs);
    }
    void hz1000GivesTwoTickRunsFor1400us() {
        const auto runs =
            runLengths(twoHogs(R"J({"cpus": 2, "hz": 1000, "preempt": "full"})J", ""), kNsPerSec);
        QVERIFY(runs.size() > 400);
        for (Time r : runs)
            QCOMPARE(r, 2 * kNsPerMs);
    }
    void customSliceChangesTheRunLength() {
        // sched_setattr(sched_runtime = 10 ms) on both: protected for the whole request, which is
        // noticed at the 12 ms tick.
        const auto runs = runLengths(
            twoHogs(R"J({"cpus": 2, "hz": 250, "preempt": "none"})J", R"J("slice": "10ms",)J"), kNsPerSec);
        QVERIFY(runs.size() > 50);
        for (Time r : runs)
            QCOMPARE(r, 12 * kNsPerMs);
    }
    void hrtickEndsTheSliceBetweenTicks() {
        // HRTICK arms a timer for the remaining slice: runs are 1.4 ms plus the switch cost.
        const auto runs = runLengths(
            twoHogs(R"J({"cpus": 2, "hz": 250, "preempt": "full", "features": {"HRTICK": true}})J", ""),
            kNsPerSec);
        QVERIFY(runs.size() > 500);
        int exact = 0;
        for (Time r : runs) {
            QVERIFY2(r >= 1400 * kNsPerUs && r < 1500 * kNsPerUs, qPrintable(QString::number(r)));
            exact += r == 1400 * kNsPerUs;
        }
        QVERIFY(exact > int(runs.size()) / 2);
    }

    // The built-in slice-and-deadline teaches that a slice sets the deadline, not the share: its
    // 0.1 ms waker and its 5 ms one get the same CPU time within 5 %, the short one waits less than
    // two thirds of the long one's average delay with PREEMPT_SHORT (its description's numbers),
    // and without PREEMPT_SHORT most of that advantage goes.
    void aShortSliceWaitsLessForTheSameShare() {
        struct Seen {
            Time shortCpu, longCpu, shortAvg, longAvg;
        };
        const auto run = [](bool preemptShort) {
            scen::Scenario sc;
            scen::ScenarioError err;
            if (!scen::loadScenario("slice-and-deadline", sc, err)) qFatal("%s", err.text().c_str());
            sc.config.features.set(Feature::PreemptShort, preemptShort);
            Engine e = scen::instantiate(sc, 1, TraceOptions{false});
            e.runUntil(sc.duration);
            e.finish();
            const auto rows = perfSchedLatency(e.trace());
            const LatencyRow *s = latencyRow(rows, "short"), *l = latencyRow(rows, "long");
            return Seen{s->runtime, l->runtime, s->avgDelay(), l->avgDelay()};
        };
        const Seen on = run(true), off = run(false);
        qInfo("avg delay short/long: %.3f / %.3f ms with PREEMPT_SHORT, %.3f / %.3f ms without",
              double(on.shortAvg) / 1e6, double(on.longAvg) / 1e6, double(off.shortAvg) / 1e6,
              double(off.longAvg) / 1e6);
        QVERIFY(std::abs(double(on.shortCpu - on.longCpu)) < 0.05 * double(on.longCpu));
        QVERIFY(3 * on.shortAvg < 2 * on.longAvg);
        QVERIFY(off.shortAvg > on.shortAvg * 3 / 2); // PREEMPT_SHORT is where most of the gain comes from
    }
};

QTEST_GUILESS_MAIN(TestSlices)
#include "tst_slices.moc"
