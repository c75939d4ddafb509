// SPDX-License-Identifier: GPL-3.0-or-later
// EEVDF fair share: runtime follows the weights.
#include "tests/test_support.h"

using namespace sched;

namespace {
std::pair<Time, Time> runtimes(const std::string& json, Time until, const char* a, const char* b) {
    Engine e = engineFrom(json);
    e.runUntil(until);
    e.finish();
    const auto rows = perfSchedLatency(e.trace());
    return {latencyRow(rows, a)->runtime, latencyRow(rows, b)->runtime};
}
} // namespace

class TestFairness : public QObject {
    Q_OBJECT
  private slots:
    void eevdfTwoNice0HogsShareOneCpuWithinOnePercent() {
        for (const char* model : {"none", "full", "lazy"}) {
            const std::string json = withModel(R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "MODEL"},
              "tasks": [ {"comm": "a", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                         {"comm": "b", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ]})J",
                                               model);
            const auto [ra, rb] = runtimes(json, kNsPerSec, "a", "b");
            const double share = double(ra) / double(ra + rb);
            QVERIFY2(std::fabs(share - 0.5) < 0.01,
                     qPrintable(QString("%1: share of a = %2").arg(model).arg(share)));
            QVERIFY(ra + rb > Time(0.99 * kNsPerSec)); // the CPU never idles
        }
    }
    void eevdfNice0VersusNice5ShareFollowsWeights1024To335() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full"},
          "tasks": [ {"comm": "n0", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "n5", "nice": 5, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ]})J";
        const auto [r0, r5] = runtimes(json, 4 * kNsPerSec, "n0", "n5");
        const double share = double(r0) / double(r0 + r5);
        const double expect = 1024.0 / (1024.0 + 335.0);
        QVERIFY2(std::fabs(share - expect) / expect < 0.02,
                 qPrintable(QString("share %1, expected %2").arg(share).arg(expect)));
    }
    void eevdfThreeWayShareWithNiceMinus5() {
        const std::string json = R"J({"machine": {"cpus": 1, "hz": 1000, "preempt": "full"},
          "tasks": [ {"comm": "hi", "nice": -5, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "lo", "count": 2, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]} ]})J";
        const auto [rh, rl] = runtimes(json, 4 * kNsPerSec, "hi", "lo");
        const double share = double(rh) / double(rh + rl);
        const double expect = 3121.0 / (3121.0 + 2 * 1024.0);
        QVERIFY2(std::fabs(share - expect) / expect < 0.02,
                 qPrintable(QString("share %1, expected %2").arg(share).arg(expect)));
    }
};

QTEST_GUILESS_MAIN(TestFairness)
#include "tst_fairness.moc"
