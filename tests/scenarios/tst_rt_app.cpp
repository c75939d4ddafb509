// SPDX-License-Identifier: GPL-3.0-or-later
// rt-app JSON files (scheduler-tools/rt-app: doc/tutorial.txt, src/rt-app_parse_config.c): the
// common subset becomes tasks with the same behaviour; everything outside it, and every malformed
// value, is an error naming the file, line and field.
#include "tests/test_support.h"

#include "scenarios/builtin_scenarios.h"
#include "scenarios/workload.h"

#include <QTemporaryDir>

#include <fstream>

using namespace sched;

namespace {
bool readRtApp(const std::string& text, scen::Scenario& s, scen::RtAppArgs& a, scen::ScenarioError& err) {
    s = scen::Scenario{};
    s.config.cpus = 4;
    return scen::addRtApp(text, "w.json", s, a, err);
}
} // namespace

class TestRtApp : public QObject {
    Q_OBJECT
  private slots:
    void tasksPoliciesAndEventsInFileOrder() {
        const std::string text = R"J({
          "global": { "duration": 3, "default_policy": "SCHED_OTHER", "calibration": "CPU0", "logdir": "." },
          "tasks": {
            "periodic": { "instance": 3, "priority": -5, "cpus": [1, 2], "loop": -1,
                          "run0": 1000, "timer": { "ref": "unique", "period": 10000, "mode": "absolute" } },
            "rt": { "policy": "SCHED_FIFO", "priority": 50, "loop": 4, "run": 200, "sleep": 800, "yield": "" },
            "short": { "dl-runtime": 500, "delay": 2000, "phases": {
                 "warm": { "run": 5000 },
                 "steady": { "loop": 3, "runtime": 100, "sleep1": 900 } } }
          }})J";
        scen::Scenario s;
        scen::RtAppArgs a;
        scen::ScenarioError err;
        QVERIFY2(readRtApp(text, s, a, err), err.text().c_str());
        QCOMPARE(a.duration, 3 * kNsPerSec);
        QVERIFY(a.loopsForever);
        QCOMPARE(s.tasks.size(), size_t(3));
        const scen::TaskGroupSpec& p = s.tasks[0];
        QCOMPARE(p.comm, std::string("periodic"));
        QCOMPARE(p.count, 3);
        QVERIFY(p.threads);
        QCOMPARE(p.nice, -5); // priority is the nice value of a fair task
        QVERIFY(!p.affinity.test(0) && p.affinity.test(1) && p.affinity.test(2) && !p.affinity.test(3));
        const Program& pp = s.programs[size_t(p.program)];
        QCOMPARE(pp.ops.size(), size_t(4)); // run, timer, loop for ever, exit
        QCOMPARE(pp.ops[0].kind, OpKind::Run);
        QCOMPARE(pp.ops[0].duration.a, 1000 * kNsPerUs);
        QCOMPARE(pp.ops[1].kind, OpKind::TimerWait);
        QCOMPARE(pp.ops[1].period, 10 * kNsPerMs);
        QCOMPARE(pp.ops[2].kind, OpKind::Loop);
        QCOMPARE(pp.ops[2].count, int64_t(0));
        const scen::TaskGroupSpec& rt = s.tasks[1];
        QCOMPARE(rt.policy, Policy::Fifo);
        QCOMPARE(rt.rtPriority, 50);
        const Program& rp = s.programs[size_t(rt.program)];
        QCOMPARE(rp.ops[0].kind, OpKind::Run);
        QCOMPARE(rp.ops[1].kind, OpKind::Sleep);
        QCOMPARE(rp.ops[2].kind, OpKind::Yield);
        QCOMPARE(rp.ops[3].count, int64_t(4));
        const scen::TaskGroupSpec& sh = s.tasks[2];
        QCOMPARE(sh.slice, 500 * kNsPerUs); // dl-runtime on SCHED_OTHER: the custom slice (6.12+)
        QCOMPARE(sh.start, 2 * kNsPerMs);
        const Program& sp = s.programs[size_t(sh.program)];
        // warm: run; steady: runtime, sleep, loop x3; the task loop for ever; exit
        QCOMPARE(sp.ops.size(), size_t(6));
        QCOMPARE(sp.ops[3].kind, OpKind::Loop);
        QCOMPARE(sp.ops[3].target, 1);
        QCOMPARE(sp.ops[3].count, int64_t(3));
    }

    // A loop of N passes over { run; timer } runs N periods and records N timer wake-ups (wu_lat).
    void finiteLoopsEndAndTimersMeasureWakeupLatency() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("w.json").toStdString();
        std::ofstream(path)
            << R"J({"tasks": {"t": {"loop": 50, "run": 1000, "timer": {"ref": "u", "period": 4000}}},
                                   "global": {"duration": -1}})J";
        scen::Scenario s;
        scen::ScenarioError err;
        QVERIFY2(scen::loadScenario(path, s, err), err.text().c_str());
        QCOMPARE(s.workloads.size(), size_t(1));
        Engine e = scen::instantiate(s, 1, TraceOptions{false});
        e.runUntil(10 * kNsPerSec);
        const Task& t = e.tasks()[0];
        QCOMPARE(t.state, TaskState::Dead);
        QCOMPARE(t.latCount, int64_t(50));
        QVERIFY(t.exitedAt >= 50 * 4 * kNsPerMs && t.exitedAt < 51 * 4 * kNsPerMs);
        QVERIFY(t.utime >= 50 * kNsPerMs);
        const std::string report = scen::workloadReport(s.workloads[0], e);
        QVERIFY2(report.find("t-0") != std::string::npos, report.c_str());
    }

    void foreverWithoutDurationIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("w.json").toStdString();
        std::ofstream(path) << R"J({"tasks": {"t": {"run": 1000, "sleep": 1000}}})J";
        scen::Scenario s;
        scen::ScenarioError err;
        QVERIFY(!scen::loadScenario(path, s, err));
        QCOMPARE(err.field, std::string("global.duration"));
    }

    // From a scenario: {"workload": "rt-app", "args": FILE} relative to the scenario's directory;
    // an error inside the rt-app file names that file.
    void scenarioEntryReadsTheFileNextToIt() {
        QTemporaryDir dir;
        std::ofstream(dir.filePath("w.json").toStdString())
            << "{\"tasks\": {\"t\": {\"run\": 100, \"sleep\": 900, \"loop\": 5}}}";
        std::ofstream(dir.filePath("bad.json").toStdString())
            << "{\"tasks\": {\"t\": {\"run\": 100,\n \"sleep\": \"1ms\"}}}";
        const std::string sc = dir.filePath("s.json").toStdString();
        std::ofstream(sc) << R"J({"tasks": [ {"workload": "rt-app", "args": "w.json"} ]})J";
        scen::Scenario s;
        scen::ScenarioError err;
        QVERIFY2(scen::loadScenarioFile(sc, s, err), err.text().c_str());
        QCOMPARE(s.tasks.size(), size_t(1));
        QCOMPARE(s.workloads.at(0).tool, std::string("rt-app"));
        std::ofstream(sc) << R"J({"tasks": [ {"workload": "rt-app", "args": "bad.json"} ]})J";
        QVERIFY(!scen::loadScenarioFile(sc, s, err));
        QVERIFY2(err.file.find("bad.json") != std::string::npos, err.text().c_str());
        QCOMPARE(err.line, 2);
        QCOMPARE(err.field, std::string("tasks.t.sleep"));
    }

    // An rt-app file has no machine: its CPUs are checked once --cpus (or the default) has settled
    // the count, with the place in the file that pinned the task (it was refused before --cpus).
    void affinityIsCheckedAgainstTheSettledCpuCount() {
        scen::Scenario s;
        scen::RtAppArgs a;
        scen::ScenarioError err;
        QVERIFY2(readRtApp("{\"tasks\": {\"t\": {\"cpus\": [0,\n 9], \"run\": 1}}}", s, a, err),
                 err.text().c_str());
        const std::string e = scen::placementError(s);
        QVERIFY2(e.find("w.json:2:2: tasks.t.cpus[1]: pinned to CPU 9, but the machine has 4 CPUs") !=
                     std::string::npos,
                 e.c_str());
        s.config.cpus = 16; // --cpus 16
        QCOMPARE(scen::placementError(s), std::string());
    }

    void malformedFilesNameLineAndField_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("needle");
        QTest::newRow("syntax") << "{\"tasks\": {\n \"t\": {\"run\": 10,}}}" << 2 << ""
                                << "JSON syntax";
        QTest::newRow("no tasks") << "{\"global\": {}}" << 1 << "tasks"
                                  << "needs \"tasks\"";
        QTest::newRow("tasks array") << "{\"tasks\": []}" << 1 << "tasks"
                                     << "at least one named task";
        QTest::newRow("unknown section") << "{\"tasks\": {}, \"jobs\": 1}" << 1 << "jobs"
                                         << "unknown section";
        QTest::newRow("resources used")
            << "{\"resources\": {\"m\": {\"type\": \"mutex\"}}, \"tasks\": {}}" << 1 << "resources"
            << "not modelled";
        QTest::newRow("global unknown")
            << "{\"global\": {\"duraton\": 5}, \"tasks\": {\"t\": {\"run\": 1}}}" << 1 << "global.duraton"
            << "unknown global setting";
        QTest::newRow("global duration text")
            << "{\"global\": {\"duration\": \"5s\"}, \"tasks\": {}}" << 1 << "global.duration"
            << "whole number";
        QTest::newRow("global duration 0")
            << "{\"global\": {\"duration\": 0}, \"tasks\": {}}" << 1 << "global.duration"
            << "0 s is no run";
        QTest::newRow("default policy") << "{\"global\": {\"default_policy\": \"SCHED_FAST\"}, \"tasks\": {}}"
                                        << 1 << "global.default_policy"
                                        << "unknown policy";
        QTest::newRow("deadline") << "{\"tasks\": {\"t\": {\"policy\": \"SCHED_DEADLINE\", \"run\": 1}}}" << 1
                                  << "tasks.t.policy"
                                  << "SCHED_DEADLINE is not modelled";
        QTest::newRow("task not object") << "{\"tasks\": {\"t\": 5}}" << 1 << "tasks.t"
                                         << "expected an object";
        QTest::newRow("long name") << "{\"tasks\": {\"a-very-long-task-name\": {\"run\": 1}}}" << 1
                                   << "tasks.a-very-long-task-name"
                                   << "1 to 15 bytes";
        QTest::newRow("instance 0") << "{\"tasks\": {\"t\": {\"instance\": 0, \"run\": 1}}}" << 1
                                    << "tasks.t.instance"
                                    << "1 to 10000";
        QTest::newRow("loop 0") << "{\"tasks\": {\"t\": {\"loop\": 0, \"run\": 1}}}" << 1 << "tasks.t.loop"
                                << "0 runs nothing";
        QTest::newRow("nice range") << "{\"tasks\": {\"t\": {\"priority\": 30, \"run\": 1}}}" << 1
                                    << "tasks.t.priority"
                                    << "-20 to 19";
        QTest::newRow("rt priority range")
            << "{\"tasks\": {\"t\": {\"policy\": \"SCHED_RR\", \"priority\": 0, \"run\": 1}}}" << 1
            << "tasks.t.priority"
            << "1 to 99";
        QTest::newRow("cpu out of range")
            << "{\"tasks\": {\"t\": {\"cpus\": [0, 256], \"run\": 1}}}" << 1 << "tasks.t.cpus[1]"
            << "0 to 255";
        QTest::newRow("cpus empty") << "{\"tasks\": {\"t\": {\"cpus\": [], \"run\": 1}}}" << 1
                                    << "tasks.t.cpus"
                                    << "non-empty";
        QTest::newRow("run negative")
            << "{\"tasks\": {\"t\": {\"loop\": 1,\n \"run\": -5}}}" << 2 << "tasks.t.run"
            << "out of range";
        QTest::newRow("run fraction") << "{\"tasks\": {\"t\": {\"run\": 1.5}}}" << 1 << "tasks.t.run"
                                      << "'1.5'";
        QTest::newRow("sleep text") << "{\"tasks\": {\"t\": {\"run\": 1, \"sleep\": \"1ms\"}}}" << 1
                                    << "tasks.t.sleep"
                                    << "whole number";
        QTest::newRow("timer not object") << "{\"tasks\": {\"t\": {\"timer\": 1000}}}" << 1 << "tasks.t.timer"
                                          << "a timer is an object";
        QTest::newRow("timer no period")
            << "{\"tasks\": {\"t\": {\"timer\": {\"ref\": \"a\"}}}}" << 1 << "tasks.t.timer"
            << "needs a \"period\"";
        QTest::newRow("timer period 0")
            << "{\"tasks\": {\"t\": {\"timer\": {\"ref\": \"a\", \"period\": 0}}}}" << 1
            << "tasks.t.timer.period"
            << "1 to";
        QTest::newRow("timer mode")
            << "{\"tasks\": {\"t\": {\"timer\": {\"ref\": \"a\", \"period\": 5, \"mode\": \"fuzzy\"}}}}" << 1
            << "tasks.t.timer.mode"
            << "absolute";
        QTest::newRow("timer field")
            << "{\"tasks\": {\"t\": {\"timer\": {\"ref\": \"a\", \"period\": 5, \"slack\": 1}}}}" << 1
            << "tasks.t.timer.slack"
            << "unknown timer field";
        QTest::newRow("lock") << "{\"tasks\": {\"t\": {\"run\": 1,\n \"lock\": \"m\"}}}" << 2
                              << "tasks.t.lock"
                              << "not modelled";
        QTest::newRow("barrier") << "{\"tasks\": {\"t\": {\"run\": 1, \"barrier\": \"b\"}}}" << 1
                                 << "tasks.t.barrier"
                                 << "not modelled";
        QTest::newRow("unknown key") << "{\"tasks\": {\"t\": {\"rnu\": 1}}}" << 1 << "tasks.t.rnu"
                                     << "unknown rt-app key";
        QTest::newRow("no events") << "{\"tasks\": {\"t\": {\"instance\": 2}}}" << 1 << "tasks.t"
                                   << "needs events";
        QTest::newRow("no time") << "{\"tasks\": {\"t\": {\"yield\": \"\"}}}" << 1 << "tasks.t"
                                 << "take no time";
        QTest::newRow("dl-period")
            << "{\"tasks\": {\"t\": {\"run\": 1, \"dl-runtime\": 500, \"dl-period\": 1000}}}" << 1
            << "tasks.t.dl-period"
            << "not modelled";
        QTest::newRow("dl-runtime on rt") << "{\"tasks\": {\"t\": {\"policy\": \"SCHED_FIFO\", \"priority\": "
                                             "5, \"run\": 1, \"dl-runtime\": 500}}}"
                                          << 1 << "tasks.t.dl-runtime"
                                          << "this task is RT";
        QTest::newRow("phases empty") << "{\"tasks\": {\"t\": {\"phases\": {}}}}" << 1 << "tasks.t.phases"
                                      << "object of named phases";
        QTest::newRow("phase empty") << "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"loop\": 2}}}}}" << 1
                                     << "tasks.t.phases.p"
                                     << "at least one event";
        QTest::newRow("phase lock")
            << "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 1,\n \"unlock\": \"m\"}}}}}" << 2
            << "tasks.t.phases.p.unlock"
            << "not modelled";
        QTest::newRow("phase loop")
            << "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 1, \"loop\": -1}}}}}" << 1
            << "tasks.t.phases.p.loop"
            << "out of range";
        QTest::newRow("top level array") << "[1]" << 1 << "(top level)"
                                         << "an rt-app file is an object";
    }
    void malformedFilesNameLineAndField() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, field);
        QFETCH(QString, needle);
        scen::Scenario s;
        scen::RtAppArgs a;
        scen::ScenarioError err;
        QVERIFY(!readRtApp(text.toStdString(), s, a, err));
        QCOMPARE(err.file, std::string("w.json"));
        QCOMPARE(err.line, line);
        QCOMPARE(err.field, field.toStdString());
        QVERIFY2(err.message.find(needle.toStdString()) != std::string::npos, err.text().c_str());
    }
};

QTEST_GUILESS_MAIN(TestRtApp)
#include "tst_rt_app.moc"
