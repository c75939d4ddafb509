// SPDX-License-Identifier: GPL-3.0-or-later
// Group scheduling (CONFIG_FAIR_GROUP_SCHED, autogroup): task groups share a CPU by their shares,
// not by their task counts; a group's entity weighs its share of the group's load on that CPU; a
// wakee competes as its group (find_matching_se()); an emptied group's delayed entity keeps its
// weight (66951e4860d3); and the hierarchy's bookkeeping holds at every event of a busy run.
// Each test is named for the kernel rule it follows.
#include "tests/test_support.h"

#include <array>

#include "engine/cfs_rq.h"
#include "engine/weights.h"
#include "metrics/latency.h"

using namespace sched;

namespace {

Time runTime(const Engine& e, const std::string& comm, Time from, Time to) {
    Time sum = 0;
    for (int n = 0;; ++n) {
        const TaskId t = taskByComm(e, comm, n);
        if (t < 0) return sum;
        for (const auto& sl : slicesOf(e.trace(), t))
            sum += std::max<Time>(0, std::min(sl.end, to) - std::max(sl.start, from));
    }
}

const SchedEntity& groupEntity(const Engine& e, GroupId g, CpuId c) {
    return e.entityView()[size_t(kGroupSeBase + g * e.config().cpus + c)];
}

const char* kHogs =
    R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "KERNEL", "preempt": "full", "autogroup": AG},
  "tasks": [{"comm": "a", "session": "A", "behavior": [{"run": "100s"}]},
            {"comm": "b", "count": 4, "session": "B", "behavior": [{"run": "100s"}]}]})J";

std::string hogs(const std::string& kernel, bool autogroup) {
    return withModel(withModel(kHogs, kernel, "KERNEL"), autogroup ? "true" : "false", "AG");
}

} // namespace

class TestGroupSched : public QObject {
    Q_OBJECT
  private slots:
    // calc_group_shares(): two autogroups of equal shares split the CPU evenly whatever their
    // task counts; with kernel.sched_autogroup_enabled off, every task is in the root group and
    // the five share it per task.
    void calcGroupSharesSplitsByGroupNotByTask() {
        for (const char* k : {"6.12", "6.18", "6.18.44"}) {
            Engine on = engineFrom(hogs(k, true));
            on.runUntil(4 * kNsPerSec);
            const double a = double(runTime(on, "a", kNsPerSec, 4 * kNsPerSec)) / (3.0 * kNsPerSec);
            QVERIFY2(std::abs(a - 0.5) < 0.02, qPrintable(QString("%1: a's share %2").arg(k).arg(a)));
            QCOMPARE(on.groups().size(), size_t(2));
            Engine off = engineFrom(hogs(k, false));
            off.runUntil(4 * kNsPerSec);
            const double a2 = double(runTime(off, "a", kNsPerSec, 4 * kNsPerSec)) / (3.0 * kNsPerSec);
            QVERIFY2(std::abs(a2 - 0.2) < 0.02, qPrintable(QString("%1: a's share %2").arg(k).arg(a2)));
            QCOMPARE(off.groups().size(), size_t(0));
        }
    }

    // cpu.weight (sched_weight_from_cgroup(): w * 1024 / 100) and an autogroup's nice
    // (proc_sched_autogroup_set_nice(): sched_prio_to_weight[nice + 20]) set the shares.
    void cgroupWeightAndAutogroupNiceSetShares() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "6.18.44", "preempt": "full"},
          "cgroups": {"/big": {"weight": 200}, "/small": {"weight": 100}},
          "sessions": {"niced": {"nice": 5}},
          "tasks": [{"comm": "big", "cgroup": "/big", "behavior": [{"run": "100s"}]},
                    {"comm": "small", "count": 3, "cgroup": "/small", "behavior": [{"run": "100s"}]},
                    {"comm": "niced", "session": "niced", "behavior": [{"run": "100s"}]}]})J");
        e.runUntil(5 * kNsPerSec);
        QCOMPARE(e.groups()[0].shares, int64_t(2048));
        QCOMPARE(e.groups()[1].shares, int64_t(1024));
        QCOMPARE(e.groups()[2].shares, int64_t(niceToWeight(5))); // 335
        const double total = 2048 + 1024 + 335;
        const Time T = 4 * kNsPerSec;
        for (auto [comm, w] : {std::pair{"big", 2048.0}, {"small", 1024.0}, {"niced", 335.0}}) {
            const double share = double(runTime(e, comm, kNsPerSec, 5 * kNsPerSec)) / double(T);
            QVERIFY2(std::abs(share - w / total) < 0.02,
                     qPrintable(QString("%1: %2 against %3").arg(comm).arg(share).arg(w / total)));
        }
    }

    // A cgroup inside a cgroup: the child group's entity is queued in its parent's runqueue, so
    // /p/q's task and /p's own task split /p's half.
    void nestedCgroupsSplitTheirParentsShare() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "6.18.44", "preempt": "full"},
          "tasks": [{"comm": "p", "cgroup": "/p", "behavior": [{"run": "100s"}]},
                    {"comm": "q", "count": 2, "cgroup": "/p/q", "behavior": [{"run": "100s"}]},
                    {"comm": "r", "cgroup": "/r", "behavior": [{"run": "100s"}]}]})J");
        e.runUntil(5 * kNsPerSec);
        QCOMPARE(e.groups().size(), size_t(3));
        QCOMPARE(e.groups()[1].parent, GroupId(0)); // /p/q under /p, made after it
        QCOMPARE(e.groups()[1].depth, 1);
        const Time T = 4 * kNsPerSec;
        for (auto [comm, want] : {std::pair{"p", 0.25}, {"q", 0.25}, {"r", 0.5}}) {
            const double share = double(runTime(e, comm, kNsPerSec, 5 * kNsPerSec)) / double(T);
            QVERIFY2(std::abs(share - want) < 0.02, qPrintable(QString("%1: %2").arg(comm).arg(share)));
        }
    }

    // update_cfs_group(): a group's entity on a CPU weighs shares x (its load there / its load
    // everywhere): two of the group's three hogs on CPU 0 give 682 there and 341 on CPU 1, where
    // a root-group hog then gets 1024 / (1024 + 341) of the CPU.
    void updateCfsGroupWeighsTheLocalPartOfTheLoad() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 250, "kernel": "6.18.44", "preempt": "full"},
          "tasks": [{"comm": "g", "count": 2, "session": "S", "cpus": [0], "behavior": [{"run": "100s"}]},
                    {"comm": "g1", "session": "S", "cpus": [1], "behavior": [{"run": "100s"}]},
                    {"comm": "root", "cpus": [1], "behavior": [{"run": "100s"}]}]})J");
        e.runUntil(3 * kNsPerSec);
        QCOMPARE(groupEntity(e, 0, 0).load.weight, uint32_t(2048 * 1024 / 3072));
        QCOMPARE(groupEntity(e, 0, 1).load.weight, uint32_t(1024 * 1024 / 3072));
        const double root = double(runTime(e, "root", kNsPerSec, 3 * kNsPerSec)) / (2.0 * kNsPerSec);
        QVERIFY2(std::abs(root - 1024.0 / (1024 + 341)) < 0.02, qPrintable(QString("root %1").arg(root)));
    }

    // calc_group_shares() weighs a CPU's part by PELT: tg->load_avg holds each CPU's
    // cfs_rq->avg.load_avg, which keeps a sleeper's load as blocked load decaying over ~32 ms. A
    // group with a hog on CPU 1 and a task on CPU 0 that runs 10 ms and sleeps 10 ms: CPU 0's
    // load_avg hovers near 512, so CPU 1's entity weighs 1024 * 1024 / (1024 + ~512) = ~682
    // whether the sleeper is queued or not (the queue as it stands would swing it between 512
    // and 1024). And tg->load_avg is the sum of the CPUs' contributions, each refreshed at most
    // once a millisecond (update_tg_load_avg(), 1528c661c24b).
    void groupSharesFollowTheLoadAverage() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 1000, "kernel": "6.18.44", "preempt": "full"},
          "tasks": [{"comm": "duty", "session": "A", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}, {"sleep": "10ms"}]}]},
                    {"comm": "ahog", "session": "A", "cpus": [1], "behavior": [{"run": "100s"}]}]})J");
        uint32_t lo = UINT32_MAX, hi = 0;
        std::array<Time, 2> lastChange{-kNsPerSec, -kNsPerSec};
        std::array<int64_t, 2> contrib{0, 0};
        while (e.now() < 2 * kNsPerSec && e.step()) {
            const TaskGroup& tg = e.groups()[0];
            QCOMPARE(tg.loadAvg, tg.load[0].tgLoadAvgContrib + tg.load[1].tgLoadAvgContrib);
            for (size_t c = 0; c < 2; ++c) {
                if (tg.load[c].tgLoadAvgContrib == contrib[c]) continue;
                QVERIFY2(e.now() - lastChange[c] >= kNsPerMs, "one refresh a millisecond at most");
                contrib[c] = tg.load[c].tgLoadAvgContrib, lastChange[c] = e.now();
            }
            if (e.now() < 500 * kNsPerMs) continue; // the averages settle
            const uint32_t w = groupEntity(e, 0, 1).load.weight;
            lo = std::min(lo, w), hi = std::max(hi, w);
        }
        qInfo("CPU 1's group entity weighs %u .. %u", lo, hi);
        QVERIFY2(lo >= 650 && hi <= 715, qPrintable(QString("%1 .. %2").arg(lo).arg(hi)));
    }

    // A task's load leaves its group's cfs_rq with it (task_dead_fair(): remove_entity_load_avg()):
    // when the group's task on CPU 0 exits, the group's hog on CPU 1 gets the group's whole share
    // as soon as CPU 0's part of tg->load_avg is refreshed (at once, or at the next NOHZ stats
    // kick), where a load left to decay would still hold CPU 1's entity near 1024 * 1024 / (1024
    // + 1024 / 2^(40/32)) = ~720 at 40 ms.
    void exitingTaskTakesItsLoadAlong() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 2, "hz": 1000, "kernel": "6.18.44", "preempt": "full"},
          "tasks": [{"comm": "leaver", "session": "A", "cpus": [0], "behavior": [{"run": "300ms"}]},
                    {"comm": "ahog", "session": "A", "cpus": [1], "behavior": [{"run": "100s"}]}]})J");
        e.runUntil(290 * kNsPerMs);
        QVERIFY(std::abs(int(groupEntity(e, 0, 1).load.weight) - 512) < 20); // two equal halves
        e.runUntil(345 * kNsPerMs);
        QVERIFY(e.tasks()[size_t(taskByComm(e, "leaver"))].state == TaskState::Dead);
        QVERIFY2(groupEntity(e, 0, 1).load.weight >= 1000,
                 qPrintable(QString::number(groupEntity(e, 0, 1).load.weight)));
    }

    // find_matching_se(): a wakeup is judged between the running task's and the wakee's
    // ancestors in the runqueue they share. A short-slice task (100 us) alone in group A, woken
    // while group B's hog runs, competes as A's entity; with the min-slice propagation of
    // aef6987d8954 (v6.12) A's entity carries the wakee's short slice, so PREEMPT_SHORT lets it
    // in at once; without it (the rule taken out) A's entity has the base slice, as B's does,
    // and the wakee waits for B's protected slice to end (at a 4 ms tick: no HRTICK).
    void groupMinSliceCarriesTheShortSliceUp() {
        const std::string json =
            R"J({"machine": {"cpus": 1, "hz": 250, "kernel": "6.18", "preempt": "full"},
          "tasks": [{"comm": "short", "session": "A", "slice": "100us", "behavior": [{"repeat": "forever", "body": [{"timer": "1ms"}, {"run": "20us"}]}]},
                    {"comm": "bhog", "session": "B", "behavior": [{"run": "100s"}]}]})J";
        auto delay = [&](bool propagate) {
            scen::Scenario s = scenarioFrom(json);
            if (!propagate) s.config.rulesOff.set(size_t(Rule::GroupMinSlice));
            Engine e = scen::instantiate(s, 1);
            e.runUntil(2 * kNsPerSec);
            const auto rows = perfSchedLatency(e.trace());
            return latencyRow(rows, "short")->maxDelay;
        };
        const Time with = delay(true), without = delay(false);
        qInfo("short's longest delay: %.3f ms with the propagation, %.3f ms without", double(with) / 1e6,
              double(without) / 1e6);
        QVERIFY2(with < 50 * kNsPerUs, "the propagated short slice lets the wakee in at once");
        QVERIFY2(without > 500 * kNsPerUs, "without it, the wakee waits for B's protection to end");
    }

    // update_cfs_group() since 66951e4860d3 (v6.13): a group emptied on a CPU keeps its
    // entity's weight, so a delayed group entity burns off its lag at the weight it had. 6.12
    // reweighted it to what calc_group_shares() gives the empty runqueue: its decaying load_avg
    // instead of the queued weight, against the group's load on the other CPU (a hog there).
    // Checked at every event: the delayed entity's weight against its weight just before it was
    // delayed.
    void emptyGroupKeepsWeightWhileDelayed() {
        const std::string json =
            R"J({"machine": {"cpus": 2, "hz": 1000, "kernel": "KERNEL", "preempt": "full"},
          "tasks": [{"comm": "sleeper", "session": "A", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "3ms"}, {"sleep": "2ms"}]}]},
                    {"comm": "ahog", "session": "A", "cpus": [1], "behavior": [{"run": "100s"}]},
                    {"comm": "hog", "count": 2, "cpus": [0], "behavior": [{"run": "100s"}]}]})J";
        for (const char* k : {"6.12", "6.18"}) {
            Engine e = engineFrom(withModel(json, k, "KERNEL"));
            int delayed = 0, changed = 0;
            uint32_t before = 0;
            while (e.now() < kNsPerSec && e.step()) {
                const SchedEntity& ge = groupEntity(e, 0, 0);
                if (!ge.schedDelayed) {
                    before = ge.load.weight;
                    continue;
                }
                ++delayed;
                changed += ge.load.weight != before;
            }
            qInfo("%s: %d events with the group entity delayed, %d of them at another weight than before", k,
                  delayed, changed);
            QVERIFY2(delayed > 0, "the group's entity is delayed at times");
            if (std::string(k) == "6.12")
                QVERIFY2(changed > delayed / 2, "6.12 reweights the emptied group's entity");
            else
                QCOMPARE(changed, 0);
        }
    }

    // The hierarchy's bookkeeping at every event of a busy run with nested cgroups, autogroups,
    // root tasks, migrations, sleeps and renices: each group's queued weight is the sum over its
    // CPUs; a group's entity is queued exactly while its runqueue holds something (or it is a
    // delayed sleeper); rq->cfs.h_nr_queued counts the queued fair tasks; a cfs_rq's tree holds
    // its queued entities but the running one.
    void hierarchyBookkeepingHoldsAtEveryEvent() {
        for (const char* k : {"6.12", "6.18", "6.18.44"}) {
            Engine e = engineFrom(
                withModel(R"J({"machine": {"cpus": 4, "hz": 250, "kernel": "KERNEL", "preempt": "full"},
              "cgroups": {"/a": {"weight": 300}, "/a/b": {"weight": 50}},
              "tasks": [{"comm": "ab", "count": 5, "cgroup": "/a/b", "behavior": [{"repeat": "forever", "body": [{"run": {"dist": "exponential", "mean": "2ms"}}, {"sleep": {"dist": "exponential", "mean": "1ms"}}]}]},
                        {"comm": "a", "count": 3, "cgroup": "/a", "slice": "300us", "behavior": [{"repeat": "forever", "body": [{"run": {"dist": "exponential", "mean": "500us"}}, {"sleep": "700us"}]}]},
                        {"comm": "s", "count": 4, "session": "S", "behavior": [{"repeat": "forever", "body": [{"run": "5ms"}, {"sleep": {"dist": "exponential", "mean": "3ms"}}]}]},
                        {"comm": "root", "count": 3, "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "4ms"}]}]}],
              "changes": [{"at": "300ms", "task": "s", "nice": 5}, {"at": "600ms", "task": "ab", "nice": -3}]})J",
                          k, "KERNEL"));
            const int cpus = e.config().cpus;
            const EntityView ev = e.entityView();
            int64_t checked = 0;
            while (e.now() < 1200 * kNsPerMs && e.step()) {
                for (CpuId c = 0; c < cpus; ++c) {
                    uint32_t queuedTasks = 0;
                    for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t)
                        queuedTasks += e.tasks()[size_t(t)].cpu == c && e.entities()[size_t(t)].onRq &&
                                       !isRtPolicy(e.tasks()[size_t(t)].policy);
                    QCOMPARE(e.cpus()[size_t(c)].hNrQueued, queuedTasks);
                }
                for (size_t g = 0; g < e.groups().size(); ++g) {
                    const TaskGroup& tg = e.groups()[g];
                    int64_t sum = 0;
                    for (CpuId c = 0; c < cpus; ++c) {
                        const CfsRq& q = tg.cfsRq[size_t(c)];
                        sum += q.loadWeight;
                        const SchedEntity& ge = groupEntity(e, GroupId(g), c);
                        QVERIFY(ge.onRq == (q.nrQueued > 0 || ge.schedDelayed));
                        QVERIFY(!(ge.schedDelayed && q.nrQueued > 0));
                        const bool currIn = q.curr >= 0 && ev[size_t(q.curr)].onRq;
                        QCOMPARE(q.timeline.sizeSlow(ev) + (currIn ? 1 : 0), size_t(q.nrQueued));
                    }
                    QCOMPARE(tg.loadWeight, sum);
                }
                ++checked;
            }
            QVERIFY(checked > 10000);
            QVERIFY(e.error().empty());
        }
    }

    // Bad group fields are errors naming the field and what is accepted.
    void badGroupFieldsAreNamed() {
        const std::pair<const char*, const char*> cases[] = {
            {"\"tasks\": [{\"comm\": \"x\", \"cgroup\": \"a/b\", \"behavior\": [{\"run\": \"1ms\"}]}]",
             "tasks[0].cgroup"},
            {"\"tasks\": [{\"comm\": \"x\", \"cgroup\": \"/a//b\", \"behavior\": [{\"run\": \"1ms\"}]}]",
             "tasks[0].cgroup"},
            {"\"tasks\": [{\"comm\": \"x\", \"cgroup\": \"/\", \"behavior\": [{\"run\": \"1ms\"}]}]",
             "tasks[0].cgroup"},
            {"\"tasks\": [{\"comm\": \"x\", \"session\": \"\", \"behavior\": [{\"run\": \"1ms\"}]}]",
             "tasks[0].session"},
            {"\"cgroups\": {\"/a\": {\"weight\": 0}}, \"tasks\": [{\"comm\": \"x\", \"behavior\": [{\"run\": "
             "\"1ms\"}]}]",
             "cgroups./a.weight"},
            {"\"sessions\": {\"s\": {\"nice\": 20}}, \"tasks\": [{\"comm\": \"x\", \"behavior\": [{\"run\": "
             "\"1ms\"}]}]",
             "sessions.s.nice"},
            {"\"machine\": {\"autogroup\": 1}, \"tasks\": [{\"comm\": \"x\", \"behavior\": [{\"run\": "
             "\"1ms\"}]}]",
             "machine.autogroup"},
        };
        for (const auto& [body, field] : cases) {
            scen::Scenario s;
            scen::ScenarioError err;
            QVERIFY2(!scen::parseScenario(std::string("{") + body + "}", "bad.json", s, err), body);
            QCOMPARE(err.field, std::string(field));
            QVERIFY(err.line > 0 && !err.message.empty());
        }
    }

    // Copying the engine copies the groups: a run restored from a snapshot replays identically.
    void snapshotCarriesTheGroups() {
        const std::string json = hogs("6.18.44", true);
        Engine e = engineFrom(json);
        e.runUntil(300 * kNsPerMs);
        const Engine snap = e.snapshot();
        e.runUntil(900 * kNsPerMs);
        const size_t slices = e.trace().slices.size();
        e.restore(snap);
        e.runUntil(900 * kNsPerMs);
        QCOMPARE(e.trace().slices.size(), slices);
        QVERIFY(!e.groups().empty());
    }
};

QTEST_APPLESS_MAIN(TestGroupSched)
#include "tst_group_sched.moc"
