// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's limits (core/base/limits.h): a program that forks without end stops at the task
// limit with a message naming the forking task, and tasks that hand work to each other at no cost
// — which would spin at one instant for ever — stop the run with a message naming them. Either
// way the engine says it halted and goes no further.
#include "base/limits.h"
#include "tests/test_support.h"

using namespace sched;

namespace {
Engine engineOf(const std::string& json) {
    scen::Scenario s;
    scen::ScenarioError e;
    if (!scen::parseScenario(json, "limits.json", s, e)) qFatal("%s", e.text().c_str());
    return scen::instantiate(s, 1, TraceOptions{false});
}
} // namespace

class TstLimits : public QObject {
    Q_OBJECT
  private slots:
    void aForkBombStopsAtTheTaskLimit() {
        Engine e = engineOf(R"J({"duration": "10s", "machine": {"cpus": 4},
            "programs": {"bomb": [{"fork": "bomb"}, {"run": "10us"}, {"fork": "bomb"}]},
            "tasks": [{"comm": "bomb", "program": "bomb"}]})J");
        e.runUntil(10 * kNsPerSec);
        QVERIFY(e.halted());
        QCOMPARE(int64_t(e.tasks().size()), limits::kMaxTasks);
        QVERIFY2(e.error().find("200000 tasks, the limit") != std::string::npos, e.error().c_str());
        QVERIFY2(e.error().find("bomb:") != std::string::npos, e.error().c_str());
        QVERIFY(e.now() < 10 * kNsPerSec); // where it stopped, not the end asked for
        const uint64_t events = e.eventsProcessed();
        QVERIFY(!e.step());
        e.runUntil(20 * kNsPerSec);
        QCOMPARE(e.eventsProcessed(), events);
    }

    void tasksThatSpinAtOneInstantStopTheRun() {
        Engine e = engineOf(R"J({"duration": "1s", "machine": {"cpus": 1,
              "costs": {"context_switch": "0ns", "wakeup": "0ns", "ipi": "0ns", "migration": "0ns"}},
            "channels": [{"name": "a", "capacity": 1}, {"name": "b", "capacity": 1}],
            "tasks": [
              {"comm": "ping", "behavior": [{"repeat": "forever", "body": [{"write": "a"}, {"read": "b"}]}]},
              {"comm": "pong", "behavior": [{"repeat": "forever", "body": [{"read": "a"}, {"write": "b"}]}]}]})J");
        e.runUntil(kNsPerSec);
        QVERIFY(e.halted());
        QVERIFY2(e.error().find("simulated time stopped advancing") != std::string::npos, e.error().c_str());
        QVERIFY2(e.error().find("ping:") != std::string::npos || e.error().find("pong:") != std::string::npos,
                 e.error().c_str());
        QVERIFY(e.now() < kNsPerSec);
        // A snapshot keeps the halt: restoring it does not start the spin again.
        Engine copy = e.snapshot();
        QVERIFY(copy.halted());
    }
};

QTEST_GUILESS_MAIN(TstLimits)
#include "tst_limits.moc"
