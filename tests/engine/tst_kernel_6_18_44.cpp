// SPDX-License-Identifier: GPL-3.0-or-later
// The 6.18.44 profile: each scheduler change of the 6.18 stable series (kernel_rules.h,
// docs/kernel-6.18.y.md) against 6.18.0, one test per rule, named for the kernel function and
// commit. Every test runs the same scenario under both kernels and checks what the rule changes.
#include "tests/test_support.h"

#include "engine/cfs_rq.h"

using namespace sched;

namespace {

Engine runOn(const std::string& kernel, std::string json, Time until, uint64_t seed = 1) {
    Engine e = engineFrom(withModel(std::move(json), kernel, "KERNEL"), seed);
    e.runUntil(until);
    return e;
}

Time runTimeIn(const Engine& e, const std::string& comm, Time from, Time to) {
    Time sum = 0;
    for (const auto& s : slicesOf(e.trace(), taskByComm(e, comm)))
        sum += std::max<Time>(0, std::min(s.end, to) - std::max(s.start, from));
    return sum;
}

Time firstStartAfter(const Engine& e, const std::string& comm, Time after) {
    for (const auto& s : slicesOf(e.trace(), taskByComm(e, comm)))
        if (s.start >= after) return s.start;
    return kNever;
}

int flagsWithReason(const Trace& t, ReschedReason why, Time from, Time to) {
    int n = 0;
    for (size_t i = 0; i < t.flags.size(); ++i)
        n += t.flags.reason[i] == uint8_t(why) && t.flags.set[i] >= from && t.flags.set[i] < to;
    return n;
}

} // namespace

class TestKernel61844 : public QObject {
    Q_OBJECT
  private slots:
    // reweight_entity() (ff38424030f9, 6.18.17): the running group entity keeps its slice
    // protection through a reweight, scaled like its deadline. In 6.18.0 se->vprot shares its
    // storage with se->vlag, which update_entity_lag() has just overwritten: the protection ends.
    // Group A has a hog on each CPU and a sleeper on CPU 0 whose wakeups change A's share there
    // while A's entity runs, next to a root hog; each reweight of the running, protected entity
    // is checked right after it happened.
    void reweightEntityKeepsTheRunningEntitysProtection() {
        const std::string json =
            R"J({"machine": {"cpus": 2, "hz": 250, "kernel": "KERNEL", "preempt": "full"},
              "tasks": [{"comm": "a0", "session": "A", "cpus": [0], "behavior": [{"run": "100s"}]},
                        {"comm": "a1", "session": "A", "cpus": [1], "behavior": [{"run": "100s"}]},
                        {"comm": "as", "session": "A", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "200us"}, {"sleep": "3ms"}]}]},
                        {"comm": "root", "cpus": [0], "behavior": [{"run": "100s"}]}]})J";
        for (const char* k : {"6.18", "6.18.44"}) {
            Engine e = engineFrom(withModel(json, k, "KERNEL"));
            const EntityId gse = kGroupSeBase + 0 * 2 + 0;
            int reweighted = 0, kept = 0;
            uint32_t lastWeight = 0;
            bool wasProtected = false;
            while (e.now() < kNsPerSec && e.step()) {
                const CfsRq& root = e.cpus()[0].cfs;
                const SchedEntity& se = e.entityView()[size_t(gse)];
                const bool isCurr = root.curr == gse;
                if (isCurr && wasProtected && se.load.weight != lastWeight) {
                    ++reweighted;
                    kept += se.vprot > se.vruntime;
                }
                lastWeight = se.load.weight;
                wasProtected = isCurr && se.vprot > se.vruntime;
            }
            qInfo("%s: %d reweights of the running, protected group entity, protection kept in %d", k,
                  reweighted, kept);
            QVERIFY2(reweighted > 20, "the running group entity is reweighted while protected");
            if (std::string(k) == "6.18")
                QCOMPARE(kept, 0);
            else
                QVERIFY2(kept > reweighted * 3 / 4,
                         "6.18.44 keeps the protection (the rest had run out of it since the last event)");
        }
    }
    void profilesAreNamedAndDiffer() {
        KernelBuild b;
        KernelProfile p;
        QVERIFY(parseKernelSpec("6.18.44", b, p));
        QCOMPARE(p, KernelProfile::V6_18_44);
        QCOMPARE(kernelSpecName(b, p), std::string_view("6.18.44"));
        SchedConfig c;
        c.profile = KernelProfile::V6_18_44;
        QVERIFY(c.has(Rule::LagClampMaxSlice) && c.has(Rule::ProportionalNewidle));
        QVERIFY(!c.has(Rule::NewidleCostBump)); // reverted in 6.18.y
        QVERIFY(c.lazyAvailable());
        c.profile = KernelProfile::V6_18;
        QVERIFY(!c.has(Rule::LagClampMaxSlice) && c.has(Rule::NewidleCostBump));
        // the other profiles as they were: 6.12 has the rules that date from 6.7 to 6.12 (the
        // 6.6-queue profile none of them), auto-rfc is 6.18 without the lazy model and with RT
        // throttling instead of the fair_server, and no proxy execution (the series was written on v6.10)
        const RuleSet& v612 = kernelRules(KernelBuild::Dynamic, KernelProfile::V6_12);
        for (size_t r = 0; r < kRuleCount; ++r)
            QCOMPARE(v612[r], ruleInfo(Rule(r)).since == "6.12" || ruleInfo(Rule(r)).since == "6.7");
        QVERIFY(v612.any());
        QVERIFY(kernelRules(KernelBuild::Dynamic, KernelProfile::V6_6_Queue).none());
        RuleSet autoRfc = kernelRules(KernelBuild::Dynamic, KernelProfile::V6_18);
        autoRfc.reset(size_t(Rule::LazyModel));
        autoRfc.reset(size_t(Rule::FairServer));
        autoRfc.reset(size_t(Rule::ProxyExec));
        QCOMPARE(kernelRules(KernelBuild::Auto, KernelProfile::V6_18), autoRfc);
        c.rulesOff.set(size_t(Rule::NewidleCostBump));
        QVERIFY(!c.has(Rule::NewidleCostBump));
        for (size_t r = 0; r < kRuleCount; ++r) { // every rule is cited
            QVERIFY(!ruleInfo(Rule(r)).commit.empty());
            QVERIFY(!ruleInfo(Rule(r)).since.empty());
        }
    }

    // yield_task_fair(), 79104becf42b (6.18.2): a yielder that runs 0.5 ms of its 0.7 ms request
    // forfeits the remaining 0.2 ms, so against a hog it is charged 0.7 ms of vruntime per 0.5 ms
    // run: its share falls to 1 / (1 + 0.7 / 0.5) = 0.417. Before, only its deadline moved on
    // and the two shared the CPU evenly.
    void yieldTaskFairForfeitsTheRestOfTheRequest() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "yielder", "behavior": [{"repeat": "forever", "body": [{"run": "500us"}, {"yield": true}]}]},
                    {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]}]})J";
        const Time T = 2 * kNsPerSec;
        const double before = double(runTimeIn(runOn("6.18", json, T), "yielder", 0, T)) / double(T);
        const double after = double(runTimeIn(runOn("6.18.44", json, T), "yielder", 0, T)) / double(T);
        QVERIFY2(before > 0.47 && before < 0.53, qPrintable(QString::number(before)));
        QVERIFY2(after > 0.39 && after < 0.44, qPrintable(QString::number(after)));
    }

    // update_entity_lag(), 6e3c0a4e1ad1 "Fix lag clamp" (6.18.17). A 0.1 ms-slice task starts
    // while a 100 ms-slice hog runs (wakeup preemption off, so the hog keeps the CPU to its first
    // deadline, half a slice in) and builds up ~25 ms of lag; picked, it runs 10 us and sleeps. Before, its
    // lag was clamped to max(2 x 0.1 ms, TICK_NSEC) = 1 ms; now to the largest slice queued (the hog's 100
    // ms) + TICK_NSEC, so it keeps what it is owed.
    void updateEntityLagClampsToTheLargestQueuedSlice() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full",
                      "features": {"WAKEUP_PREEMPTION": false}},
          "tasks": [{"comm": "hog", "slice": "100ms", "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]},
                    {"comm": "short", "slice": "0.1ms", "start": "1ms", "behavior": [{"run": "10us"}, {"sleep": "10s"}]}]})J";
        const Time T = 150 * kNsPerMs;
        const Engine before = runOn("6.18", json, T), after = runOn("6.18.44", json, T);
        const TaskId s0 = taskByComm(before, "short"), s1 = taskByComm(after, "short");
        QCOMPARE(before.tasks()[size_t(s0)].state, TaskState::Sleeping);
        QCOMPARE(after.tasks()[size_t(s1)].state, TaskState::Sleeping);
        QCOMPARE(before.entities()[size_t(s0)].vlag, int64_t(kNsPerMs)); // calc_delta_fair(1 ms) at nice 0
        const int64_t vlag = after.entities()[size_t(s1)].vlag;
        QVERIFY2(vlag > 20 * kNsPerMs && vlag < 101 * kNsPerMs, qPrintable(QString::number(vlag)));
    }

    // set_next_entity(), bcd74b2ffdd0 "Only set slice protection at pick time" (6.18.17). a
    // (20 ms slice) and b (2 ms) alternate every 2 ms: a's protection is the shortest slice
    // queued (RUN_TO_PARITY). A slice change of the running a at 2.5 ms (the sched_change
    // pattern: dequeue, set_next_task()) re-armed it before, for 2 ms from there, so a ran to the
    // 5 ms tick. Now the change ends it: the 3 ms tick asks for a reschedule (a, still the only
    // eligible one, is picked again, without new protection) and the 4 ms tick switches to b.
    void setNextEntityArmsProtectionOnlyAtPick() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "a", "slice": "20ms", "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]},
                    {"comm": "b", "slice": "2ms", "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]}],
          "changes": [{"at": "2500us", "task": "a", "slice": "20ms"}]})J";
        const Time T = 20 * kNsPerMs;
        const Engine before = runOn("6.18", json, T), after = runOn("6.18.44", json, T);
        const Time at = 2500 * kNsPerUs;
        QCOMPARE(firstStartAfter(before, "b", at), 5 * kNsPerMs);
        QCOMPARE(firstStartAfter(after, "b", at), 4 * kNsPerMs);
        QCOMPARE(flagsWithReason(before.trace(), ReschedReason::ProtectionEnded, at, 3 * kNsPerMs + 1), 0);
        QCOMPARE(flagsWithReason(after.trace(), ReschedReason::ProtectionEnded, at, 3 * kNsPerMs + 1), 1);
    }

    // check_preempt_wakeup_fair() after the 6.18.33 rework (e837456fdca8, 15257cc2f905): a fork
    // wakeup (WF_FORK) no longer preempts. The child starts with half a request
    // (PLACE_DEADLINE_INITIAL), earlier than the parent's deadline, so 6.18.0 preempted at once.
    void checkPreemptWakeupFairIgnoresForkWakeups() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full"},
          "programs": {"child": [{"run": "10ms"}]},
          "tasks": [{"comm": "parent", "behavior": [{"run": "5ms"}, {"fork": "child"}, {"run": "10s"}]}]})J";
        const Time T = 10 * kNsPerMs;
        const Engine before = runOn("6.18", json, T), after = runOn("6.18.44", json, T);
        QCOMPARE(flagsWithReason(before.trace(), ReschedReason::WakeupPreempt, 4 * kNsPerMs, 6 * kNsPerMs),
                 1);
        QCOMPARE(flagsWithReason(after.trace(), ReschedReason::WakeupPreempt, 4 * kNsPerMs, 6 * kNsPerMs), 0);
    }

    // The same rework: a wakee that is not picked still shrinks curr's protection to the shortest
    // slice queued (update_protect_slice() under RUN_TO_PARITY), also without PREEMPT_SHORT; in
    // 6.18.0 only a PREEMPT_SHORT wakeup did. The hog starts at 1 ms alone, protected to its
    // first deadline (half of 20 ms); a 1 ms-slice task waking at 3 ms gets the CPU about 1 ms
    // later instead of at 11 ms.
    void checkPreemptWakeupFairShrinksProtectionForAnyWakee() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full",
                      "features": {"PREEMPT_SHORT": false}},
          "tasks": [{"comm": "hog", "slice": "20ms", "start": "1ms", "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]},
                    {"comm": "short", "slice": "1ms", "behavior": [{"run": "10us"}, {"sleep": "3ms"}, {"run": "10us"}, {"sleep": "10s"}]}]})J";
        const Time T = 40 * kNsPerMs;
        const Time before = firstStartAfter(runOn("6.18", json, T), "short", 2 * kNsPerMs);
        const Time after = firstStartAfter(runOn("6.18.44", json, T), "short", 2 * kNsPerMs);
        QVERIFY2(before >= 10900 * kNsPerUs, qPrintable(QString::number(before)));
        QVERIFY2(after >= 3 * kNsPerMs && after <= 5100 * kNsPerUs, qPrintable(QString::number(after)));
    }

    // avg_vruntime() with zero_vruntime (79f3f9bedd14, b3d99f43c72b, 1319ea57529e): the keys are
    // taken against V instead of min_vruntime. In exact integer arithmetic that changes neither V
    // nor any eligibility, which is why the engine keeps min_vruntime: checked here by moving the
    // base as update_zero_vruntime() does (sum -= weight * delta) on random runqueues.
    void avgVruntimeDoesNotDependOnTheKeysBase() {
        Rng rng(7);
        for (int round = 0; round < 200; ++round) {
            std::vector<SchedEntity> ents(size_t(2 + rng.below(30)));
            CfsRq cfs;
            for (size_t i = 0; i < ents.size(); ++i) {
                ents[i].vruntime = int64_t(rng.below(50'000'000)) - 25'000'000;
                ents[i].deadline = ents[i].vruntime + int64_t(rng.below(3'000'000));
                ents[i].slice = 700'000;
                ents[i].load = loadWeightFor(Policy::Normal, int(rng.below(40)) - 20);
                ents[i].onRq = true;
            }
            cfs.minVruntime = -30'000'000;
            for (size_t i = 1; i < ents.size(); ++i)
                cfs.enqueueTree(ents, TaskId(i));
            cfs.curr = 0; // running, kept out of the tree
            const int64_t V = cfs.avgVruntimeValue(ents);
            std::vector<bool> eligible;
            for (size_t i = 0; i < ents.size(); ++i)
                eligible.push_back(cfs.entityEligible(ents, TaskId(i)));
            CfsRq moved = cfs; // update_zero_vruntime(cfs_rq, delta): the base becomes V
            const int64_t delta = V - cfs.minVruntime;
            moved.avgVruntime -= moved.avgLoad * delta;
            moved.minVruntime += delta;
            QCOMPARE(moved.avgVruntimeValue(ents), V);
            for (size_t i = 0; i < ents.size(); ++i)
                QCOMPARE(moved.entityEligible(ents, TaskId(i)), bool(eligible[i]));
        }
    }

    // sched_balance_newidle() with NI_RANDOM, 33cf66d88306 (6.18.5). CPU 1 goes idle every
    // 200 us and finds nothing it may pull (CPU 0's two tasks are pinned): every try fails, so the
    // success ratio halves every 512 counted tries (256, 128, ...) and newidle balancing becomes
    // rare. 6.18.0 has no statistics, and its cost bump multiplies a cost of 0 (no balance has
    // ever succeeded): max_newidle_lb_cost stays 0 and it tries every time.
    void schedBalanceNewidleIsProportionalToItsSuccesses() {
        const std::string json =
            R"J({"machine": {"cpus": 2, "hz": 250, "kernel": "KERNEL", "preempt": "none"},
          "tasks": [{"comm": "pinned", "count": 2, "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]},
                    {"comm": "blinker", "cpus": [1], "behavior": [{"repeat": "forever", "body": [{"run": "50us"}, {"sleep": "200us"}]}]}]})J";
        const Time T = 3 * kNsPerSec;
        const Engine before = runOn("6.18", json, T), after = runOn("6.18.44", json, T);
        const NewidleDomain& b = before.cpus()[1].newidle;
        QCOMPARE(b.ratio, 512u); // untouched
        QCOMPARE(b.maxNewidleLbCost, Time(0));
        const NewidleDomain& a = after.cpus()[1].newidle;
        QVERIFY2(a.ratio <= 8, qPrintable(QString::number(a.ratio)));
        QCOMPARE(a.success * 2, a.ratio); // the halving: no success was ever added
    }

    // The same die when pulls succeed: five tasks that run 300 us and sleep 250 us on two CPUs
    // leave a CPU idle while the other has two often enough that many newidle pulls succeed;
    // each success counts (1024 + w/2) / w for the tries the die skipped, so the ratio stays
    // above a quarter (about a third here), where failing pulls take it towards 0 (above).
    void schedBalanceNewidleKeepsTryingWhenPullsSucceed() {
        const std::string json =
            R"J({"machine": {"cpus": 2, "hz": 250, "kernel": "6.18.44", "preempt": "none"},
          "tasks": [{"comm": "w", "count": 5, "behavior": [{"repeat": "forever", "body": [{"run": "300us"}, {"sleep": "250us"}]}]}]})J";
        Engine e = engineFrom(json);
        e.runUntil(2 * kNsPerSec);
        for (const CpuRq& rq : e.cpus())
            QVERIFY2(rq.newidle.ratio >= 256, qPrintable(QString::number(rq.newidle.ratio)));
        QVERIFY(e.trace().migrations.size() > 50); // the pulls (66 of 80 here) and wakeup placements
    }

    // update_newidle_cost(): 6.18.0 still has 155213a2aed4 (6.17), which bumps the cost x1.5 on
    // every failed newidle balance, capped at migration_cost + 200 ns; 6.18.y reverted it
    // (d206fbad9328), so the cost is the balance's own (3 us here) again. Tasks that sleep and
    // wake on two CPUs give both successes (the first one sets a cost to bump) and failures.
    void updateNewidleCostNoLongerBumpsOnFailure() {
        const std::string json =
            R"J({"machine": {"cpus": 2, "hz": 250, "kernel": "KERNEL", "preempt": "none"},
          "tasks": [{"comm": "w", "count": 5, "behavior": [{"repeat": "forever", "body": [{"run": "300us"}, {"sleep": "250us"}]}]}]})J";
        const Time T = 2 * kNsPerSec;
        const Engine before = runOn("6.18", json, T), after = runOn("6.18.44", json, T);
        const Time cost = before.config().costs.newidleBalance;
        const Time bumped =
            std::max(before.cpus()[0].newidle.maxNewidleLbCost, before.cpus()[1].newidle.maxNewidleLbCost);
        QVERIFY2(bumped > 10 * cost && bumped <= before.config().migrationCost + 200,
                 qPrintable(QString::number(bumped)));
        for (const CpuRq& rq : after.cpus())
            QVERIFY2(rq.newidle.maxNewidleLbCost <= cost && rq.newidle.maxNewidleLbCost >= cost * 9 / 10,
                     qPrintable(QString::number(rq.newidle.maxNewidleLbCost)));
    }

    // update_dl_entity(), 115135422562 "Fix 'stuck' dl_server" (6.18.9). The fair task is starved
    // by a FIFO hog, served at zero laxity (dl_defer_running = 1), then sleeps 1.5 s. When it
    // wakes, the server's deadline has passed: a new period. 6.18.0 kept dl_defer_running and so
    // ran the fair task at once; 6.18.44 re-arms the deferral: it waits ~950 ms again.
    void dlServerNewPeriodIsDeferredAgain() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "rt", "policy": "fifo", "priority": 50, "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]},
                    {"comm": "fair", "behavior": [{"run": "40ms"}, {"sleep": "1500ms"}, {"repeat": "forever", "body": [{"run": "10s"}]}]}]})J";
        const Time T = 4 * kNsPerSec;
        const Time before = firstStartAfter(runOn("6.18", json, T), "fair", 2 * kNsPerSec);
        const Time after = firstStartAfter(runOn("6.18.44", json, T), "fair", 2 * kNsPerSec);
        QVERIFY2(before < 2500 * kNsPerMs, qPrintable(QString::number(before)));
        QVERIFY2(after > 3400 * kNsPerMs && after < 3500 * kNsPerMs, qPrintable(QString::number(after)));
    }

    // update_dl_entity(), 14a857056466 (6.18.24) and 1842bf97af10 (6.18.44). The fair task,
    // starved by a FIFO hog, is served from zero laxity (950 ms: a new period, deadline 1950 ms,
    // dl_defer_running = 1), runs 40 ms of the 50 and sleeps until 1850 ms. Its 10 ms left are
    // more than 50/1000 of the 100 ms to the deadline: 6.18.0 starts a new period and, still
    // "running", serves 50 ms at once; 6.18.44 keeps the deadline with runtime = 5 % of 100 ms
    // and serves the rest of the period only from the deadline's replenishment on.
    void dlServerRevisedWakeupKeepsTheDeadline() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 1000, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "rt", "policy": "fifo", "priority": 50, "behavior": [{"repeat": "forever", "body": [{"run": "10s"}]}]},
                    {"comm": "fair", "behavior": [{"run": "40ms"}, {"sleep": "860ms"}, {"repeat": "forever", "body": [{"run": "10s"}]}]}]})J";
        const Time T = 2100 * kNsPerMs, from = 1800 * kNsPerMs, deadline = 1950 * kNsPerMs;
        const Engine before = runOn("6.18", json, T), after = runOn("6.18.44", json, T);
        const Time wake = firstStartAfter(before, "fair", from);
        QVERIFY2(wake > 1840 * kNsPerMs && wake < 1860 * kNsPerMs, qPrintable(QString::number(wake)));
        QCOMPARE(firstStartAfter(after, "fair", from), wake);
        const Time servedBefore = runTimeIn(before, "fair", from, deadline);
        const Time servedAfter = runTimeIn(after, "fair", from, deadline);
        QVERIFY2(servedBefore >= 50 * kNsPerMs && servedBefore <= 51 * kNsPerMs,
                 qPrintable(QString::number(servedBefore)));
        // 5 % of the ~100 ms left, charged at the 1 ms tick (HRTICK_DL off)
        QVERIFY2(servedAfter >= 4 * kNsPerMs && servedAfter <= 6 * kNsPerMs,
                 qPrintable(QString::number(servedAfter)));
    }
};

QTEST_GUILESS_MAIN(TestKernel61844)
#include "tst_kernel_6_18_44.moc"
