// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files: every built-in one parses; every malformed file in data/bad-scenarios gets an
// error that names the file, line, column and field, says what is wrong and what is accepted.
#include "tests/test_support.h"

#include "base/limits.h"
#include "scenarios/builtin_scenarios.h"
#include "scenarios/experiment.h"
#include "scenarios/gallery.h"
#include "scenarios/json_value.h"
#include "scenarios/scenario_settings.h"

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace sched;

class TestScenarioParser : public QObject {
    Q_OBJECT
  private slots:
    // "NAME@KEY=VALUE,...": the settings are the CLI's options, applied after the load; a file
    // whose name holds an '@' is still that file.
    void aScenarioSpecAppliesItsSettings() {
        scen::Scenario s;
        std::string err;
        QVERIFY2(scen::loadScenarioSpec("fair-pair@hz=1000,feature=RUN_TO_PARITY=off,duration=40ms", s, err),
                 err.c_str());
        QCOMPARE(s.config.hz, 1000);
        QVERIFY(s.config.features.isSet(Feature::RunToParity) && !s.config.features[Feature::RunToParity]);
        QCOMPARE(s.duration, 40 * kNsPerMs);
        QVERIFY(!scen::loadScenarioSpec("fair-pair@hz=999", s, err));
        QVERIFY2(err == "fair-pair@hz=999: --hz: '999' is not a kernel HZ; accepted: 100, 250, 300, 1000",
                 err.c_str());
        QVERIFY(!scen::loadScenarioSpec("fair-pair@feature=NO_SUCH=on", s, err));
        QVERIFY2(err.find("--feature: unknown feature 'NO_SUCH'; accepted: ") != std::string::npos,
                 err.c_str());
        QVERIFY(!scen::loadScenarioSpec("no-such-thing@hz=250", s, err));
        QVERIFY2(err.find("no-such-thing") != std::string::npos, err.c_str());
        QTemporaryDir dir;
        const std::string file = dir.filePath("run@home.json").toStdString();
        std::ofstream(file)
            << R"({"duration": "10ms", "machine": {"cpus": 3}, "tasks": [{"comm": "a", "behavior": [{"run": "1ms"}]}]})";
        QVERIFY2(scen::loadScenarioSpec(file, s, err), err.c_str());
        QCOMPARE(s.config.cpus, 3);
        QVERIFY2(scen::loadScenarioSpec(file + "@cpus=2,seed=4", s, err), err.c_str()); // the last '@'
        QCOMPARE(s.config.cpus, 2);
        QCOMPARE(s.seed, uint64_t(4));
    }
    void everyBuiltinScenarioParsesAndRuns() {
        QVERIFY(scen::builtinScenarios().size() >= 6);
        for (const auto& b : scen::builtinScenarios()) {
            scen::Scenario s;
            scen::ScenarioError e;
            QVERIFY2(scen::parseScenario(b.text, b.name, s, e), e.text().c_str());
            QVERIFY2(!s.description.empty(), b.name);
            Engine eng = scen::instantiate(s, 1, TraceOptions{false});
            eng.runUntil(20 * kNsPerMs);
            QVERIFY2(eng.contextSwitches() > 0, b.name);
        }
    }
    // The welcome screen's gallery lists every shipped scenario once, and each of its names opens:
    // the built-ins, the real-machine scenarios and the experiments (their first configuration at
    // the quick size, with what the post published in the description).
    void theGalleryListsEveryShippedScenarioOnceAndEachOpens() {
        std::map<std::string, int> listed;
        for (const scen::GalleryGroup& g : scen::galleryGroups()) {
            QVERIFY(!g.title.empty() && !g.blurb.empty() && !g.names.empty());
            for (const std::string& n : g.names)
                listed[n]++;
        }
        size_t shipped = 0;
        for (const auto* list : {&scen::builtinScenarios(), &scen::libraryScenarios()})
            for (const auto& b : *list) {
                shipped++;
                QVERIFY2(listed[b.name] == 1, (std::string(b.name) + " is not listed exactly once").c_str());
            }
        QCOMPARE(listed.size(), shipped); // and nothing listed that is not shipped
        QVERIFY(scen::libraryScenarios().size() >= 8);
        for (const auto& [name, count] : listed) {
            scen::Scenario s;
            scen::ScenarioError e;
            QVERIFY2(scen::loadScenario(name, s, e), (name + ": " + e.text()).c_str());
            QVERIFY2(!s.description.empty(), name.c_str());
            if (std::any_of(scen::libraryScenarios().begin(), scen::libraryScenarios().end(),
                            [&](const auto& b) { return name == b.name; }))
                QCOMPARE(s.name, name); // the name it opens by, shown in titles and reports
        }
        { // an experiment file opens as its first configuration too, and experiment finds it by name
            scen::Scenario s;
            scen::ScenarioError e;
            QVERIFY2(scen::loadScenario(SCHEDSCOPE_SCENARIO_DIR "/experiments/preempt-short.json", s, e),
                     e.text().c_str());
            QCOMPARE(s.duration, 12 * kNsPerSec);
            scen::Experiment x;
            QVERIFY2(scen::loadExperimentFile("experiments/preempt-short", true, x, e), e.text().c_str());
            QCOMPARE(x.configs.size(), size_t(2));
        }
        scen::Scenario x;
        scen::ScenarioError e;
        QVERIFY(scen::loadScenario("experiments/preempt-short", x, e));
        QVERIFY(x.description.find("NO_PREEMPT_SHORT at the experiment's quick size") != std::string::npos);
        QVERIFY(x.description.find("Published: cyclictest avg 0.448-0.475 -> 0.370-0.374 ms") !=
                std::string::npos);
        QCOMPARE(x.duration, 12 * kNsPerSec); // the quick size, not the post's 302 s
        QVERIFY(!scen::loadScenario("experiments/no-such", x, e));
        QVERIFY(e.message.find("real-machine/cyclictest-i1000-l5000") != std::string::npos); // listed
    }
    // The scenario editor's document is the file's JSON tree written back by writeJson(): every
    // shipped scenario written that way is the same scenario (the same run), comments aside.
    void writingTheJsonTreeBackKeepsTheScenario() {
        for (const auto& b : scen::builtinScenarios()) {
            scen::JsonValue tree;
            scen::JsonError je;
            QVERIFY2(scen::parseJson(b.text, tree, je), b.name);
            const std::string again = scen::writeJson(tree);
            scen::Scenario x, y;
            scen::ScenarioError e;
            QVERIFY2(scen::parseScenario(b.text, b.name, x, e), e.text().c_str());
            QVERIFY2(scen::parseScenario(again, b.name, y, e),
                     (std::string(b.name) + ": " + e.text()).c_str());
            if (x.tasks.size() > 200) continue; // the benchmarks: parsed alike is enough
            Engine a = scen::instantiate(x, 1, TraceOptions{false}),
                   c = scen::instantiate(y, 1, TraceOptions{false});
            a.runUntil(50 * kNsPerMs);
            c.runUntil(50 * kNsPerMs);
            QCOMPARE(c.trace().slices.size(), a.trace().slices.size());
            for (size_t i = 0; i < a.trace().slices.size(); ++i)
                QVERIFY2(a.trace().slices.end[i] == c.trace().slices.end[i] &&
                             a.trace().slices.task[i] == c.trace().slices.task[i],
                         b.name);
            // Setting a member replaces it in place; a null removes it.
            scen::setMember(tree, "name", scen::jsonString("renamed"));
            scen::setMember(tree, "description", scen::JsonValue{});
            QVERIFY(scen::parseScenario(scen::writeJson(tree), b.name, y, e));
            QCOMPARE(y.name, std::string("renamed"));
            QVERIFY(y.description.empty());
        }
    }
    void parsesEveryField() {
        const std::string json = R"J({
          "name": "all", "description": "d", "duration": "3s", "seed": 7,
          "machine": {"cpus": 4, "hz": 300, "kernel": "auto-rfc", "preempt": "voluntary", "base_slice": "0.75ms",
                      "tunable_scaling": "linear", "migration_cost": "1ms", "rr_timeslice": "50ms",
                      "features": {"PLACE_LAG": false, "HRTICK": true},
                      "costs": {"context_switch": "3us", "wakeup": "2us", "ipi": "4us", "timer_irq": "1us", "idle_exit": "10us", "migration": "7us", "newidle_balance": "9us"}},
          "channels": [{"name": "c", "capacity": 9}],
          "programs": {"child": [{"run": {"dist": "uniform", "min": "1ms", "max": "2ms"}}, {"exit": true}]},
          "tasks": [{"comm": "p", "count": 3, "threads": true, "policy": "batch", "nice": 3, "slice": "2ms", "cpus": [1, 2],
                     "start_cpu": 2, "start": "5ms",
                     "behavior": [{"fork": "child", "count": 2}, {"wait": "children"}, {"write": "c", "cost": "1us"},
                                  {"repeat": 4, "body": [{"run": "1ms", "mode": "kernel", "cond_resched_every": "100us"}, {"yield": true}]}, {"sleep": "10s"}]},
                    {"comm": "rt", "policy": "rr", "priority": 10, "behavior": [{"timer": "1ms"}, {"read": "c"}]}],
          "changes": [{"at": "1s", "preempt": "full"}, {"at": "2s", "feature": "RUN_TO_PARITY", "on": false},
                      {"at": "2s", "task": "p", "slice": "3ms"}, {"at": "2500ms", "hz": 1000}, {"at": "2600ms", "base_slice": "1ms"}]
        })J";
        scen::Scenario s = scenarioFrom(json);
        QCOMPARE(s.duration, 3 * kNsPerSec);
        QCOMPARE(s.seed, uint64_t(7));
        QCOMPARE(s.config.cpus, 4);
        QCOMPARE(s.config.build, KernelBuild::Auto);
        QCOMPARE(s.config.baseSlice(), 750 * kNsPerUs * 4); // linear scaling, 4 CPUs
        QVERIFY(!s.config.features[Feature::PlaceLag]);
        QCOMPARE(s.config.costs.idleExit.kind, Distribution::Kind::Fixed);
        QCOMPARE(s.config.costs.idleExit.a, 10 * kNsPerUs);
        QCOMPARE(s.config.costs.newidleBalance, 9 * kNsPerUs);
        QCOMPARE(s.tasks.size(), size_t(2));
        QCOMPARE(s.tasks[0].count, 3);
        QVERIFY(s.tasks[0].threads);
        QCOMPARE(s.tasks[0].policy, Policy::Batch);
        QVERIFY(s.tasks[0].affinity.test(1) && s.tasks[0].affinity.test(2) && !s.tasks[0].affinity.test(0));
        QCOMPARE(s.tasks[1].rtPriority, 10);
        QCOMPARE(s.changes.size(), size_t(5));
        QCOMPARE(s.changes[2].change.kind, ParamChange::Kind::TaskSlice);
        const Program& p = s.programs[size_t(s.tasks[0].program)];
        const Op& loop = p.ops[p.ops.size() - 2];
        QCOMPARE(loop.kind, OpKind::Loop);
        QCOMPARE(loop.count, int64_t(4));
        QCOMPARE(loop.target, 3); // back to the first op of the body
        QCOMPARE(p.ops.back().kind, OpKind::Sleep);
        Engine e = scen::instantiate(s, 1);
        e.runUntil(3 * kNsPerSec);
        QVERIFY(e.error().empty());
        QCOMPARE(e.trace().markers.size(), size_t(5));
    }
    // A cycle's run takes a run's options and its sleep a sleep's, for every class: a kernel
    // thread's periodic work (kdamond.0 in the real-machine scenarios) in kernel mode with
    // cond_resched() points, asleep in schedule_timeout_idle(). A resched point needs kernel mode
    // there as on a run.
    void aCycleTakesItsRunsAndSleepsOptions() {
        const scen::Scenario s = scenarioFrom(R"J({"machine": {"cpus": 1},
            "tasks": [{"comm": "k", "behavior": [{"cycle": [{"next": [1], "run": "1ms", "sleep": "100ms"}],
                "mode": "kernel", "cond_resched_every": "80us", "jiffies": true, "idle": true}]}]})J");
        const Program& p = s.programs[size_t(s.tasks[0].program)];
        QCOMPARE(p.ops[0].mode, ExecMode::Kernel);
        QCOMPARE(p.ops[0].condReschedEvery, 80 * kNsPerUs);
        QVERIFY(p.ops[1].jiffies && p.ops[1].idleWait);
        QVERIFY(!p.ops[0].jiffies && p.ops[1].condReschedEvery == 0); // each to its own op
        const std::string e = parseError(R"J({"machine": {"cpus": 1},
            "tasks": [{"comm": "k", "behavior": [{"cycle": [{"next": [1], "run": "1ms", "sleep": "1ms"}],
                "cond_resched_every": "80us"}]}]})J");
        QVERIFY2(e.find("tasks[0].behavior[0].cond_resched_every: resched points exist only in") !=
                     std::string::npos,
                 e.c_str());
    }
    // A "cycle" is a run then a sleep whose class follows its Markov chain: with "next" rows that
    // swap the classes, the task alternates 1 ms and 3 ms bursts (and the sleeps of their class),
    // starting in the class its shares give.
    void cycleClassesFollowTheirChain() {
        const scen::Scenario s = scenarioFrom(R"J({"duration": "200ms", "machine": {"cpus": 1},
            "tasks": [{"comm": "c", "behavior": [{"repeat": 20, "body": [{"cycle": [
                {"share": 0, "next": [0, 1], "run": "1ms", "sleep": "2ms"},
                {"share": 1, "next": [1, 0], "run": "3ms", "sleep": "4ms"}]}]}]}]})J");
        const Program& p = s.programs[size_t(s.tasks[0].program)];
        QCOMPARE(p.cycles.size(), size_t(1));
        QCOMPARE(p.ops[0].kind, OpKind::Run);
        QCOMPARE(p.ops[1].kind, OpKind::Sleep);
        QCOMPARE(p.ops[0].cycle, 0);
        QCOMPARE(p.ops[1].cycle, 0);
        Engine e = scen::instantiate(s, 1, TraceOptions{false});
        e.runUntil(s.duration);
        e.finish();
        // bursts (CPU time between two sleeps) and the gaps between them, in order
        const Slices& sl = e.trace().slices;
        std::vector<Time> bursts, gaps;
        Time acc = 0, lastEnd = -1;
        for (uint32_t i = 0; i < sl.size(); ++i) {
            if (lastEnd >= 0 && acc == 0) gaps.push_back(sl.start[i] - lastEnd);
            acc += sl.end[i] - sl.start[i];
            if (sl.endPoint[i] == uint8_t(SwitchPoint::Block)) {
                bursts.push_back(acc);
                acc = 0;
                lastEnd = sl.end[i];
            }
        }
        QVERIFY(bursts.size() >= 20);
        for (size_t k = 0; k < 20; ++k) {
            const Time want = (k % 2 == 0 ? 3 : 1) * kNsPerMs; // share 1 on the 3 ms class: it comes first
            QVERIFY2(std::abs(bursts[k] - want) < 20 * kNsPerUs, std::to_string(bursts[k]).c_str());
            if (k <
                gaps.size()) { // the sleep of the burst's class, plus the timer's slack and interrupt path
                const Time sleep = (k % 2 == 0 ? 4 : 2) * kNsPerMs;
                QVERIFY2(gaps[k] >= sleep && gaps[k] < sleep + 100 * kNsPerUs,
                         std::to_string(gaps[k]).c_str());
            }
        }
    }
    void malformedFileGivesPreciseError_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated") << "01-truncated.json" << 4 << 1 << ""
                                   << "unexpected end of file";
        QTest::newRow("trailing comma") << "02-trailing-comma.json" << 4 << 3 << ""
                                        << "unexpected character ']'";
        QTest::newRow("unknown field") << "03-unknown-machine-field.json" << 2 << 16 << "machine.prempt"
                                       << "unknown field; accepted here: cpus, hz, kernel, preempt";
        QTest::newRow("bad preempt") << "04-bad-preempt.json" << 2 << 27 << "machine.preempt"
                                     << "unknown model 'lazzy'; accepted: none, voluntary, full, lazy";
        QTest::newRow("bad hz") << "05-bad-hz.json" << 2 << 22 << "machine.hz"
                                << "accepted: 100, 250, 300, 1000";
        QTest::newRow("zero cpus") << "06-zero-cpus.json" << 2 << 24 << "machine.cpus"
                                   << "0 is out of range; accepted: 1 to 256";
        QTest::newRow("no unit") << "07-duration-without-unit.json" << 3 << 43 << "tasks[0].behavior[0].run"
                                 << "a duration needs a unit";
        QTest::newRow("bad duration") << "08-malformed-duration.json" << 3 << 43 << "tasks[0].behavior[0].run"
                                      << "'5 ms' is not a duration";
        QTest::newRow("nice range") << "09-nice-out-of-range.json" << 3 << 28 << "tasks[0].nice"
                                    << "25 is out of range; accepted: -20 to 19";
        QTest::newRow("slice range") << "10-slice-too-long.json" << 3 << 29 << "tasks[0].slice"
                                     << "accepted: 0.1ms to 100ms";
        QTest::newRow("rt priority") << "11-rt-without-priority.json" << 3 << 5 << "tasks[0]"
                                     << "needs a \"priority\" from 1 to 99";
        QTest::newRow("unknown channel")
            << "12-unknown-channel.json" << 3 << 45 << "tasks[0].behavior[0].write"
            << "no channel named 'nope'";
        QTest::newRow("spinning loop") << "13-spinning-loop.json" << 3 << 32 << "tasks[0].behavior"
                                       << "would spin forever";
        QTest::newRow("lazy on 6.12") << "14-lazy-on-612.json" << 2 << 14 << "machine"
                                      << "accepted on 6.12: none, voluntary, full";
        QTest::newRow("unknown feature")
            << "15-unknown-feature.json" << 2 << 30 << "machine.features.PREEMPT_SHORTER"
            << "unknown feature; accepted: PLACE_LAG";
        QTest::newRow("change target") << "16-change-unknown-task.json" << 5 << 38 << "changes[0].task"
                                       << "no task or program named 'b'";
        QTest::newRow("two ops") << "17-two-ops-in-one.json" << 3 << 34 << "tasks[0].behavior[0]"
                                 << "found both 'run' and 'sleep'";
        QTest::newRow("cpu range") << "18-cpu-out-of-range.json" << 3 << 32 << "tasks[0].cpus[1]"
                                   << "3 is out of range; accepted: 0 to 1";
        QTest::newRow("distribution")
            << "19-unknown-distribution.json" << 3 << 52 << "tasks[0].behavior[0].run.dist"
            << "accepted: fixed, uniform, exponential, normal, lognormal, empirical";
        QTest::newRow("quantiles order")
            << "23-empirical-decreasing.json" << 3 << 93 << "tasks[0].behavior[0].run.quantiles[2]"
            << "quantiles must not decrease";
        QTest::newRow("one quantile")
            << "24-empirical-one-value.json" << 3 << 78 << "tasks[0].behavior[0].run.quantiles"
            << "give 2 to 1001 values";
        QTest::newRow("cycle next length")
            << "25-cycle-next-length.json" << 3 << 87 << "tasks[0].behavior[0].cycle[0].next"
            << "give the probability of each class (1)";
        QTest::newRow("cycle next sum")
            << "26-cycle-next-sum.json" << 3 << 87 << "tasks[0].behavior[0].cycle[0].next"
            << "add up to 0.9; they must add up to 1";
        QTest::newRow("cycle no sleep")
            << "27-cycle-no-sleep.json" << 3 << 47 << "tasks[0].behavior[0].cycle[0]"
            << "a cycle class needs \"sleep\"";
        QTest::newRow("no tasks") << "20-no-tasks.json" << 2 << 12 << "tasks"
                                  << "the task list is empty";
        QTest::newRow("duplicate key") << "21-duplicate-key.json" << 3 << 20 << ""
                                       << "field 'comm' appears twice";
        QTest::newRow("comm length") << "22-comm-too-long.json" << 3 << 15 << "tasks[0].comm"
                                     << "1 to 15 bytes";
        // A newline in a comm would end every line of the run's own ftrace export early.
        QTest::newRow("comm control character")
            << "28-comm-control-character.json" << 3 << 15 << "tasks[0].comm"
            << "control character (U+000A) at byte 4";
        QTest::newRow("idle exit range")
            << "29-idle-exit-too-long.json" << 2 << 51 << "machine.costs.idle_exit"
            << "accepted: 0ns to 10ms";
        QTest::newRow("idle exit distribution range")
            << "31-idle-exit-distribution-too-long.json" << 2 << 51 << "machine.costs.idle_exit"
            << "a value above 10ms; accepted: durations 0ns to 10ms";
        QTest::newRow("jiffies sleep flag")
            << "30-sleep-jiffies-not-bool.json" << 3 << 72 << "tasks[0].behavior[0].jiffies"
            << "expected a boolean, found a string";
    }
    void malformedFileGivesPreciseError() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const std::string path = std::string(SCHEDSCOPE_TEST_DATA) + "/bad-scenarios/" + file.toStdString();
        scen::Scenario s;
        scen::ScenarioError e;
        QVERIFY(!scen::loadScenarioFile(path, s, e));
        QCOMPARE(e.file, path);
        QCOMPARE(e.line, line);
        QCOMPARE(e.column, column);
        QCOMPARE(QString::fromStdString(e.field), field);
        QVERIFY2(QString::fromStdString(e.message).contains(message), e.message.c_str());
        const QString prefix = QString("%1:%2:%3: ").arg(QString::fromStdString(path)).arg(line).arg(column) +
                               (field.isEmpty() ? "" : field + ": ");
        QVERIFY(QString::fromStdString(e.text()).startsWith(prefix));
    }
    // What is not a regular file is refused before it is opened (a FIFO would block, /dev/zero
    // never ends), and so is a file past the size limit (core/base/limits.h).
    void onlyRegularFilesOfBoundedSizeAreRead() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo.json").toStdString();
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        scen::Scenario s;
        scen::ScenarioError e;
        QVERIFY(!scen::loadScenario(fifo, s, e));
        QVERIFY2(e.text().find("not a regular file") != std::string::npos, e.text().c_str());
        QVERIFY(!scen::loadScenario("/dev/zero", s, e));
        QVERIFY2(e.text().find("not a regular file") != std::string::npos, e.text().c_str());
        QVERIFY(!scen::loadScenario(dir.path().toStdString(), s, e));
        QVERIFY2(e.text().find("a directory") != std::string::npos, e.text().c_str());
        const std::string big = dir.filePath("big.json").toStdString();
        { std::ofstream(big) << " "; }
        QCOMPARE(truncate(big.c_str(), sched::limits::kMaxScenarioFile + 1), 0); // sparse: no disk used
        QVERIFY(!scen::loadScenario(big, s, e));
        QVERIFY2(e.text().find("MiB (the limit: core/base/limits.h)") != std::string::npos, e.text().c_str());
    }
    void missingFileIsReported() {
        scen::Scenario s;
        scen::ScenarioError e;
        QVERIFY(!scen::loadScenario("/nonexistent/x.json", s, e));
        QVERIFY(e.text().find("built-in: ") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestScenarioParser)
#include "tst_scenario_parser.moc"
