// SPDX-License-Identifier: GPL-3.0-or-later
// The lag table (core/engine/lag_table.h), checked at many random moments against a brute-force
// recomputation from each entity's vruntime and weight alone - not from the runqueue's running
// sums: V = v0 + floor(sum w (v - v0) / sum w) with the running entity's vruntime as
// update_curr() would make it now, the lags add up to zero but for V's floor, and an entity is
// eligible exactly when its vlag is not negative (vruntime_eligible()).
#include "engine/lag_table.h"
#include "engine/weights.h"
#include "tests/test_support.h"

using namespace sched;

namespace {

__extension__ typedef __int128 i128; // exact sums, wider than the engine's int64_t

struct Checked {
    int tables = 0, rows = 0, ineligible = 0;
};

void checkAt(const Engine& e, Checked& n) {
    const EntityView ents = e.entityView();
    for (size_t c = 0; c < e.cpus().size(); ++c) {
        const CfsRq& cfs = e.cpus()[c].cfs;
        const LagTable t = lagTableOf(cfs, ents, e.now());
        // brute force: the entities themselves
        std::vector<std::pair<int64_t, int64_t>> vw; // (vruntime now, weight)
        if (cfs.curr >= 0 && ents[size_t(cfs.curr)].onRq) {
            const SchedEntity& se = ents[size_t(cfs.curr)];
            const int64_t delta = e.now() - se.execStart;
            vw.push_back({se.vruntime + (delta > 0 ? calcDeltaFair(delta, se.load) : 0), se.load.weight});
        }
        cfs.timeline.forEachInOrder(ents, [&](int32_t id) {
            vw.push_back({ents[size_t(id)].vruntime, ents[size_t(id)].load.weight});
            return true;
        });
        QCOMPARE(t.rows.size(), vw.size());
        if (vw.empty()) continue;
        i128 S = 0, W = 0;
        for (const auto& [v, w] : vw) {
            S += i128(v - cfs.minVruntime) * w;
            W += w;
        }
        i128 q = S / W;
        if (S % W != 0 && S < 0) --q; // floor
        const int64_t V = cfs.minVruntime + int64_t(q);
        QCOMPARE(t.V, V);
        QCOMPARE(t.weightSum, int64_t(W));
        i128 sum = 0;
        for (size_t i = 0; i < vw.size(); ++i) {
            const LagRow& r = t.rows[i];
            QCOMPARE(r.vruntime, vw[i].first);
            QCOMPARE(r.weight, vw[i].second);
            QCOMPARE(r.vlag, V - vw[i].first);
            QCOMPARE(r.eligible, r.vlag >= 0); // v <= S/W  <=>  v <= floor(S/W) for integer v
            sum += i128(r.weight) * r.vlag;
            n.ineligible += !r.eligible;
        }
        QCOMPARE(t.weightedVlagSum, int64_t(sum));
        QVERIFY(sum <= 0 && sum > -W); // the lags add up to zero but for V's floor
        n.tables++;
        n.rows += int(vw.size());
    }
}

} // namespace

class TestLagTable : public QObject {
    Q_OBJECT
  private slots:
    void atRandomMomentsTheTableIsTheBruteForceOne_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("runMs");
        for (const char* s : {"fair-pair", "nice-pair", "kernel-hogs-waker", "balance-8-on-4",
                              "priority-inversion", "hrtick-by-default"})
            QTest::newRow(s) << QString(s) << 400;
        QTest::newRow("groups") << QString("experiments/preempt-short") << 300;
    }
    void atRandomMomentsTheTableIsTheBruteForceOne() {
        QFETCH(QString, scenario);
        QFETCH(int, runMs);
        Engine e = builtinEngine(scenario.toStdString());
        Rng rng(7);
        Checked n;
        std::vector<Time> at;
        for (int i = 0; i < 150; ++i)
            at.push_back(Time(rng.below(uint64_t(runMs) * kNsPerMs)));
        std::sort(at.begin(), at.end());
        for (const Time t : at) {
            e.runUntil(t);
            checkAt(e, n);
        }
        QVERIFY(n.tables >= 150);
        QVERIFY(n.rows > n.tables); // more than one entity queued at times
        QVERIFY(n.ineligible > 0);  // and some of them not eligible
    }

    // Without a time, the table reads the runqueue as it stands: what the engine itself computes
    // (avg_vruntime(), entity_eligible()) at that moment.
    void withoutATimeItIsTheRunqueuesOwnV() {
        Engine e = builtinEngine("kernel-hogs-waker");
        for (Time t = kNsPerMs; t < 200 * kNsPerMs; t += 7 * kNsPerMs + 123) {
            e.runUntil(t);
            const CfsRq& cfs = e.cpus()[0].cfs;
            const LagTable lt = lagTableOf(cfs, e.entityView());
            QCOMPARE(lt.V, cfs.avgVruntimeValue(e.entityView()));
            for (const LagRow& r : lt.rows)
                QCOMPARE(r.eligible, cfs.entityEligible(e.entityView(), r.id));
        }
    }
};

QTEST_GUILESS_MAIN(TestLagTable)
#include "tst_lag_table.moc"
