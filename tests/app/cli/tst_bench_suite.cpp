// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli bench --suite: one command for every figure the docs give. At its quick size it
// must produce each part - the engine's table, the messaging run, the timeline's frames and bytes
// per slice, the imports - and the same run read from its trace.dat and from its ftrace text
// must give the same events. No time is asserted: the suite measures, the docs report.
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

class TestBenchSuite : public QObject {
    Q_OBJECT
  private slots:
    void theQuickSuiteMeasuresEveryPart() {
        QProcess p;
        p.start(SCHEDSCOPE_CLI, {"bench", "--suite", "--quick"});
        QVERIFY(p.waitForFinished(240000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(out + p.readAllStandardError()));
        for (const char* part :
             {"== the engine", "bench-64cpu-800", "per-event cost, 10000 vs 100",
              "== perf bench sched messaging", "context switches; wall", "== the timeline at 1920x1080",
              "full zoom-out", "new range median", "bytes per slice", "== trace import", "(the suite took"})
            QVERIFY2(out.contains(part), qPrintable(QString("no '%1' in:\n%2").arg(part, out)));
        // The machine's name and the date head the report.
        QVERIFY2(out.section('\n', 1, 1).contains(QRegularExpression(R"(\d{4}-\d\d-\d\d \d\d:\d\d UTC)")),
                 qPrintable(out));
        const QRegularExpression messaging(R"(simulated ([0-9.]+) s, ([0-9.]+) M context switches; wall)");
        const auto mm = messaging.match(out);
        QVERIFY2(mm.hasMatch() && mm.captured(1).toDouble() > 0 && mm.captured(2).toDouble() > 0,
                 qPrintable(out));
        const QRegularExpression perSlice(R"(: ([0-9.]+) bytes per slice)");
        const auto m = perSlice.match(out);
        QVERIFY2(m.hasMatch() && m.captured(1).toDouble() > 0, qPrintable(out));
        const QRegularExpression imported(R"((big\.dat|big\.txt) +[0-9.]+ MB, (\d+) events: import)");
        QMap<QString, qlonglong> events;
        for (auto it = imported.globalMatch(out); it.hasNext();) {
            const auto r = it.next();
            events[r.captured(1)] = r.captured(2).toLongLong();
        }
        QVERIFY2(events.size() == 2 && events["big.dat"] > 1000, qPrintable(out));
        QCOMPARE(events["big.dat"], events["big.txt"]); // one run, two formats, the same records
    }
    void optionsThatDoNotGoWithTheSuiteAreRefused() {
        for (const QStringList& args :
             {QStringList{"bench", "--quick"}, QStringList{"bench", "--suite", "bench-1cpu-100"},
              QStringList{"bench", "--suite", "--duration", "1s"},
              QStringList{"bench", "--suite", "--runs", "5"}}) {
            QProcess p;
            p.start(SCHEDSCOPE_CLI, args);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitCode(), 2);
            QVERIFY2(QString::fromUtf8(p.readAllStandardError()).contains("--suite"),
                     qPrintable(args.join(' ')));
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchSuite)
#include "tst_bench_suite.moc"
