// SPDX-License-Identifier: GPL-3.0-or-later
// Importing bad traces: malformed lines counted with their numbers and what was expected, stray
// timestamps dropped and reported (a reversed file refused), and files that cannot be read —
// each with a message that names the file and the reason.
#include "tests/test_support.h"

#include "trace/file.h"
#include "trace/import.h"
#include "trace/trace_dat.h"

#include <QTemporaryDir>

#include <fstream>

using namespace sched;

class TestImportBadInput : public QObject {
    Q_OBJECT
  private slots:
    void malformedLinesAreCountedNotFatal_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("what");
        const char* sw = "sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=b "
                         "next_pid=11 next_prio=120";
        QTest::newRow("garbage") << "hello world"
                                 << "no '[CPU]'";
        QTest::newRow("no cpu number") << "a-10 [abc] d..2. 1.000000: " + QString(sw) << "no '[CPU]'";
        QTest::newRow("cpu too big") << "a-10 [5000] d..2. 1.000000: " + QString(sw) << "out of range";
        QTest::newRow("truncated after cpu") << "a-10 [000]"
                                             << "truncated";
        QTest::newRow("truncated after flags") << "a-10 [000] d..2."
                                               << "truncated";
        QTest::newRow("no timestamp colon") << "a-10 [000] d..2. 1.000000 " + QString(sw) << "timestamp";
        QTest::newRow("bad timestamp") << "a-10 [000] d..2. 1.0x0000: " + QString(sw) << "timestamp";
        QTest::newRow("too many decimals") << "a-10 [000] d..2. 1.0000000000: " + QString(sw) << "timestamp";
        QTest::newRow("negative time") << "a-10 [000] d..2. -1.000000: " + QString(sw) << "timestamp";
        QTest::newRow("no pid") << "a [000] d..2. 1.000000: " + QString(sw) << "comm-pid";
        QTest::newRow("pid not number") << "a-1x [000] d..2. 1.000000: " + QString(sw) << "comm-pid";
        QTest::newRow("switch no arrow")
            << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S"
            << "==>";
        QTest::newRow("switch no prev_pid")
            << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_prio=120 prev_state=S ==> "
               "next_comm=b next_pid=11 next_prio=120"
            << "prev_pid";
        QTest::newRow("switch bad next_pid")
            << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S "
               "==> next_comm=b next_pid=1x next_prio=120"
            << "not a number";
        QTest::newRow("switch no prio") << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=10 "
                                           "prev_state=S ==> next_comm=b next_pid=11 next_prio=120"
                                        << "prev_prio";
        QTest::newRow("switch empty state")
            << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state= "
               "==> next_comm=b next_pid=11 next_prio=120"
            << "prev_state";
        QTest::newRow("plugin switch bad") << "a-10 [000] 1.000000: sched_switch: a:10 S ==> b:11 [120]"
                                           << "comm:pid [prio]";
        QTest::newRow("plugin switch no state") << "a-10 [000] 1.000000: sched_switch: a:10 ==> b:11 [120]"
                                                << "prev_state";
        QTest::newRow("wakeup no pid")
            << "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b prio=120 target_cpu=001"
            << "pid";
        QTest::newRow("wakeup bad cpu")
            << "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=x"
            << "target_cpu";
        QTest::newRow("wakeup cpu range")
            << "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=9999"
            << "out of range";
        QTest::newRow("wakeup pid 0")
            << "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=0 prio=120 target_cpu=001"
            << "pid 0";
        QTest::newRow("waking truncated") << "a-10 [000] d..2. 1.000000: sched_waking: comm=b pid=11 prio=1"
                                          << "target_cpu";
        QTest::newRow("plugin wakeup no cpu") << "a-10 [000] 1.000000: sched_wakeup: b:11 [120] success=1"
                                              << "CPU:";
        QTest::newRow("plugin wakeup bad task") << "a-10 [000] 1.000000: sched_wakeup: b [120] CPU:001"
                                                << "comm:pid [prio]";
        QTest::newRow("migrate no dest")
            << "a-10 [000] d..2. 1.000000: sched_migrate_task: comm=b pid=11 prio=120 orig_cpu=0"
            << "dest_cpu";
        QTest::newRow("migrate bad orig")
            << "a-10 [000] d..2. 1.000000: sched_migrate_task: comm=b pid=11 prio=120 orig_cpu=-1 dest_cpu=1"
            << "orig_cpu";
        QTest::newRow("fork no child")
            << "a-10 [000] ..... 1.000000: sched_process_fork: comm=a pid=10 child_comm=b"
            << "child_pid";
        QTest::newRow("fork bad parent")
            << "a-10 [000] ..... 1.000000: sched_process_fork: comm=a pid=x child_comm=b child_pid=11"
            << "pid=";
        QTest::newRow("cut mid-line")
            << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=10 prev_pr"
            << "==>";
        QTest::newRow("binary junk") << QString::fromLatin1("\x01\x02[\x03]\x04") << "no '[CPU]'";
        QTest::newRow("empty brackets") << "a-10 [] d..2. 1.000000: " + QString(sw) << "no '[CPU]'";
        // No task has a pid at or past PID_MAX_LIMIT (4194304): such a pid is garbled, not a task
        // (found by fuzz/fuzz_trace_import: it sized the pid -> task table to gigabytes).
        QTest::newRow("prefix pid past PID_MAX_LIMIT")
            << "a-2000000000 [000] d..2. 1.000000: " + QString(sw) << "0 to 4194303";
        QTest::newRow("next_pid past PID_MAX_LIMIT")
            << "a-10 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S "
               "==> next_comm=b next_pid=4194304 next_prio=120"
            << "4194303";
        QTest::newRow("wakeup pid past PID_MAX_LIMIT")
            << "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=99999999 prio=120 target_cpu=001"
            << "4194303";
        QTest::newRow("migrate pid past PID_MAX_LIMIT") << "a-10 [000] d..2. 1.000000: sched_migrate_task: "
                                                           "comm=b pid=4194304 prio=120 orig_cpu=0 dest_cpu=1"
                                                        << "4194303";
        QTest::newRow("fork child past PID_MAX_LIMIT") << "a-10 [000] ..... 1.000000: sched_process_fork: "
                                                          "comm=a pid=10 child_comm=b child_pid=2147483647"
                                                       << "4194303";
        QTest::newRow("plugin pid past PID_MAX_LIMIT")
            << "a-10 [000] 1.000000: sched_wakeup: b:5000000 [120] CPU:001"
            << "comm:pid [prio]";
        // 2^63 ns is 292 years: a later timestamp would overflow the nanoseconds.
        // trace_print_time(): a clock that does not count nanoseconds prints raw counts, "%12llu".
        QTest::newRow("counter clock") << "a-10 [000] d..2. 123456789012: " + QString(sw) << "counter clock";
        // A stray timestamp in the future, with the lines after it back where they were: dropped as
        // out of time order (a trace's last line that far is malformed: strayTimestampsAreDropped).
        QTest::newRow("timestamp 13 days after the first")
            << "a-10 [000] d..2. 1200001.000000: " + QString(sw) << "out of time order";
        QTest::newRow("timestamp past 2^63 ns")
            << "a-10 [000] d..2. 9300000000.000000: " + QString(sw) << "timestamp";
    }
    void malformedLinesAreCountedNotFatal() {
        QFETCH(QString, line);
        QFETCH(QString, what);
        // A good line, the bad one (line 3), another good line: both good ones still count.
        const std::string text =
            "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
            "b-11 [001] d..2. 1.000000: sched_waking: comm=c pid=12 prio=120 target_cpu=000\n" +
            line.toStdString() + "\n" +
            "a-10 [000] d..2. 1.000100: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> "
            "next_comm=b next_pid=11 next_prio=120\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed + rep.outOfOrder, int64_t(1));
        QCOMPARE(rep.problems.size(), size_t(1));
        QCOMPARE(rep.problems[0].line, int64_t(3));
        QVERIFY2(rep.problems[0].what.find(what.toStdString()) != std::string::npos,
                 rep.problems[0].what.c_str());
        QCOMPARE(t.wakeups.size(), size_t(2));
        QVERIFY(rep.summary().find("line 3") != std::string::npos);
    }

    // The tools print in time order. One stray timestamp — in the future or in the past — is
    // dropped and reported with its line number, the rest of the trace kept as it was (it used to
    // collapse the trace to 0 s: every later line clamped to the stray one's time); a trace whose
    // last line is 13 days on is malformed there; a reversed or shuffled file is refused.
    void strayTimestampsAreDropped() {
        const auto lineAt = [](const char* ts, int next) {
            return std::string("a-10 [000] d..2. ") + ts +
                   ": sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=b "
                   "next_pid=" +
                   std::to_string(next) + " next_prio=120\n";
        };
        std::string text;
        for (int i = 0; i < 50; ++i) {
            char ts[32];
            std::snprintf(ts, sizeof ts, "%d.%06d", 100 + i / 10, (i % 10) * 1000);
            text += lineAt(ts, 11 + i % 2);
            if (i == 20) text += lineAt("9999.000000", 11); // line 22: a stray in the future
            if (i == 30) text += lineAt("5.000000", 11);    // line 33: a stray in the past
        }
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.outOfOrder, int64_t(2));
        QCOMPARE(rep.events, int64_t(50));
        QCOMPARE(rep.problems.size(), size_t(2));
        QCOMPARE(rep.problems[0].line, int64_t(22));
        QCOMPARE(rep.problems[1].line, int64_t(33));
        QVERIFY2(rep.problems[0].what.find("out of time order") != std::string::npos,
                 rep.problems[0].what.c_str());
        QCOMPARE(t.endTime, Time(4) * kNsPerSec + 9 * kNsPerMs); // 100.000 s to 104.009 s
        QVERIFY(rep.refusedWhy().empty());
        QVERIFY(rep.summary().find("2 lines out of time order dropped") != std::string::npos);

        ImportReport last;
        importTraceText(lineAt("1.000000", 11) + lineAt("1200001.000000", 12), last);
        QCOMPARE(last.malformed, int64_t(1));
        QVERIFY2(last.problems[0].what.find("up to 13 days") != std::string::npos,
                 last.problems[0].what.c_str());

        std::string reversed;
        for (int i = 50; i-- > 0;) {
            char ts[32];
            std::snprintf(ts, sizeof ts, "%d.%06d", 100 + i / 10, (i % 10) * 1000);
            reversed += lineAt(ts, 11 + i % 2);
        }
        ImportReport rev;
        importTraceText(reversed, rev);
        QVERIFY2(rev.refusedWhy().find("reversed or shuffled") != std::string::npos,
                 rev.refusedWhy().c_str());
        QTemporaryDir dir;
        const std::string path = dir.filePath("reversed.txt").toStdString();
        std::ofstream(path) << reversed;
        Trace tr;
        std::string error;
        QVERIFY(!loadTrace(path, tr, rev, error));
        QVERIFY2(error.find("out of time order (the first at line 1)") != std::string::npos, error.c_str());
    }

    void filesThatCannotBeRead() {
        QTemporaryDir dir;
        Trace t;
        ImportReport rep;
        std::string error;
        QVERIFY(!loadTrace(dir.filePath("none.txt").toStdString(), t, rep, error));
        QVERIFY2(error.find("no such file") != std::string::npos, error.c_str());
        const std::string empty = dir.filePath("empty.txt").toStdString();
        std::ofstream(empty) << "# tracer: nop\n";
        QVERIFY(!loadTrace(empty, t, rep, error));
        QVERIFY2(error.find("no scheduler events") != std::string::npos, error.c_str());
        // A trace.dat goes through schedscope-dat-reader (libtracecmd in a child process): a
        // broken header is an error with how the reader ended and what it said.
        const std::string dat = dir.filePath("trace.dat").toStdString();
        std::ofstream(dat, std::ios::binary) << std::string("\x17\x08\x44tracing", 10) << "6\0broken";
        QVERIFY(!loadTrace(dat, t, rep, error));
        QVERIFY2(error.find(
                     "trace.dat: the trace.dat reader (libtracecmd) exited with status 1: libtracecmd cannot "
                     "read it as a trace.dat") != std::string::npos,
                 error.c_str());
        // A truncated one: libtracecmd 3.1 dies on it (SIGSEGV) - in the reader, not here.
        {
            Engine e = builtinEngine("kernel-hogs-waker");
            e.runUntil(50 * kNsPerMs);
            e.finish();
            std::string whole;
            writeTraceDat(e.trace(), [&](std::string_view s) { whole += s; });
            const std::string cut = dir.filePath("cut.dat").toStdString();
            std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() * 3 / 5);
            QVERIFY(!loadTrace(cut, t, rep, error));
            QVERIFY2(error.find("cut.dat: the trace.dat reader (libtracecmd)") != std::string::npos,
                     error.c_str());
        }
        // The reader missing: named, with the setting that finds it.
        qputenv("SCHEDSCOPE_DAT_READER", dir.filePath("no-such-reader").toUtf8());
        QVERIFY(!loadTrace(dat, t, rep, error));
        qunsetenv("SCHEDSCOPE_DAT_READER");
        QVERIFY2(error.find("cannot start " + dir.filePath("no-such-reader").toStdString() +
                            ": No such file or directory") != std::string::npos,
                 error.c_str());
        const std::string xz = dir.filePath("bad.xz").toStdString();
        std::ofstream(xz) << "not xz at all";
        QVERIFY(!loadTrace(xz, t, rep, error));
        QVERIFY2(error.find("xz") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestImportBadInput)
#include "tst_import_bad_input.moc"
