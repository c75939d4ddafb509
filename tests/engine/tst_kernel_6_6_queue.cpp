// SPDX-License-Identifier: GPL-3.0-or-later
// The 6.6-queue profile: 6.6 with Peter Zijlstra's sched/eevdf queue of autumn 2023, the kernel
// the PREEMPT_SHORT seed's table was measured on (docs/fidelity.md). One test per rule that 6.12
// added and the queue lacked, each run under both kernels. (RT throttling instead of the
// fair_server: tst_rt_starvation.)
#include "tests/test_support.h"

using namespace sched;

class TestKernel66Queue : public QObject {
    Q_OBJECT
  private slots:
    // update_curr()'s did_preempt_short() came with PREEMPT_SHORT as merged (85e511df3cec, 6.12):
    // a curr whose protection a shorter-slice wakee cancelled is rescheduled at the tick once it
    // is ineligible. The queue's first PREEMPT_SHORT did nothing at the tick: a 100 ms-slice hog
    // runs on until its deadline or a wakeup preempts it.
    void updateCurrReschedulesACancelledCurrOnlySince612() {
        const char* json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "hog", "count": 2, "slice": "100ms", "behavior": [{"run": "100s"}]},
                    {"comm": "mid", "behavior": [{"repeat": "forever", "body": [{"sleep": "7ms"}, {"run": "3ms"}]}]},
                    {"comm": "short", "slice": "500us", "behavior": [{"repeat": "forever", "body": [{"sleep": "1ms"}, {"run": "30us"}]}]}]})J";
        int ended[2] = {0, 0};
        const char* kernels[2] = {"6.12", "6.6-queue"};
        for (int k = 0; k < 2; ++k) {
            Engine e = engineFrom(withModel(json, kernels[k], "KERNEL"));
            e.runUntil(2 * kNsPerSec);
            e.finish();
            for (const char* comm : {"hog", "mid", "short"})
                ended[k] += slicesEndingWith(e, comm, ReschedReason::ProtectionEnded);
        }
        QVERIFY2(ended[0] > 10,
                 qPrintable(QString("6.12: %1 did_preempt_short() reschedules").arg(ended[0])));
        QCOMPARE(ended[1], 0);
    }

    // check_preempt_wakeup_fair() in the queue (autumn 2023 to the April 2024 RFC): a
    // shorter-slice wakee cancels curr's RUN_TO_PARITY only if it is eligible, its deadline is
    // earlier than curr's and curr is still protected; then pick_eevdf() decides. Merged (6.12),
    // an ineligible curr loses its protection to any shorter eligible wakee. Here a 500 us-slice
    // wakee preempts the 100 ms-slice hogs in both kernels, about as often.
    void aShorterSliceWakeePreemptsInBothKernels() {
        const char* json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [{"run": "8ms"}, {"sleep": "1ms"}]}]},
                    {"comm": "short", "slice": "500us", "behavior": [{"repeat": "forever", "body": [{"sleep": "1ms"}, {"run": "30us"}]}]}]})J";
        int preempted[2] = {0, 0};
        const char* kernels[2] = {"6.12", "6.6-queue"};
        for (int k = 0; k < 2; ++k) {
            Engine e = engineFrom(withModel(json, kernels[k], "KERNEL"));
            e.runUntil(2 * kNsPerSec);
            e.finish();
            preempted[k] = slicesEndingWith(e, "hog", ReschedReason::WakeupPreempt);
        }
        QVERIFY2(preempted[1] > 500 && std::abs(preempted[0] - preempted[1]) < preempted[0] / 5,
                 qPrintable(QString("6.12 %1, 6.6-queue %2").arg(preempted[0]).arg(preempted[1])));
    }

    // reweight_entity() before eab03c23c2a1 "sched/eevdf: Fix vruntime adjustment on reweight"
    // (6.7): a queued entity stays at its vruntime when its weight changes (a group entity's, at
    // every change of its share); only its relative deadline is scaled. From 6.7 its lag is kept
    // (6.12: reweight_eevdf()), which moves the vruntime.
    void reweightEntityLeftTheVruntimeAloneIn66() {
        // Two CPUs: a group's share of its weight on one CPU moves with its load on the other.
        const char* json = R"J({"machine": {"cpus": 2, "hz": 250, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "a", "count": 3, "session": "A", "behavior": [{"repeat": "forever", "body": [{"run": "2ms"}, {"sleep": "3ms"}]}]},
                    {"comm": "b", "count": 3, "session": "B", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "1500us"}]}]},
                    {"comm": "c", "count": 2, "behavior": [{"run": "100s"}]}]})J";
        const char* kernels[2] = {"6.12", "6.6-queue"};
        int moved[2] = {0, 0}, seen[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            Engine e = engineFrom(withModel(json, kernels[k], "KERNEL"));
            const int cpus = e.config().cpus;
            const int n = int(e.groups().size()) * cpus; // group entities, kGroupSeBase + g * cpus + c
            std::vector<SchedEntity> before(static_cast<size_t>(n));
            for (int i = 0; i < n; ++i)
                before[size_t(i)] = e.entityView()[size_t(kGroupSeBase + i)];
            while (e.step() && e.now() < kNsPerSec) {
                for (int i = 0; i < n; ++i) {
                    const SchedEntity se = e.entityView()[size_t(kGroupSeBase + i)];
                    const SchedEntity& was = before[size_t(i)];
                    const bool curr = e.cpus()[size_t(i % cpus)].cfs.curr == kGroupSeBase + i;
                    // Queued throughout, not running (it did not run in this step) and reweighted.
                    if (was.onRq && se.onRq && !curr && se.sumExecRuntime == was.sumExecRuntime &&
                        was.load.weight != se.load.weight) {
                        ++seen[k];
                        moved[k] += se.vruntime != was.vruntime;
                    }
                    before[size_t(i)] = se;
                }
            }
        }
        qInfo("reweights of a queued entity: 6.12 %d (vruntime moved in %d), 6.6-queue %d (%d)", seen[0],
              moved[0], seen[1], moved[1]);
        QVERIFY2(seen[0] > 20 && seen[1] > 20,
                 qPrintable(QString("%1 / %2 reweights").arg(seen[0]).arg(seen[1])));
        // 6.12 moves nearly every one; in 6.6 only an entity that left and rejoined within the same
        // step (its last task migrated by a balance, another attached) moved: placed again.
        QVERIFY2(moved[0] * 10 > seen[0] * 9 && moved[1] * 8 < seen[1],
                 qPrintable(QString("6.12 %1 of %2 moved, 6.6-queue %3 of %4")
                                .arg(moved[0])
                                .arg(seen[0])
                                .arg(moved[1])
                                .arg(seen[1])));
    }

    // PLACE_REL_DEADLINE (82e9d0456e06, 6.12) is not a feature of the queue, and the profile's
    // rule set is the queue's: none of 6.12's.
    void theQueueHasNoneOf612sRules() {
        SchedConfig c;
        QVERIFY(parseKernelSpec("6.6-queue", c.build, c.profile));
        QVERIFY(!c.featureExists(Feature::PlaceRelDeadline));
        QVERIFY(c.featureExists(Feature::DelayDequeue)); // the queue's prototype, on by default
        QVERIFY(c.rtThrottling() && !c.fairServer());
        for (Rule r : {Rule::ReweightEevdf, Rule::PreemptShortFull, Rule::PlaceRelDeadline, Rule::FairServer,
                       Rule::GroupMinSlice})
            QVERIFY2(!c.has(r), ruleInfo(r).name.data());
        SchedConfig n;
        QVERIFY(parseKernelSpec("6.12", n.build, n.profile));
        QVERIFY(n.featureExists(Feature::PlaceRelDeadline) && n.fairServer() && !n.rtThrottling());
    }
};

QTEST_APPLESS_MAIN(TestKernel66Queue)
#include "tst_kernel_6_6_queue.moc"
