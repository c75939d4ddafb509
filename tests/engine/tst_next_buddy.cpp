// SPDX-License-Identifier: GPL-3.0-or-later
// The buddy (cfs_rq->next, engine/next_buddy.cpp) and the delayed sleeper's lag (7.1). Each test
// is named for the kernel rule it follows and checks the engine's decisions against a brute-force
// reading of the runqueue — V and eligibility recomputed from the entities' weights and
// vruntimes, not asked of the engine — under a kernel with the rule and one without.
#include "tests/test_support.h"

#include "engine/cfs_rq.h"

using namespace sched;

namespace {

// The entities queued in CPU c's root runqueue: root-group tasks and the groups' entities.
std::vector<EntityId> rootEntities(const Engine& e, CpuId c) {
    std::vector<EntityId> out;
    const EntityView ev = e.entityView();
    for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t)
        if (e.tasks()[size_t(t)].taskGroup == kRootGroup && e.tasks()[size_t(t)].cpu == c &&
            ev[size_t(t)].onRq)
            out.push_back(t);
    for (GroupId g = 0; g < GroupId(e.groups().size()); ++g) {
        if (e.groups()[size_t(g)].parent != kRootGroup) continue;
        const EntityId id = kGroupSeBase + g * e.config().cpus + c;
        if (ev[size_t(id)].onRq) out.push_back(id);
    }
    return out;
}

// EEVDF's eligibility by its definition: sum of w_i (v_i - v) >= 0 over the queued entities.
bool eligibleBruteForce(const Engine& e, CpuId c, EntityId x) {
    const EntityView ev = e.entityView();
    int128 sum = 0;
    for (EntityId id : rootEntities(e, c))
        sum += int128(ev[size_t(id)].load.weight) * (ev[size_t(id)].vruntime - ev[size_t(x)].vruntime);
    return sum >= 0;
}

// V - v for x, with V the weighted mean of the queued entities' vruntimes (rounded down).
int64_t lagBruteForce(const Engine& e, CpuId c, EntityId x) {
    const EntityView ev = e.entityView();
    int128 sum = 0, w = 0;
    const int64_t v0 = ev[size_t(x)].vruntime;
    for (EntityId id : rootEntities(e, c)) {
        sum += int128(ev[size_t(id)].load.weight) * (ev[size_t(id)].vruntime - v0);
        w += ev[size_t(id)].load.weight;
    }
    int128 q = sum / w;
    if (sum % w != 0 && sum < 0) --q;
    return int64_t(q);
}

// Group A: a sleeper that runs in short bursts and a hog; groups B and C: hogs. One CPU.
const char* kTwoGroups = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "full",
                             "features": FEATURES},
  "tasks": [{"comm": "a-sleeper", "session": "A",
             "behavior": [{"repeat": "forever", "body": [{"run": "300us"}, {"sleep": "200us"}]}]},
            {"comm": "a-hog", "session": "A", "behavior": [{"run": "100s"}]},
            {"comm": "b-hog", "count": 2, "session": "B", "behavior": [{"run": "100s"}]},
            {"comm": "c-hog", "session": "C", "behavior": [{"run": "100s"}]}]})J";

struct BuddyCount {
    int stayed = 0;      // a-sleeper slept, its group stayed queued, and the group ran next
    int setAndLeft = 0;  // ... another group ran: the sleeper's group was ineligible and is the buddy
    int cleared = 0;     // ... another group ran; the buddy was cleared, the group's protection over
    int lostBuddy = 0;   // ... another group ran; the buddy is gone though the group was protected
    int explained = 0;   // ... and the inspector's text names the buddy
    int buddyTaken = 0;  // a buddy left from before was eligible at a later switch and ran
    int buddyPassed = 0; // ... and another group ran
};

// Every switch of a run: after a-sleeper went to sleep for real (not delayed) with its group still
// queued, the group is the root's buddy unless it runs or update_curr() of the root, just before
// the pick, rescheduled the group (its protection over) and so cleared it; a buddy left so, eligible at a
// later switch (brute force), runs then. Between two switches nothing clears a buddy that is not running: the
// clears are at a pick (set_next_entity()), at the buddy's own dequeue (its last task sleeping: a switch) and
// in update_curr() of the running entity.
BuddyCount sleeperSwitches(const char* kernel, const char* features) {
    Engine e = engineFrom(withModel(withModel(kTwoGroups, kernel, "KERNEL"), features, "FEATURES"));
    const TaskId sleeper = taskByComm(e, "a-sleeper");
    const GroupId a = e.tasks()[size_t(sleeper)].taskGroup;
    const EntityId aSe = kGroupSeBase + a * e.config().cpus + 0;
    BuddyCount n;
    TaskId prev = e.cpus()[0].curr;
    bool buddyBefore = false;
    while (e.now() < 10 * kNsPerSec && e.runUntilSwitch(10 * kNsPerSec)) {
        const TaskId next = e.cpus()[0].curr;
        const bool inA = next >= 0 && e.tasks()[size_t(next)].taskGroup == a;
        const bool aQueued = e.entityView()[size_t(aSe)].onRq;
        if (buddyBefore && aQueued && eligibleBruteForce(e, 0, aSe)) (inA ? n.buddyTaken : n.buddyPassed)++;
        const bool slept = prev == sleeper && e.tasks()[size_t(sleeper)].state == TaskState::Sleeping &&
                           !e.entities()[size_t(sleeper)].onRq;
        if (slept && aQueued) {
            if (inA)
                n.stayed++;
            else if (e.cpus()[0].cfs.next == aSe) {
                n.setAndLeft++;
                if (e.describePick(0).find("is the buddy of the root runqueue") != std::string::npos)
                    n.explained++;
            } else if (const SchedEntity& ase = e.entityView()[size_t(aSe)]; ase.vprot - ase.vruntime <= 0)
                n.cleared++; // update_curr() of the root rescheduled the group and cleared its buddy
            else
                n.lostBuddy++;
        }
        buddyBefore = !inA && e.cpus()[0].cfs.next == aSe;
        prev = next;
    }
    return n;
}

} // namespace

class TestNextBuddy : public QObject {
    Q_OBJECT
  private slots:
    // dequeue_entities(): a task that sleeps while its group stays queued makes the group its
    // parent's buddy, and pick_next_entity() takes an eligible buddy first — under PICK_BUDDY
    // since 2a77e4be12cb "sched/fair: Untangle NEXT_BUDDY and pick_next_task()" (6.14); in 6.12.0
    // only NEXT_BUDDY (off) let the pick read it, so EEVDF's earliest deadline decided.
    void pickNextEntityTakesTheSleepingTasksGroup() {
        for (const char* k : {"6.18", "6.18.44", "7.1"}) {
            const BuddyCount n = sleeperSwitches(k, "{}");
            qInfo("%s: stayed %d, set and left %d, cleared %d, lost %d; later taken %d, passed over %d", k,
                  n.stayed, n.setAndLeft, n.cleared, n.lostBuddy, n.buddyTaken, n.buddyPassed);
            QVERIFY2(n.setAndLeft > 20 && n.buddyTaken > 20, qPrintable(QString("%1: too few cases").arg(k)));
            QCOMPARE(n.lostBuddy, 0);
            QCOMPARE(n.explained, n.setAndLeft);
            QCOMPARE(n.buddyPassed, 0);
        }
        // With PICK_BUDDY off the same buddy is set, and an eligible one is passed over for an
        // earlier deadline.
        const BuddyCount off = sleeperSwitches("6.18", R"({"PICK_BUDDY": false})");
        QVERIFY2(off.buddyPassed > 5,
                 qPrintable(QString("PICK_BUDDY off: %1 eligible buddies passed over, %2 taken")
                                .arg(off.buddyPassed)
                                .arg(off.buddyTaken)));
    }

    // check_preempt_wakeup_fair() up to 6.18.32 under NEXT_BUDDY: every wakee that is not forked or
    // delayed becomes the buddy before the preemption decision, whatever the decision (under
    // preempt=none a wakeup inside a hog's kernel section leaves the wakee queued, the buddy set).
    void nextBuddyMakesTheWakeeTheBuddy() {
        const char* json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "6.18", "preempt": "none",
                                "features": {"NEXT_BUDDY": NB}},
          "tasks": [{"comm": "hog", "count": 3, "behavior": [{"repeat": "forever", "body": [{"run": "2ms", "mode": "kernel"}, {"run": "1ms"}]}]},
                    {"comm": "sleeper", "behavior": [{"repeat": "forever", "body": [{"sleep": "3ms"}, {"run": "50us"}]}]}]})J";
        for (int on = 0; on < 2; ++on) {
            Engine e = engineFrom(withModel(json, on ? "true" : "false", "NB"));
            const TaskId s = taskByComm(e, "sleeper");
            int checked = 0;
            bool wasSleeping = false;
            while (e.step() && e.now() < kNsPerSec) {
                const bool sleeping = e.tasks()[size_t(s)].state == TaskState::Sleeping;
                // Just woken and not running: the buddy is the sleeper under NEXT_BUDDY.
                if (wasSleeping && !sleeping && e.cpus()[0].curr != s) {
                    QCOMPARE(e.cpus()[0].cfs.next == s, bool(on));
                    ++checked;
                }
                wasSleeping = sleeping;
            }
            qInfo("NEXT_BUDDY %d: %d wakeups checked", on, checked);
            QVERIFY(checked > 50);
        }
    }

    // e837456fdca8 "Reimplement NEXT_BUDDY to align with EEVDF goals" (6.19, 6.18.33): under
    // NEXT_BUDDY a WF_SYNC wakeup that makes a new buddy decides in preempt_sync(), which asks the
    // waker to have run sysctl_sched_migration_cost since exec_start — set to now by the
    // update_curr() just before, so a pipe's wakee never preempts at the wakeup; it is the buddy
    // and runs when the waker blocks. Without NEXT_BUDDY the same wakeup is a plain pick.
    void preemptSyncHoldsASyncWakeupBack() {
        const char* json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "7.0", "preempt": "full",
                                "features": {"NEXT_BUDDY": NB}},
          "channels": [{"name": "p", "capacity": 1}],
          "tasks": [{"comm": "writer", "behavior": [{"repeat": "forever", "body": [{"run": "2ms"}, {"write": "p", "cost": "2us"}, {"run": "1ms"}, {"sleep": "1ms"}]}]},
                    {"comm": "reader", "behavior": [{"repeat": "forever", "body": [{"read": "p", "cost": "2us"}, {"run": "20us"}]}]}]})J";
        int preemptions[2] = {0, 0};
        for (int on = 0; on < 2; ++on) {
            Engine e = engineFrom(withModel(json, on ? "true" : "false", "NB"));
            e.runUntil(kNsPerSec);
            e.finish();
            // The writer switched out by the wakeup preemption of the reader it woke.
            preemptions[on] = slicesEndingWith(e, "writer", ReschedReason::WakeupPreempt);
        }
        QVERIFY2(preemptions[0] > 100, qPrintable(QString("without: %1").arg(preemptions[0])));
        QCOMPARE(preemptions[1], 0);
    }

    // update_entity_lag() after 059258b0d424 "Prevent negative lag increase during delayed
    // dequeue" and c5cd6fd75b6a (7.1): a delayed sleeper's lag, taken when it was delayed, may
    // shrink but never grow more negative before it is woken or finally dequeued, though V moves
    // back under it as wakees are placed with positive lag. 7.0 stores V - v as it is then.
    void aDelayedSleepersLagDoesNotGrowMoreNegative() {
        const char* json = R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "hog", "count": 2, "behavior": [{"run": "100s"}]},
                    {"comm": "burst", "count": 3, "behavior": [{"repeat": "forever", "body": [{"run": "1500us"}, {"sleep": "700us"}]}]},
                    {"comm": "ticker", "count": 2, "behavior": [{"repeat": "forever", "body": [{"sleep": "330us"}, {"run": "40us"}]}]}]})J";
        int grew[2] = {0, 0}, delays[2] = {0, 0};
        const char* kernels[2] = {"7.0", "7.1"};
        for (int k = 0; k < 2; ++k) {
            Engine e = engineFrom(withModel(json, kernels[k], "KERNEL"));
            std::vector<int64_t> atDelay(e.tasks().size(), 0);
            std::vector<char> delayed(e.tasks().size(), 0);
            while (e.step() && e.now() < 2 * kNsPerSec) {
                for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t) {
                    const SchedEntity& se = e.entities()[size_t(t)];
                    if (se.schedDelayed && !delayed[size_t(t)]) {
                        atDelay[size_t(t)] = lagBruteForce(e, 0, t);
                        ++delays[k];
                    } else if (!se.schedDelayed && delayed[size_t(t)]) {
                        if (se.vlag < atDelay[size_t(t)] - 1) ++grew[k]; // 1 ns: V's rounding
                    }
                    delayed[size_t(t)] = se.schedDelayed;
                }
            }
        }
        QVERIFY2(delays[0] > 100 && delays[1] > 100,
                 qPrintable(QString("%1 / %2 delays").arg(delays[0]).arg(delays[1])));
        QVERIFY2(grew[0] > 0, "7.0: no delayed sleeper's lag grew more negative: the scenario shows nothing");
        QCOMPARE(grew[1], 0);
    }
};

QTEST_APPLESS_MAIN(TestNextBuddy)
#include "tst_next_buddy.moc"
