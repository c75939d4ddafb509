// SPDX-License-Identifier: GPL-3.0-or-later
// Proxy execution across CPUs: 7.1's donor migration and return (b049b81bdff6, 2d7622669836;
// core/engine/proxy_exec.cpp's proxyMigrateTask() and proxyForceReturn()). Each test is named for
// the kernel rule it holds the engine to; the scenarios are tst_proxy_exec's (proxy_exec_scenarios.h).
#include "tests/engine/proxy_exec_scenarios.h"

using namespace sched;
using namespace proxytest;

class TestProxyMigration : public QObject {
    Q_OBJECT
  private slots:
    // 7.1's find_proxy_task() (b049b81bdff6): a donor whose owner is queued on another CPU moves
    // there (proxy_migrate_task()) and lends its context to the owner; the unlock marks it
    // PROXY_WAKING and its next pick sends it back to the CPU it was woken for
    // (proxy_force_return()). A nice-19 owner on CPU 1 beside a nice-0 hog holds m for 2 ms of
    // CPU; a nice-0 waiter pinned to CPU 0 wants it at 100 us. Before 7.1 the waiter sleeps and the
    // owner's small share makes the section last 70 ms; from 7.1 it is over in a few.
    // The waiter first finds itself (rq->curr, just blocked) in the chain: proxy_resched_idle(),
    // the CPU runs idle and picks again at once, and that pick moves it.
    void aDonorMovesToItsOwnersCpuAndBack() {
        const std::string tasks =
            task("low", 1, 0, R"({"lock": "m"}, {"run": "2ms"}, {"unlock": "m"})", kNice19) + "," +
            task("hog1", 1, 10, kHog) + "," +
            task("high", 0, 100, R"({"lock": "m"}, {"run": "10us"}, {"unlock": "m"})");
        Engine old = engineFrom(scenario(2, tasks, true, "7.0"));
        old.runUntil(300 * kNsPerMs);
        QCOMPARE(old.mutexes()[0].proxyDeactivations, int64_t(1));
        QVERIFY2(exitOf(old, "high") > 50 * kNsPerMs, std::to_string(exitOf(old, "high")).c_str());

        Engine e = engineFrom(scenario(2, tasks, true, "7.1"));
        const TaskId high = taskByComm(e, "high"), low = taskByComm(e, "low");
        QVERIFY(runUntilState(e, 10 * kNsPerMs, [&] { return e.cpus()[1].proxying(); }));
        QCOMPARE(e.cpus()[1].curr, low);
        QCOMPARE(e.cpus()[1].donor(), high);
        QCOMPARE(e.tasks()[size_t(high)].cpu, 1); // queued where it may not run: affinity is the owner's
        QCOMPARE(e.tasks()[size_t(high)].proxyHome, 0); // p->wake_cpu kept
        e.runUntil(300 * kNsPerMs);
        const Mutex& m = e.mutexes()[0];
        QCOMPARE(m.proxyDeactivations, int64_t(0));
        QCOMPARE(m.proxyMigrations, int64_t(1));
        QCOMPARE(m.proxyReturns, int64_t(1));
        QVERIFY2(exitOf(e, "high") < 6 * kNsPerMs, std::to_string(exitOf(e, "high")).c_str());
        QCOMPARE(e.tasks()[size_t(high)].cpu, 0);
        const Trace& t = e.trace();
        // __set_task_cpu() traces nothing; the return's set_task_cpu() does (1 -> 0)
        std::vector<std::pair<int, int>> moves;
        for (size_t i = 0; i < t.migrations.size(); ++i)
            if (t.migrations.task[i] == high) moves.emplace_back(t.migrations.from[i], t.migrations.to[i]);
        QCOMPARE(moves, (std::vector<std::pair<int, int>>{{1, 0}}));
        Time blockedAt = -1; // (it spins first, while low runs: until the 1 ms tick ends low's slice)
        for (size_t i = 0; i < t.slices.size(); ++i) {
            if (t.slices.task[i] != high) continue;
            QCOMPARE(int(t.slices.cpu[i]), 0); // a blocked donor never runs
            if (blockedAt < 0 && t.slices.endPoint[i] == uint8_t(SwitchPoint::BlockUninterruptible))
                blockedAt = t.slices.end[i];
        }
        QVERIFY(blockedAt > 0);
        int idlePicks = 0; // the idle task's bit, set as high blocked, cleared at once by the next pick
        for (size_t i = 0; i < t.flags.size(); ++i)
            if (t.flags.reason[i] == uint8_t(ReschedReason::ProxyIdle)) {
                QCOMPARE(int(t.flags.cpu[i]), 0);
                QCOMPARE(t.flags.set[i], blockedAt);
                QCOMPARE(t.flags.clear[i], blockedAt);
                ++idlePicks;
            }
        QCOMPARE(idlePicks, 1);
    }

    // 7.1 returns a woken waiter at its next pick even if it never left its CPU (the 7.2 commit
    // 7918cf369361: "unconditionally return migrate on PROXY_WAKING"): dequeued and enqueued again
    // on the same CPU, no migration. 7.0 runs it where it is.
    void aWokenWaiterIsReturnedEvenWhereItIs() {
        for (const char* kernel : {"7.0", "7.1"}) {
            Engine e =
                engineFrom(inversion(true, R"({"lock": "m"}, {"run": "3ms"}, {"unlock": "m"})", kernel));
            e.runUntil(300 * kNsPerMs);
            const bool v71 = std::string(kernel) == "7.1";
            QCOMPARE(e.mutexes()[0].proxyReturns, int64_t(v71 ? 1 : 0));
            QCOMPARE(e.mutexes()[0].acquired, int64_t(2));
            QCOMPARE(e.trace().migrations.size(), size_t(0));
            QVERIFY(exitOf(e, "high") > 0);
        }
    }

    // The built-in priority-inversion-smp (7.1): the editor on CPU 0 waits for a nice-19 logger on
    // CPU 1. With b049b81bdff6 it moves to the logger's CPU and lends it its weight there; with the
    // rule taken out (7.0's behaviour) it sleeps, and the logger's small share stretches the wait.
    void theBuiltInSmpInversionMovesTheWaiter() {
        scen::Scenario s;
        scen::ScenarioError err;
        QVERIFY(scen::loadScenario("priority-inversion-smp", s, err));
        QVERIFY(s.config.has(Rule::ProxyDonorMigration) && s.config.cpus == 2);
        const auto run = [&](bool migrate) {
            scen::Scenario sc = s;
            if (!migrate) sc.config.rulesOff.set(size_t(Rule::ProxyDonorMigration));
            Engine e = scen::instantiate(sc, 1);
            e.runUntil(kNsPerSec);
            return e.mutexes()[0];
        };
        const Mutex with = run(true), without = run(false);
        QVERIFY(with.proxyMigrations > 0 && with.proxyReturns == with.proxyMigrations);
        QVERIFY2(with.waitMax < 20 * kNsPerMs, std::to_string(with.waitMax).c_str());
        QCOMPARE(without.proxyMigrations, int64_t(0));
        QVERIFY2(without.waitSum / std::max<int64_t>(1, without.contended) > 200 * kNsPerMs,
                 std::to_string(without.waitSum).c_str());
    }
};

QTEST_GUILESS_MAIN(TestProxyMigration)
#include "tst_proxy_migration.moc"
