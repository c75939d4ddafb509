// SPDX-License-Identifier: GPL-3.0-or-later
// A/B comparison over a window: the window is measured as perf would measure a recording of
// only that window (slices cut at the edges, switches and delays counted once), identical runs
// compare equal, counts add up across adjacent windows, and a branch with preempt=full instead
// of none shows the kernel's effect: a wakeup no longer waits for a 20 ms kernel section.
#include "metrics/align.h"
#include "metrics/compare.h"
#include "tests/test_support.h"

using namespace sched;

namespace {
Engine hogsAndWaker() {
    Engine e = builtinEngine("kernel-hogs-waker");
    e.runUntil(150 * kNsPerMs);
    return e;
}
const CompareRow* rowOf(const Comparison& c, const std::string& group) {
    for (const CompareRow& r : c.rows)
        if (r.group == group) return &r;
    return nullptr;
}
// The same run recorded later: every timestamp moved by d (as a trace started earlier would be).
Trace shifted(const Trace& t, Time d) {
    Trace s = t;
    for (TimeColumn* c :
         {&s.slices.start, &s.slices.end, &s.wakeups.time, &s.migrations.time, &s.flags.set, &s.flags.clear})
        for (size_t i = 0; i < c->size(); ++i)
            c->set(i, (*c)[i] + d);
    for (Marker& m : s.markers)
        m.time += d;
    s.endTime += d;
    return s;
}
} // namespace

class TestCompare : public QObject {
    Q_OBJECT
  private slots:
    void theWindowKeepsExactlyTheTimeInsideIt() {
        Engine e = hogsAndWaker();
        e.finish();
        const Trace& t = e.trace();
        const Time from = 37 * kNsPerMs + 123, to = 111 * kNsPerMs;
        size_t clipped = 0;
        const Trace w = traceWindow(t, from, to, &clipped);
        Time inside = 0, kept = 0;
        size_t starting = 0;
        for (size_t i = 0; i < t.slices.size(); ++i) {
            inside += std::max<Time>(0, std::min(to, t.slices.end[i]) - std::max(from, t.slices.start[i]));
            starting += t.slices.start[i] < from && t.slices.end[i] > from;
        }
        for (size_t i = 0; i < w.slices.size(); ++i) {
            QVERIFY(w.slices.start[i] >= from && w.slices.end[i] <= to);
            kept += w.slices.end[i] - w.slices.start[i];
        }
        QCOMPARE(kept, inside);
        QCOMPARE(clipped, starting);
        for (Time x : w.wakeups.time)
            QVERIFY(x >= from && x < to);
    }

    // Aligned at an event both have, a run and a later recording of it compare equal; on one
    // time axis they do not. Every offered event of a shifted copy gives the same shift.
    void alignedAtAnEventAShiftedCopyComparesEqual() {
        Engine e = hogsAndWaker();
        e.finish();
        const Trace& a = e.trace();
        const Time d = 37 * kNsPerMs + 512;
        const Trace b = shifted(a, d);
        const std::vector<AlignPoint> points = alignmentPoints(a, b);
        QVERIFY(points.size() >= 3);
        QCOMPARE(points.front().key, std::string("start"));
        for (const AlignPoint& p : points)
            QCOMPARE(p.shift(), d);
        AlignPoint p;
        std::string error;
        QVERIFY2(findAlignment(a, b, "run:waker", p, error), error.c_str());
        QCOMPARE(p.label, std::string("first run of waker"));
        const Comparison aligned = compareRuns(a, b, 0, 100 * kNsPerMs, p.shift()),
                         same = compareRuns(a, b, 0, 100 * kNsPerMs);
        QCOMPARE(aligned.b.total, aligned.a.total);
        QCOMPARE(aligned.busyB, aligned.busyA);
        for (const CompareRow& r : aligned.rows) {
            QCOMPARE(r.b.runtime, r.a.runtime);
            QCOMPARE(r.b.switches(), r.a.switches());
            QCOMPARE(r.b.maxDelay, r.a.maxDelay);
        }
        QVERIFY(same.busyB != same.busyA);
        // The table says how B was measured.
        Comparison labelled = aligned;
        labelled.alignedAt = p.label;
        const std::string text = formatComparison(labelled, "A", "B");
        QVERIFY2(
            text.find("B 37.000512ms - 137.000512ms, aligned at first run of waker (B = A + 37.000512ms)") !=
                std::string::npos,
            text.c_str());
    }

    void alignmentErrorsNameWhatTheRunsHave() {
        Engine e = hogsAndWaker();
        e.finish();
        AlignPoint p;
        std::string error;
        QVERIFY(!findAlignment(e.trace(), e.trace(), "run:nosuch", p, error));
        QVERIFY2(
            error.find(
                "no event 'run:nosuch' in both runs; accepted: start, run:COMM, wake:COMM, marker:TEXT") == 0,
            error.c_str());
        QVERIFY2(error.find("these runs both have: start run:") != std::string::npos, error.c_str());
        // A marker is found by part of its text (a trace's carries pids and attempt numbers).
        Trace a = e.trace(), b = shifted(e.trace(), kNsPerMs);
        a.markers.push_back({5 * kNsPerMs, "VALID root=18109 scenario=b_massive_intr attempt=1"});
        b.markers.push_back({9 * kNsPerMs, "VALID root=18109 scenario=b_massive_intr attempt=1"});
        QVERIFY2(findAlignment(a, b, "marker:scenario=b_massive_intr", p, error), error.c_str());
        QCOMPARE(p.shift(), 4 * kNsPerMs);
    }

    void switchesOfAdjacentWindowsAddUp() {
        Engine e = hogsAndWaker();
        e.finish();
        const Time mid = 61 * kNsPerMs + 7, end = e.now();
        const Comparison whole = compareRuns(e.trace(), e.trace(), 0, end);
        const Comparison first = compareRuns(e.trace(), e.trace(), 0, mid),
                         second = compareRuns(e.trace(), e.trace(), mid, end);
        QCOMPARE(first.a.total + second.a.total, whole.a.total);
        QCOMPARE(first.a.voluntary + second.a.voluntary, whole.a.voluntary);
        QCOMPARE(first.a.involuntary + second.a.involuntary, whole.a.involuntary);
        QCOMPARE(whole.a.total, countSwitches(e.trace()).total); // the whole run's window is the whole run
        for (const CompareRow& r : whole.rows) {
            const CompareRow *f = rowOf(first, r.group), *s = rowOf(second, r.group);
            QCOMPARE((f ? f->a.runtime : 0) + (s ? s->a.runtime : 0), r.a.runtime);
            QCOMPARE((f ? f->a.switches() : 0) + (s ? s->a.switches() : 0), r.a.switches());
        }
    }

    void identicalRunsCompareEqual() {
        Engine e = hogsAndWaker();
        const Comparison c = compareRuns(e.trace(), e.trace(), 20 * kNsPerMs, 140 * kNsPerMs);
        QVERIFY(!c.rows.empty());
        for (const CompareRow& r : c.rows) {
            QCOMPARE(r.a.runtime, r.b.runtime);
            QCOMPARE(r.a.switches(), r.b.switches());
            QCOMPARE(r.a.sumDelay, r.b.sumDelay);
            QCOMPARE(r.a.p99, r.b.p99);
        }
        QCOMPARE(c.a.total, c.b.total);
        const std::string text = formatComparison(c, "A", "B");
        QVERIFY(text.find(" waker ") != std::string::npos);
        QVERIFY(text.find("context-switches  A ") != std::string::npos);
        QVERIFY(unrelatedRunsWarning(c).empty());
        QVERIFY(text.find("warning") == std::string::npos);
    }

    // A simulation of one workload beside a run of another: no task group in common, said in the
    // table's head with a few comms of each side.
    void runsWithNoTaskGroupInCommonAreFlagged() {
        Engine a = hogsAndWaker();
        Engine b = builtinEngine("pipe-pingpong");
        b.runUntil(150 * kNsPerMs);
        const Comparison c = compareRuns(a.trace(), b.trace(), 0, 140 * kNsPerMs);
        const std::string w = unrelatedRunsWarning(c);
        QVERIFY2(w.find("no task group in common") != std::string::npos &&
                     w.find("A: hog") != std::string::npos,
                 w.c_str());
        QVERIFY(formatComparison(c, "A", "B").find(" warning: A and B have no task group in common") !=
                std::string::npos);
    }

    // Under none the waker's wakeup waits until the hog's 20 ms kernel section returns to user
    // mode; under full the wakeup preemption happens at once (resched_curr + IRQ return).
    void branchingToFullPreemptionCutsTheWakersDelay() {
        Engine a = hogsAndWaker();
        Engine b = a;
        const Time from = a.now();
        QVERIFY(b.apply(ParamChange::preemptModel(PreemptModel::Full)).empty());
        a.runUntil(from + 400 * kNsPerMs);
        b.runUntil(from + 400 * kNsPerMs);
        const Comparison c = compareRuns(a.trace(), b.trace(), from, a.now());
        const CompareRow* w = rowOf(c, "waker");
        QVERIFY(w);
        QVERIFY(w->a.delays > 10 && w->b.delays > 10);
        QVERIFY2(w->a.maxDelay > 10 * kNsPerMs, qPrintable(QString::number(w->a.maxDelay)));
        QVERIFY2(w->b.maxDelay < kNsPerMs, qPrintable(QString::number(w->b.maxDelay)));
        const CompareRow* hog = rowOf(c, "hog");
        QVERIFY(hog && hog->b.involuntary > hog->a.involuntary); // the hogs are now preempted in the kernel
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
