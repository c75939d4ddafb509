// SPDX-License-Identifier: GPL-3.0-or-later
// Batches (core/engine/batch.cpp): a running task's operations run ahead without an event each
// must leave every decision as one event per operation makes it. Each workload runs both ways and
// everything the engine records is compared: the trace columns, each task's counters, the
// channels. The queue's equal-time order that this rests on is tested on its own.
#include "tests/test_support.h"

#include "engine/event_queue.h"

using namespace sched;

namespace {

template <class V> void put(QByteArray& b, const V& v) {
    b.append(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(typename V::value_type)));
}
void put(QByteArray& b, const TimeColumn& v) { // its values, not its packing
    for (const Time t : v)
        b.append(reinterpret_cast<const char*>(&t), sizeof t);
}

template <class T> void putValue(QByteArray& b, const T& v) {
    b.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Everything a run leaves behind that batching could get wrong.
QByteArray record(const Engine& e) {
    QByteArray b;
    const Trace& t = e.trace();
    put(b, t.slices.start), put(b, t.slices.end), put(b, t.slices.task), put(b, t.slices.cpu),
        put(b, t.slices.endPoint), put(b, t.slices.endReason);
    put(b, t.flags.set), put(b, t.flags.clear), put(b, t.flags.task), put(b, t.flags.bit),
        put(b, t.flags.reason);
    put(b, t.wakeups.time), put(b, t.wakeups.wakee), put(b, t.wakeups.waker), put(b, t.wakeups.targetCpu);
    put(b, t.migrations.time), put(b, t.migrations.task), put(b, t.migrations.to);
    for (const Task& k : e.tasks()) {
        putValue(b, k.state), putValue(b, k.ip), putValue(b, k.remaining), putValue(b, k.opDone),
            putValue(b, k.iterations);
        putValue(b, k.utime), putValue(b, k.stime), putValue(b, k.nvcsw), putValue(b, k.nivcsw),
            putValue(b, k.nrMigrations);
        putValue(b, k.latCount), putValue(b, k.latSum), putValue(b, k.latMax), putValue(b, k.exitedAt);
        put(b, k.loopLeft), put(b, k.latHist), put(b, k.reqHist);
    }
    for (const SchedEntity& se : e.entities())
        putValue(b, se.vruntime), putValue(b, se.sumExecRuntime);
    for (const Channel& c : e.channels()) {
        putValue(b, c.count), putValue(b, c.lastWrite), putValue(b, c.pendingWrites),
            putValue(b, c.pendingReads);
        b.append(char(c.readers.size())), b.append(char(c.writers.size()));
    }
    return b;
}

struct Run {
    QByteArray recorded;
    uint64_t events = 0;
};

Run run(const scen::Scenario& s, bool batch, Time until) {
    Engine e = scen::instantiate(s, s.seed, TraceOptions{false, batch});
    e.runUntil(until);
    e.finish();
    return {record(e), e.eventsProcessed()};
}

} // namespace

class TestBatch : public QObject {
    Q_OBJECT
  private slots:
    void batchesMakeTheSameDecisions_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<qint64>("until");
        QTest::addColumn<bool>("fewerEvents"); // the workload's channel ops can run ahead
        const auto row = [](const char* name, const std::string& json, Time until, bool fewer) {
            QTest::newRow(name) << QString::fromStdString(json) << qint64(until) << fewer;
        };
        // Sockets: a quarter-drained buffer wakes every blocked writer; threads of one process.
        for (const char* model : {"none", "voluntary", "full", "lazy"})
            row((std::string("messaging sockets preempt=") + model).c_str(),
                workloads(
                    std::string(R"({"cpus": 8, "hz": 250, "preempt": ")") + model + "\"}",
                    R"({"workload": "messaging", "args": "-g 4 -t -l 60"}, {"workload": "kthreads", "args": "-r 10 -c 20"})"),
                400 * kNsPerMs, true);
        row("messaging PREEMPT_AUTO build",
            workloads(R"({"cpus": 16, "hz": 1000, "kernel": "auto-rfc", "preempt": "none"})",
                      R"({"workload": "messaging", "args": "-g 6 -t -l 40"})"),
            400 * kNsPerMs, true);
        // Pipes: one writer woken per freed slot; processes.
        row("hackbench pipes",
            workloads(R"({"cpus": 4, "hz": 1000, "preempt": "full"})",
                      R"({"workload": "hackbench", "args": "-g 3 -l 80 -p"})"),
            400 * kNsPerMs, true);
        row("hackbench one channel slot",
            workloads(R"({"cpus": 2, "hz": 250, "preempt": "none"})",
                      R"({"workload": "hackbench", "args": "-g 1 -f 3 -l 100 -p -s 4096"})"),
            400 * kNsPerMs, true);
        // Loops the planner walks by their pattern (loop_pattern.h), ending inside plans: one and two
        // passes (hackbench -l 1 and -l 2), and fixed syscall costs without jitter in kernel and user
        // runs, in a counted and an endless loop.
        row("hackbench loops of one and two passes",
            workloads(
                R"({"cpus": 4, "hz": 250, "preempt": "none"})",
                R"({"workload": "hackbench", "args": "-g 2 -l 1 -p"}, {"workload": "hackbench", "args": "-g 2 -l 2"})"),
            200 * kNsPerMs, false);
        row("counted loops with fixed costs", R"J({"machine": {"cpus": 3, "hz": 1000, "preempt": "full"},
          "channels": [{"name": "ch", "capacity": 8}],
          "tasks": [
            {"comm": "producer", "count": 2, "behavior": [{"repeat": 400, "body": [{"write": "ch", "cost": "1us"}, {"run": "2us"}]}]},
            {"comm": "consumer", "count": 2, "behavior": [{"repeat": "forever", "body": [{"read": "ch", "cost": "1us"}, {"run": "3us", "mode": "kernel"}]}]} ]})J",
            100 * kNsPerMs, true);
        // Nested counted loops: two counters, which live on the heap (loop_counters.h).
        row("nested counted loops", R"J({"machine": {"cpus": 3, "hz": 1000, "preempt": "none"},
          "channels": [{"name": "ch", "capacity": 12}],
          "tasks": [
            {"comm": "producer", "count": 2, "behavior": [{"repeat": 300, "body": [{"repeat": 3, "body": [{"write": "ch", "cost": "1us"}]}, {"run": "2us"}]}]},
            {"comm": "consumer", "count": 2, "behavior": [{"repeat": "forever", "body": [{"read": "ch", "cost": "1us"}, {"run": "1us"}]}]} ]})J",
            100 * kNsPerMs, true);
        // Random durations, a tiny channel, kernel sections, sleeps: plans end and get cut often.
        row("random producer/consumer", R"J({"machine": {"cpus": 3, "hz": 1000, "preempt": "lazy"},
          "channels": [{"name": "ch", "capacity": 3}, {"name": "back", "capacity": 2}],
          "tasks": [
            {"comm": "worker", "count": 5, "behavior": [{"repeat": "forever", "body": [
                {"run": {"dist": "exponential", "mean": "400us"}, "mode": "kernel"}, {"sleep": {"dist": "lognormal", "mean": "1ms", "sd": "2ms"}}]}]},
            {"comm": "producer", "count": 2, "behavior": [{"repeat": "forever", "body": [{"run": {"dist": "uniform", "min": "1us", "max": "9us"}}, {"write": "ch"}, {"read": "back"}]}]},
            {"comm": "consumer", "count": 2, "behavior": [{"repeat": "forever", "body": [{"read": "ch"}, {"write": "back"}, {"run": {"dist": "normal", "mean": "5us", "sd": "2us"}}]}]} ]})J",
            300 * kNsPerMs, false); // a tight ping-pong over tiny channels: few ops can run ahead
        // Workloads whose ops mostly sleep, exit or time themselves: batching must stay out of the way.
        row("schbench",
            workloads(R"({"cpus": 4, "hz": 1000, "preempt": "lazy"})",
                      R"({"workload": "schbench", "args": "-m 2 -t 4 -r 1"})"),
            600 * kNsPerMs, false);
        row("kernbench",
            workloads(R"({"cpus": 4, "hz": 250, "preempt": "none"})",
                      R"({"workload": "kernbench", "args": "-j 4"})"),
            1500 * kNsPerMs, false);
        row("massive_intr, cyclictest, browser",
            workloads(
                R"({"cpus": 2, "hz": 250, "preempt": "voluntary"})",
                R"({"workload": "massive_intr", "args": "4 1"}, {"workload": "cyclictest", "args": "-t 2 -i 1000 -l 400"}, {"workload": "browser", "args": ""})"),
            800 * kNsPerMs, false);
    }
    void batchesMakeTheSameDecisions() {
        QFETCH(QString, json);
        QFETCH(qint64, until);
        QFETCH(bool, fewerEvents);
        const scen::Scenario s = scenarioFrom(json.toStdString());
        const Run perOp = run(s, false, until), batched = run(s, true, until);
        QVERIFY(perOp.recorded.size() > 10000);
        QVERIFY2(perOp.recorded == batched.recorded, "a batched run differs from the one-event-per-op run");
        if (fewerEvents)
            QVERIFY2(batched.events * 2 < perOp.events,
                     qPrintable(QString("events %1 batched vs %2").arg(batched.events).arg(perOp.events)));
        else
            QVERIFY(batched.events <= perOp.events);
    }

    void loopCountersAreValuesInPlaceOrOnTheHeap() {
        // A task's loop counters are copied with the engine (snapshots): the first in place, more
        // on the heap, each copy its own.
        LoopCounters one, three;
        one.assign(1, 5);
        three.assign(3, 7);
        QCOMPARE(one.size(), size_t(1));
        QCOMPARE(three.size(), size_t(3));
        LoopCounters a = three, b = one;
        a[2] = 1, b[0] = 2;
        QCOMPARE(three[2], int64_t(7));
        QCOMPARE(one[0], int64_t(5));
        QCOMPARE(a[0], int64_t(7));
        a = b; // three counters become one
        QCOMPARE(a.size(), size_t(1));
        QCOMPARE(a[0], int64_t(2));
        b = three; // one becomes three
        three[1] = 9;
        QCOMPARE(b.size(), size_t(3));
        QCOMPARE(b[1], int64_t(7));
        const LoopCounters moved = std::move(b);
        QCOMPARE(moved.size(), size_t(3));
        QCOMPARE(moved.data()[2], int64_t(7));
    }

    void loopPatternsAreTheWorkloadsFixedLoops() {
        // The planner walks a counted loop whose body is channel operations and fixed runs by its
        // precomputed steps: each body op's channel operation, CPU phase (cost +- jitter) and mode.
        // perf bench sched messaging's sender: a write to each of 20 receivers (2.03 us +- 5 %),
        // then 2 us of user-space loop (sched-messaging.c: sender(); costs as calibrated in
        // scenarios/messaging.cpp); its receiver: a read (2.46 us +- 5 %), 100 ns.
        const scen::Scenario s =
            scenarioFrom(workloads(R"({"cpus": 4})", R"({"workload": "messaging", "args": "-g 1 -t -l 7"})"));
        const Engine e = scen::instantiate(s, 1);
        int senders = 0, receivers = 0;
        for (const Program& p : e.programs()) {
            const LoopPattern lp = LoopPattern::of(p);
            if (!lp.found()) continue;
            const std::vector<LoopPattern::Step>& st = lp.steps;
            QCOMPARE(p.ops[lp.target + st.size()].kind, OpKind::Loop);
            if (st.size() == 21) {
                senders++;
                QCOMPARE(lp.count, int64_t(7));
                for (size_t j = 0; j < 20; ++j) {
                    QCOMPARE(st[j].base, Time(2030 - 101));
                    QCOMPARE(st[j].range, uint64_t(203));
                    QCOMPARE(st[j].chanOp & 1, 1u);
                    QVERIFY(st[j].mode == ExecMode::Kernel);
                }
                QCOMPARE(st[20].base, Time(2000));
                QCOMPARE(st[20].range, uint64_t(0));
                QCOMPARE(st[20].chanOp, LoopPattern::kNoChannelOp);
                QVERIFY(st[20].mode == ExecMode::User);
            } else if (st.size() == 2) {
                receivers++;
                QCOMPARE(lp.count, int64_t(20 * 7));
                QCOMPARE(st[0].base, Time(2460 - 123));
                QCOMPARE(st[0].chanOp & 1, 0u);
                QCOMPARE(st[1].base, Time(100));
            }
        }
        QCOMPARE(senders, 1);
        QCOMPARE(receivers, 20);
        // Loops the generic walk must take: massive_intr's runs while its runtime lasts (a Loop's
        // `until`), the browser's random run lengths, schbench's outer loop (a wake-up measured,
        // a sleep). Its worker's inner loop, -n passes of a fixed run, is a pattern.
        const scen::Scenario other = scenarioFrom(workloads(
            R"({"cpus": 2})",
            R"({"workload": "massive_intr", "args": "2 1"}, {"workload": "schbench", "args": "-m 1 -t 2 -r 1 -n 5"}, {"workload": "browser", "args": ""})"));
        const Engine o = scen::instantiate(other, 1);
        int schbenchWorkers = 0;
        for (size_t i = 0; i < o.programs().size(); ++i) {
            const LoopPattern lp = LoopPattern::of(o.programs()[i]);
            const QString name = QString::fromStdString(other.programNames[i]);
            if (name.startsWith("schbench") && name.endsWith("worker")) {
                schbenchWorkers++;
                QVERIFY(lp.found());
                QCOMPARE(lp.steps.size(), size_t(1));
                QCOMPARE(o.programs()[i].ops[lp.target].kind, OpKind::Run);
                QCOMPARE(lp.count, int64_t(5));
            } else {
                QVERIFY2(!lp.found(), qPrintable(name));
            }
        }
        QCOMPARE(schbenchWorkers, 1);
        // An endless loop of the shape (the bench-64cpu-800 scenario's senders and receivers).
        const Engine bench = builtinEngine("bench-64cpu-800");
        const LoopPattern endless = LoopPattern::of(bench.programs()[0]);
        QVERIFY(endless.found());
        QCOMPARE(endless.count, int64_t(0));
    }

    void liveChangesCutBatches() {
        // A preemption-model change half-way (and a base-slice change) while batches are planned.
        scen::Scenario s = scenarioFrom(workloads(R"({"cpus": 4, "hz": 250, "preempt": "none"})",
                                                  R"({"workload": "messaging", "args": "-g 2 -t -l 200"})"));
        const auto both = [&](auto&& change) {
            Engine a = scen::instantiate(s, 1, TraceOptions{false, false}),
                   b = scen::instantiate(s, 1, TraceOptions{false, true});
            change(a), change(b);
            a.runUntil(400 * kNsPerMs), b.runUntil(400 * kNsPerMs);
            a.finish(), b.finish();
            return record(a) == record(b);
        };
        QVERIFY(both([](Engine& e) {
            ParamChange c;
            c.kind = ParamChange::Kind::PreemptModel;
            c.model = PreemptModel::Full;
            e.scheduleChange(c, 20 * kNsPerMs);
        }));
        QVERIFY(both([](Engine& e) {
            e.runUntil(15 * kNsPerMs);
            ParamChange c;
            c.kind = ParamChange::Kind::BaseSlice;
            c.value = 300 * kNsPerUs;
            QVERIFY(e.apply(c).empty());
        }));
    }

    void snapshotsAndSteppingInsideABatch() {
        const scen::Scenario s =
            scenarioFrom(workloads(R"({"cpus": 8, "hz": 1000, "preempt": "lazy"})",
                                   R"({"workload": "messaging", "args": "-g 3 -t -l 100"})"));
        Engine a = scen::instantiate(s, 1, TraceOptions{false, true});
        a.runUntil(20 * kNsPerMs + 1234); // between events, batches part-way
        Engine copy = a;
        Engine stepped = a;
        a.runUntil(200 * kNsPerMs);
        copy.runUntil(200 * kNsPerMs);
        while (stepped.nextEventTime() <= 200 * kNsPerMs)
            stepped.step();
        stepped.runUntil(200 * kNsPerMs);
        a.finish(), copy.finish(), stepped.finish();
        QVERIFY(record(a) == record(copy));
        QVERIFY(record(a) == record(stepped));
        const Run perOp = run(s, false, 200 * kNsPerMs);
        QVERIFY(record(a) == perOp.recorded);
    }

    void equalTimeEventsPopInAFixedOrder() {
        // Pushed earlier first; pushed at the same moment: other kinds in push order, then
        // Segment events by CPU, in whatever order they were pushed.
        EventQueue q;
        q.push(100, 10, EventKind::Segment, 3, 1);
        q.push(100, 10, EventKind::Ipi, 2);
        q.push(100, 10, EventKind::Segment, 0, 1);
        q.push(50, 20, EventKind::Segment, 7, 1);
        q.push(100, 10, EventKind::Tick, 1);
        q.push(100, 5, EventKind::Segment, 5, 1);
        q.push(100, 10, EventKind::Segment, 1, 1);
        q.push(100, 30, EventKind::Timer, 9);
        std::vector<std::pair<EventKind, int>> order;
        while (!q.empty()) {
            const Event e = q.pop();
            order.push_back({e.kind, e.a});
        }
        const std::vector<std::pair<EventKind, int>> expected{
            {EventKind::Segment, 7}, {EventKind::Segment, 5}, {EventKind::Ipi, 2},     {EventKind::Tick, 1},
            {EventKind::Segment, 0}, {EventKind::Segment, 1}, {EventKind::Segment, 3}, {EventKind::Timer, 9}};
        QVERIFY(order == expected);
    }

    void aCpusNewSegmentReplacesItsPendingOne() {
        // A CPU has one pending Segment (the engine cancels the old one when it pushes anew).
        EventQueue q;
        q.push(100, 0, EventKind::Segment, 2, 1);
        q.push(300, 0, EventKind::Segment, 40, 1);
        q.push(200, 10, EventKind::Tick, 0);
        q.push(250, 20, EventKind::Segment, 2, 2); // replaces the one at 100
        QCOMPARE(q.size(), size_t(3));
        std::vector<std::pair<Time, uint32_t>> popped;
        while (!q.empty()) {
            const Event e = q.pop();
            popped.push_back({e.time, e.gen});
        }
        const std::vector<std::pair<Time, uint32_t>> expected{{200, 0}, {250, 2}, {300, 1}};
        QVERIFY(popped == expected);
    }

    void segmentsOfHighCpusAndFarTimesKeepTheirOrder() {
        // The tournament keys a Segment by its time, then by pushedAt above the CPU's number:
        // the highest CPU (kMaxCpus - 1) must not spill into pushedAt, and times past the key's
        // 2^55 ns still order by time (equal ones by CPU).
        EventQueue q;
        const Time far = Time(1) << 60;
        q.push(far + 1, far, EventKind::Segment, 1, 1);
        q.push(far, far, EventKind::Segment, 200, 1);
        q.push(far, far - 1, EventKind::Segment, 7, 1);
        q.push(100, 1, EventKind::Segment, kMaxCpus - 1 - 64, 1);
        q.push(100, 5, EventKind::Segment, kMaxCpus - 1, 1);
        q.push(100, 0, EventKind::Segment, kMaxCpus - 1, 2); // replaces its pending one
        q.push(100, 1, EventKind::Segment, 0, 1);
        std::vector<std::pair<Time, int>> popped;
        while (!q.empty()) {
            const Event e = q.pop();
            popped.push_back({e.time, e.a});
        }
        const std::vector<std::pair<Time, int>> expected{
            {100, kMaxCpus - 1}, {100, 0}, {100, kMaxCpus - 1 - 64}, {far, 7}, {far, 200}, {far + 1, 1}};
        QVERIFY(popped == expected);
    }

    void theHeadIsTheEventPopTakes() {
        // The run loops look at the head once (EventQueue::head()) and pop it from there; that
        // must be the event pop() would take, also right after a popped CPU pushes its next
        // Segment (whose path is replayed once, lazily).
        EventQueue q;
        QVERIFY(q.head().event == nullptr);
        q.push(100, 0, EventKind::Segment, 2, 1);
        q.push(100, 0, EventKind::Tick, 0);
        q.push(90, 0, EventKind::Segment, 5, 1);
        q.push(300, 0, EventKind::Timer, 4);
        std::vector<std::pair<EventKind, Time>> popped;
        bool repushed = false;
        while (q.head().event) {
            const EventQueue::Head h = q.head();
            const Event seen = *h.event;
            const Event e = q.pop(h);
            QCOMPARE(e.time, seen.time);
            QCOMPARE(e.a, seen.a);
            QVERIFY(e.kind == seen.kind);
            QCOMPARE(h.segment, e.kind == EventKind::Segment);
            popped.push_back({e.kind, e.time});
            if (e.kind == EventKind::Segment && e.a == 5 && !repushed) { // CPU 5 runs on
                q.push(200, 90, EventKind::Segment, 5, 2);
                repushed = true;
            }
        }
        QVERIFY(q.empty());
        const std::vector<std::pair<EventKind, Time>> expected{{EventKind::Segment, 90},
                                                               {EventKind::Tick, 100},
                                                               {EventKind::Segment, 100},
                                                               {EventKind::Segment, 200},
                                                               {EventKind::Timer, 300}};
        QVERIFY(popped == expected);
    }
};

QTEST_GUILESS_MAIN(TestBatch)
#include "tst_batch.moc"
