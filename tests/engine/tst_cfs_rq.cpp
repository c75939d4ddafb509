// SPDX-License-Identifier: GPL-3.0-or-later
// The runqueue's EEVDF arithmetic against brute force: avg_vruntime, eligibility, Σ lag and
// pick_eevdf over many random runqueues.
#include "base/rng.h"
#include "engine/cfs_rq.h"

#include <QtTest>

using namespace sched;

namespace {

struct RandomRq {
    std::vector<SchedEntity> ents;
    CfsRq rq;
    std::vector<int> queued; // tree members
};

// A random runqueue: n entities in the tree, optionally a curr, with random weights,
// vruntimes around v0 and deadlines ahead of their vruntime.
RandomRq makeRandom(Rng& rng, int n, bool withCurr) {
    RandomRq r;
    r.ents.resize(size_t(n + 1));
    r.rq.minVruntime = int64_t(rng.below(1'000'000'000));
    for (int i = 0; i <= n; ++i) {
        SchedEntity& se = r.ents[size_t(i)];
        se.load = loadWeightFor(Policy::Normal, int(rng.below(40)) - 20);
        se.vruntime = r.rq.minVruntime + int64_t(rng.below(20'000'000));
        se.slice = 700000 + int64_t(rng.below(3)) * 1'000'000;
        se.deadline = se.vruntime + calcDeltaFair(se.slice, se.load) - int64_t(rng.below(500000));
        se.onRq = true;
    }
    for (int i = 0; i < n; ++i) {
        r.rq.enqueueTree(r.ents, i);
        r.queued.push_back(i);
    }
    r.rq.nrQueued = uint32_t(n);
    if (withCurr) {
        r.rq.curr = n;
        r.rq.nrQueued++;
    }
    return r;
}

// Brute force: exact weighted average of the queued entities (tree + curr) in 128-bit.
bool bruteEligible(const RandomRq& r, int64_t v) {
    int128 num = 0, den = 0;
    auto add = [&](int id) {
        num += int128(r.ents[size_t(id)].load.weight) * (r.ents[size_t(id)].vruntime - r.rq.minVruntime);
        den += r.ents[size_t(id)].load.weight;
    };
    for (int id : r.queued)
        add(id);
    if (r.rq.curr >= 0) add(r.rq.curr);
    return num >= int128(v - r.rq.minVruntime) * den; // V >= v  <=>  lag >= 0
}

} // namespace

class TestCfsRq : public QObject {
    Q_OBJECT
  private slots:
    void avgVruntimeIsFlooredWeightedMean() {
        Rng rng(21);
        for (int it = 0; it < 2000; ++it) {
            RandomRq r = makeRandom(rng, 1 + int(rng.below(50)), rng.below(2));
            int128 num = 0, den = 0;
            for (int id : r.queued) {
                num +=
                    int128(r.ents[size_t(id)].load.weight) * (r.ents[size_t(id)].vruntime - r.rq.minVruntime);
                den += r.ents[size_t(id)].load.weight;
            }
            if (r.rq.curr >= 0) {
                num += int128(r.ents[size_t(r.rq.curr)].load.weight) *
                       (r.ents[size_t(r.rq.curr)].vruntime - r.rq.minVruntime);
                den += r.ents[size_t(r.rq.curr)].load.weight;
            }
            int128 q = num / den;
            if (num % den != 0 && num < 0) --q; // floor
            QCOMPARE(r.rq.avgVruntimeValue(r.ents), r.rq.minVruntime + int64_t(q));
        }
    }
    void vruntimeEligibleMatchesBruteForce() {
        Rng rng(22);
        for (int it = 0; it < 2000; ++it) {
            RandomRq r = makeRandom(rng, 1 + int(rng.below(30)), rng.below(2));
            for (size_t id = 0; id < r.ents.size(); ++id)
                QCOMPARE(r.rq.entityEligible(r.ents, TaskId(id)), bruteEligible(r, r.ents[id].vruntime));
        }
    }
    void sumOfLagIsZeroWithinRounding() {
        // Σ w_i (V - v_i) = 0 up to the floor in V: it lies in (-W, 0].
        Rng rng(23);
        for (int it = 0; it < 2000; ++it) {
            RandomRq r = makeRandom(rng, 1 + int(rng.below(60)), rng.below(2));
            const int64_t V = r.rq.avgVruntimeValue(r.ents);
            int128 sum = 0, W = 0;
            auto add = [&](int id) {
                sum += int128(r.ents[size_t(id)].load.weight) * (V - r.ents[size_t(id)].vruntime);
                W += r.ents[size_t(id)].load.weight;
            };
            for (int id : r.queued)
                add(id);
            if (r.rq.curr >= 0) add(r.rq.curr);
            QVERIFY(sum <= 0 && sum > -W);
        }
    }
    void pickEevdfPicksEarliestEligibleDeadline() {
        // 20,000 random runqueues: __pick_eevdf against a scan of every queued entity.
        Rng rng(24);
        int decisions = 0, pickedCurr = 0;
        for (int it = 0; it < 20000; ++it) {
            const bool withCurr = rng.below(2);
            RandomRq r = makeRandom(rng, 1 + int(rng.below(40)), withCurr);
            const bool protect = rng.below(2);
            const bool currProtected = rng.below(2);
            const TaskId got = r.rq.pickEevdf(r.ents, protect, currProtected);
            // brute force of the kernel rule
            TaskId best = kNoTask;
            for (int id : r.queued) { // tree order breaks deadline ties: earlier insertion first
                const SchedEntity& s = r.ents[size_t(id)];
                if (!bruteEligible(r, s.vruntime)) continue;
                if (best < 0 || s.deadline < r.ents[size_t(best)].deadline) best = id;
            }
            TaskId expect = best;
            const TaskId c = r.rq.curr;
            if (c >= 0 && bruteEligible(r, r.ents[size_t(c)].vruntime)) {
                if (protect && currProtected)
                    expect = c;
                else if (best < 0 || r.ents[size_t(c)].deadline < r.ents[size_t(best)].deadline)
                    expect = c;
            }
            QVERIFY2(
                got == expect,
                qPrintable(QString("iteration %1: picked %2, expected %3").arg(it).arg(got).arg(expect)));
            QVERIFY(got >= 0); // somebody is always eligible
            ++decisions;
            pickedCurr += got == c;
        }
        QVERIFY(decisions >= 10000);
        QVERIFY(pickedCurr > 100); // both branches were exercised
    }
    void updateMinVruntimeIsMonotonicAndKeepsSums() {
        Rng rng(25);
        for (int it = 0; it < 500; ++it) {
            RandomRq r = makeRandom(rng, 1 + int(rng.below(30)), true);
            const int64_t before = r.rq.minVruntime;
            const int64_t Vbefore = r.rq.avgVruntimeValue(r.ents);
            r.rq.updateMinVruntime(r.ents);
            QVERIFY(r.rq.minVruntime >= before);
            int128 s = 0;
            for (int id : r.queued)
                s +=
                    int128(r.ents[size_t(id)].load.weight) * (r.ents[size_t(id)].vruntime - r.rq.minVruntime);
            QCOMPARE(int64_t(s), r.rq.avgVruntime);
            QCOMPARE(r.rq.avgVruntimeValue(r.ents), Vbefore); // moving the offset does not move V
        }
    }
};

QTEST_GUILESS_MAIN(TestCfsRq)
#include "tst_cfs_rq.moc"
