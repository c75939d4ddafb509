// SPDX-License-Identifier: GPL-3.0-or-later
// The published experiments at their quick sizes (scenarios/experiments/*.json --quick): the
// directions of the published tables (Ankur Arora, "[PATCH v2 27/35] sched: support preempt=none
// under PREEMPT_AUTO", LKML, 27 May 2024; Ankur Arora, "[PATCH 25/30] sched: support preempt=full
// under PREEMPT_AUTO", LKML, 12 Feb 2024; Peter Zijlstra, "[PATCH 21/24] sched/eevdf: Allow shorter
// slices to wakeup-preempt", LKML, 27 Jul 2024, merged as 85e511df3cec) and consistency checks
// derived from those tables, plus kernbench's output layout, make's jobserver and the experiment
// file's errors.
// A direction the engine does not reproduce is a finding (QEXPECT_FAIL with the numbers'
// cause), never a threshold loosened until it passes.
#include "app/cli/experiment_report.h"
#include "tests/test_support.h"

#include "metrics/run_stats.h"
#include "scenarios/workload.h"

#include <algorithm>
#include <cmath>

using namespace sched;

namespace {

std::vector<ConfigRuns> runQuick(const std::string& file, scen::Experiment& x) {
    scen::ScenarioError err;
    if (!scen::loadExperimentFile(std::string(SCHEDSCOPE_SCENARIO_DIR) + "/experiments/" + file, true, x,
                                  err))
        qFatal("%s", err.text().c_str());
    std::vector<ConfigRuns> out;
    LatencyOptions lo;
    for (const auto& c : x.configs) {
        ConfigRuns cr{c.label, &c.scenario, {}};
        for (int r = 0; r < x.repeat; ++r)
            cr.runs.push_back(simulate(c.scenario, c.scenario.seed + uint64_t(r), lo));
        out.push_back(std::move(cr));
    }
    return out;
}

RunStats stats(const scen::Experiment& x, const ConfigRuns& c, const std::string& metric) {
    for (const auto& m : experimentMetrics(x, c))
        if (m.name == metric) return computeRunStats(m.values);
    qFatal("no metric %s", metric.c_str());
    return {};
}

double mean(const scen::Experiment& x, const ConfigRuns& c, const std::string& metric) {
    return stats(x, c, metric).mean;
}

bool within(double a, double b, double fraction) {
    return std::abs(a - b) <= fraction * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestExperiments : public QObject {
    Q_OBJECT
  private slots:
    // Arora's v2 27/35 kernbench: at half load under preempt=none the PREEMPT_AUTO build preempts
    // compile jobs only lazily, so a request pending in a system call is consumed by the job's
    // next sleep instead of a cond_resched() point: fewer involuntary switches, the same wall time.
    void kernbenchHalfLoadNoneLazyBuildHasFewerInvoluntarySwitches() {
        scen::Experiment x;
        const auto c = runQuick("preempt-auto-none-kernbench.json", x);
        QCOMPARE(c[0].label, std::string("PREEMPT_AUTO"));
        const double invAuto = mean(x, c[0], "kernbench.involuntary"),
                     invDyn = mean(x, c[1], "kernbench.involuntary");
        const double wallAuto = mean(x, c[0], "kernbench.elapsed_s"),
                     wallDyn = mean(x, c[1], "kernbench.elapsed_s");
        const double volAuto = mean(x, c[0], "kernbench.voluntary"),
                     volDyn = mean(x, c[1], "kernbench.voluntary");
        qInfo("inv-csw AUTO %.0f DYNAMIC %.0f, vol-csw %.0f vs %.0f, wall %.3f vs %.3f s", invAuto, invDyn,
              volAuto, volDyn, wallAuto, wallDyn);
        // The post's -30 % (13,056 against 18,751), within 0.5 - 2x: 15 - 60 % fewer.
        const double fewer = 1 - invAuto / invDyn;
        QVERIFY2(fewer >= 0.15 && fewer <= 0.60,
                 qPrintable(QString("inv-csw %1 vs %2").arg(invAuto).arg(invDyn)));
        QVERIFY2(within(wallAuto, wallDyn, 0.01),
                 qPrintable(QString("wall %1 vs %2").arg(wallAuto).arg(wallDyn)));
        // The post's voluntary switches: +4.5 % for the lazy build (191,000 against 182,857).
        QEXPECT_FAIL(
            "",
            "finding: a compile job's sleeps are fixed by the workload model, so both builds sleep "
            "alike (179,032 and 179,031 at the full size). The post's +8.1 k exceeds its involuntary "
            "drop (5.7 k), which bounds the one lazy route to more sleeps (a preemption turned into a "
            "block), and its preempt=full table has +2.6 % with no lazy bit set: much of it is the two "
            "builds, not lazy preemption (docs/fidelity.md)",
            Continue);
        QVERIFY2(volAuto >= volDyn * 1.0225 && volAuto <= volDyn * 1.09,
                 qPrintable(QString("vol-csw %1 vs %2").arg(volAuto).arg(volDyn)));
    }

    // Arora's 25/30 kernbench: under preempt=full both builds set the eager bit alike.
    void kernbenchHalfLoadFullBothBuildsAlike() {
        scen::Experiment x;
        const auto c = runQuick("preempt-auto-full-kernbench.json", x);
        const double invAuto = mean(x, c[0], "kernbench.involuntary"),
                     invDyn = mean(x, c[1], "kernbench.involuntary");
        qInfo("inv-csw AUTO %.0f DYNAMIC %.0f", invAuto, invDyn);
        QVERIFY2(within(invAuto, invDyn, 0.05),
                 qPrintable(QString("inv-csw %1 vs %2").arg(invAuto).arg(invDyn)));
        QVERIFY(within(mean(x, c[0], "kernbench.elapsed_s"), mean(x, c[1], "kernbench.elapsed_s"), 0.01));
    }

    // Arora's messaging numbers (v2 27/35; v1, "[PATCH 24/30]" of 12 Feb 2024): under preempt=none
    // the PREEMPT_AUTO build switches more than PREEMPT_DYNAMIC (v2: +7.8 % in all, +7.5 %
    // voluntary, +8.7 % involuntary; v1: +4.0 %); elapsed time stays within 10 %. The mechanism is
    // the skipped clock update of __schedule() (rq_clock.cpp): PREEMPT_DYNAMIC's eager bit asks for
    // it and its switch waits for the end of the system call, so the woken task pays for the
    // waker's tail; the lazy bit asks for none. One run's voluntary count moves by ~9 % with the
    // seed, so the direction is asserted as a difference larger than its standard error over the
    // ten runs (seeds 1 - 10, the same every time), and the size as 0.5 - 2x the post's.
    void messagingNoneAutoSwitchesMoreByThePublishedSize() {
        scen::Experiment x;
        const auto c = runQuick("preempt-auto-none-messaging.json", x);
        QCOMPARE(x.repeat, 10);
        const RunStats volAuto = stats(x, c[0], "voluntary"), volDyn = stats(x, c[1], "voluntary");
        const double csAuto = mean(x, c[0], "context_switches"), csDyn = mean(x, c[1], "context_switches");
        const double elAuto = mean(x, c[0], "elapsed_s"), elDyn = mean(x, c[1], "elapsed_s");
        const double se = std::hypot(volAuto.stderror, volDyn.stderror);
        qInfo("vol %.0f vs %.0f (difference %.0f, its standard error %.0f), cs %.0f vs %.0f, elapsed %.4f vs "
              "%.4f",
              volAuto.mean, volDyn.mean, volAuto.mean - volDyn.mean, se, csAuto, csDyn, elAuto, elDyn);
        QVERIFY2(volAuto.mean - volDyn.mean > se,
                 qPrintable(QString("voluntary %1 vs %2").arg(volAuto.mean).arg(volDyn.mean)));
        const auto effectLike = [](double autoBuild, double dyn, double published) {
            const double effect = autoBuild / dyn - 1;
            return effect >= published / 2 && effect <= published * 2;
        };
        QVERIFY2(effectLike(csAuto, csDyn, 0.078), qPrintable(QString("cs %1 vs %2").arg(csAuto).arg(csDyn)));
        QVERIFY2(effectLike(volAuto.mean, volDyn.mean, 0.075),
                 qPrintable(QString("voluntary %1 vs %2").arg(volAuto.mean).arg(volDyn.mean)));
        QVERIFY(within(elAuto, elDyn, 0.10));
        // The post's voluntary and involuntary counts add up to perf stat -a's context switches
        // (2,286,220 + 887,742 = 3,173,961): they split every switch, the idle task's included.
        QCOMPARE(volAuto.mean + mean(x, c[0], "involuntary"), csAuto);
        QCOMPARE(volDyn.mean + mean(x, c[1], "involuntary"), csDyn);
        // 10-15 messages per context switch, as in Arora's v2 27/35 run (20 groups x 20 senders x 20
        // receivers x 5000 rounds = 40 M messages in 3.17 M switches, ~12.6 each; our derivation, the
        // post does not say it). Here each of the 8 groups' 20 senders writes 500 rounds to 20
        // receivers (the full size: docs/fidelity.md).
        const double messages = 8.0 * 20 * 20 * 500;
        QVERIFY2(messages / csDyn >= 9 && messages / csDyn <= 16,
                 qPrintable(QString("%1 messages per switch").arg(messages / csDyn)));
    }

    // The PREEMPT_SHORT table (85e511df3cec): PREEMPT_SHORT lowers the short-slice cyclictest's avg
    // and summed delay and raises massive_intr's switch count; the browser should barely move.
    void preemptShortDirections() {
        scen::Experiment x;
        const auto c = runQuick("preempt-short.json", x);
        QCOMPARE(c[1].label, std::string("PREEMPT_SHORT"));
        const auto m = [&](int i, const char* metric) { return mean(x, c[size_t(i)], metric); };
        qInfo("cyclictest avg %.3f -> %.3f ms, sum %.0f -> %.0f ms; massive_intr switches %.0f -> %.0f; "
              "chromium avg %.3f -> %.3f ms",
              m(0, "cyclictest.avg_delay_ms"), m(1, "cyclictest.avg_delay_ms"),
              m(0, "cyclictest.sum_delay_ms"), m(1, "cyclictest.sum_delay_ms"), m(0, "massive_intr.switches"),
              m(1, "massive_intr.switches"), m(0, "chromium-browse.avg_delay_ms"),
              m(1, "chromium-browse.avg_delay_ms"));
        QVERIFY(m(1, "cyclictest.avg_delay_ms") < m(0, "cyclictest.avg_delay_ms"));
        QVERIFY(m(1, "cyclictest.sum_delay_ms") < m(0, "cyclictest.sum_delay_ms"));
        QVERIFY(m(1, "massive_intr.switches") > m(0, "massive_intr.switches"));
        // The sizes, against the post's (each effect within 0.5 - 2x of the published one). With the
        // benchmarks in their terminal's autogroup and the desktop in its own (the experiment's
        // sessions), chromium competes as the desktop's group entity: PREEMPT_SHORT no longer
        // lets it past massive_intr, as on the rpi4 (unchanged within its spread); with every task
        // in the root group its avg delay fell by 43 %.
        const auto effect = [&](const char* metric) { return m(1, metric) / m(0, metric) - 1; };
        const double sw = effect("massive_intr.switches"), cyc = effect("cyclictest.avg_delay_ms");
        QVERIFY2(sw >= 0.5 * 0.075 && sw <= 2 * 0.075,
                 qPrintable(QString("massive_intr switches %1").arg(sw)));
        QEXPECT_FAIL("",
                     "issue 27: cyclictest's avg delay falls by about two thirds where the rpi4's fell by a "
                     "fifth (with groups; by 96 % without)",
                     Continue);
        QVERIFY2(cyc <= 0.5 * -0.20 && cyc >= 2 * -0.20, qPrintable(QString("cyclictest avg %1").arg(cyc)));
        QVERIFY(within(m(1, "chromium-browse.avg_delay_ms"), m(0, "chromium-browse.avg_delay_ms"), 0.10));
    }

    // GNU time's %P (kernbench's %cpu) is (user + system) / elapsed x 100 exactly (time(1));
    // involuntary switches are far fewer than voluntary ones at half load and far more when
    // over-subscribed, as in Arora's -j 32 / -j 256 / -j tables (v1 24/30: 13,056 involuntary
    // against 191,000 voluntary at -j 32).
    void kernbenchConsistency() {
        const auto run = [](const std::string& args) {
            scen::Scenario s = scenarioFrom(
                R"J({"duration": "300s", "machine": {"cpus": 8, "hz": 250, "kernel": "6.18", "preempt": "none"},
                "tasks": [ {"workload": "kernbench", "args": ")J" +
                args + R"J("}, {"workload": "kthreads"} ]})J");
            return simulate(s, 1, {}).kernbench.at(0);
        };
        const scen::KernbenchNumbers half = run("-j 4 --objects 200"), over = run("-j 0 --objects 200");
        QVERIFY(half.finished && over.finished);
        QCOMPARE(half.percentCpu, 100.0 * (half.user + half.system) / half.elapsed);
        qInfo("half load inv %.0f vol %.0f; maximal inv %.0f vol %.0f", half.involuntary, half.voluntary,
              over.involuntary, over.voluntary);
        QVERIFY(half.involuntary * 5 < half.voluntary);
        QVERIFY(over.involuntary > over.voluntary);
        // Arora's over-subscribed builds (v1 24/30) had 1.7x (-j 256) to 2.5x (-j) more involuntary
        // than voluntary switches.
        QEXPECT_FAIL(
            "",
            "finding: the simulated maximal load reaches ~1.35x. The machine of Arora's v1 24/30 spent 40 % "
            "more CPU time "
            "on the same build at maximal load (2337 vs 1668 CPU-s, same ~190 k sleeps: SMT and cache "
            "contention, "
            "not modelled), so its bursts spanned more slice expiries; rounds 1.4x longer give 2.14x here",
            Continue);
        QVERIFY(over.involuntary > over.voluntary * 1.7);
        // The system share of a compile job is the modelled ~15 %.
        const double share = half.system / (half.user + half.system);
        QVERIFY2(share > 0.12 && share < 0.20, qPrintable(QString::number(share)));
    }

    // make -j N keeps at most N jobs alive (it reaps one exited child, then forks the next).
    void makeJobserverKeepsAtMostNJobs() {
        scen::Scenario s = scenarioFrom(
            R"J({"duration": "200s", "machine": {"cpus": 4, "hz": 250, "kernel": "6.18", "preempt": "none"},
            "tasks": [ {"workload": "kernbench", "args": "-j 3 --objects 60"} ]})J");
        Engine e = scen::instantiate(s, 1, TraceOptions{false});
        e.runUntil(s.duration);
        e.finish();
        std::vector<std::pair<Time, int>> edges;
        int jobs = 0;
        for (const Task& t : e.tasks())
            if (t.comm == "cc1") {
                ++jobs;
                QVERIFY(t.exitedAt > t.startedAt);
                edges.push_back({t.startedAt, +1});
                edges.push_back({t.exitedAt, -1});
            }
        QCOMPARE(jobs, 60);
        std::sort(edges.begin(), edges.end()); // an exit sorts before a fork at the same time
        int alive = 0, most = 0;
        for (const auto& [at, d] : edges)
            most = std::max(most, alive += d);
        QCOMPARE(most, 3);
    }

    // kernbench's block, line by line as the script prints it (mean, sample standard deviation).
    void kernbenchFormat() {
        scen::KernbenchNumbers a, b;
        a.elapsed = 74.0, b.elapsed = 74.9;           // mean 74.45, sd 0.6364
        a.user = 1418.0, b.user = 1420.0;             // 1419.00, 1.4142
        a.system = 247.0, b.system = 248.0;           // 247.50, 0.7071
        a.percentCpu = 2250, b.percentCpu = 2230;     // 2240.00, 14.1421
        a.involuntary = 13000, b.involuntary = 13100; // 13050.00, 70.7107
        a.voluntary = 191000, b.voluntary = 191000;   // 191000.00, 0.00
        const std::string expected = "Average Half load -j 32 Run (std deviation):\n"
                                     "Elapsed Time 74.45 (0.64)\n"
                                     "User Time 1419.00 (1.41)\n"
                                     "System Time 247.50 (0.71)\n"
                                     "Percent CPU 2240.00 (14.14)\n"
                                     "Context Switches 13050.00 (70.71)\n"
                                     "Sleeps 191000.00 (0.00)\n";
        QCOMPARE(scen::formatKernbench("Half load -j 32", {a, b}), expected);
        scen::KernbenchArgs k;
        k.jobs = 32;
        QCOMPARE(scen::kernbenchLoadName(k, 64), std::string("Half load -j 32"));
        k.jobs = 256;
        QCOMPARE(scen::kernbenchLoadName(k, 64), std::string("Optimal load -j 256"));
        k.jobs = 0;
        QCOMPARE(scen::kernbenchLoadName(k, 64), std::string("Maximal load -j"));
    }

    void badToolArgumentsNameTheArgument_data() {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("kernbench -j word") << "kernbench"
                                           << "-j many"
                                           << "-j: 'many' is not a job count";
        QTest::newRow("kernbench objects") << "kernbench"
                                           << "--objects 30"
                                           << "multiple of 20";
        QTest::newRow("kernbench unknown") << "kernbench"
                                           << "-x"
                                           << "unsupported kernbench option '-x'";
        QTest::newRow("kthreads rate") << "kthreads"
                                       << "-r 0"
                                       << "-r: '0' is not a wake-up rate";
        QTest::newRow("kthreads value") << "kthreads"
                                        << "-c"
                                        << "-c: needs a value";
        QTest::newRow("browser fps") << "browser"
                                     << "-f 1000"
                                     << "accepted: 1 to 240";
    }
    void badToolArgumentsNameTheArgument() {
        QFETCH(QString, tool);
        QFETCH(QString, args);
        QFETCH(QString, needle);
        scen::Scenario s;
        scen::ScenarioError err;
        const std::string json = "{\"tasks\": [ {\"workload\": \"" + tool.toStdString() + "\", \"args\": \"" +
                                 args.toStdString() + "\"} ]}";
        QVERIFY(!scen::parseScenario(json, "w.json", s, err));
        QVERIFY2(err.message.find(needle.toStdString()) != std::string::npos, err.text().c_str());
        QCOMPARE(err.field, std::string("tasks[0].args"));
    }

    void malformedExperimentsNameFileLineAndField_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<bool>("quick");
        const QString base = R"J({"report": "perf-stat",
"scenario": {"tasks": [ {"workload": "massive_intr", "args": "2 1"} ]},
"configurations": [ {"label": "A", "machine": {"preempt": "none"}},
                    {"label": "B", "machine": {"preempt": "full"}} ])J";
        QTest::newRow("no report") << R"J({"scenario": {}, "configurations": []})J" << 1 << "report"
                                   << "needs a \"report\"" << false;
        QTest::newRow("bad report") << R"J({"report": "perf-top"})J" << 1 << "report"
                                    << "accepted: perf-stat, kernbench, perf-sched-latency" << false;
        QTest::newRow("one configuration") << R"J({"report": "perf-stat", "scenario": {},
"configurations": [ {"label": "A"} ]})J" << 2
                                           << "configurations"
                                           << "2 to 8 configurations" << false;
        QTest::newRow("duplicate label")
            << R"J({"report": "perf-stat", "scenario": {"tasks": [ {"workload": "massive_intr", "args": "2 1"} ]},
"configurations": [ {"label": "A"},
  {"label": "A"} ]})J"
            << 3 << "configurations[1].label"
            << "used twice" << false;
        QTest::newRow("bad patch")
            << R"J({"report": "perf-stat", "scenario": {"tasks": [ {"workload": "massive_intr", "args": "2 1"} ]},
"configurations": [ {"label": "A"},
  {"label": "B", "machine": {"preempt": "sometimes"}} ]})J"
            << 3 << "scenario (with configurations[1]).machine.preempt"
            << "sometimes" << false;
        QTest::newRow("no quick") << base + "}" << 1 << "quick"
                                  << "no \"quick\" size" << true;
        QTest::newRow("bad quick args") << base + R"J(,
"quick": {"scenario": {"tasks": [ {"args": "2"} ]}}})J"
                                        << 5 << "scenario (with configurations[0]).tasks[0].args"
                                        << "NPROC RUNTIME" << true;
        QTest::newRow("unknown key") << R"J({"report": "perf-stat", "repeats": 3})J" << 1 << "repeats"
                                     << "unknown field" << false;
        QTest::newRow("bad repeat") << R"J({"report": "perf-stat", "repeat": 0})J" << 1 << "repeat"
                                    << "accepted: 1 to 1000" << false;
        QTest::newRow("syntax") << "{\"report\": \"perf-stat\",\n \"repeat\": }" << 2 << ""
                                << "JSON syntax" << false;
    }
    void malformedExperimentsNameFileLineAndField() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, field);
        QFETCH(QString, needle);
        QFETCH(bool, quick);
        scen::Experiment x;
        scen::ScenarioError err;
        QVERIFY(!scen::parseExperiment(text.toStdString(), "x.json", quick, x, err));
        QCOMPARE(err.file, std::string("x.json"));
        QCOMPARE(err.line, line);
        QCOMPARE(err.field, field.toStdString());
        QVERIFY2(err.message.find(needle.toStdString()) != std::string::npos, err.text().c_str());
    }

    // The patches merge into the base scenario: objects by key, arrays by position.
    void configurationsPatchTheBaseScenario() {
        scen::Experiment x;
        scen::ScenarioError err;
        const std::string text = R"J({"report": "perf-stat", "repeat": 4,
          "scenario": {"machine": {"cpus": 8, "preempt": "none"}, "tasks": [ {"workload": "massive_intr", "args": "8 10"} ]},
          "configurations": [ {"label": "A"}, {"label": "B", "machine": {"preempt": "full"}} ],
          "quick": {"repeat": 2, "scenario": {"machine": {"cpus": 2}, "tasks": [ {"args": "2 1"} ]}}})J";
        QVERIFY2(scen::parseExperiment(text, "x.json", false, x, err), err.text().c_str());
        QCOMPARE(x.repeat, 4);
        QCOMPARE(x.configs[0].scenario.config.cpus, 8);
        QCOMPARE(x.configs[0].scenario.config.preempt, PreemptModel::None);
        QCOMPARE(x.configs[1].scenario.config.preempt, PreemptModel::Full);
        QCOMPARE(x.configs[1].scenario.config.cpus, 8);
        QCOMPARE(std::get<scen::MassiveIntrArgs>(x.configs[1].scenario.workloads[0].params).nproc, 8);
        QVERIFY2(scen::parseExperiment(text, "x.json", true, x, err), err.text().c_str());
        QCOMPARE(x.repeat, 2);
        QCOMPARE(x.configs[1].scenario.config.cpus, 2);
        QCOMPARE(x.configs[1].scenario.config.preempt, PreemptModel::Full);
        QCOMPARE(std::get<scen::MassiveIntrArgs>(x.configs[0].scenario.workloads[0].params).nproc, 2);
    }

    // Every experiment file in the tree parses at both sizes.
    void shippedExperimentsParse() {
        int files = 0;
        for (const char* f :
             {"preempt-auto-none-messaging.json", "preempt-auto-full-messaging.json",
              "preempt-auto-none-kernbench.json", "preempt-auto-full-kernbench.json", "preempt-short.json"})
            for (bool quick : {false, true}) {
                scen::Experiment x;
                scen::ScenarioError err;
                QVERIFY2(scen::loadExperimentFile(std::string(SCHEDSCOPE_SCENARIO_DIR) + "/experiments/" + f,
                                                  quick, x, err),
                         err.text().c_str());
                QVERIFY(x.configs.size() == 2 && !x.reference.empty());
                ++files;
            }
        QCOMPARE(files, 10);
    }
};

QTEST_GUILESS_MAIN(TestExperiments)
#include "tst_experiments.moc"
