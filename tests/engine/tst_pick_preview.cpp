// SPDX-License-Identifier: GPL-3.0-or-later
// The virtual-time lens's pick (Engine::previewPick(), pick_preview.h), checked at many random
// moments against the rule of __pick_eevdf(), by brute force over the lag table's rows: the
// marked entity is eligible and has the earliest deadline among the eligible ones - or it is
// the running entity and its slice is protected, or the eligible buddy, and the lens says which.
#include "engine/pick_preview.h"
#include "tests/test_support.h"

using namespace sched;

class TestPickPreview : public QObject {
    Q_OBJECT
  private slots:
    void theMarkedPickFollowsPickEevdf_data() {
        QTest::addColumn<QString>("scenario");
        for (const char* s : {"fair-pair", "nice-pair", "kernel-hogs-waker", "balance-8-on-4",
                              "preempt-short", "hrtick-by-default", "experiments/preempt-short", "eevdf-tree",
                              "real-machine/hackbench-g4-l2000-threads"})
            QTest::newRow(s) << QString(s);
    }
    void theMarkedPickFollowsPickEevdf() {
        QFETCH(QString, scenario);
        Engine e = builtinEngine(scenario.toStdString());
        Rng rng(11);
        std::vector<Time> at;
        for (int i = 0; i < 200; ++i)
            at.push_back(Time(rng.below(uint64_t(300 * kNsPerMs))));
        std::sort(at.begin(), at.end());
        std::array<int, 5> whys{};
        int agreed = 0, delayedPicks = 0, chained = 0;
        for (const Time t : at) {
            e.runUntil(t);
            for (size_t c = 0; c < e.cpus().size(); ++c) {
                const CfsRq& cfs = e.cpus()[c].cfs;
                const PickPreview p = e.previewPick(CpuId(c));
                const auto& rows = p.table.rows;
                whys[size_t(p.why)]++;
                QCOMPARE(p.running, cfs.curr);
                if (rows.empty()) {
                    QCOMPARE(p.why, PickPreview::Why::Empty);
                    continue;
                }
                const LagRow* pick = nullptr;
                for (const LagRow& r : rows)
                    if (r.id == p.pick) pick = &r;
                QVERIFY(pick);
                switch (p.why) {
                case PickPreview::Why::Only:
                    QCOMPARE(rows.size(), size_t(1));
                    break;
                case PickPreview::Why::Buddy:
                    QCOMPARE(p.pick, cfs.next);
                    QVERIFY(pick->eligible);
                    break;
                case PickPreview::Why::Protected:
                    QVERIFY(pick->running && pick->eligible);
                    break;
                case PickPreview::Why::EarliestEligible:
                    QVERIFY(pick->eligible);
                    for (const LagRow& r : rows) // none eligible with an earlier deadline
                        if (r.eligible) QVERIFY(r.deadline >= pick->deadline);
                    if (pick->running) // curr wins only with a strictly earlier deadline than the tree's best
                        for (const LagRow& r : rows)
                            if (!r.running && r.eligible) QVERIFY(pick->deadline < r.deadline);
                    break;
                case PickPreview::Why::Empty:
                    QFAIL("a queued runqueue with no pick");
                }
                // eligibility as the weighted test has it: vruntime <= V (tst_lag_table holds V)
                for (const LagRow& r : rows)
                    QCOMPARE(r.eligible, r.vruntime <= p.table.V);
                // a delayed sleeper picked: the engine dequeues it and picks again, and the
                // preview's second pick, made without its weight in V, is that one
                if (p.pickDelayed) {
                    Engine copy = e;
                    int dequeued = 0; // pick_task_fair()'s again: loop
                    EntityId got = kNoTask;
                    while ((got = copy.pickRootEntityNow(CpuId(c))) == kNoTask &&
                           copy.cpus()[c].cfs.nrQueued > 0)
                        ++dequeued;
                    QCOMPARE(dequeued, 1 + p.moreDelayed);
                    QCOMPARE(got, p.secondPick);
                    QVERIFY(p.secondPick != p.pick);
                    ++delayedPicks;
                    chained += p.moreDelayed > 0;
                }
                // and the engine's own pick, on a copy brought up to date as the pick does it
                if (!p.pickDelayed) {
                    Engine copy = e;
                    QCOMPARE(copy.pickRootEntityNow(CpuId(c)), p.pick);
                    // the copy's update_curr() left the runqueue as the table read it
                    const CfsRq& after = copy.cpus()[c].cfs;
                    QCOMPARE(after.avgVruntimeValue(copy.entityView()), p.table.V);
                    if (rows.front().running) {
                        const SchedEntity& se = copy.entityView()[size_t(rows.front().id)];
                        QCOMPARE(se.vruntime, rows.front().vruntime);
                        QCOMPARE(se.deadline, rows.front().deadline);
                        QCOMPARE(se.slice, rows.front().slice);
                    }
                    agreed++;
                }
            }
        }
        QVERIFY(whys[size_t(PickPreview::Why::EarliestEligible)] + whys[size_t(PickPreview::Why::Protected)] >
                0);
        QVERIFY(agreed > 100);
        qInfo("%s: %d delayed sleepers picked, %d of them followed by more", qPrintable(scenario),
              delayedPicks, chained);
        if (scenario == "preempt-short") QVERIFY(delayedPicks > 0); // the check above ran
    }

    // Two tasks of one weight on one CPU (fair-pair): over a run both reasons appear - the running
    // task kept by its protected slice, and the other one picked once the slice has run out.
    void bothReasonsAppearOnAPair() {
        Engine e = builtinEngine("fair-pair");
        int protectedSeen = 0, earliest = 0;
        for (Time t = 100 * kNsPerUs; t < 100 * kNsPerMs; t += 37 * kNsPerUs) {
            e.runUntil(t);
            const PickPreview p = e.previewPick(0);
            protectedSeen += p.why == PickPreview::Why::Protected;
            earliest += p.why == PickPreview::Why::EarliestEligible && p.pick != p.running;
        }
        QVERIFY(protectedSeen > 10);
        QVERIFY(earliest > 10);
    }
};

QTEST_GUILESS_MAIN(TestPickPreview)
#include "tst_pick_preview.moc"
