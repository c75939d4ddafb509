// SPDX-License-Identifier: GPL-3.0-or-later
// schbench (masoncl/schbench: worker.c, message.c, stats.c): message threads waking workers, a
// wake-up latency sample and a request per loop, the tool's output blocks line by line.
#include "tests/test_support.h"

#include "scenarios/workload.h"

#include <regex>
#include <sstream>

using namespace sched;

namespace {
struct Run {
    scen::Scenario s;
    Engine e;
};
Run runSchbench(const std::string& args, int cpus, const std::string& preempt = "full") {
    scen::Scenario s = scenarioFrom(R"J({"duration": "4s", "machine": {"cpus": )J" + std::to_string(cpus) +
                                    R"J(, "hz": 250, "kernel": "6.18",
        "preempt": ")J" + preempt + R"J("}, "tasks": [ {"workload": "schbench", "args": ")J" +
                                    args + R"J("} ]})J");
    Engine e = scen::instantiate(s, 1, TraceOptions{false});
    e.runUntil(s.duration);
    e.finish();
    return {std::move(s), std::move(e)};
}
} // namespace

class TestSchbench : public QObject {
    Q_OBJECT
  private slots:
    // Every loop of a worker is one wake-up sample and one request; a request lasts at least
    // the usleep plus the passes of work.
    void oneWakeupSampleAndOneRequestPerLoop() {
        Run r = runSchbench("-m 2 -t 3 -r 3 -s 200 -n 4 -F 64 -i 1", 4);
        const scen::Workload& w = r.s.workloads.at(0);
        QCOMPARE(w.taskCount, 1 + 2 * (1 + 3)); // main, and per message thread: itself and 3 workers
        int workers = 0;
        for (TaskId id = w.firstTask; id < w.firstTask + w.taskCount; ++id) {
            const Task& t = r.e.tasks()[size_t(id)];
            int64_t requests = 0, minBin = -1;
            for (size_t b = 0; b < t.reqHist.size(); ++b) {
                requests += t.reqHist[b];
                if (t.reqHist[b] && minBin < 0) minBin = int64_t(b);
            }
            if (requests == 0) continue;
            ++workers;
            // The loop records the wake-up before the request and the request at the next post.
            QVERIFY2(t.latCount == requests || t.latCount == requests + 1,
                     qPrintable(QString("%1 vs %2").arg(t.latCount).arg(requests)));
            // 64 KB: d = 52, 52^3 * 0.5 ns = 70 us per pass; 4 passes + 200 us of sleep.
            QVERIFY2(minBin >= 200 + 4 * 70, qPrintable(QString::number(minBin)));
            QVERIFY(requests > 300); // ~0.5 ms per request for 3 s
        }
        QCOMPARE(workers, 6);
    }

    // The default worker count is ceil(cpus / message threads).
    void defaultWorkersPerMessageThread() {
        scen::SchbenchArgs a;
        QVERIFY(scen::parseSchbench({"-m", "3"}, 8, a).empty());
        QCOMPARE(a.workers, 3);
        QVERIFY(scen::parseSchbench({}, 8, a).empty());
        QCOMPARE(a.workers, 8);
        QCOMPARE(a.runtime, 30 * kNsPerSec);
        QCOMPARE(a.sleep, 100 * kNsPerUs);
        QCOMPARE(a.operations, 5);
    }

    void outputBlocksAsSchbenchPrintsThem() {
        Run r = runSchbench("-m 1 -t 4 -r 4 -i 1", 4);
        const std::string out = scen::workloadReport(r.s.workloads.at(0), r.e);
        std::istringstream in(out);
        std::vector<std::string> lines;
        for (std::string l; std::getline(in, l);)
            lines.push_back(l);
        QCOMPARE(lines.size(),
                 size_t(3 * 6 - 1 + 2)); // two 4-percentile blocks, the 3-percentile RPS block, rps, delay
        QVERIFY(std::regex_match(
            lines[0],
            std::regex(R"(Wakeup Latencies percentiles \(usec\) runtime 4 \(s\) \(\d+ total samples\))")));
        QVERIFY(std::regex_match(lines[1], std::regex("\t  50\\.0th: \\d+ +\\(\\d+ samples\\)")));
        QVERIFY(std::regex_match(lines[3], std::regex("\t\\* 99\\.0th: \\d+ +\\(\\d+ samples\\)")));
        QVERIFY(std::regex_match(lines[4], std::regex("\t  99\\.9th: \\d+ +\\(\\d+ samples\\)")));
        QVERIFY(std::regex_match(lines[5], std::regex("\t  min=\\d+, max=\\d+")));
        QVERIFY(std::regex_match(
            lines[6],
            std::regex(R"(Request Latencies percentiles \(usec\) runtime 4 \(s\) \(\d+ total samples\))")));
        QVERIFY(std::regex_match(
            lines[12], std::regex(R"(RPS percentiles \(requests\) runtime 4 \(s\) \(4 total samples\))")));
        QVERIFY(std::regex_match(lines[14], std::regex("\t\\* 50\\.0th: \\d+ +\\(\\d+ samples\\)")));
        QVERIFY(std::regex_match(lines[17], std::regex(R"(average rps: \d+\.\d\d)")));
        QVERIFY(std::regex_match(lines[18],
                                 std::regex(R"(sched delay: message \d+ \(usec\) worker \d+ \(usec\))")));
    }

    void badArguments_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("value missing") << "-m"
                                       << "-m: needs a value";
        QTest::newRow("zero threads") << "-t 0"
                                      << "-t: '0' is not a worker count; accepted: 1 to 4096";
        QTest::newRow("runtime word") << "-r long"
                                      << "-r: 'long' is not a runtime in seconds";
        QTest::newRow("auto rps") << "-A 50"
                                  << "-A is not modelled";
        QTest::newRow("unknown") << "--turbo"
                                 << "unsupported schbench option '--turbo'";
    }
    void badArguments() {
        QFETCH(QString, args);
        QFETCH(QString, needle);
        scen::SchbenchArgs a;
        const std::string e = scen::parseSchbench(scen::splitArgs(args.toStdString()), 4, a);
        QVERIFY2(e.find(needle.toStdString()) != std::string::npos, e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSchbench)
#include "tst_schbench.moc"
