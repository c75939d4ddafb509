// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios derived from the shared traces: valid scenario files, and re-simulated on the traced
// machine's settings they land near the trace's own metrics (the tolerances are stated per
// metric; where the model falls short it is an expected failure with its cause).
#include "tests/test_support.h"

#include "base/limits.h"
#include "metrics/compare.h"
#include "scenarios/derive.h"
#include "trace/file.h"

using namespace sched;

namespace {

struct Resim {
    Trace real, sim;
    Comparison cmp;
    scen::DeriveSummary sum;
    std::string json;
};

Resim resimulate(const char* name, int32_t root) {
    Resim r;
    ImportReport rep;
    std::string error;
    if (!loadTrace(std::string(SCHEDSCOPE_TEST_DATA) + "/traces/" + name, r.real, rep, error))
        qFatal("%s", error.c_str());
    scen::DeriveOptions o;
    o.rootPid = root;
    o.source = name;
    r.json = scen::deriveScenarioJson(r.real, o, &r.sum);
    scen::Scenario s;
    scen::ScenarioError se;
    if (!scen::parseScenario(r.json, "derived.json", s, se))
        qFatal("derived scenario invalid: %s\n%s", se.text().c_str(), r.json.c_str());
    Engine e = scen::instantiate(s, 1, TraceOptions{false});
    e.runUntil(s.duration);
    e.finish();
    r.sim = e.trace();
    r.cmp = compareRuns(r.real, r.sim, 0, r.real.endTime);
    return r;
}

// How much a task's CPU burst (CPU time between two sleeps) depends on its previous one: the
// share of short bursts, and of short bursts right after a short one, over the tasks of a comm.
struct BurstMemory {
    double shortShare = 0, shortAfterShort = 0;
};
BurstMemory burstMemory(const Trace& t, const std::string& comm, Time shortBelow) {
    std::vector<std::vector<uint32_t>> of(t.tasks.size());
    const Slices& s = t.slices;
    for (uint32_t i = 0; i < s.size(); ++i)
        if (t.tasks[size_t(s.task[i])].comm == comm) of[size_t(s.task[i])].push_back(i);
    int64_t pairs = 0, shortPrev = 0, both = 0;
    for (auto& v : of) {
        std::sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) { return s.start[a] < s.start[b]; });
        Time acc = 0;
        int prev = -1; // 1: the previous burst was short
        for (uint32_t i : v) {
            acc += s.end[i] - s.start[i];
            if (s.endPoint[i] != uint8_t(SwitchPoint::Block)) continue;
            const int now = acc < shortBelow;
            if (prev >= 0) {
                ++pairs;
                shortPrev += prev;
                both += prev && now;
            }
            prev = now;
            acc = 0;
        }
    }
    return {double(shortPrev) / double(std::max<int64_t>(1, pairs)),
            double(both) / double(std::max<int64_t>(1, shortPrev))};
}

const CompareRow& row(const Comparison& c, const std::string& group) {
    for (const CompareRow& r : c.rows)
        if (r.group == group) return r;
    qFatal("no group %s", group.c_str());
    return c.rows.front();
}

bool near(double real, double sim, double tol) {
    return std::abs(sim - real) <= tol * std::abs(real);
}

} // namespace

class TestDerive : public QObject {
    Q_OBJECT
  private slots:
    // A comm as a scenario takes it (1 to 15 bytes, TASK_COMM_LEN): a trace's empty or
    // unprintable comm becomes ftrace's "<...>", a long one is cut to 15 bytes without splitting a
    // UTF-8 character; the derived file parses (found by fuzzing: an empty comm made it unloadable).
    // An op takes up to 1000 s, a run lasts up to 1 h and a machine has up to 256 CPUs in the
    // scenario format: a trace with a longer burst, longer altogether or from a bigger machine is
    // cut to those limits and the file says so (found by fuzzing: a 51-minute burst made the
    // derived file unloadable).
    void derivedTimesStayWithinTheFormatsLimits() {
        const std::string text =
            "cpus=1\n"
            "   <idle>-0 [511] d..2.     1.000000: sched_switch: prev_comm=swapper/511 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=x next_pid=9 next_prio=120\n"
            "   <idle>-0 [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=hog next_pid=10 next_prio=120\n"
            "   hog-10 [000] d..2.  3072.000000: sched_switch: prev_comm=hog prev_pid=10 prev_prio=120 "
            "prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
            "   <idle>-0 [000] d..2.  5000.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
            "prev_prio=120 prev_state=R ==> next_comm=hog next_pid=10 next_prio=120\n"
            "   hog-10 [000] d..2.  5000.100000: sched_switch: prev_comm=hog prev_pid=10 prev_prio=120 "
            "prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        const std::string json = scen::deriveScenarioJson(t, scen::DeriveOptions{});
        scen::Scenario s;
        scen::ScenarioError se;
        QVERIFY2(scen::parseScenario(json, "derived.json", s, se), (se.text() + "\n" + json).c_str());
        QCOMPARE(s.duration, 3600 * kNsPerSec);
        QCOMPARE(s.config.cpus, kMaxCpus); // the trace's 512 CPUs: more than the simulator models
        QVERIFY2(json.find("The trace's machine has 512 CPUs") != std::string::npos, json.c_str());
        // Three cuts: hog's 3071 s burst and 1928 s sleep, and x, running on CPU 511 all along.
        QVERIFY2(json.find("Cut to the scenario format's limits: 3 bursts or sleeps longer than 1000 s") !=
                     std::string::npos,
                 json.c_str());
        QVERIFY2(json.find("\"run\": \"1000000000000ns\"") != std::string::npos, json.c_str());
    }

    // More siblings of one comm than a group may hold (core/base/limits.h): the derived file holds
    // the limit, says what it cut, and loads (it wrote a count the reader refused).
    void aPoolPastTheTaskLimitIsCutAndLoads() {
        const int n = int(limits::kMaxTasks) + 10;
        std::string text = "cpus=1\n";
        text.reserve(size_t(n) * 160);
        char b[256];
        for (int i = 0; i < n; ++i) {
            std::snprintf(b, sizeof b,
                          "   w-%d [000] d..2. %d.%06d: sched_switch: prev_comm=w prev_pid=%d prev_prio=120 "
                          "prev_state=S ==> next_comm=w next_pid=%d next_prio=120\n",
                          1000 + i, 1 + i / 100000, (i % 100000) * 10, 1000 + i, 1001 + i);
            text += b;
        }
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        scen::DeriveOptions o;
        const std::string json = scen::deriveScenarioJson(t, o);
        QVERIFY2(json.find("\"count\": 200000") != std::string::npos, json.substr(0, 2000).c_str());
        QVERIFY(json.find("tasks past 200000 in a group") != std::string::npos);
        scen::Scenario s;
        scen::ScenarioError se;
        QVERIFY2(scen::parseScenario(json, "derived.json", s, se), se.text().c_str());
    }
    void derivedCommsAreOnesAScenarioAccepts() {
        const std::string text =
            "cpus=1\n"
            "   -10 [000] d..2.     1.000000: sched_switch: prev_comm= prev_pid=10 prev_prio=120 "
            "prev_state=S ==> next_comm=a-very-long-command-name next_pid=11 next_prio=120\n"
            "   x-11 [000] d..2.     1.000100: sched_switch: prev_comm=a-very-long-command-name prev_pid=11 "
            "prev_prio=120 prev_state=S ==> next_comm=abcdefghijklmn\xc3\xa9z next_pid=12 next_prio=120\n"
            "   y-12 [000] d..2.     1.000200: sched_switch: prev_comm=abcdefghijklmn\xc3\xa9z prev_pid=12 "
            "prev_prio=120 prev_state=S ==> next_comm=\x01\x02 next_pid=13 next_prio=120\n"
            "   z-13 [000] d..2.     1.000300: sched_switch: prev_comm=\x01\x02 prev_pid=13 prev_prio=120 "
            "prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
        ImportReport rep;
        const Trace t = importTraceText(text, rep);
        QCOMPARE(rep.malformed, int64_t(0));
        scen::DeriveOptions o;
        const std::string json = scen::deriveScenarioJson(t, o);
        scen::Scenario s;
        scen::ScenarioError se;
        QVERIFY2(scen::parseScenario(json, "derived.json", s, se), (se.text() + "\n" + json).c_str());
        std::vector<std::string> comms;
        for (const scen::TaskGroupSpec& g : s.tasks)
            comms.push_back(g.comm);
        std::sort(comms.begin(), comms.end());
        // The importer shows the control characters as '?' (trace/comm.h); an empty comm is "<...>".
        QCOMPARE(rep.unprintableComms, int64_t(1));
        const std::vector<std::string> want{"<...>", "??", "a-very-long-com", "abcdefghijklmn"};
        QCOMPARE(comms, want);
    }
    void massiveIntrResimulates() {
        const Resim r = resimulate("massive_intr-8x8ms-1ms.trace.xz", 18109);
        QCOMPARE(r.sum.tasks, 12);
        QVERIFY(r.json.find("\"count\": 8") != std::string::npos); // the eight workers pooled
        const CompareRow& m = row(r.cmp, "massive_intr");
        qInfo("runtime %.3f / %.3f s, switches %lld / %lld, invol %lld / %lld, avg delay %.3f / %.3f ms",
              double(m.a.runtime) / 1e9, double(m.b.runtime) / 1e9, (long long)m.a.switches(),
              (long long)m.b.switches(), (long long)m.a.involuntary, (long long)m.b.involuntary,
              double(m.a.avgDelay()) / 1e6, double(m.b.avgDelay()) / 1e6);
        QVERIFY(near(double(m.a.runtime), double(m.b.runtime), 0.03));
        QVERIFY(near(double(m.a.voluntary), double(m.b.voluntary), 0.05));
        QVERIFY(near(double(m.a.involuntary), double(m.b.involuntary), 0.10));
        QVERIFY(near(double(m.a.avgDelay()), double(m.b.avgDelay()), 0.10));
    }

    void cyclictestResimulates() {
        const Resim r = resimulate("cyclictest-i1000-l5000.trace.xz", 18298);
        const CompareRow& c = row(r.cmp, "cyclictest");
        qInfo("switches %lld / %lld, avg delay %.1f / %.1f us", (long long)c.a.switches(),
              (long long)c.b.switches(), double(c.a.avgDelay()) / 1e3, double(c.b.avgDelay()) / 1e3);
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
        qInfo("runtime %.3f / %.3f s, voluntary %lld / %lld, involuntary %lld / %lld",
              double(h.a.runtime) / 1e9, double(h.b.runtime) / 1e9, (long long)h.a.voluntary,
              (long long)h.b.voluntary, (long long)h.a.involuntary, (long long)h.b.involuntary);
        QVERIFY(near(double(h.a.runtime), double(h.b.runtime), 0.03));
        QVERIFY(near(double(h.a.voluntary), double(h.b.voluntary), 0.03));
        // Most of the machine's preemptions are of a thread by one it has just woken, which had run a few
        // microseconds, several times in a row, before it slept: bursts have memory. The derived
        // cycle classes keep at least half of the trace's (a short burst after a short one: 0.79
        // against 0.43 overall on the machine; drawn independently the two are equal).
        const BurstMemory mr = burstMemory(r.real, "hackbench", 12 * kNsPerUs),
                          ms = burstMemory(r.sim, "hackbench", 12 * kNsPerUs);
        qInfo("short bursts: %.2f / %.2f, after a short one: %.2f / %.2f", mr.shortShare, ms.shortShare,
              mr.shortAfterShort, ms.shortAfterShort);
        QVERIFY(mr.shortAfterShort - mr.shortShare > 0.25);
        QVERIFY(ms.shortAfterShort - ms.shortShare > 0.5 * (mr.shortAfterShort - mr.shortShare));
        // With them the re-simulation has 82 % of the involuntary switches (independent draws: 68 %,
        // lognormal fits: 43 %).
        QVERIFY(near(double(h.a.involuntary), double(h.b.involuntary), 0.30));
    }
};

QTEST_GUILESS_MAIN(TestDerive)
#include "tst_derive.moc"
