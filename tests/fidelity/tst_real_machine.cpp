// SPDX-License-Identifier: GPL-3.0-or-later
// The engine against the real 2-CPU Linux 6.18 machine of tests/data/traces (HZ 250, preempt=none):
// scenarios/real-machine/ describes its workloads, and the simulated numbers must land near the
// measured ones in the traces' README. Tolerances are stated per number; a miss is a finding
// about the model, not a tolerance to widen.
#include "scenarios/workload.h"
#include "tests/test_support.h"
#include "trace/file.h"
#include "trace/ftrace_text.h"

#include <algorithm>
#include <set>

using namespace sched;
using namespace scen;

namespace {
struct Run {
    Scenario s;
    Engine e;
};
Run runFile(const std::string& name, uint64_t seedOffset = 0) {
    Scenario s;
    ScenarioError err;
    if (!loadScenarioFile(std::string(SCHEDSCOPE_SCENARIO_DIR) + "/real-machine/" + name, s, err))
        qFatal("%s", err.text().c_str());
    Engine e = instantiate(s, s.seed + seedOffset, TraceOptions{false, true});
    e.runUntil(s.duration);
    e.finish();
    return {std::move(s), std::move(e)};
}
Scenario loadFile(const std::string& name) {
    Scenario s;
    ScenarioError err;
    if (!loadScenarioFile(std::string(SCHEDSCOPE_SCENARIO_DIR) + "/real-machine/" + name, s, err))
        qFatal("%s", err.text().c_str());
    return s;
}

bool sameDistribution(const Distribution& a, const Distribution& b) {
    return a.kind == b.kind && a.a == b.a && a.b == b.b && a.min == b.min && a.max == b.max &&
           (a.quantiles && b.quantiles ? *a.quantiles == *b.quantiles : a.quantiles == b.quantiles);
}

// What the machine is: its settings, its costs, and the programs of its own tasks.
QString machineDifference(const Scenario& a, const Scenario& b) {
    const SchedConfig &x = a.config, &y = b.config;
    if (x.cpus != y.cpus || x.hz != y.hz || x.profile != y.profile || x.preempt != y.preempt ||
        x.build != y.build || !(x.features == y.features))
        return "settings";
    const FixedCosts &p = x.costs, &q = y.costs;
    if (p.contextSwitch != q.contextSwitch || p.wakeup != q.wakeup || p.ipiLatency != q.ipiLatency ||
        p.timerIrq != q.timerIrq || p.migration != q.migration || p.newidleBalance != q.newidleBalance ||
        p.timerSlack != q.timerSlack || p.timerArm != q.timerArm ||
        !sameDistribution(p.idleExit, q.idleExit) || !sameDistribution(p.timerJitter, q.timerJitter))
        return "costs";
    for (const char* comm : {"background-task", "kdamond.0", "kworker/0:1", "kworker/u:0"}) {
        const auto program = [&](const Scenario& s) -> const Program* {
            for (const TaskGroupSpec& t : s.tasks)
                if (t.comm == comm) return &s.programs[size_t(t.program)];
            return nullptr;
        };
        const Program *pa = program(a), *pb = program(b);
        if (!pa || !pb || pa->ops.size() != pb->ops.size()) return QString("%1's program").arg(comm);
        for (size_t i = 0; i < pa->ops.size(); ++i) {
            const Op &u = pa->ops[i], &v = pb->ops[i];
            if (u.kind != v.kind || u.mode != v.mode || !sameDistribution(u.duration, v.duration) ||
                u.jiffies != v.jiffies || u.idleWait != v.idleWait ||
                u.condReschedEvery != v.condReschedEvery || u.cost != v.cost || u.count != v.count ||
                u.cycle != v.cycle)
                return QString("%1's op %2").arg(comm).arg(i);
        }
        if (pa->cycles.size() != pb->cycles.size()) return QString("%1's cycles").arg(comm);
        for (size_t c = 0; c < pa->cycles.size(); ++c) {
            const CycleClasses &u = pa->cycles[c], &v = pb->cycles[c];
            if (u.next != v.next || u.share != v.share || u.run.size() != v.run.size())
                return QString("%1's cycle %2").arg(comm).arg(c);
            for (size_t k = 0; k < u.run.size(); ++k)
                if (!sameDistribution(u.run[k], v.run[k]) || !sameDistribution(u.sleep[k], v.sleep[k]))
                    return QString("%1's cycle %2, class %3").arg(comm).arg(c).arg(k);
        }
    }
    return {};
}
} // namespace

class TestRealMachine : public QObject {
    Q_OBJECT
  private slots:
    // One machine profile serves the three traces (issue 27): the same settings, costs and own
    // tasks in every real-machine scenario, so a cost calibrated on one trace is checked on the others.
    void theThreeScenariosDescribeOneMachine() {
        const Scenario c = loadFile("cyclictest-i1000-l5000.json");
        for (const char* other : {"hackbench-g4-l2000-threads.json", "massive_intr-8x8ms-1ms.json"}) {
            const QString d = machineDifference(c, loadFile(other));
            QVERIFY2(d.isEmpty(),
                     qPrintable(QString("%1 differs from the cyclictest scenario in its %2").arg(other, d)));
        }
    }
    // massive_intr 8 10 8 1: loop counts 302-306 (mean 304.4), ~306 voluntary and 525-577
    // involuntary switches per worker, perf stat -e cs 6,877.
    // kdamond.0 is DAMON_STAT's thread: it wakes once a sampling interval (~500 ms, 128 jiffies
    // through the timer wheel) and refreshes its statistics when 5 s have passed since the last
    // refresh (damon_stat_damon_call_fn(): 1250 jiffies), which at that period is every tenth
    // wakeup - in the three traces, exactly every tenth activation is the long one. Which wakeup of
    // the ten comes first, and where the first one falls, depend on the boot's history: drawn from
    // the seed. Counted here per activation (CPU time from a wakeup to its sleep) over 60 s.
    void kdamondRefreshesItsStatisticsEveryTenthWakeup() {
        std::set<size_t> phases;
        std::set<Time> firstWakeups;
        for (uint64_t seed = 0; seed < 6; ++seed) {
            Scenario s = loadFile("cyclictest-i1000-l5000.json");
            Engine e = instantiate(s, s.seed + seed, TraceOptions{false, true});
            e.runUntil(60 * kNsPerSec);
            e.finish();
            TaskId kd = kNoTask;
            for (size_t t = 0; t < e.trace().tasks.size(); ++t)
                if (e.trace().tasks[t].comm == "kdamond.0") kd = TaskId(t);
            QVERIFY(kd != kNoTask);
            const Slices& sl = e.trace().slices;
            std::vector<Time> activations{0};
            Time first = -1;
            for (uint32_t i = 0; i < sl.size(); ++i) {
                if (sl.task[i] != kd) continue;
                if (first < 0) first = sl.start[i];
                activations.back() += sl.end[i] - sl.start[i];
                if (sl.endPoint[i] == uint8_t(SwitchPoint::BlockIdle)) activations.push_back(0);
            }
            activations.pop_back(); // the one still open at the end
            QVERIFY2(activations.size() >= 110, qPrintable(QString::number(activations.size())));
            std::vector<size_t> longOnes;
            for (size_t k = 0; k < activations.size(); ++k)
                if (activations[k] > 5 * kNsPerMs) longOnes.push_back(k);
            QVERIFY(longOnes.size() >= 11);
            for (size_t k = 1; k < longOnes.size(); ++k)
                QCOMPARE(longOnes[k] - longOnes[k - 1], size_t(10));
            phases.insert(longOnes[0]);
            firstWakeups.insert(first);
            QVERIFY2(first > 0 && first < 520 * kNsPerMs, qPrintable(QString::number(first)));
        }
        QVERIFY2(phases.size() >= 3, "the refresh's phase is the seed's draw");
        QCOMPARE(firstWakeups.size(), size_t(6));
    }
    void massiveIntrLandsNearTheRealRun() {
        Run r = runFile("massive_intr-8x8ms-1ms.json");
        int workers = 0;
        int64_t vol = 0, invol = 0;
        double loops = 0;
        std::vector<int64_t> loopsOf, volOf, invOf, cpuUsOf;
        for (const Task& t : r.e.tasks()) {
            if (t.comm != "massive_intr" || t.parent < 0) continue;
            ++workers;
            loops += double(t.iterations);
            vol += t.nvcsw;
            invol += t.nivcsw;
            loopsOf.push_back(t.iterations), volOf.push_back(t.nvcsw), invOf.push_back(t.nivcsw);
            cpuUsOf.push_back((t.utime + t.stime) / kNsPerUs);
            QVERIFY2(t.nivcsw >= 450 && t.nivcsw <= 650,
                     qPrintable(QString("involuntary %1").arg(t.nivcsw))); // real 525-577
        }
        QCOMPARE(workers, 8);
        const auto range = [](const std::vector<int64_t>& v) {
            return QString("%1-%2")
                .arg(*std::min_element(v.begin(), v.end()))
                .arg(*std::max_element(v.begin(), v.end()));
        };
        qInfo("per worker: loops %s, voluntary %s, involuntary %s, CPU %s us; cs %lld",
              qPrintable(range(loopsOf)), qPrintable(range(volOf)), qPrintable(range(invOf)),
              qPrintable(range(cpuUsOf)), (long long)countSwitches(r.e.trace()).total);
        loops /= workers;
        QVERIFY2(std::abs(loops - 304.4) <= 0.05 * 304.4,
                 qPrintable(QString("loops %1").arg(loops))); // within 5 %
        QVERIFY2(std::abs(double(vol) / workers - 306) <= 0.05 * 306,
                 qPrintable(QString("voluntary %1").arg(vol)));
        const int64_t cs = countSwitches(r.e.trace()).total;
        QVERIFY2(std::abs(double(cs) - 6877) <= 0.15 * 6877,
                 qPrintable(QString("context switches %1").arg(cs))); // within 15 %
    }

    // cyclictest -t1 -i 1000 -l 5000 as SCHED_OTHER on the idle machine: 5,498 voluntary and 0
    // involuntary switches; latency avg 93.18 us, p50 90, p90 109, p99 129 us (min 64, max 702).
    void cyclictestLandsNearTheRealRun() {
        Run r = runFile("cyclictest-i1000-l5000.json");
        int64_t vol = 0, invol = 0; // cyclictest's own (rusage), not the machine's other tasks
        for (const Task& t : r.e.tasks()) {
            if (t.comm != "cyclictest") continue;
            vol += t.nvcsw;
            invol += t.nivcsw;
        }
        QVERIFY2(std::abs(vol - 5498) <= 5, qPrintable(QString("voluntary %1").arg(vol)));
        QCOMPARE(invol, int64_t(0));
        const Task& m = r.e.tasks()[1]; // the measuring thread
        QCOMPARE(m.latCount, int64_t(5000));
        // Its CPU time per activation: 13.94 us on the machine (69.88 ms over 5,000 switch-ins on
        // CPU 0, `schedscope-cli trace ... --pids`), of which the sleep's timer_arm is 7 us.
        const double runUs = double(m.utime + m.stime) / double(m.latCount) / 1e3;
        QVERIFY2(std::abs(runUs - 13.94) <= 0.05 * 13.94, qPrintable(QString("run %1 us").arg(runUs)));
        const double avgUs = double(m.latSum) / double(m.latCount) / 1e3;
        QVERIFY2(std::abs(avgUs - 93.18) <= 5, qPrintable(QString("avg %1 us").arg(avgUs)));
        const auto pct = [&](double p) {
            int64_t seen = 0;
            const int64_t rank = int64_t(p * double(m.latCount - 1)) + 1;
            for (size_t b = 0; b < m.latHist.size(); ++b)
                if ((seen += m.latHist[b]) >= rank) return double(b);
            return double(m.latHist.size());
        };
        qInfo("latency min/avg/max %.0f/%.1f/%.0f us, p50/p90/p99/p99.9 %.0f/%.0f/%.0f/%.0f us; voluntary "
              "%lld involuntary %lld",
              double(m.latMin) / 1e3, avgUs, double(m.latMax) / 1e3, pct(0.5), pct(0.9), pct(0.99),
              pct(0.999), (long long)vol, (long long)invol);
        QVERIFY2(std::abs(pct(0.5) - 90) <= 5, qPrintable(QString("p50 %1").arg(pct(0.5))));
        QVERIFY2(std::abs(pct(0.9) - 109) <= 8, qPrintable(QString("p90 %1").arg(pct(0.9))));
        QVERIFY2(std::abs(pct(0.99) - 129) <= 15, qPrintable(QString("p99 %1").arg(pct(0.99))));
        QVERIFY2(std::abs(double(m.latMin) / 1e3 - 64) <= 10, qPrintable(QString("min %1").arg(m.latMin)));
        // Its scheduling delay, sched_waking -> sched_switch: on the machine (`schedscope-cli
        // compare` of the trace) avg 13 us, p99 40 us - mostly the idle exit of CPU 0, whose
        // distribution the scenario's machine takes from this trace: a check of the calibration
        // (that the drawn exits reach the task), not a prediction.
        std::vector<Time> in, delay;
        for (const SliceView& sv : slicesOf(r.e.trace(), 1))
            in.push_back(sv.start);
        const Wakeups& w = r.e.trace().wakeups;
        for (size_t i = 0; i < w.size(); ++i)
            if (w.wakee[i] == 1 && !w.isNew[i])
                if (auto it = std::lower_bound(in.begin(), in.end(), w.time[i]); it != in.end())
                    delay.push_back(*it - w.time[i]);
        std::sort(delay.begin(), delay.end());
        QVERIFY(delay.size() >= 4990);
        double sum = 0;
        for (const Time d : delay)
            sum += double(d);
        const double avgDelayUs = sum / double(delay.size()) / 1e3;
        const double p99DelayUs = double(delay[delay.size() * 99 / 100]) / 1e3;
        qInfo("scheduling delay avg %.1f us, p50 %.0f us, p99 %.0f us, max %.0f us", avgDelayUs,
              double(delay[delay.size() / 2]) / 1e3, p99DelayUs, double(delay.back()) / 1e3);
        QVERIFY2(std::abs(avgDelayUs - 13) <= 0.15 * 13,
                 qPrintable(QString("avg delay %1 us").arg(avgDelayUs)));
        QVERIFY2(p99DelayUs >= 20 && p99DelayUs <= 80,
                 qPrintable(QString("p99 delay %1 us").arg(p99DelayUs)));
    }
    // hackbench -g 4 -l 2000 -T: 63,988 voluntary and 11,564 involuntary switches, perf stat
    // 75,551; "Time: 7.681" traced (6.2-6.8 s untraced). One run of hackbench is one draw: the
    // switch counts of simulated runs with different seeds spread by +-10 % and more (who blocks
    // first cascades), so the mean of ten runs (perf stat --repeat 10) is held against the trace.
    // Who blocks is the mechanism: in the trace the senders block 15,489 times (a full socket) and
    // the receivers 48,646 (an empty one), because a read costs the machine more than a write
    // (scenarios/messaging.cpp); with the costs the other way round the senders blocked 6.7 k times
    // and the total fell 24 % short.
    void hackbenchLandsNearTheRealRun() {
        constexpr int kRuns = 10;
        double total = 0, vol = 0, invol = 0, time = 0, senderBlocks = 0, receiverBlocks = 0;
        for (int i = 0; i < kRuns; ++i) {
            Run r = runFile("hackbench-g4-l2000-threads.json", uint64_t(i));
            const SwitchCounts c = countSwitches(r.e.trace());
            total += double(c.total) / kRuns, vol += double(c.voluntary) / kRuns,
                invol += double(c.involuntary) / kRuns;
            const std::string out = workloadReport(r.s.workloads[0], r.e);
            time += std::stod(out.substr(out.find("Time: ") + 6)) / kRuns;
            for (const Task& t : r.e.tasks()) {
                const std::string& prog = r.s.programNames[size_t(t.program)];
                if (prog.ends_with(".sender")) senderBlocks += double(t.nvcsw) / kRuns;
                if (prog.find(".receiver") != std::string::npos) receiverBlocks += double(t.nvcsw) / kRuns;
            }
        }
        qInfo("mean of %d runs: cs %.0f, voluntary %.0f, involuntary %.0f, Time %.3f s; blocking switches of "
              "senders %.0f, of receivers %.0f",
              kRuns, total, vol, invol, time, senderBlocks, receiverBlocks);
        QVERIFY2(std::abs(total - 75551) <= 0.15 * 75551, qPrintable(QString("cs %1").arg(total)));
        QVERIFY2(std::abs(vol - 63988) <= 0.15 * 63988, qPrintable(QString("voluntary %1").arg(vol)));
        QVERIFY2(std::abs(senderBlocks - 15489) <= 0.25 * 15489,
                 qPrintable(QString("senders blocked %1 times").arg(senderBlocks)));
        QVERIFY2(std::abs(receiverBlocks - 48646) <= 0.25 * 48646,
                 qPrintable(QString("receivers blocked %1 times").arg(receiverBlocks)));
        QVERIFY2(invol >= 11564 / 2 && invol <= 11564 * 3 / 2,
                 qPrintable(QString("involuntary %1").arg(invol)));
        QVERIFY2(time >= 6.0 && time <= 8.0, qPrintable(QString("Time %1").arg(time)));
    }

  private:
    // Lengths of massive_intr's slices that ended in a preemption, in ms, sorted.
    static std::vector<double> preemptedRuns(const Trace& t) {
        std::vector<double> v;
        for (size_t i = 0; i < t.slices.size(); ++i) {
            const uint8_t p = t.slices.endPoint[i];
            if (t.tasks[size_t(t.slices.task[i])].comm != "massive_intr" || p == kStillRunning ||
                p == uint8_t(SwitchPoint::Block) || p == uint8_t(SwitchPoint::Exit))
                continue;
            v.push_back(double(t.slices.end[i] - t.slices.start[i]) / 1e6);
        }
        std::sort(v.begin(), v.end());
        return v;
    }
    static double q(const std::vector<double>& v, double p) {
        return v.empty() ? 0 : v[size_t(p * double(v.size() - 1))];
    }

  private slots:
    // The hogs' preempted runs against the trace's: under none a running hog is preempted at a
    // tick once its 1.4 ms slice is used up, so most runs last one 4 ms tick; the short ones
    // need what the machine has — its own tasks and loops that are not exactly 8 ms.
    void preemptedHogRunLengthsMatchTheTrace() {
        Trace real;
        ImportReport rep;
        std::string error;
        QVERIFY2(loadTrace(std::string(SCHEDSCOPE_TEST_DATA) + "/traces/massive_intr-8x8ms-1ms.trace.xz",
                           real, rep, error),
                 error.c_str());
        Run r = runFile("massive_intr-8x8ms-1ms.json");
        const auto a = preemptedRuns(real), b = preemptedRuns(r.e.trace());
        qInfo("preempted runs: real %zu, p10/p50/p90 %.3f/%.3f/%.3f ms; simulated %zu, %.3f/%.3f/%.3f ms",
              a.size(), q(a, .1), q(a, .5), q(a, .9), b.size(), q(b, .1), q(b, .5), q(b, .9));
        QVERIFY(std::abs(double(b.size()) - double(a.size())) < 0.1 * double(a.size()));
        QVERIFY(std::abs(q(b, .5) - q(a, .5)) < 0.1 * q(a, .5));
        QVERIFY(std::abs(q(b, .9) - q(a, .9)) < 0.15 * q(a, .9));
        // A tenth of the runs are cut short (p10 ~1 ms): by the machine's own tasks waking
        // mid-request and by workers out of step with each other and with the tick.
        QVERIFY(std::abs(q(b, .1) - q(a, .1)) < 0.3 * q(a, .1));
    }

    // check_preempt_wakeup_fair() on the workers' own wakeups: in the trace 491 of the 2,449
    // sched_wakeup lines of a worker carry N. In the simulation these are mostly a worker woken
    // 1.05 ms into another's protected run that is no longer eligible (__pick_eevdf() drops an
    // ineligible curr before protect_slice()), the wakee holding the earliest eligible deadline.
    // Counted the same way in the simulation's exported ftrace text.
    void workersWakeupPreemptAsOftenAsOnTheMachine() {
        Run r = runFile("massive_intr-8x8ms-1ms.json");
        std::string text;
        writeFtraceText(r.e.trace(), [&](std::string_view sv) { text += sv; }, {});
        int64_t wakeups = 0, withN = 0;
        for (size_t at = text.find("sched_wakeup: comm=massive_intr"); at != std::string::npos;
             at = text.find("sched_wakeup: comm=massive_intr", at + 1)) {
            const size_t start = text.rfind('\n', at) + 1;
            const std::string line = text.substr(start, at - start);
            const size_t flags = line.find("] ") + 2; // "comm-pid [cpu] FLAGS timestamp:"
            ++wakeups;
            withN += line[flags + 1] == 'N';
        }
        qInfo("worker wakeups with N: %lld of %lld (real 491 of 2449)", (long long)withN, (long long)wakeups);
        QVERIFY2(std::abs(double(wakeups) - 2449) <= 0.05 * 2449, qPrintable(QString::number(wakeups)));
        QVERIFY2(std::abs(double(withN) - 491) <= 0.25 * 491, qPrintable(QString::number(withN)));
    }
};

QTEST_GUILESS_MAIN(TestRealMachine)
#include "tst_real_machine.moc"
