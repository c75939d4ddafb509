// SPDX-License-Identifier: GPL-3.0-or-later
// EEVDF rules checked on the running engine, event by event: the pick, Σ lag, lag placement
// (PLACE_LAG inflation), the lag clamp on dequeue and DELAY_DEQUEUE.
#include "tests/test_support.h"

#include "base/rng.h"

using namespace sched;

namespace {

// A random scenario: a few CPUs, a random model, tasks with random nice, slices and
// behaviours that mix user and kernel work, sleeps and timers.
std::string randomScenario(Rng& r) {
    const char* models[] = {"none", "voluntary", "full", "lazy"};
    const int cpus = 1 + int(r.below(3));
    std::string s = "{\"machine\": {\"cpus\": " + std::to_string(cpus) +
                    ", \"hz\": " + (r.below(2) ? "250" : "1000") + ", \"preempt\": \"" + models[r.below(4)] +
                    "\"}, \"tasks\": [";
    const int n = 2 + int(r.below(10));
    for (int i = 0; i < n; ++i) {
        s += i ? "," : "";
        s += "{\"comm\": \"t" + std::to_string(i) + "\", \"nice\": " + std::to_string(int(r.below(11)) - 5);
        if (r.below(3) == 0) s += ", \"slice\": \"" + std::to_string(100 + r.below(5000)) + "us\"";
        s += ", \"behavior\": [{\"repeat\": \"forever\", \"body\": [";
        s += "{\"run\": {\"dist\": \"exponential\", \"mean\": \"" + std::to_string(50 + r.below(3000)) +
             "us\"}";
        s += std::string(", \"mode\": \"") + (r.below(2) ? "user" : "kernel") + "\"}";
        switch (r.below(3)) {
        case 0:
            s += ", {\"sleep\": {\"dist\": \"exponential\", \"mean\": \"" +
                 std::to_string(100 + r.below(2000)) + "us\"}}";
            break;
        case 1:
            s += ", {\"timer\": \"" + std::to_string(1 + r.below(10)) + "ms\"}";
            break;
        default:
            break; // a hog
        }
        s += "]}]}";
    }
    return s + "]}";
}

// Σ w_i (V - v_i) over the queued entities of one runqueue; and W.
std::pair<int128, int128> lagSum(const Engine& e, const CpuRq& rq) {
    const auto& ents = e.entities();
    const int64_t V = rq.cfs.avgVruntimeValue(ents);
    int128 sum = 0, W = 0;
    auto add = [&](int32_t id) {
        sum += int128(ents[size_t(id)].load.weight) * (V - ents[size_t(id)].vruntime);
        W += ents[size_t(id)].load.weight;
    };
    rq.cfs.timeline.forEachInOrder(ents, [&](int32_t id) {
        add(id);
        return true;
    });
    if (rq.cfs.curr >= 0 && ents[size_t(rq.cfs.curr)].onRq) add(rq.cfs.curr);
    return {sum, W};
}

} // namespace

class TestEevdfRules : public QObject {
    Q_OBJECT
  private slots:
    void pickEevdfPicksEarliestEligibleDeadlineInRandomRuns() {
        // After every switch to a fair task: the new curr is eligible and no queued entity that
        // is eligible has an earlier deadline (the kernel's rule, checked by brute force).
        Rng r(2024);
        int decisions = 0;
        for (int sc = 0; sc < 40 && decisions < 12000; ++sc) {
            Engine e = engineFrom(randomScenario(r), sc + 1);
            std::vector<TaskId> prevCurr(e.cpus().size(), kNoTask);
            while (e.step() && e.now() < 300 * kNsPerMs) {
                for (size_t c = 0; c < e.cpus().size(); ++c) {
                    const CpuRq& rq = e.cpus()[c];
                    if (rq.curr == prevCurr[c]) continue;
                    prevCurr[c] = rq.curr;
                    if (rq.curr < 0 || rq.cfs.curr != rq.curr) continue;
                    const auto& ents = e.entities();
                    if (!rq.cfs.entityEligible(ents, rq.curr))
                        qFatal("scenario %d t=%lld cpu %zu: picked ineligible %d (v=%lld V=%lld nrQueued=%u "
                               "delayed=%u tree=%zu)",
                               sc, (long long)e.now(), c, rq.curr, (long long)ents[size_t(rq.curr)].vruntime,
                               (long long)rq.cfs.avgVruntimeValue(ents), rq.cfs.nrQueued, rq.cfs.nrDelayed,
                               rq.cfs.timeline.sizeSlow(ents));
                    const int64_t dl = ents[size_t(rq.curr)].deadline;
                    rq.cfs.timeline.forEachInOrder(ents, [&](int32_t id) {
                        if (rq.cfs.entityEligible(ents, id) && ents[size_t(id)].deadline < dl)
                            qFatal("entity %d is eligible with an earlier deadline than the pick", id);
                        return true;
                    });
                    ++decisions;
                }
            }
        }
        QVERIFY2(decisions >= 10000, qPrintable(QString("only %1 decisions").arg(decisions)));
    }
    void runqueueBookkeepingStaysConsistent() {
        // nr_queued = tree entities + curr if queued; nr_running = queued minus delayed sleepers.
        Rng r(7);
        for (int sc = 0; sc < 30; ++sc) {
            Engine e = engineFrom(randomScenario(r), sc + 3);
            while (e.step() && e.now() < 200 * kNsPerMs) {
                for (const CpuRq& rq : e.cpus()) {
                    const auto& ents = e.entities();
                    const size_t tree = rq.cfs.timeline.sizeSlow(ents);
                    const bool currQueued = rq.cfs.curr >= 0 && ents[size_t(rq.cfs.curr)].onRq;
                    QCOMPARE(size_t(rq.cfs.nrQueued), tree + (currQueued ? 1 : 0));
                    const bool rtCurr = rq.curr >= 0 && isRtPolicy(e.tasks()[size_t(rq.curr)].policy);
                    QCOMPARE(rq.nrRunning, rq.cfs.nrQueued - rq.cfs.nrDelayed + uint32_t(rq.rt.size()) +
                                               (rtCurr ? 1u : 0u));
                }
            }
        }
    }
    void sumOfLagStaysZeroWithinRounding() {
        Rng r(99);
        int checks = 0;
        for (int sc = 0; sc < 10; ++sc) {
            Engine e = engineFrom(randomScenario(r), sc + 7);
            while (e.step() && e.now() < 200 * kNsPerMs) {
                for (const CpuRq& rq : e.cpus()) {
                    const auto [sum, W] = lagSum(e, rq);
                    if (W == 0) continue;
                    QVERIFY(sum <= 0 && sum > -W);
                    ++checks;
                }
            }
        }
        QVERIFY(checks > 10000);
    }
    void placeEntityInflatesLagSoItSurvivesInsertion_data() {
        QTest::addColumn<bool>("placeLag");
        QTest::newRow("PLACE_LAG") << true;
        QTest::newRow("NO_PLACE_LAG") << false;
    }
    void placeEntityInflatesLagSoItSurvivesInsertion() {
        QFETCH(bool, placeLag);
        const std::string json = withModel(R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "full",
            "features": {"DELAY_DEQUEUE": false, "PLACE_LAG": MODEL}},
          "tasks": [ {"comm": "hog", "count": 3, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "sleeper", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "2ms"}]}]} ]})J",
                                           placeLag ? "true" : "false");
        Engine e = engineFrom(json);
        const TaskId s = taskByComm(e, "sleeper");
        size_t seen = 0;
        int placements = 0, withLag = 0;
        while (e.step() && e.now() < 500 * kNsPerMs) {
            const Wakeups& w = e.trace().wakeups;
            for (; seen < w.size(); ++seen) {
                if (w.wakee[seen] != s || w.isNew[seen]) continue;
                const SchedEntity& se = e.entities()[size_t(s)];
                const CpuRq& rq = e.cpus()[size_t(e.tasks()[size_t(s)].cpu)];
                const int64_t realised = rq.cfs.avgVruntimeValue(e.entities()) - se.vruntime;
                if (se.vlag != 0) ++withLag;
                if (placeLag)
                    QVERIFY2(std::llabs(realised - se.vlag) <= 3,
                             qPrintable(QString("realised %1 vs saved %2").arg(realised).arg(se.vlag)));
                else
                    QVERIFY2(std::llabs(realised) <= 1,
                             qPrintable(QString("realised %1 without PLACE_LAG").arg(realised)));
                ++placements;
            }
        }
        QVERIFY(placements > 50);
        QVERIFY(withLag > 50); // the sleeper really carried lag into its wakeups
    }
    void updateEntityLagClampsVlagOnDequeue() {
        // A 20 ms system call that ends in a block, under preempt=none, against a hog: the
        // blocker falls ~10 ms behind V; the kernel clamps vlag to
        // calc_delta_fair(max(2 * slice, TICK_NSEC)) = 4 ms at HZ 250 with a 0.7 ms slice.
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "none", "features": {"DELAY_DEQUEUE": false}},
          "channels": [{"name": "ch", "capacity": 4}],
          "tasks": [ {"comm": "blocker", "behavior": [{"repeat": "forever", "body": [{"read": "ch", "cost": "20ms"}]}]},
                     {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "feeder", "behavior": [{"repeat": "forever", "body": [{"timer": "30ms"}, {"write": "ch"}]}]} ]})J";
        Engine e = engineFrom(json, 1, true);
        const TaskId b = taskByComm(e, "blocker");
        TaskState last = TaskState::NotStarted;
        int blocks = 0;
        while (e.step() && e.now() < 1 * kNsPerSec) {
            const TaskState st = e.tasks()[size_t(b)].state;
            if (st == TaskState::Sleeping && last != TaskState::Sleeping) {
                QCOMPARE(e.entities()[size_t(b)].vlag, -4 * kNsPerMs);
                QVERIFY(!e.entities()[size_t(b)].onRq);
                // the sample recorded at the dequeue says the entity left the runqueue
                const EevdfSamples& sm = e.trace().samples;
                size_t last = sm.size();
                while (last > 0 && sm.at(last - 1).task != b)
                    --last;
                QVERIFY(last > 0);
                QVERIFY(!sm.at(last - 1).onRq);
                ++blocks;
            }
            last = st;
        }
        QVERIFY(blocks >= 10);
    }
    void delayDequeueKeepsNegativeLagSleeperQueuedUntilPickedOrWoken() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "none"},
          "channels": [{"name": "ch", "capacity": 4}],
          "tasks": [ {"comm": "blocker", "behavior": [{"repeat": "forever", "body": [{"read": "ch", "cost": "20ms"}]}]},
                     {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "feeder", "behavior": [{"repeat": "forever", "body": [{"timer": "60ms"}, {"write": "ch"}]}]} ]})J";
        Engine e = engineFrom(json);
        const TaskId b = taskByComm(e, "blocker");
        bool delayed = false;
        int delayedBlocks = 0, leftByPick = 0, leftByWake = 0;
        while (e.step() && e.now() < 2 * kNsPerSec) {
            const Task& t = e.tasks()[size_t(b)];
            const SchedEntity& se = e.entities()[size_t(b)];
            const CpuRq& rq = e.cpus()[size_t(t.cpu)];
            if (!delayed && t.state == TaskState::Sleeping && se.onRq) {
                // blocked with negative lag: still queued, weight and nr_queued included
                QVERIFY(se.schedDelayed);
                QVERIFY(!rq.cfs.entityEligible(e.entities(), b));
                QVERIFY(rq.cfs.nrQueued >= 2);
                delayed = true;
                ++delayedBlocks;
            } else if (delayed && !se.schedDelayed) {
                delayed = false;
                if (t.state == TaskState::Sleeping) {
                    // pick_eevdf chose it (it had become eligible): dequeued for real, DELAY_ZERO
                    QVERIFY(!se.onRq);
                    QCOMPARE(se.vlag, int64_t(0));
                    ++leftByPick;
                } else {
                    QVERIFY(se.onRq); // woken while delayed: requeued in place, no migration
                    ++leftByWake;
                }
            }
        }
        QVERIFY(delayedBlocks >= 10);
        QVERIFY(leftByPick + leftByWake == delayedBlocks || leftByPick + leftByWake == delayedBlocks - 1);
        QVERIFY(leftByPick > 0);
    }
};

QTEST_GUILESS_MAIN(TestEevdfRules)
#include "tst_eevdf_rules.moc"
