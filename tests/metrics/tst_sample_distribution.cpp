// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributions chart's samples (core/metrics/sample_distribution.h), checked against the
// trace by brute force: run lengths are the finished slices, a comm group is the union of its
// tasks, and the histogram, CDF and percentiles say the same as the sorted samples.
#include "metrics/latency.h"
#include "metrics/sample_distribution.h"
#include "tests/test_support.h"

using namespace sched;

class TestSampleDistribution : public QObject {
    Q_OBJECT
  private slots:
    void runLengthsAreTheFinishedSlices() {
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(300 * kNsPerMs);
        e.finish();
        const Trace& tr = e.trace();
        const TaskId t = taskByComm(e, "hog", 2);
        std::vector<Time> want;
        for (size_t i = 0; i < tr.slices.size(); ++i)
            if (tr.slices.task[i] == t && tr.slices.endPoint[i] != kStillRunning)
                want.push_back(tr.slices.end[i] - tr.slices.start[i]);
        std::sort(want.begin(), want.end());
        const SampleDistribution d = sampleDistribution(tr, SampleKind::RunLength, SampleScope::Task, t);
        QCOMPARE(d.sorted, want);
        QVERIFY(want.size() > 10);
        QCOMPARE(d.percentile(0), want.front());
        QCOMPARE(d.percentile(1), want.back());
        QCOMPARE(d.percentile(0.5), want[(want.size() - 1) / 2]);
    }

    // The comm group holds every task of that comm: its samples are the union of theirs.
    void aCommGroupIsTheUnionOfItsTasks() {
        Engine e = builtinEngine("balance-8-on-4");
        e.runUntil(300 * kNsPerMs);
        e.finish();
        const Trace& tr = e.trace();
        for (const SampleKind kind : {SampleKind::SchedDelay, SampleKind::RunLength}) {
            std::vector<Time> all;
            int tasks = 0;
            for (TaskId t = 0; t < TaskId(tr.tasks.size()); ++t)
                if (tr.tasks[size_t(t)].comm == "hog") {
                    ++tasks;
                    const auto one = sampleDistribution(tr, kind, SampleScope::Task, t).sorted;
                    all.insert(all.end(), one.begin(), one.end());
                }
            std::sort(all.begin(), all.end());
            QCOMPARE(tasks, 8);
            const SampleDistribution g =
                sampleDistribution(tr, kind, SampleScope::CommGroup, taskByComm(e, "hog"));
            QCOMPARE(g.sorted, all);
            QCOMPARE(sampleScopeName(tr, SampleScope::CommGroup, taskByComm(e, "hog")),
                     std::string("hog (8 tasks)"));
        }
        QCOMPARE(sampleDistribution(tr, SampleKind::SchedDelay, SampleScope::All, kNoTask).sorted.size(),
                 schedDelays(tr).size());
    }

    // A task group (an autogroup here: the tasks' sessions) holds the tasks the engine put in it,
    // whatever their comms: its samples are the union of theirs, and a task of the root group
    // gets the root group's.
    void aTaskGroupIsTheUnionOfItsMembers() {
        Engine e = engineFrom(workloads(
            R"({"cpus": 2, "hz": 1000})",
            R"({"comm": "a", "session": "term", "behavior": [{"repeat": "forever", "body": [{"run": "2ms"}, {"sleep": "1ms"}]}]},
               {"comm": "b", "session": "term", "behavior": [{"repeat": "forever", "body": [{"run": "3ms"}, {"sleep": "2ms"}]}]},
               {"comm": "c", "session": "desk", "count": 2, "behavior": [{"run": "1000s"}]},
               {"comm": "d", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "3ms"}]}]})"));
        e.runUntil(300 * kNsPerMs);
        e.finish();
        const Trace& tr = e.trace();
        std::vector<std::string> groupOf(e.tasks().size());
        for (size_t t = 0; t < groupOf.size(); ++t)
            if (const int32_t g = e.tasks()[t].taskGroup; g >= 0) groupOf[t] = e.groups()[size_t(g)].name;
        const TaskId a = taskByComm(e, "a"), d = taskByComm(e, "d");
        QVERIFY(!groupOf[size_t(a)].empty());
        QCOMPARE(groupOf[size_t(a)], groupOf[size_t(taskByComm(e, "b"))]);
        QVERIFY(groupOf[size_t(a)] != groupOf[size_t(taskByComm(e, "c"))]);
        QVERIFY(groupOf[size_t(d)].empty());
        for (const SampleKind kind : {SampleKind::SchedDelay, SampleKind::RunLength})
            for (const TaskId who : {a, d}) {
                std::vector<Time> want;
                for (TaskId t = 0; t < TaskId(tr.tasks.size()); ++t)
                    if (groupOf[size_t(t)] == groupOf[size_t(who)]) {
                        const auto one = sampleDistribution(tr, kind, SampleScope::Task, t).sorted;
                        want.insert(want.end(), one.begin(), one.end());
                    }
                std::sort(want.begin(), want.end());
                QVERIFY(!want.empty());
                QCOMPARE(sampleDistribution(tr, kind, SampleScope::TaskGroup, who, groupOf).sorted, want);
            }
        QCOMPARE(sampleScopeName(tr, SampleScope::TaskGroup, a, groupOf), groupOf[size_t(a)] + " (2 tasks)");
        QCOMPARE(sampleScopeName(tr, SampleScope::TaskGroup, d, groupOf),
                 std::string("the root group (1 task)"));
    }

    // Bins of a fifth of a decade from 1 us; the histogram counts every sample and the CDF climbs
    // to 1, reaching at each bin's top the share of samples at or below it.
    void histogramAndCdfAgreeWithTheSamples() {
        SampleDistribution d;
        d.sorted = {500, 1000, 1584, 1585, 10 * kNsPerUs, 4 * kNsPerMs, kNsPerSec, 100 * kNsPerSec};
        QCOMPARE(SampleDistribution::binOf(1584), 0);
        QCOMPARE(SampleDistribution::binOf(1585), 1);
        QCOMPARE(SampleDistribution::binOf(4 * kNsPerMs), 18);
        const auto h = d.histogram();
        QCOMPARE(h[0], int64_t(3));
        QCOMPARE(h[1], int64_t(1));
        QCOMPARE(h[5], int64_t(1));
        QCOMPARE(h[18], int64_t(1));
        QCOMPARE(h[30], int64_t(2));
        const auto c = d.cdf();
        QCOMPARE(c[0], 3.0 / 8);
        QCOMPARE(c[17], 5.0 / 8);
        QCOMPARE(c[30], 1.0);
        for (size_t b = 1; b < c.size(); ++b)
            QVERIFY(c[b] >= c[b - 1]);
        QCOMPARE(SampleDistribution{}.percentile(0.5), Time(0));
    }
};

QTEST_GUILESS_MAIN(TestSampleDistribution)
#include "tst_sample_distribution.moc"
