// SPDX-License-Identifier: GPL-3.0-or-later
// The printed layouts, line by line against published lines: Mike Galbraith's patched perf sched
// latency -T (his "[hacklet] perf sched: Add report latency max/sum fields and body filter options",
// LKML, 3 Apr 2023: output_lat_thread(), perf_sched__lat()) and perf stat --repeat
// (tools/perf/util/stat-display.c: print_noise_pct(), print_footer()).
#include "metrics/perf_report.h"

#include <QtTest>

using namespace sched;

namespace {
std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> v;
    size_t p = 0;
    while (p <= s.size()) {
        const size_t e = s.find('\n', p);
        if (e == std::string::npos) break;
        v.push_back(s.substr(p, e - p));
        p = e + 1;
    }
    return v;
}
} // namespace

class TestPerfReport : public QObject {
    Q_OBJECT
  private slots:
    void latencyRowMatchesMikesTruncatedLayout() {
        // The massive_intr row of the PREEMPT_SHORT table, run 1 (commit 85e511df3cec "sched/eevdf:
        // Allow shorter slices to wakeup-preempt", numbers by Mike Galbraith).
        LatencyRow r;
        r.comm = "massive_intr";
        r.merged = 5;
        r.runtime = 846018956000;
        r.count = 779188;
        r.totalDelay = 212545245000;
        r.maxDelay = 58337000;
        // avg = total / count = 0.27278 ms -> prints 0.273
        const auto l = lines(formatLatencyTable({r}));
        QCOMPARE(l[2], std::string("  Task                  |   Runtime ms  | Switches | Avg delay ms    | "
                                   "Max delay ms    | Sum delay ms     |"));
        QCOMPARE(l[4], std::string("  massive_intr:(5)      | 846018.956 ms |   779188 | avg:   0.273 ms | "
                                   "max:  58.337 ms | sum:212545.245 ms |"));
    }
    void latencyTotalLineMatchesTheReference() {
        // TOTAL line of Mike's stock run (Mike Galbraith, "Re: [PATCH 2/2] sched/eevdf: Use
        // sched_attr::sched_runtime to set request/slice suggestion", LKML, 24 Sep 2023):
        // 1109784.680 ms, 3029507, 42.579, 845307.017.
        LatencyRow r;
        r.comm = "x";
        r.merged = 2;
        r.runtime = 1109784680000;
        r.count = 3029507;
        r.maxDelay = 42579000;
        r.totalDelay = 845307017000;
        const auto l = lines(formatLatencyTable({r}));
        QCOMPARE(l[6], std::string("  TOTAL:                |1109784.680 ms |  3029507 |                 |   "
                                   "    42.579 ms |    845307.017 ms |"));
    }
    void singleTaskRowsShowTheTid() {
        LatencyRow r;
        r.comm = "cyclictest";
        r.pid = 9136;
        const auto l = lines(formatLatencyTable({r}));
        QVERIFY(l[4].rfind("  cyclictest:9136       |", 0) == 0);
    }
    void perfStatBlockMatchesSeedOne() {
        // The PREEMPT_AUTO column of Ankur Arora, "[PATCH v2 27/35] sched: support preempt=none under
        // PREEMPT_AUTO", LKML, 27 May 2024, in perf stat's layout (tools/perf/util/stat-display.c).
        PerfStatBlock b;
        b.switches = RunStats{10, 3173961, 0, 3173961 * 0.0060, 0, 0};
        b.voluntary = RunStats{10, 2286219.90, 0, 39510.80, 0, 0};
        b.involuntary = RunStats{10, 887741.80, 0, 20137.63, 0, 0};
        b.elapsedSec = RunStats{10, 3.03058, 0, 0.00621, 0, 0};
        const auto l = lines(formatPerfStat(b));
        QCOMPARE(l[1], std::string(" Performance counter stats for 'system wide' (10 runs):"));
        QCOMPARE(l[3], std::string("         3,173,961      context-switches                 ( +-  0.60% )"));
        QCOMPARE(l[4],
                 std::string("        2286219.90 +- 39510.80 voluntary context-switches   ( +- 1.73% )"));
        QCOMPARE(l[7], std::string("           3.03058 +- 0.00621 seconds time elapsed  ( +-  0.20% )"));
    }
    void singleRunHasNoNoise() {
        PerfStatBlock b;
        b.switches = RunStats{1, 200, 0, 0, 200, 200};
        b.elapsedSec = RunStats{1, 2.0, 0, 0, 2, 2};
        const auto l = lines(formatPerfStat(b));
        QCOMPARE(l[1], std::string(" Performance counter stats for 'system wide':"));
        QCOMPARE(l[3], std::string("               200      context-switches"));
        QCOMPARE(l[4], std::string("                 0      voluntary context-switches"));
        QCOMPARE(l[7], std::string("       2.000000000 seconds time elapsed"));
    }
    void thousandsGrouping() {
        QCOMPARE(groupThousands(0), std::string("0"));
        QCOMPARE(groupThousands(999), std::string("999"));
        QCOMPARE(groupThousands(1000), std::string("1,000"));
        QCOMPARE(groupThousands(2942664.6), std::string("2,942,665"));
    }
    void runStatsUseSampleVarianceAndStandardError() {
        const RunStats s = computeRunStats({2, 4, 4, 4, 5, 5, 7, 9});
        QCOMPARE(s.mean, 5.0);
        QVERIFY(std::fabs(s.stddev - std::sqrt(32.0 / 7.0)) < 1e-12);
        QVERIFY(std::fabs(s.stderror - std::sqrt(32.0 / 7.0 / 8.0)) < 1e-12);
        QCOMPARE(s.min, 2.0);
        QCOMPARE(s.max, 9.0);
    }
};

QTEST_GUILESS_MAIN(TestPerfReport)
#include "tst_perf_report.moc"
