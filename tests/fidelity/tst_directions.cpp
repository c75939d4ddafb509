// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel discussions' findings (Ankur Arora's PREEMPT_AUTO patches, LKML Feb/May 2024; the
// PREEMPT_SHORT commit 85e511df3cec) as directions on quick sizes: a change of one knob must move
// the numbers the way the published tables moved them. A direction the engine does not reproduce is
// a finding about the model, never a threshold to loosen.
#include "tests/test_support.h"

using namespace sched;

namespace {
const LatencyRow* rowOf(const std::vector<LatencyRow>& rows, const std::string& comm) {
    for (const LatencyRow& r : rows)
        if (r.comm == comm) return &r;
    return nullptr;
}
std::vector<LatencyRow> latencyWith(const std::string& json, const ParamChange& change, Time until) {
    Engine e = scen::instantiate(scenarioFrom(json), 1, TraceOptions{false});
    if (!e.apply(change).empty()) qFatal("change refused");
    e.runUntil(until);
    e.finish();
    return perfSchedLatency(e.trace());
}
} // namespace

class TestDirections : public QObject {
    Q_OBJECT
  private slots:
    // PREEMPT_SHORT (85e511df3cec "sched/eevdf: Allow shorter slices to wakeup-preempt", Mike
    // Galbraith's rpi4 table): massive_intr with a 100 ms slice and cyclictest -S with a 500 us
    // slice on 4 CPUs. PREEMPT_SHORT lets the short-slice wakee preempt the long-slice hog at once
    // (check_preempt_wakeup_fair() -> cancel_protect_slice()): cyclictest's average and summed
    // scheduling delay drop, massive_intr is switched out more.
    void preemptShortCutsTheShortSliceTasksDelay() {
        const std::string json = R"J({"machine": {"cpus": 4, "hz": 250, "kernel": "6.18", "preempt": "full"},
          "tasks": [ {"workload": "massive_intr", "args": "4 10", "slice": "100ms"},
                     {"workload": "cyclictest", "args": "-S -q", "slice": "500us"} ]})J";
        const auto on =
            latencyWith(json, ParamChange::featureChange(Feature::PreemptShort, true), 3 * kNsPerSec);
        const auto off =
            latencyWith(json, ParamChange::featureChange(Feature::PreemptShort, false), 3 * kNsPerSec);
        const LatencyRow *cOn = rowOf(on, "cyclictest"), *cOff = rowOf(off, "cyclictest");
        const LatencyRow *mOn = rowOf(on, "massive_intr"), *mOff = rowOf(off, "massive_intr");
        QVERIFY(cOn && cOff && mOn && mOff);
        qInfo("cyclictest avg %lld vs %lld ns, massive_intr switches %lld vs %lld",
              (long long)cOn->avgDelay(), (long long)cOff->avgDelay(), (long long)mOn->count,
              (long long)mOff->count);
        QVERIFY2(cOn->avgDelay() * 5 < cOff->avgDelay(),
                 qPrintable(QString("avg %1 vs %2").arg(cOn->avgDelay()).arg(cOff->avgDelay())));
        QVERIFY2(cOn->totalDelay * 5 < cOff->totalDelay,
                 qPrintable(QString("sum %1 vs %2").arg(cOn->totalDelay).arg(cOff->totalDelay)));
        QVERIFY2(mOn->count > mOff->count * 3 / 2,
                 qPrintable(QString("switches %1 vs %2").arg(mOn->count).arg(mOff->count)));
    }
};

QTEST_GUILESS_MAIN(TestDirections)
#include "tst_directions.moc"
