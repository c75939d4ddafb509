// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios derived from the shared traces: valid scenario files, and re-simulated on the traced
// machine's settings they land near the trace's own metrics (the tolerances are stated per
// metric; where the model falls short it is an expected failure with its cause).
#include "test_support.h"

#include "compare.h"
#include "derive.h"
#include "trace_file.h"

using namespace sched;

namespace {

struct Resim {
    Trace real;
    Comparison cmp;
    scen::DeriveSummary sum;
    std::string json;
};

Resim resimulate(const char* name, int32_t root) {
    Resim r;
    ImportReport rep;
    std::string error;
    if (!loadTrace(std::string(SCHEDSCOPE_TEST_DATA) + "/traces/" + name, r.real, rep, error)) qFatal("%s", error.c_str());
    scen::DeriveOptions o;
    o.rootPid = root;
    o.source = name;
    r.json = scen::deriveScenarioJson(r.real, o, &r.sum);
    scen::Scenario s;
    scen::ScenarioError se;
    if (!scen::parseScenario(r.json, "derived.json", s, se)) qFatal("derived scenario invalid: %s\n%s", se.text().c_str(), r.json.c_str());
    Engine e = scen::instantiate(s, 1, TraceOptions{false});
    e.runUntil(s.duration);
    e.finish();
    r.cmp = compareRuns(r.real, e.trace(), 0, r.real.endTime);
    return r;
}

const CompareRow& row(const Comparison& c, const std::string& group) {
    for (const CompareRow& r : c.rows)
        if (r.group == group) return r;
    qFatal("no group %s", group.c_str());
    return c.rows.front();
}

bool near(double real, double sim, double tol) { return std::abs(sim - real) <= tol * std::abs(real); }

} // namespace

class TestDerive : public QObject {
    Q_OBJECT
private slots:
    void massiveIntrResimulates() {
        const Resim r = resimulate("massive_intr-8x8ms-1ms.trace.xz", 18109);
        QCOMPARE(r.sum.tasks, 12);
        QVERIFY(r.json.find("\"count\": 8") != std::string::npos); // the eight workers pooled
        const CompareRow& m = row(r.cmp, "massive_intr");
        qInfo("runtime %.3f / %.3f s, switches %lld / %lld, invol %lld / %lld, avg delay %.3f / %.3f ms", double(m.a.runtime) / 1e9,
              double(m.b.runtime) / 1e9, (long long)m.a.switches(), (long long)m.b.switches(), (long long)m.a.involuntary,
              (long long)m.b.involuntary, double(m.a.avgDelay()) / 1e6, double(m.b.avgDelay()) / 1e6);
        QVERIFY(near(double(m.a.runtime), double(m.b.runtime), 0.03));
        QVERIFY(near(double(m.a.voluntary), double(m.b.voluntary), 0.05));
        QVERIFY(near(double(m.a.involuntary), double(m.b.involuntary), 0.10));
        QVERIFY(near(double(m.a.avgDelay()), double(m.b.avgDelay()), 0.10));
    }

    void cyclictestResimulates() {
        const Resim r = resimulate("cyclictest-i1000-l5000.trace.xz", 18298);
        const CompareRow& c = row(r.cmp, "cyclictest");
        qInfo("switches %lld / %lld, avg delay %.1f / %.1f us", (long long)c.a.switches(), (long long)c.b.switches(),
              double(c.a.avgDelay()) / 1e3, double(c.b.avgDelay()) / 1e3);
        QVERIFY(near(double(c.a.voluntary), double(c.b.voluntary), 0.01));
        QCOMPARE(c.b.involuntary, c.a.involuntary);
        QVERIFY(near(double(c.a.runtime), double(c.b.runtime), 0.15));
    }

    void hackbenchResimulates() {
        const Resim r = resimulate("hackbench-g4-l2000-threads.trace.xz", 17428);
        // The 160 threads wake each other in two roles (senders wake receivers, receivers wake
        // blocked senders): the pool is split along its wake graph into two entries of about 80.
        const std::string pool = "\"comm\": \"hackbench\", \"count\": ";
        std::vector<int> pools;
        for (size_t at = r.json.find(pool); at != std::string::npos; at = r.json.find(pool, at + 1))
            pools.push_back(std::atoi(r.json.c_str() + at + pool.size()));
        QCOMPARE(int(pools.size()), 2);
        QCOMPARE(pools[0] + pools[1], 160);
        QVERIFY(std::abs(pools[0] - pools[1]) <= 4);
        const CompareRow& h = row(r.cmp, "hackbench");
        qInfo("runtime %.3f / %.3f s, voluntary %lld / %lld, involuntary %lld / %lld", double(h.a.runtime) / 1e9, double(h.b.runtime) / 1e9,
              (long long)h.a.voluntary, (long long)h.b.voluntary, (long long)h.a.involuntary, (long long)h.b.involuntary);
        QVERIFY(near(double(h.a.runtime), double(h.b.runtime), 0.03));
        QVERIFY(near(double(h.a.voluntary), double(h.b.voluntary), 0.03));
        // The bursts' and sleeps' measured shapes carry most of the preemptions (lognormal fits: 43 %).
        QVERIFY(double(h.b.involuntary) > 0.6 * double(h.a.involuntary));
        QEXPECT_FAIL("", "finding: sleeps are re-simulated as timer sleeps; on the machine most preemptions are a thread "
                         "preempted by the thread it has just woken onto its CPU (one that ran a few microseconds before "
                         "sleeping ~0.2 ms): 7.9 k instead of 11.6 k (4.9 k with lognormal fits)",
                     Continue);
        QVERIFY(near(double(h.a.involuntary), double(h.b.involuntary), 0.30));
    }
};

QTEST_GUILESS_MAIN(TestDerive)
#include "tst_derive.moc"
