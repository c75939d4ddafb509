// SPDX-License-Identifier: GPL-3.0-or-later
// Live parameter changes apply at their instant, exactly as writing the debugfs knob would,
// and leave a marker in the trace.
#include "tests/test_support.h"

using namespace sched;

namespace {

// Per wakeup of `comm`: (wakeup time, delay until it next got a CPU).
std::vector<std::pair<Time, Time>> wakeupDelays(const Engine& e, const std::string& comm) {
    const TaskId t = taskByComm(e, comm);
    const auto slices = slicesOf(e.trace(), t);
    std::vector<std::pair<Time, Time>> v;
    const Wakeups& w = e.trace().wakeups;
    size_t k = 0;
    for (size_t i = 0; i < w.size(); ++i) {
        if (w.wakee[i] != t || w.isNew[i]) continue;
        while (k < slices.size() && slices[k].start < w.time[i])
            ++k;
        if (k < slices.size()) v.emplace_back(w.time[i], slices[k].start - w.time[i]);
    }
    return v;
}

std::vector<SliceView> allSlices(const Engine& e) {
    std::vector<SliceView> v;
    for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t)
        for (const auto& s : slicesOf(e.trace(), t))
            v.push_back(s);
    return v;
}

// Every completed run after start-up lasts `before` until the change at `at`, and `after` once the
// change has settled (`settle` later).
void checkRunLengths(const Engine& e, Time at, Time settle, Time before, Time after) {
    for (const auto& s : allSlices(e)) {
        if (s.endPoint == kStillRunning || s.start < 30 * kNsPerMs) continue;
        if (s.end <= at)
            QCOMPARE(s.end - s.start, before);
        else if (s.start >= at + settle)
            QCOMPARE(s.end - s.start, after);
    }
}

} // namespace

class TestLiveChange : public QObject {
    Q_OBJECT
  private slots:
    void preemptModelChangeAppliesFromItsInstant() {
        scen::Scenario s;
        scen::ScenarioError err;
        QVERIFY(scen::loadScenario("kernel-hogs-waker", s, err));
        s.changes.push_back({kNsPerSec, ParamChange::preemptModel(PreemptModel::Full)});
        Engine e = scen::instantiate(s, 1, TraceOptions{false});
        e.runUntil(2 * kNsPerSec);
        e.finish();
        QCOMPARE(e.trace().markers.size(), size_t(1));
        QCOMPARE(e.trace().markers[0].time, kNsPerSec);
        QCOMPARE(e.trace().markers[0].text, std::string("preempt=full"));
        QCOMPARE(e.config().preempt, PreemptModel::Full);
        Time maxBefore = 0, maxAfter = 0;
        for (auto [at, d] : wakeupDelays(e, "waker")) {
            if (at < kNsPerSec)
                maxBefore = std::max(maxBefore, d);
            else
                maxAfter = std::max(maxAfter, d);
        }
        QVERIFY2(maxBefore > 10 * kNsPerMs, qPrintable(QString::number(maxBefore)));
        QVERIFY2(maxAfter < 100 * kNsPerUs, qPrintable(QString::number(maxAfter)));
        // Kernel preemption at IRQ return exists only from the change on.
        int irqBefore = 0, irqAfter = 0;
        for (const auto& sl : allSlices(e))
            if (sl.endPoint == uint8_t(SwitchPoint::IrqReturn)) (sl.end < kNsPerSec ? irqBefore : irqAfter)++;
        QCOMPARE(irqBefore, 0);
        QVERIFY(irqAfter > 50);
    }
    void applyNowChangesTheModelAtTheCurrentTime() {
        Engine e = builtinEngine("kernel-hogs-waker");
        e.runUntil(500 * kNsPerMs);
        QCOMPARE(e.apply(ParamChange::preemptModel(PreemptModel::Lazy)), std::string());
        QCOMPARE(e.config().preempt, PreemptModel::Lazy);
        QCOMPARE(e.trace().markers.back().time, 500 * kNsPerMs);
        // and an impossible change is refused with a reason, leaving the model alone
        QVERIFY(!e.apply(ParamChange::hzChange(200)).empty());
        QCOMPARE(e.config().hz, 250);
    }
    void baseSliceChangeLengthensRunsFromThenOn() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "full"},
          "tasks": [ {"comm": "hog", "count": 2, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ],
          "changes": [ {"at": "500ms", "base_slice": "7ms"} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        checkRunLengths(e, 500 * kNsPerMs, 20 * kNsPerMs, 4 * kNsPerMs,
                        8 * kNsPerMs); // 7 ms rounded to the tick
    }
    void taskSliceAndNiceChangesApplyToTheNamedTask() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full"},
          "tasks": [ {"comm": "a", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "b", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ],
          "changes": [ {"at": "1s", "task": "a", "nice": -5} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(3 * kNsPerSec);
        e.finish();
        Time a1 = 0, b1 = 0, a2 = 0, b2 = 0;
        for (const auto& s : slicesOf(e.trace(), 0))
            (s.start < kNsPerSec ? a1 : a2) += s.end - s.start;
        for (const auto& s : slicesOf(e.trace(), 1))
            (s.start < kNsPerSec ? b1 : b2) += s.end - s.start;
        QVERIFY(std::fabs(double(a1) / double(a1 + b1) - 0.5) < 0.02);
        const double expect = 3121.0 / (3121.0 + 1024.0);
        QVERIFY2(std::fabs(double(a2) / double(a2 + b2) - expect) < 0.02,
                 qPrintable(QString::number(double(a2) / double(a2 + b2))));
        QCOMPARE(e.tasks()[0].nice, -5);
        QCOMPARE(e.trace().markers[0].text, std::string("a nice=-5"));
        // A change made on a task by its index (the GUI's task table) is named as its lane is.
        ParamChange byIndex;
        byIndex.kind = ParamChange::Kind::TaskNice;
        byIndex.task = 1;
        byIndex.nice = 3;
        QCOMPARE(e.apply(byIndex), std::string());
        QCOMPARE(e.trace().markers.back().text, std::string("b:1001 nice=3"));
    }
    void hzChangeMovesTheTickGrid() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "full"},
          "tasks": [ {"comm": "hog", "count": 2, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ],
          "changes": [ {"at": "500ms", "hz": 1000} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(kNsPerSec);
        e.finish();
        checkRunLengths(e, 500 * kNsPerMs, 10 * kNsPerMs, 4 * kNsPerMs, 1 * kNsPerMs);
    }
    void aChangeReadsBackFromItsLabel() {
        ParamChange nice;
        nice.kind = ParamChange::Kind::TaskNice;
        nice.comm = "hog";
        nice.nice = -5;
        ParamChange slice;
        slice.kind = ParamChange::Kind::TaskSlice;
        slice.task = 3;
        slice.value = 500 * kNsPerUs;
        ParamChange policy;
        policy.kind = ParamChange::Kind::TaskPolicy;
        policy.comm = "kworker/0:1";
        policy.policy = Policy::Batch;
        ParamChange base;
        base.kind = ParamChange::Kind::BaseSlice;
        base.value = 3 * kNsPerMs;
        for (const ParamChange& c :
             {ParamChange::preemptModel(PreemptModel::Lazy), ParamChange::hzChange(1000),
              ParamChange::featureChange(Feature::PreemptShort, false),
              ParamChange::featureChange(Feature::HrTick, true), nice, slice, policy, base}) {
            ParamChange back;
            const std::string err = parseParamChange(c.label(), back);
            QVERIFY2(err.empty(), err.c_str());
            QCOMPARE(back.label(), c.label());
            QCOMPARE(int(back.kind), int(c.kind));
        }
    }
    void malformedChangesSayWhatWouldBeAccepted() {
        ParamChange c;
        QVERIFY(parseParamChange("preempt=fast", c).find("none, voluntary, full, lazy") != std::string::npos);
        QVERIFY(parseParamChange("HZ=500", c).find("100, 250, 300, 1000") != std::string::npos);
        QVERIFY(parseParamChange("base_slice=1s", c).find("0.1-100 ms") != std::string::npos);
        QVERIFY(parseParamChange("NO_SUCH_FEATURE", c).find("accepted") != std::string::npos);
        QVERIFY(parseParamChange("hog nice=40", c).find("-20 to 19") != std::string::npos);
        QVERIFY(parseParamChange("hog policy=deadline", c).find("fifo") != std::string::npos);
        QVERIFY(parseParamChange("task x nice=1", c).find("task ID") != std::string::npos);
        QVERIFY(parseParamChange("", c).find("accepted") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestLiveChange)
#include "tst_live_change.moc"
