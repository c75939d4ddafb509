// SPDX-License-Identifier: GPL-3.0-or-later
// The metrics CSV is one table: a row per comm as perf sched latency merges them, each with its
// tasks' switch-outs and migrations summed over every task of the comm, and TOTAL last, whose
// counts are the run's as countSwitches() counts them another way.
#include "metrics/export.h"
#include "tests/test_support.h"

using namespace sched;

class TestMetricsExport : public QObject {
    Q_OBJECT
  private slots:
    void aMergedRowSumsEveryTaskOfItsComm() {
        // Eight hogs started on CPU 0 of four: each is preempted and most migrate.
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(200 * kNsPerMs);
        e.finish();
        const Trace& t = e.trace();
        const QStringList lines = QString::fromStdString(metricsCsv(t, e.now())).trimmed().split('\n');
        QVERIFY(lines.size() >= 3);
        for (const QString& l : lines)
            QCOMPARE(l.count(','), 11);
        QStringList hog;
        for (const QString& l : lines)
            if (l.startsWith("hog,")) hog = l.split(',');
        QCOMPARE(hog.size(), 12);
        QCOMPARE(hog[1], QString()); // eight tasks: no one pid
        QCOMPARE(hog[2], QString("8"));
        std::vector<char> hogs(t.tasks.size(), 0);
        for (size_t i = 0; i < t.tasks.size(); ++i)
            hogs[i] = t.tasks[i].comm == "hog";
        const SwitchCounts h = countSwitchesOf(t, hogs);
        QVERIFY(h.involuntary > 8 && h.migrations > 1); // more than one task's worth
        QCOMPARE(hog[9].toLongLong(), h.voluntary);
        QCOMPARE(hog[10].toLongLong(), h.involuntary);
        QCOMPARE(hog[11].toLongLong(), h.migrations);
        const QStringList total = lines.back().split(',');
        QCOMPARE(total[0], QString("TOTAL"));
        const SwitchCounts all = countSwitches(t);
        QCOMPARE(total[9].toLongLong(), all.voluntary);
        QCOMPARE(total[10].toLongLong(), all.involuntary);
        QCOMPARE(total[11].toLongLong(), all.migrations);
    }
};

QTEST_GUILESS_MAIN(TestMetricsExport)
#include "tst_metrics_export.moc"
