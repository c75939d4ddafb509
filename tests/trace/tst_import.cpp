// SPDX-License-Identifier: GPL-3.0-or-later
// Importing real traces: the three 6.18 traces of tests/data/traces against the numbers their README gives
// (the kernel's own counters), hand-made edge cases of the three text formats, the quirks of
// real traces, streaming in any chunking, compressed trace.dat, cancelling. Bad input is
// tst_import_bad_input's.
#include "tests/test_support.h"

#include "trace/file.h"
#include "trace/ftrace_text.h"
#include "trace/import.h"
#include "trace/trace_dat.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <fstream>
#include <lzma.h>

using namespace sched;

namespace {

std::string tracePath(const char* name) {
    return std::string(SCHEDSCOPE_TEST_DATA) + "/traces/" + name;
}

Trace load(const char* name, ImportReport& rep) {
    Trace t;
    std::string error;
    if (!loadTrace(tracePath(name), t, rep, error)) qFatal("%s", error.c_str());
    return t;
}

std::vector<char> byComm(const Trace& t, const std::string& comm) {
    std::vector<char> m(t.tasks.size(), 0);
    for (size_t i = 0; i < t.tasks.size(); ++i)
        m[i] = t.tasks[i].comm == comm;
    return m;
}

Time runtimeOf(const Trace& t, TaskId id) {
    Time sum = 0;
    for (size_t i = 0; i < t.slices.size(); ++i)
        if (t.slices.task[i] == id) sum += t.slices.end[i] - t.slices.start[i];
    return sum;
}

TaskId byPid(const Trace& t, int32_t pid) {
    for (size_t i = 0; i < t.tasks.size(); ++i)
        if (t.tasks[i].pid == pid) return TaskId(i);
    return kNoTask;
}

const char* kHeader = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 10/10   #P:2\n#\n"
                      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n#              | |         "
                      "|   |||||     |         |\n";

} // namespace

class TestTraceImport : public QObject {
    Q_OBJECT
  private slots:
    // hackbench -g 4 -l 2000 -T: rusage 63,988 voluntary and 11,564 involuntary switches,
    // perf stat -e cs 75,551, 4,368 migrations (README). The trace holds every switch-out of the
    // hackbench threads, so the kernel's nvcsw/nivcsw follow from prev_state.
    void hackbenchCountersMatchTheKernels() {
        ImportReport rep;
        const Trace t = load("hackbench-g4-l2000-threads.trace.xz", rep);
        QCOMPARE(rep.format, TraceFormat::Ftrace);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(t.cpus, 2);
        const SwitchCounts c = countSwitchesOf(t, byComm(t, "hackbench"));
        qInfo("hackbench vol %lld invol %lld total %lld migrations %lld", (long long)c.voluntary,
              (long long)c.involuntary, (long long)c.total, (long long)c.migrations);
        // Exact but for one switch: the trace holds every switch-out of the threads.
        QVERIFY2(std::abs(c.voluntary - 63988) <= 1, qPrintable(QString::number(c.voluntary)));
        QCOMPARE(c.involuntary, int64_t(11564));
        QVERIFY2(std::abs(c.total - 75551) <= 1, qPrintable(QString::number(c.total)));
        // 4 groups x 40 threads + the main thread.
        int threads = 0;
        for (const TraceTask& task : t.tasks)
            threads += task.comm == "hackbench";
        QCOMPARE(threads, 161);
    }

    // massive_intr 8 10 8 1: per worker ~306 voluntary switches (one per 1 ms sleep) and
    // 525-577 involuntary, 2.46-2.49 s of CPU each (README, from /proc at exit).
    void massiveIntrWorkersMatchTheirProcStatus() {
        ImportReport rep;
        const Trace t = load("massive_intr-8x8ms-1ms.trace.xz", rep);
        QCOMPARE(t.markers.size(), size_t(2));
        QVERIFY(t.markers[0].text.find("VALID root=18109") == 0);
        const std::vector<char> tree = descendantsOf(t, 18109);
        int workers = 0;
        for (size_t i = 0; i < t.tasks.size(); ++i) {
            if (!tree[i] || t.tasks[i].comm != "massive_intr" || t.tasks[i].ppid != 18112) continue;
            ++workers;
            std::vector<char> one(t.tasks.size(), 0);
            one[i] = 1;
            const SwitchCounts c = countSwitchesOf(t, one);
            const double cpu = double(runtimeOf(t, TaskId(i))) / 1e9;
            qInfo("worker %d: vol %lld invol %lld cpu %.3f s", t.tasks[i].pid, (long long)c.voluntary,
                  (long long)c.involuntary, cpu);
            QVERIFY(c.voluntary >= 300 && c.voluntary <= 312);
            QVERIFY(c.involuntary >= 520 && c.involuntary <= 582);
            QVERIFY(cpu >= 2.44 && cpu <= 2.51);
        }
        QCOMPARE(workers, 8);
    }

    // TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD): kernel threads that wait for work sleep in it
    // - kdamond.0 (schedule_timeout_idle(), e2b8e5970a27), the kworkers (worker_thread()),
    // rcu_preempt - and sched_switch reports it as its own state, prev_state=I
    // (__task_state_index(): TASK_REPORT_IDLE). In the massive_intr trace kdamond.0 left its CPU
    // that way 20 times, the kworkers 88 times and rcu_preempt 40 times; the simulated machine's
    // kdamond.0 ("idle": true) and kworkers (the kthreads workload) do too, an import keeps the state,
    // and it counts as a voluntary switch like S and D.
    void aTaskIdleSleepIsPrevStateI() {
        ImportReport rep;
        const Trace real = load("massive_intr-8x8ms-1ms.trace.xz", rep);
        const auto idleEndsOf = [](const Trace& t, const std::string& prefix) {
            int n = 0;
            for (size_t i = 0; i < t.slices.size(); ++i)
                n += t.tasks[size_t(t.slices.task[i])].comm.rfind(prefix, 0) == 0 &&
                     t.slices.endPoint[i] == uint8_t(SwitchPoint::BlockIdle);
            return n;
        };
        QCOMPARE(idleEndsOf(real, "kdamond.0"), 20);
        QCOMPARE(idleEndsOf(real, "rcu_preempt"), 40);
        QVERIFY(idleEndsOf(real, "kworker") >= 88); // 88 of the switches out; a few more at the window's end
        QVERIFY(isSleepPoint(SwitchPoint::BlockIdle));
        Engine e = builtinEngine("real-machine/massive_intr-8x8ms-1ms");
        e.runUntil(3 * kNsPerSec);
        std::string text;
        writeFtraceText(e.trace(), [&](std::string_view sv) { text += sv; });
        int kdamondI = 0, kdamondS = 0;
        for (size_t p = text.find("prev_comm=kdamond.0"); p != std::string::npos;
             p = text.find("prev_comm=kdamond.0", p + 1)) {
            const std::string line = text.substr(p, text.find('\n', p) - p);
            kdamondI += line.find("prev_state=I ") != std::string::npos;
            kdamondS += line.find("prev_state=S ") != std::string::npos;
        }
        QVERIFY(kdamondI >= 5); // woken every 512 ms
        QCOMPARE(kdamondS, 0);
        QVERIFY(text.find("prev_state=I ==> ") != std::string::npos);
        ImportReport rep2;
        const Trace back = importTraceText(text, rep2);
        QCOMPARE(idleEndsOf(back, "kdamond.0"), kdamondI);
        QVERIFY(idleEndsOf(back, "kworker/0") > 0); // the bound kworkers wait for work in TASK_IDLE
        const TaskId worker = taskByComm(e, "massive_intr", 1);
        QVERIFY(e.tasks()[size_t(worker)].nvcsw > 0);
        // a write cannot wait in TASK_IDLE: the parser names the field
        const std::string err = parseError(
            R"({"channels": [{"name": "c"}], "tasks": [{"comm": "k", "behavior": [{"write": "c", "idle": true}]}]})");
        QVERIFY2(err.find("idle") != std::string::npos, err.c_str());
    }

    // cyclictest -t1 -i 1000 -l 5000: 5,498 voluntary and 0 involuntary switches (rusage); the
    // measuring thread wakes 5000 times.
    void cyclictestCountersMatch() {
        ImportReport rep;
        const Trace t = load("cyclictest-i1000-l5000.trace.xz", rep);
        const SwitchCounts c = countSwitchesOf(t, byComm(t, "cyclictest"));
        QCOMPARE(c.involuntary, int64_t(0));
        QVERIFY2(std::abs(c.voluntary - 5498) <= 2, qPrintable(QString::number(c.voluntary)));
        LatencyOptions lo;
        lo.mergeByComm = false;
        const auto rows = perfSchedLatency(t, lo);
        bool found = false;
        for (const LatencyRow& r : rows)
            if (r.pid == 18302) {
                found = true;
                QCOMPARE(r.count, int64_t(5000));
            }
        QVERIFY(found);
    }

    // The quirks of the README are handled and counted, not guessed silently: missing
    // switch-outs of background threads, missing idle exits on CPU 1.
    void quirksAreCounted() {
        ImportReport rep;
        load("cyclictest-i1000-l5000.trace.xz", rep);
        QVERIFY(rep.missingSwitchIn > 0);
        QVERIFY(rep.missingSwitchOut > 0);
        QVERIFY(rep.idleExitDelay > 0 && rep.idleExitDelay < 100 * kNsPerUs);
        QVERIFY(rep.summary().find("switch-ins missing") != std::string::npos);
    }

    // sched_switch's and the wakeups' fields are read in the tracepoint's order, each key where the
    // last value ended: a comm holding another field's "key=" text (it may: a comm is any 15
    // bytes) does not lend its value to that field; fields in another order are still found by
    // name.
    void fieldsAreReadInTheTracepointsOrder() {
        const std::string text =
            std::string(kHeader) +
            "          <idle>-0       [000] d..2.   100.000010: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=x prev_prio=5 next_pid=42 next_prio=101\n"
            "  x prev_prio=5-42      [000] d..2.   100.000500: sched_waking: comm=a prio=7 pid=43 prio=102 "
            "target_cpu=001\n"
            "  x prev_prio=5-42      [000] d..2.   100.001000: sched_switch: prev_comm=x prev_prio=5 "
            "prev_pid=42 prev_prio=101 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
            "          <idle>-0       [001] d..2.   100.002000: sched_switch: prev_comm=swapper/1 prev_pid=0 "
            "prev_state=R prev_prio=120 ==> next_comm=a prio=7 next_pid=43 next_prio=102\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        std::map<int32_t, std::pair<std::string, int>> tasks;
        for (const TraceTask& k : t.tasks)
            tasks[k.pid] = {k.comm, k.prio};
        QCOMPARE(tasks[42], (std::pair<std::string, int>{"x prev_prio=5", 101}));
        QCOMPARE(tasks[43], (std::pair<std::string, int>{"a prio=7", 102}));
        QCOMPARE(t.wakeups.size(), size_t(1));
        QCOMPARE(int(t.wakeups.targetCpu[0]), 1);
        QCOMPARE(t.slices.size(), size_t(2)); // x on CPU 0, then 43 on CPU 1 (idle has no slices)
        QCOMPARE(t.tasks[size_t(t.slices.task[0])].pid, 42);
        QCOMPARE(t.slices.end[0] - t.slices.start[0], 990 * kNsPerUs);
    }
    void ftraceLinesBecomeSlicesWakeupsAndFlags() {
        const std::string text =
            std::string(kHeader) +
            "          <idle>-0       [000] dN.1.   100.000000: sched_waking: comm=worker pid=42 prio=120 "
            "target_cpu=000\n"
            "          <idle>-0       [000] dN.1.   100.000001: sched_wakeup: comm=worker pid=42 prio=120 "
            "target_cpu=000\n"
            "          <idle>-0       [000] d..2.   100.000010: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=worker next_pid=42 next_prio=120\n"
            "          worker-42      [000] dL.1.   100.001000: sched_waking: comm=CPU 0/KVM pid=43 prio=110 "
            "target_cpu=000\n"
            "          worker-42      [000] dL.2.   100.001002: sched_wakeup: comm=CPU 0/KVM pid=43 prio=110 "
            "target_cpu=000\n"
            "          worker-42      [000] dB.2.   100.003000: sched_switch: prev_comm=worker prev_pid=42 "
            "prev_prio=120 prev_state=R+ ==> next_comm=CPU 0/KVM next_pid=43 next_prio=110\n"
            "       CPU 0/KVM-43      [000] d..2.   100.004000: sched_switch: prev_comm=CPU 0/KVM "
            "prev_pid=43 prev_prio=110 prev_state=S ==> next_comm=worker next_pid=42 next_prio=120\n"
            "          worker-42      [000] d..3.   100.005000: sched_migrate_task: comm=worker pid=42 "
            "prio=120 orig_cpu=0 dest_cpu=1\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(rep.format, TraceFormat::Ftrace);
        QCOMPARE(t.cpus, 2); // from #P:2
        QCOMPARE(t.tasks.size(), size_t(2));
        QCOMPARE(t.tasks[size_t(byPid(t, 43))].comm, std::string("CPU 0/KVM")); // a comm with a blank
        QCOMPARE(t.tasks[size_t(byPid(t, 43))].prio, 110);
        QCOMPARE(t.slices.size(), size_t(3));
        QCOMPARE(t.slices.start[0], 10 * kNsPerUs); // times count from the first event
        QCOMPARE(t.slices.end[0], 3000 * kNsPerUs);
        QCOMPARE(t.slices.endPoint[0], uint8_t(SwitchPoint::IrqReturn)); // R+: a preemption
        QCOMPARE(t.slices.endPoint[1], uint8_t(SwitchPoint::Block));
        QCOMPARE(t.slices.endPoint[2], kStillRunning);
        // sched_waking gives the wakeup time, the following sched_wakeup only its CPU.
        QCOMPARE(t.wakeups.size(), size_t(2));
        QCOMPARE(t.wakeups.time[1], 1000 * kNsPerUs);
        QCOMPARE(t.wakeups.waker[1], byPid(t, 42));
        QCOMPARE(t.migrations.size(), size_t(1));
        // Flags: N on CPU 0 while idle, then L, then B (both) until the switch cleared them.
        int eager = 0, lazy = 0;
        for (size_t i = 0; i < t.flags.size(); ++i) {
            if (t.flags.bit[i] == uint8_t(ReschedBit::Eager))
                ++eager;
            else
                ++lazy;
        }
        QCOMPARE(eager, 2);
        QCOMPARE(lazy, 1);
        for (size_t i = 0; i < t.flags.size(); ++i)
            if (t.flags.bit[i] == uint8_t(ReschedBit::Lazy)) {
                QCOMPARE(t.flags.set[i], 1000 * kNsPerUs);
                QCOMPARE(t.flags.clear[i], 3000 * kNsPerUs);
                QCOMPARE(t.flags.clearedBy[i], uint8_t(SwitchPoint::IrqReturn));
            }
        // perf sched latency: the preempted task waited from its switch-out to its switch-in.
        LatencyOptions lo;
        lo.mergeByComm = false;
        for (const LatencyRow& r : perfSchedLatency(t, lo))
            if (r.pid == 42) {
                QCOMPARE(r.count, int64_t(1));
                QCOMPARE(r.maxDelay, 1000 * kNsPerUs);
            }
    }

    void traceCmdReportFormat() {
        const std::string text = "version = 6\ncpus=2\nCPU 1 is empty\n"
                                 "       trace-cmd-2931  [001]  3171.776631: sched_switch:         "
                                 "trace-cmd:2931 [120] S ==> trace-cmd:2933 [120]\n"
                                 "          <idle>-0     [000]  3171.776795: sched_switch:         "
                                 "swapper/0:0 [120] R ==> trace-cmd:2932 [120]\n"
                                 "     kworker/13:1-309   [000]  3171.777000: sched_wakeup:         CPU "
                                 "0/KVM:6912 [120] success=1 CPU:001\n"
                                 "       trace-cmd-2932  [000]  3171.778000: sched_switch:         "
                                 "trace-cmd:2932 [120] D|K ==> swapper/0:0 [120]\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.format, TraceFormat::TraceCmd);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(t.cpus, 2);
        const TaskId kvm = byPid(t, 6912);
        QVERIFY(kvm != kNoTask);
        QCOMPARE(t.tasks[size_t(kvm)].comm, std::string("CPU 0/KVM"));
        QCOMPARE(t.wakeups.targetCpu[0], uint16_t(1));
        const TaskId tc = byPid(t, 2932);
        bool blocked = false;
        for (size_t i = 0; i < t.slices.size(); ++i)
            if (t.slices.task[i] == tc)
                blocked =
                    t.slices.endPoint[i] == uint8_t(SwitchPoint::BlockUninterruptible); // D|K: killable D
        QVERIFY(blocked);
    }

    // trace-cmd report -l (how a trace.dat is read): the CPU number run together with the
    // latency flags, no brackets; a "[120]" in the payload is not a CPU; the flags' need-resched
    // letter becomes an observation as in ftrace text.
    void traceCmdLatencyFormat() {
        const std::string text =
            "cpus=16\n"
            "          <idle>-0      15dN.2.   100.000000: sched_wakeup_new:     receiver:1271 [120] "
            "CPU:015\n"
            "          <idle>-0      15d..2.   100.000005: sched_switch:         swapper/15:0 [120] R ==> "
            "receiver:1271 [120]\n"
            "         tick er-1004    0d.h2.   100.000010: sched_waking:         comm=hog pid=1002 prio=120 "
            "target_cpu=000\n"
            "         tick er-1004    0dNh3.   100.000011: sched_wakeup:         hog:1002 [120] CPU:000\n"
            "         tick er-1004    0d..2.   100.000020: sched_switch:         tick er:1004 [120] R ==> "
            "hog:1002 [120]\n"
            "        receiver-1271   15d..2.   100.000030: sched_switch:         receiver:1271 [120] S ==> "
            "swapper/15:0 [120]\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.format, TraceFormat::TraceCmd);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(t.cpus, 16);
        const TaskId r = byPid(t, 1271), tick = byPid(t, 1004);
        QVERIFY(r != kNoTask && tick != kNoTask);
        QCOMPARE(t.tasks[size_t(tick)].comm, std::string("tick er"));
        bool on15 = false;
        for (size_t i = 0; i < t.slices.size(); ++i)
            on15 = on15 || (t.slices.task[i] == r && t.slices.cpu[i] == 15);
        QVERIFY(on15);
        // The hardirq wakeup has no waking task; the N after it is seen on CPU 0.
        QCOMPARE(t.wakeups.size(), size_t(2));
        QCOMPARE(t.wakeups.waker[1], kNoTask);
        bool eager = false;
        for (size_t i = 0; i < t.flags.size(); ++i)
            eager = eager || (t.flags.cpu[i] == 0 && t.flags.bit[i] == uint8_t(ReschedBit::Eager));
        QVERIFY(eager);
    }

    void perfScriptFormat() {
        const std::string text =
            "            perf 18299 [000]   976.786526: sched:sched_waking: comm=migration/0 pid=18 prio=0 "
            "target_cpu=000\n"
            "            perf 18299 [000]   976.786533: sched:sched_switch: prev_comm=perf prev_pid=18299 "
            "prev_prio=120 prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0\n"
            "     migration/0    18 [000]   976.786553: sched:sched_switch: prev_comm=migration/0 "
            "prev_pid=18 prev_prio=0 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.format, TraceFormat::PerfScript);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(t.tasks[size_t(byPid(t, 18))].prio, 0);
        QCOMPARE(t.slices.size(), size_t(2));
        QCOMPARE(t.slices.end[1] - t.slices.start[1], 20 * kNsPerUs);
    }

    // A task seen running without its switch-in (the idle exit on CPU 1 is not recorded) starts
    // one median idle exit after its wakeup; a task whose switch-out is missing ends at its last
    // event. Both are counted.
    void missingSwitchesAreClosedFromEvidence() {
        const std::string text =
            std::string(kHeader) +
            // CPU 0 records an idle exit 6 us after the wakeup: the median.
            "          <idle>-0       [000] d..2.     1.000000: sched_wakeup: comm=a pid=10 prio=120 "
            "target_cpu=000\n"
            "          <idle>-0       [000] d..2.     1.000006: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
            // CPU 1 is idle, b is woken onto it, then b's events appear there with no switch-in.
            "               x-11      [001] d..2.     1.000100: sched_switch: prev_comm=x prev_pid=11 "
            "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
            "               a-10      [000] d..2.     1.001000: sched_wakeup: comm=b pid=12 prio=120 "
            "target_cpu=001\n"
            "               b-12      [001] d..2.     1.002000: sched_waking: comm=c pid=13 prio=120 "
            "target_cpu=000\n"
            // background-task 14 switched in on CPU 0, then c's events: 14's switch-out is missing.
            "               a-10      [000] d..2.     1.003000: sched_switch: prev_comm=a prev_pid=10 "
            "prev_prio=120 prev_state=S ==> next_comm=background-task next_pid=14 next_prio=120\n"
            " background-task-14      [000] d..2.     1.003100: sched_waking: comm=a pid=10 prio=120 "
            "target_cpu=000\n"
            "               c-13      [000] d..2.     1.003300: sched_switch: prev_comm=c prev_pid=13 "
            "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(rep.idleExitDelay, 6 * kNsPerUs);
        QCOMPARE(rep.missingSwitchIn, int64_t(2));  // b on CPU 1, c on CPU 0
        QCOMPARE(rep.missingSwitchOut, int64_t(1)); // background-task
        for (size_t i = 0; i < t.slices.size(); ++i) {
            const int32_t pid = t.tasks[size_t(t.slices.task[i])].pid;
            if (pid == 12) QCOMPARE(t.slices.start[i], 1006 * kNsPerUs); // woken at 1.001000 + 6 us
            if (pid == 14) QCOMPARE(t.slices.end[i], 3100 * kNsPerUs);   // its last event
            if (pid == 13)
                QCOMPARE(t.slices.start[i],
                         3100 * kNsPerUs); // woken long before: right after 14's last event
        }
    }

    // A wakeup dates only the run it led to: a task that ran after its wakeup, was preempted and is
    // then seen on another CPU without a switch-in starts there from the evidence, not from that
    // old wakeup - which would put the start before the run it already had.
    void aWakeupDatesOnlyTheRunItLedTo() {
        const std::string text =
            std::string(kHeader) +
            "               x-11      [001] d..2.     0.500000: sched_switch: prev_comm=x prev_pid=11 "
            "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
            "          <idle>-0       [000] d..2.     1.000000: sched_wakeup: comm=a pid=10 prio=120 "
            "target_cpu=000\n"
            "          <idle>-0       [000] d..2.     1.000006: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
            "               a-10      [000] d..2.     1.010000: sched_switch: prev_comm=a prev_pid=10 "
            "prev_prio=120 prev_state=R ==> next_comm=y next_pid=15 next_prio=120\n"
            "               a-10      [001] d..2.     1.020000: sched_waking: comm=d pid=16 prio=120 "
            "target_cpu=001\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        QCOMPARE(rep.missingSwitchIn, int64_t(1));
        std::vector<std::pair<Time, Time>> runs; // a's slices
        for (size_t i = 0; i < t.slices.size(); ++i)
            if (t.tasks[size_t(t.slices.task[i])].pid == 10)
                runs.push_back({t.slices.start[i], t.slices.end[i]});
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].second, 510 * kNsPerMs); // 1.010 s, from the trace's start at 0.5 s
        QCOMPARE(runs[1].first, 520 * kNsPerMs);  // its first event on CPU 1, not 1.000006 s
    }

    // Streaming: any chunking of the input gives the same trace (here: byte by byte), CRLF line
    // ends are accepted, a last line without a newline counts.
    void chunkingDoesNotMatter() {
        const std::string text =
            std::string(kHeader) +
            "          <idle>-0       [000] d..2.     1.000000: sched_wakeup: comm=a pid=10 prio=120 "
            "target_cpu=000\r\n"
            "          <idle>-0       [000] d..2.     1.000006: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\r\n"
            "               a-10      [000] d..2.     1.000500: sched_switch: prev_comm=a prev_pid=10 "
            "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120";
        ImportReport whole, bytes;
        const Trace a = importTraceText(text, whole);
        TraceImporter imp;
        for (char ch : text)
            imp.feed(std::string_view(&ch, 1));
        const Trace b = imp.finish(bytes);
        QCOMPARE(whole.events, int64_t(3));
        QCOMPARE(bytes.events, whole.events);
        QCOMPARE(a.slices.start, b.slices.start);
        QCOMPARE(a.slices.end, b.slices.end);
        QCOMPARE(a.slices.end[0], 500 * kNsPerUs);
    }

    // A compressed trace.dat (.dat.xz): decompressed in memory for trace-cmd, the same trace as
    // the plain file gives.
    void aCompressedTraceDatReadsLikeThePlainOne() {
        Engine e = builtinEngine("kernel-hogs-waker");
        e.runUntil(300 * kNsPerMs);
        e.finish();
        std::string dat;
        writeTraceDat(e.trace(), [&](std::string_view chunk) { dat.append(chunk); });
        std::string xz(lzma_stream_buffer_bound(dat.size()), '\0');
        size_t pos = 0;
        QCOMPARE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr,
                                         reinterpret_cast<const uint8_t*>(dat.data()), dat.size(),
                                         reinterpret_cast<uint8_t*>(xz.data()), &pos, xz.size()),
                 LZMA_OK);
        xz.resize(pos);
        QTemporaryDir dir;
        const std::string plain = dir.filePath("run.dat").toStdString(), packed = plain + ".xz";
        std::ofstream(plain, std::ios::binary) << dat;
        std::ofstream(packed, std::ios::binary) << xz;
        Trace a, b;
        ImportReport ra, rb;
        std::string error;
        QVERIFY2(loadTrace(plain, a, ra, error), error.c_str());
        QVERIFY2(loadTrace(packed, b, rb, error), error.c_str());
        QCOMPARE(rb.events, ra.events);
        QCOMPARE(b.slices.size(), a.slices.size());
        QCOMPARE(countSwitches(b).total, countSwitches(e.trace()).total);
    }

    // The path a trace.dat took until now, `trace-cmd report -l` piped into the importer, and the
    // reader that replaced it (libtracecmd, schedscope-dat-reader) give the same trace of the
    // public captures: each written as a trace.dat, then read both ways - slices, wakeups,
    // migrations, markers, need-resched observations, switch counts and perf sched latency.
    void theReaderAgreesWithTraceCmdReport() {
        if (QStandardPaths::findExecutable("trace-cmd").isEmpty())
            QSKIP("trace-cmd is not installed (Debian: apt-get install trace-cmd): nothing to compare with");
        QTemporaryDir dir;
        for (const char* name : {"cyclictest-i1000-l5000.trace.xz", "massive_intr-8x8ms-1ms.trace.xz"}) {
            ImportReport rep;
            const Trace text = load(name, rep);
            const std::string dat = dir.filePath("t.dat").toStdString();
            {
                std::ofstream out(dat, std::ios::binary);
                FtraceExportOptions o;
                o.offset = 100 * kNsPerSec;
                writeTraceDat(
                    text, [&](std::string_view s) { out.write(s.data(), std::streamsize(s.size())); }, o);
            }
            Trace viaReader;
            ImportReport rr;
            std::string error;
            QVERIFY2(loadTrace(dat, viaReader, rr, error), error.c_str());
            QCOMPARE(rr.format, TraceFormat::TraceDat);
            // The reader prints the sched_* fields itself (app/dat_reader/fast_print.c): --check
            // prints every record that way and by libtraceevent's print fmt interpreter, and fails
            // on the first difference.
            QProcess check;
            check.start(QString::fromStdString(traceDatReaderPath()),
                        {"--check", QString::fromStdString(dat)});
            QVERIFY(check.waitForFinished(120000));
            QVERIFY2(check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0,
                     check.readAllStandardError().constData());
            QProcess p;
            p.start("trace-cmd", {"report", "-l", "-i", QString::fromStdString(dat)});
            QVERIFY(p.waitForFinished(120000));
            ImportReport rc;
            const Trace viaReport = importTraceText(p.readAllStandardOutput().toStdString(), rc);
            QCOMPARE(rr.events, rc.events);
            QCOMPARE(viaReader.slices.size(), viaReport.slices.size());
            QCOMPARE(viaReader.slices.start, viaReport.slices.start);
            QCOMPARE(viaReader.slices.end, viaReport.slices.end);
            QCOMPARE(viaReader.slices.cpu, viaReport.slices.cpu);
            QCOMPARE(viaReader.wakeups.time, viaReport.wakeups.time);
            QCOMPARE(viaReader.migrations.size(), viaReport.migrations.size());
            QCOMPARE(viaReader.markers.size(), viaReport.markers.size());
            QCOMPARE(viaReader.flags.size(), viaReport.flags.size());
            const SwitchCounts a = countSwitches(viaReader), b = countSwitches(viaReport);
            QCOMPARE(a.total, b.total);
            QCOMPARE(a.voluntary, b.voluntary);
            LatencyOptions lo;
            lo.mergeByComm = false;
            const auto la = perfSchedLatency(viaReader, lo), lb = perfSchedLatency(viaReport, lo);
            QCOMPARE(la.size(), lb.size());
            for (size_t i = 0; i < la.size(); ++i) {
                QCOMPARE(la[i].count, lb[i].count);
                QCOMPARE(la[i].runtime, lb[i].runtime);
                QCOMPARE(la[i].maxDelay, lb[i].maxDelay);
            }
        }
    }

    // A damaged format file whose print fmt asks for a width of four billion: the reader's own
    // field printer leaves such a format to libtraceevent (it looped for ever: found by a review),
    // so the reader ends, and prints what libtraceevent prints.
    void aHugeWidthInAFormatIsLeftToLibtraceevent() {
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(kNsPerSec);
        e.finish();
        QVERIFY(e.trace().migrations.size() > 0);
        std::string dat;
        writeTraceDat(e.trace(), [&](std::string_view chunk) { dat.append(chunk); });
        const std::string from = "orig_cpu=%d dest_cpu=%d", to = "o=%4294967000d d=%0003d";
        QCOMPARE(from.size(), to.size());
        const size_t at = dat.find(from);
        QVERIFY(at != std::string::npos);
        dat.replace(at, from.size(), to);
        QTemporaryDir dir;
        const QString path = dir.filePath("wide.dat");
        std::ofstream(path.toStdString(), std::ios::binary) << dat;
        QByteArray out[2];
        int i = 0;
        for (const char* mode : {"--slow", "--check"}) {
            QProcess p;
            p.start(QString::fromStdString(traceDatReaderPath()), {mode, path});
            QVERIFY2(p.waitForFinished(60000), mode); // a timeout: the hang
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     p.readAllStandardError().constData());
            out[i++] = p.readAllStandardOutput();
        }
        QVERIFY(out[0].contains(" o="));
        QCOMPARE(out[1], out[0]);
    }

    void progressCanCancel() {
        TraceImporter imp;
        std::string error;
        int calls = 0;
        const bool ok = importTraceFile(tracePath("hackbench-g4-l2000-threads.trace.xz"), imp, error,
                                        [&](int64_t bytes, int64_t) {
                                            ++calls;
                                            return bytes < (2 << 20);
                                        });
        QVERIFY(!ok);
        QVERIFY(calls >= 2);
        QVERIFY2(error.find("cancelled") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTraceImport)
#include "tst_import.moc"
