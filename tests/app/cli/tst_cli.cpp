// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli: option errors name the flag and the accepted values; run prints the tables;
// the default scenario orders the waker's max delay none >= voluntary >= lazy >= full.
#include "app/cli/experiment_command.h"
#include "app/cli/run_command.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <sstream>

using namespace sched;

namespace {

std::string runOk(std::vector<std::string> args) {
    RunOptions o;
    const std::string err = parseRunOptions(args, o);
    if (!err.empty()) qFatal("%s", err.c_str());
    std::ostringstream out, errs;
    if (runCommand(o, out, errs) != 0) qFatal("run failed: %s", errs.str().c_str());
    return out.str();
}

double wakerMaxDelayMs(const std::string& model) {
    const std::string json = runOk({"kernel-hogs-waker", "--preempt", model, "--json"});
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
    for (const auto& row : o["runs"].toArray()[0].toObject()["latency"].toArray())
        if (row.toObject()["task"].toString() == "waker")
            return row.toObject()["max_delay_ns"].toDouble() / 1e6;
    qFatal("no waker row");
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
  private slots:
    void optionErrorsNameTheFlagAndWhatIsAccepted_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("model")
            << QStringList{"x", "--preempt", "lazzy"}
            << "--preempt: 'lazzy' is not a preemption model; accepted: none, voluntary, full, lazy";
        QTest::newRow("kernel") << QStringList{"--kernel", "6.6"}
                                << "--kernel: '6.6' is not a kernel; accepted: 6.6-queue, 6.12, 6.18, "
                                   "6.18.44, 6.18.45, 7.0, 7.1, 7.2, 7.3, auto-rfc";
        QTest::newRow("hz") << QStringList{"--hz", "200"}
                            << "--hz: '200' is not a kernel HZ; accepted: 100, 250, 300, 1000";
        QTest::newRow("cpus") << QStringList{"--cpus", "0"}
                              << "--cpus: '0' is not a CPU count; accepted: 1 to 256";
        QTest::newRow("slice") << QStringList{"--base-slice", "0.7"}
                               << "--base-slice: '0.7' is not a duration";
        QTest::newRow("slice range") << QStringList{"--base-slice", "1s"} << "accepted: 0.1ms to 100ms";
        QTest::newRow("rseq slice ext")
            << QStringList{"--rseq-slice-ext", "3us"} << "accepted: 5us to 50us (or off: a kernel without";
        QTest::newRow("feature") << QStringList{"--feature", "FOO=on"}
                                 << "--feature: unknown feature 'FOO'; accepted: PLACE_LAG";
        QTest::newRow("feature state")
            << QStringList{"--feature", "PREEMPT_SHORT=maybe"} << "write NAME=on or NAME=off";
        QTest::newRow("repeat") << QStringList{"--repeat", "0"} << "--repeat: '0' is not a run count";
        QTest::newRow("sort") << QStringList{"--sort", "avg,bogus"}
                              << "accepted keys: avg, max, switch, runtime, sum";
        QTest::newRow("unknown") << QStringList{"--frobnicate", "1"} << "unknown option '--frobnicate'";
        QTest::newRow("missing value") << QStringList{"--seed"} << "--seed: a value is missing";
        QTest::newRow("two scenarios") << QStringList{"a", "b"} << "unexpected argument 'b'";
    }
    void optionErrorsNameTheFlagAndWhatIsAccepted() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        std::vector<std::string> v;
        for (const auto& a : args)
            v.push_back(a.toStdString());
        RunOptions o;
        const QString err = QString::fromStdString(parseRunOptions(v, o));
        QVERIFY2(err.contains(expected), qPrintable(err));
    }
    // An experiment row that names no task group of the runs would print zeros: refused, with the
    // comms the runs have.
    void anExperimentRowMatchingNothingIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("x.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"J({ "name": "x", "title": "t", "report": "perf-sched-latency", "repeat": 1, "rows": ["hog", "chromium"],
          "scenario": { "duration": "50ms", "machine": {"cpus": 1},
            "tasks": [ {"comm": "hog", "behavior": [{"run": "100ms"}]},
                       {"comm": "waker", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "5ms"}]}]} ] },
          "configurations": [ {"label": "a", "machine": {"preempt": "none"}}, {"label": "b", "machine": {"preempt": "full"}} ] })J");
        f.close();
        ExperimentOptions o;
        QVERIFY(parseExperimentOptions({path.toStdString()}, o).empty());
        std::ostringstream out, err;
        QCOMPARE(experimentCommand(o, out, err), 2);
        QVERIFY2(err.str().find("rows: 'chromium' is no task group of the runs; their comms: hog, waker") !=
                     std::string::npos,
                 err.str().c_str());
        QVERIFY(out.str().empty());
    }
    void overridesThatContradictTheScenarioAreRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("pinned.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"J({"machine": {"cpus": 2}, "tasks": [{"comm": "p", "cpus": [1], "behavior": [{"run": "1ms"}]}]})J");
        f.close();
        RunOptions o;
        QVERIFY(parseRunOptions({path.toStdString(), "--cpus", "1"}, o).empty());
        std::ostringstream out, err;
        QCOMPARE(runCommand(o, out, err), 2);
        QVERIFY2(err.str().find("--cpus 1: task 'p' is pinned to CPU 1") != std::string::npos,
                 err.str().c_str());
        RunOptions p;
        QVERIFY(parseRunOptions({"kernel-hogs-waker", "--kernel", "6.12", "--preempt", "lazy"}, p).empty());
        std::ostringstream out2, err2;
        QCOMPARE(runCommand(p, out2, err2), 2);
        QVERIFY(err2.str().find("accepted on 6.12: none, voluntary, full") != std::string::npos);
    }
    void runPrintsLatencyTablePerfStatAndCpuUse() {
        const std::string out = runOk({"kernel-hogs-waker", "--preempt", "full", "--duration", "500ms"});
        QVERIFY(out.find("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay "
                         "ms    | Sum delay ms     |") != std::string::npos);
        QVERIFY(out.find("  hog:(2)") != std::string::npos);
        QVERIFY(out.find("  TOTAL:") != std::string::npos);
        QVERIFY(out.find("context-switches") != std::string::npos);
        QVERIFY(out.find("voluntary context-switches") != std::string::npos);
        QVERIFY(out.find("0.500000000 seconds time elapsed") != std::string::npos);
        QVERIFY(out.find("CPU1") != std::string::npos);
    }
    // run takes NAME@KEY=VALUE as compare does; the command line's own options go over it.
    void runTakesSettingsAfterAnAt() {
        const std::string out =
            runOk({"kernel-hogs-waker@hz=1000,kernel=7.1,duration=300ms", "--preempt", "full"});
        QVERIFY2(out.find("HZ=1000, kernel 7.1 PREEMPT_DYNAMIC, preempt=full") != std::string::npos,
                 out.c_str());
        QVERIFY(out.find("0.300000000 seconds time elapsed") != std::string::npos);
        RunOptions o;
        QVERIFY(parseRunOptions({"kernel-hogs-waker@hz=99"}, o).empty());
        std::ostringstream sink, errs;
        QCOMPARE(runCommand(o, sink, errs), 2);
        QVERIFY2(errs.str().find("kernel-hogs-waker@hz=99: --hz: '99' is not a kernel HZ") !=
                     std::string::npos,
                 errs.str().c_str());
    }
    // The RSEQ slice extensions of run 1, by outcome (debugfs rseq/stats' s_yielded ...); none
    // where the kernel is built without them, and JSON carries the counts of every run.
    void runCountsTheRseqSliceExtensions() {
        const std::string on = runOk({"rseq-lock", "--duration", "200ms"});
        QVERIFY2(on.find("RSEQ slice extensions (run 1): ") != std::string::npos &&
                     on.find(" yielded, ") != std::string::npos,
                 on.c_str());
        const std::string off = runOk({"rseq-lock", "--duration", "200ms", "--rseq-slice-ext", "off"});
        QVERIFY(off.find("RSEQ slice extensions") == std::string::npos);
        const std::string json = runOk({"rseq-lock", "--duration", "200ms", "--json"});
        const QJsonObject run = QJsonDocument::fromJson(QByteArray::fromStdString(json))
                                    .object()["runs"]
                                    .toArray()[0]
                                    .toObject()["rseq_slice_ext"]
                                    .toObject();
        QVERIFY(run["yielded"].toInt() > 0);
        QVERIFY(run.contains("expired") && run.contains("revoked") && run.contains("aborted"));
    }
    // A legacy (32-byte) rseq area gets no extension on 7.0.10+ / 7.1 (99428157dcf3): run says so for
    // the task group, also when the requests come from the children it forks (they inherit the area).
    void runSaysWhyALegacyRseqAreaGotNoExtension() {
        QTemporaryDir dir;
        const auto write = [&](const char* name, const char* rseq) {
            const QString path = dir.filePath(QString::fromUtf8(name));
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly)) return std::string();
            QByteArray json(
                R"J({"duration": "200ms", "machine": {"cpus": 1, "kernel": "7.1", "preempt": "lazy"},
              "programs": {"worker": [{"repeat": "forever", "body": [{"slice_ext": "request"}, {"run": "4us"},
                {"slice_ext": "yield"}, {"run": "40us"}]}]},
              "tasks": [{"comm": "parent", "rseq": "ABI", "behavior": [{"fork": "worker"}, {"wait": "children"}]},
                {"comm": "waker", "behavior": [{"repeat": "forever", "body": [{"timer": "1ms"}, {"run": "30us"}]}]}]})J");
            f.write(json.replace("ABI", rseq));
            return path.toStdString();
        };
        const std::string v1 = runOk({write("v1.json", "v1")});
        QVERIFY2(v1.find("RSEQ slice extensions: none for parent: its rseq area is the original 32 bytes") !=
                         std::string::npos &&
                     v1.find("RSEQ slice extensions (run 1)") == std::string::npos,
                 v1.c_str());
        const std::string v2 = runOk({write("v2.json", "v2")});
        QVERIFY2(v2.find("RSEQ slice extensions (run 1): ") != std::string::npos &&
                     v2.find("none for parent") == std::string::npos,
                 v2.c_str());
    }
    void runCountsTheKernelMutexes() {
        const std::string out = runOk({"priority-inversion", "--duration", "2s"});
        const size_t at = out.find(" Kernel mutexes (run 1):\n   inode_lock");
        QVERIFY2(at != std::string::npos, out.c_str());
        QVERIFY(out.find("contended", at) != std::string::npos &&
                out.find("wait avg", at) != std::string::npos);
    }

    // --lag-csv: a block per tick, each CPU's entities and a sum row whose weighted vlag is in
    // (-W, 0]; a file that cannot be written is named, with the reason, and the run fails.
    void lagCsvHasATablePerTick() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("lag.csv").toStdString();
        runOk({"nice-pair", "--lag-csv", path, "--range", "0ms-10ms"});
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QStringLiteral("time_ns,cpu,entity,state,weight,vruntime,V,vlag_ns,lag_ns,"
                                          "deadline_minus_V_ns,slice_ns,eligible"));
        int sums = 0;
        for (const QString& l : lines.mid(1)) {
            const QStringList c = l.split(',');
            QCOMPARE(c.size(), 12);
            if (c[2] != "(sum)") {
                QCOMPARE(c[11] == "yes", c[7].toLongLong() >= 0); // eligible <=> vlag >= 0
                continue;
            }
            sums++;
            const qint64 W = c[4].toLongLong(), weighted = c[7].toLongLong();
            QVERIFY(weighted <= 0 && weighted > -W);
        }
        QCOMPARE(sums, 10); // the ticks at 1 .. 9 ms (HZ 1000) and the end
        RunOptions o;
        QVERIFY(parseRunOptions({"nice-pair", "--lag-csv", "/nonexistent-dir/lag.csv"}, o).empty());
        std::ostringstream out, err;
        QCOMPARE(runCommand(o, out, err), 1);
        QVERIFY2(err.str().find("cannot write /nonexistent-dir/lag.csv: ") != std::string::npos,
                 err.str().c_str());
    }

    void repeatReportsMeanAndStandardError() {
        const std::string out = runOk({"preempt-short", "--repeat", "3", "--duration", "300ms"});
        QVERIFY(out.find("(3 runs)") != std::string::npos);
        QVERIFY(out.find("( +-") != std::string::npos);
        QVERIFY(out.find("standard error") != std::string::npos);
    }
    void jsonIsValid() {
        const std::string json = runOk({"pipe-pingpong", "--json", "--repeat", "2"});
        QJsonParseError e;
        const QJsonDocument d = QJsonDocument::fromJson(QByteArray::fromStdString(json), &e);
        QCOMPARE(e.error, QJsonParseError::NoError);
        QCOMPARE(d.object()["runs"].toArray().size(), 2);
        QVERIFY(d.object()["context_switches"].toObject()["mean"].toDouble() > 1000);
    }
    void defaultScenarioOrdersWakerMaxDelayByModel() {
        // The acceptance run: hogs in 20 ms kernel sections without cond_resched(), a periodic
        // nice-0 waker. none waits for the return to user (near 20 ms); full is within a tick.
        const double none = wakerMaxDelayMs("none"), vol = wakerMaxDelayMs("voluntary");
        const double lazy = wakerMaxDelayMs("lazy"), full = wakerMaxDelayMs("full");
        QVERIFY2(none >= vol && vol >= lazy && lazy >= full,
                 qPrintable(
                     QString("none %1 voluntary %2 lazy %3 full %4").arg(none).arg(vol).arg(lazy).arg(full)));
        QVERIFY2(none > 15.0 && none <= 20.5, qPrintable(QString::number(none)));
        QVERIFY2(full <= 4.1, qPrintable(QString::number(full)));
        QVERIFY(lazy < none);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
