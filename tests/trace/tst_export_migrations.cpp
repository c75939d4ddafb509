// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated run's migrations as a kernel trace records them: each on the CPU that ran
// set_task_cpu(), with the context of the path that moved the task, and read back the same.
#include "tests/test_support.h"
#include "tests/trace/export_support.h"

#include "trace/import.h"

#include <QTest>

#include <map>

using namespace sched;

class TestExportMigrations : public QObject {
    Q_OBJECT
  private slots:
    // set_task_cpu() traces sched_migrate_task on the CPU that runs it. Eight hogs start on CPU 0
    // of four; CPU 0's tick kicks the idle load balancer, the first idle CPU (find_new_ilb(): CPU
    // 1), which balances CPUs 2 and 3 on their behalf and then itself (_nohz_idle_balance()'s
    // for_each_cpu_wrap() from the next CPU): every one of those moves is CPU 1's event, whatever
    // its dest_cpu, and comes back from the text on CPU 1.
    void aMigrationIsTheEventOfTheCpuThatMovedTheTask() {
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(100 * kNsPerMs);
        e.finish();
        const Migrations& m = e.trace().migrations;
        QVERIFY(m.size() >= 6);
        const Time first = m.time[0];
        std::vector<int> order; // the destinations of the first pass, as balanced
        for (size_t i = 0; i < m.size() && m.time[i] == first; ++i) {
            QCOMPARE(int(m.on[i]), 1);
            if (order.empty() || order.back() != m.to[i]) order.push_back(m.to[i]);
        }
        QCOMPARE(order, (std::vector<int>{2, 3, 1}));
        const std::string text = exportText(e.trace(), 100 * kNsPerSec);
        int lines = 0;
        for (const std::string& l : linesOf(text, "sched_migrate_task", SIZE_MAX))
            if (l.find("dest_cpu=2") != std::string::npos && l.find("orig_cpu=0") != std::string::npos) {
                // the idle load balancer's SCHED_SOFTIRQ on its idle task (the real traces: d.s2.)
                QVERIFY2(l.find("<idle>-0       [001] d.s2.") != std::string::npos, l.c_str());
                ++lines;
            }
        QVERIFY(lines >= 1);
        ImportReport rep;
        const Trace back = importTraceText(text, rep);
        QCOMPARE(migrationSet(back), migrationSet(e.trace()));
    }
    // Each path that moves a task shows its context in the flags, as the 6.18.44 machine's traces
    // do: a wake-up's under p->pi_lock and the rq lock (d..3.), a newly idle balance inside
    // __schedule() in the context of the task going to sleep (d..2.), a tick's balance in
    // SCHED_SOFTIRQ (d.s1. on a busy CPU). Counted by path on the real machine's hackbench.
    void aMigrationsFlagsSayWhichPathMovedTheTask() {
        Engine e = builtinEngine("real-machine/hackbench-g4-l2000-threads");
        e.runUntil(2 * kNsPerSec);
        e.finish();
        std::map<MigrationPath, int> byPath;
        for (const MigrationPath how : e.trace().migrations.path)
            byPath[how]++;
        QVERIFY(byPath[MigrationPath::Wakeup] > 100 && byPath[MigrationPath::NewIdle] > 5 &&
                byPath[MigrationPath::Balance] > 5);
        std::map<std::string, int> byFlags; // "d..3." etc., the need-resched letter left out
        for (const std::string& l : linesOf(exportText(e.trace(), 0), "sched_migrate_task", SIZE_MAX)) {
            const size_t rb = l.find("] ");
            std::string f = l.substr(rb + 2, 5);
            f[1] = '.';
            byFlags[f]++;
        }
        QCOMPARE(byFlags["d..3."] + byFlags["d.h2."], byPath[MigrationPath::Wakeup]);
        QCOMPARE(byFlags["d..2."], byPath[MigrationPath::NewIdle]);
        QCOMPARE(byFlags["d.s1."] + byFlags["d.s2."],
                 byPath[MigrationPath::Balance] + byPath[MigrationPath::NohzBalance]);
    }
};

QTEST_GUILESS_MAIN(TestExportMigrations)
#include "tst_export_migrations.moc"
