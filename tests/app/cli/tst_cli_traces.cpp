// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli trace / compare / experiment / run --export-ftrace: what each prints, the
// files they write atomically, and their errors.
#include "tests/test_support.h"

#include "app/cli/compare_command.h"
#include "app/cli/experiment_command.h"
#include "app/cli/run_command.h"
#include "app/cli/trace_command.h"

#include <QStandardPaths>
#include <QTemporaryDir>

#include <fstream>
#include <regex>
#include <sstream>

namespace {
std::string trace(const char* name) {
    return std::string(SCHEDSCOPE_TEST_DATA) + "/traces/" + name;
}
} // namespace

class TestCliTraces : public QObject {
    Q_OBJECT
  private slots:
    // The workload from the trace's "VALID root=" marker, counted as the kernel counts it.
    void traceCommandPrintsTheWorkloadsMetrics() {
        TraceOptions2 o;
        QVERIFY(parseTraceOptions({trace("hackbench-g4-l2000-threads.trace.xz")}, o).empty());
        std::ostringstream out, err;
        QCOMPARE(traceCommand(o, out, err), 0);
        const std::string s = out.str();
        QVERIFY2(s.find("# workload: pid 17428 and its descendants, 164 tasks (from the marker)") !=
                     std::string::npos,
                 s.c_str());
        QVERIFY(s.find("hackbench:(161)") != std::string::npos);
        // The tree also holds the launching shell, perf and time: a few switches above hackbench's 11,564.
        QVERIFY2(std::regex_search(s, std::regex(R"(\n +11,5[6-9]\d      involuntary context-switches\n)")),
                 s.c_str());
        QVERIFY(s.find("ftrace text: 210546 lines") != std::string::npos);
    }

    void traceCommandErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("no file") << QStringList{} << "needs a trace file";
        QTest::newRow("two files") << QStringList{"a", "b"} << "one trace at a time";
        QTest::newRow("bad root") << QStringList{"a", "--root", "x"} << "--root: needs a pid";
        QTest::newRow("both") << QStringList{"a", "--all", "--root", "5"} << "choose one";
        QTest::newRow("unknown") << QStringList{"a", "--fast"} << "unknown option '--fast'";
        QTest::newRow("path without time")
            << QStringList{"a", "--critical-path", "18302"} << "write PID@TIME";
    }
    void traceCommandErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        std::vector<std::string> v;
        for (const QString& a : args)
            v.push_back(a.toStdString());
        TraceOptions2 o;
        const std::string e = parseTraceOptions(v, o);
        QVERIFY2(e.find(needle.toStdString()) != std::string::npos, e.c_str());
    }

    // --critical-path PID@TIME: cyclictest's measuring thread at 2.5 s ran after a timer
    // interrupt woke it on CPU 0 and it waited for the CPU (the trace's lines say 979.284781 ->
    // 979.284794); a pid the trace lacks or a time outside it is refused by name.
    void traceCriticalPath() {
        TraceOptions2 o;
        QVERIFY(parseTraceOptions(
                    {trace("cyclictest-i1000-l5000.trace.xz"), "--critical-path", "18302@2500ms"}, o)
                    .empty());
        std::ostringstream out, err;
        QCOMPARE(traceCommand(o, out, err), 0);
        const std::string s = out.str();
        QVERIFY2(s.find("Critical path of cyclictest:18302 back from 979.285") != std::string::npos,
                 s.c_str());
        QVERIFY2(
            s.find("979.284781 - 979.284794 s      13.000 us  cyclictest:18302       waited for a CPU") !=
                std::string::npos,
            s.c_str());
        QVERIFY(s.find("slept until an interrupt woke it on CPU 0") != std::string::npos);
        for (const char* bad : {"4@2500ms", "18302@99s"}) {
            TraceOptions2 b;
            QVERIFY(parseTraceOptions({trace("cyclictest-i1000-l5000.trace.xz"), "--critical-path", bad}, b)
                        .empty());
            std::ostringstream o2, e2;
            QCOMPARE(traceCommand(b, o2, e2), 2);
            QVERIFY2(e2.str().find("--critical-path: ") != std::string::npos, e2.str().c_str());
        }
    }

    void missingTraceFileIsAnError() {
        TraceOptions2 o;
        o.file = "/nonexistent/trace.txt";
        std::ostringstream out, err;
        QCOMPARE(traceCommand(o, out, err), 2);
        QVERIFY(err.str().find("/nonexistent/trace.txt: no such file") != std::string::npos);
    }

    // derive --classes N: the steady run-sleep cycles in N classes (a "cycle" op), written
    // atomically to -o; 1 draws every burst independently (a run and a sleep op); out of range is
    // refused with the range.
    void deriveWritesCycleClasses() {
        QTemporaryDir dir;
        for (int classes : {1, 2}) {
            DeriveCliOptions o;
            const std::string path = dir.filePath(QString("d%1.json").arg(classes)).toStdString();
            QVERIFY(parseDeriveOptions({trace("massive_intr-8x8ms-1ms.trace.xz"), "--classes",
                                        std::to_string(classes), "-o", path},
                                       o)
                        .empty());
            std::ostringstream out, err;
            QCOMPARE(deriveCommand(o, out, err), 0);
            scen::Scenario s;
            scen::ScenarioError e;
            QVERIFY2(scen::loadScenarioFile(path, s, e), e.text().c_str());
            size_t withCycles = 0, cycleOps = 0;
            for (const sched::Program& p : s.programs) {
                withCycles += !p.cycles.empty();
                for (const sched::CycleClasses& c : p.cycles)
                    QCOMPARE(c.run.size(), size_t(classes));
                for (const sched::Op& op : p.ops)
                    cycleOps += op.cycle >= 0;
            }
            QCOMPARE(withCycles, size_t(classes == 1 ? 0 : 1)); // the eight pooled workers have enough cycles
            QCOMPARE(cycleOps, size_t(classes == 1 ? 0 : 2));
        }
        DeriveCliOptions bad;
        QVERIFY(parseDeriveOptions({"t", "--classes", "0"}, bad)
                    .find("from 1 (bursts drawn independently) to 20") != std::string::npos);
    }

    // A workload that never ran in the trace (here: a pid the trace does not hold) has nothing to
    // derive: refused with the reason, and -o is not written (a scenario needs a task).
    void deriveRefusesAWorkloadThatNeverRan() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("none.json").toStdString();
        DeriveCliOptions o;
        QVERIFY(
            parseDeriveOptions({trace("massive_intr-8x8ms-1ms.trace.xz"), "--root", "4000000", "-o", path}, o)
                .empty());
        std::ostringstream out, err;
        QCOMPARE(deriveCommand(o, out, err), 2);
        QVERIFY2(err.str().find("no task of pid 4000000 and its descendants ran in") != std::string::npos,
                 err.str().c_str());
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    }

    // Simulation against simulation with one setting changed, and against a real trace.
    void compareTwoSettingsAndATrace() {
        CompareOptions o;
        QVERIFY(parseCompareOptions({"kernel-hogs-waker@preempt=none", "kernel-hogs-waker@preempt=full"}, o)
                    .empty());
        std::ostringstream out, err;
        QCOMPARE(compareCommand(o, out, err), 0);
        QVERIFY2(out.str().find("A: kernel-hogs-waker@preempt=none") != std::string::npos, out.str().c_str());
        QVERIFY(out.str().find("waker") != std::string::npos);
        CompareOptions t;
        QVERIFY(parseCompareOptions(
                    {trace("massive_intr-8x8ms-1ms.trace.xz"),
                     std::string(SCHEDSCOPE_SCENARIO_DIR) + "/real-machine/massive_intr-8x8ms-1ms.json",
                     "--to", "5s"},
                    t)
                    .empty());
        std::ostringstream out2, err2;
        QCOMPARE(compareCommand(t, out2, err2), 0);
        QVERIFY2(out2.str().find("massive_intr-8x8ms-1ms.trace.xz (trace)") != std::string::npos,
                 out2.str().c_str());
        QVERIFY(out2.str().find("massive_intr ") != std::string::npos);
        QVERIFY(out2.str().find("window 0ns - 5s") != std::string::npos);
        // Aligned where the workers first wake: B's window shifted, and said so.
        CompareOptions al;
        QVERIFY(parseCompareOptions(
                    {trace("massive_intr-8x8ms-1ms.trace.xz"),
                     std::string(SCHEDSCOPE_SCENARIO_DIR) + "/real-machine/massive_intr-8x8ms-1ms.json",
                     "--align", "wake:massive_intr", "--to", "5s"},
                    al)
                    .empty());
        QCOMPARE(al.align, std::string("wake:massive_intr"));
        std::ostringstream out3, err3;
        QCOMPARE(compareCommand(al, out3, err3), 0);
        QVERIFY2(out3.str().find(", aligned at first wakeup of massive_intr (B = A + ") != std::string::npos,
                 out3.str().c_str());
        al.align = "run:nosuch";
        std::ostringstream out4, err4;
        QCOMPARE(compareCommand(al, out4, err4), 2);
        QVERIFY2(err4.str().find("--align: no event 'run:nosuch' in both runs") != std::string::npos,
                 err4.str().c_str());
    }

    void compareErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("one run") << QStringList{"a"} << "needs two runs";
        QTest::newRow("three") << QStringList{"a", "b", "c"} << "a third";
        QTest::newRow("bad time") << QStringList{"a", "b", "--from", "5"} << "not a time";
        QTest::newRow("backwards") << QStringList{"a", "b", "--from", "2s", "--to", "1s"}
                                   << "--to must come after --from";
        QTest::newRow("align without event")
            << QStringList{"a", "b", "--align"} << "--align: needs an event both runs have";
    }
    void compareErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        std::vector<std::string> v;
        for (const QString& a : args)
            v.push_back(a.toStdString());
        CompareOptions o;
        const std::string e = parseCompareOptions(v, o);
        QVERIFY2(e.find(needle.toStdString()) != std::string::npos, e.c_str());
    }

    void compareSideErrors_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("needle");
        QTest::newRow("bad setting") << "kernel-hogs-waker@preempt"
                                     << "write key=value";
        QTest::newRow("bad value") << "kernel-hogs-waker@preempt=sometimes"
                                   << "not a preemption model";
        QTest::newRow("unknown scenario") << "no-such-scenario"
                                          << "not a built-in scenario";
    }
    void compareSideErrors() {
        QFETCH(QString, spec);
        QFETCH(QString, needle);
        CompareOptions o;
        o.a = "kernel-hogs-waker";
        o.b = spec.toStdString();
        std::ostringstream out, err;
        QCOMPARE(compareCommand(o, out, err), 2);
        QVERIFY2(err.str().find(needle.toStdString()) != std::string::npos, err.str().c_str());
    }

    // run --export-ftrace writes the run atomically, as text or (a .dat name) trace-cmd's binary;
    // `trace` reads either back with the same counts.
    void exportedRunReadsBack_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("ftrace text") << "run.trace";
        QTest::newRow("trace.dat") << "run.dat";
    }
    void exportedRunReadsBack() {
        QFETCH(QString, name);
        if (name.endsWith(".dat") && QStandardPaths::findExecutable("trace-cmd").isEmpty())
            QSKIP("trace-cmd is not installed");
        QTemporaryDir dir;
        const std::string path = dir.filePath(name).toStdString();
        RunOptions o;
        QVERIFY(parseRunOptions({"kernel-hogs-waker", "--export-ftrace", path}, o).empty());
        std::ostringstream out, err;
        QCOMPARE(runCommand(o, out, err), 0);
        const std::string runText = out.str();
        TraceOptions2 t;
        t.file = path;
        t.all = true;
        std::ostringstream tout, terr;
        QCOMPARE(traceCommand(t, tout, terr), 0);
        // The same system-wide count in both.
        const size_t at = runText.find("context-switches");
        QVERIFY(at != std::string::npos);
        std::string count = runText.substr(runText.rfind('\n', at) + 1, at - runText.rfind('\n', at) - 1);
        count.erase(0, count.find_first_not_of(' '));
        count.erase(count.find_last_not_of(' ') + 1);
        QVERIFY2(tout.str().find("System wide: " + count + " context-switches") != std::string::npos,
                 tout.str().c_str());
        // A directory that cannot be written: an error, nothing left behind.
        RunOptions bad;
        const std::string badPath = "/nonexistent-dir/" + name.toStdString();
        QVERIFY(parseRunOptions({"kernel-hogs-waker", "--export-ftrace", badPath}, bad).empty());
        std::ostringstream o2, e2;
        QCOMPARE(runCommand(bad, o2, e2), 1);
        QVERIFY(e2.str().find("cannot write " + badPath) != std::string::npos);
    }

    // experiment --quick --csv: one line per metric and configuration with its statistics.
    void experimentCsvAndJson() {
        ExperimentOptions o;
        QVERIFY(parseExperimentOptions(
                    {std::string(SCHEDSCOPE_SCENARIO_DIR) + "/experiments/preempt-auto-none-kernbench.json",
                     "--quick", "--csv", "--repeat", "2"},
                    o)
                    .empty());
        std::ostringstream out, err;
        QCOMPARE(experimentCommand(o, out, err), 0);
        std::istringstream in(out.str());
        std::string header, line;
        std::getline(in, header);
        QCOMPARE(header, std::string("experiment,configuration,metric,n,mean,stddev,stderr,min,max"));
        int rows = 0;
        bool kb = false;
        while (std::getline(in, line)) {
            ++rows;
            kb = kb ||
                 line.rfind("preempt-auto-none-kernbench,PREEMPT_DYNAMIC,kernbench.involuntary,2,", 0) == 0;
        }
        QVERIFY(kb);
        QVERIFY(rows >= 2 * 10);
        ExperimentOptions j = o;
        j.csv = false;
        j.json = true;
        QTemporaryDir dir;
        j.output = dir.filePath("x.json").toStdString();
        std::ostringstream jo, je;
        QCOMPARE(experimentCommand(j, jo, je), 0);
        QFile f(QString::fromStdString(j.output));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        QCOMPARE(doc.object().value("configurations").toArray().size(), 2);
        const QJsonObject m =
            doc.object().value("configurations").toArray().at(0).toObject().value("metrics").toObject();
        QCOMPARE(m.value("kernbench.elapsed_s").toObject().value("values").toArray().size(), 2);
    }

    void experimentOptionErrors() {
        ExperimentOptions o1, o2, o3;
        QVERIFY(parseExperimentOptions({}, o1).find("needs an experiment file") != std::string::npos);
        QVERIFY(parseExperimentOptions({"x.json", "--json", "--csv"}, o2).find("choose one") !=
                std::string::npos);
        QVERIFY(parseExperimentOptions({"x.json", "--repeat", "0"}, o3).find("accepted: 1 to 1000") !=
                std::string::npos);
        ExperimentOptions missing;
        missing.file = "/nonexistent.json";
        std::ostringstream out, err;
        QCOMPARE(experimentCommand(missing, out, err), 2);
        QVERIFY(err.str().find("/nonexistent.json") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCliTraces)
#include "tst_cli_traces.moc"
