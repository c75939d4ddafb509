// SPDX-License-Identifier: GPL-3.0-or-later
// Same scenario + seed = byte-identical trace; another seed = another trace; a copy of the
// engine (a snapshot) continues exactly like the original.
#include "tests/test_support.h"

#include <QCryptographicHash>

using namespace sched;

namespace {

template <class V> void put(QByteArray& b, const V& v) {
    b.append(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(typename V::value_type)));
}
void put(QByteArray& b, const TimeColumn& v) { // its values, not its packing
    for (const Time t : v)
        b.append(reinterpret_cast<const char*>(&t), sizeof t);
}

QByteArray serialize(const Trace& t) {
    QByteArray b;
    put(b, t.slices.start), put(b, t.slices.end), put(b, t.slices.task), put(b, t.slices.cpu),
        put(b, t.slices.endPoint), put(b, t.slices.endReason);
    put(b, t.flags.set), put(b, t.flags.clear), put(b, t.flags.task), put(b, t.flags.bit),
        put(b, t.flags.reason);
    put(b, t.wakeups.time), put(b, t.wakeups.wakee), put(b, t.wakeups.targetCpu);
    put(b, t.migrations.time), put(b, t.migrations.task), put(b, t.migrations.to);
    b.append(reinterpret_cast<const char*>(t.samples.packedData()), qsizetype(t.samples.packedBytes()));
    return b;
}

const char* kRandomWorkload = R"J({"machine": {"cpus": 4, "hz": 1000, "preempt": "lazy"},
  "channels": [{"name": "ch", "capacity": 4}],
  "tasks": [
    {"comm": "worker", "count": 10, "behavior": [{"repeat": "forever", "body": [
        {"run": {"dist": "exponential", "mean": "400us"}, "mode": "kernel"},
        {"sleep": {"dist": "lognormal", "mean": "1ms", "sd": "2ms"}}]}]},
    {"comm": "producer", "behavior": [{"repeat": "forever", "body": [{"run": {"dist": "uniform", "min": "10us", "max": "90us"}}, {"write": "ch"}]}]},
    {"comm": "consumer", "count": 2, "behavior": [{"repeat": "forever", "body": [{"read": "ch"}, {"run": {"dist": "normal", "mean": "50us", "sd": "20us"}}]}]} ]})J";

QByteArray runTrace(uint64_t seed, Time until) {
    Engine e = engineFrom(kRandomWorkload, seed, true);
    e.runUntil(until);
    e.finish();
    return serialize(e.trace());
}

} // namespace

class TestDeterminism : public QObject {
    Q_OBJECT
  private slots:
    void sameSeedGivesByteIdenticalTrace() {
        const QByteArray a = runTrace(5, 300 * kNsPerMs), b = runTrace(5, 300 * kNsPerMs);
        QVERIFY(a.size() > 100000);
        QCOMPARE(QCryptographicHash::hash(a, QCryptographicHash::Sha256),
                 QCryptographicHash::hash(b, QCryptographicHash::Sha256));
        QVERIFY(a == b);
    }
    void anotherSeedGivesAnotherTrace() {
        QVERIFY(runTrace(5, 300 * kNsPerMs) != runTrace(6, 300 * kNsPerMs));
    }
    void aCopiedEngineContinuesIdentically() {
        Engine e = engineFrom(kRandomWorkload, 9, true);
        e.runUntil(100 * kNsPerMs);
        Engine snapshot = e; // engine state is a value
        e.runUntil(250 * kNsPerMs);
        snapshot.runUntil(250 * kNsPerMs);
        e.finish();
        snapshot.finish();
        QVERIFY(serialize(e.trace()) == serialize(snapshot.trace()));
        QCOMPARE(e.eventsProcessed(), snapshot.eventsProcessed());
    }
    // TraceOptions::flags only decides what is recorded: the bits are set and cleared, and act,
    // the same without the intervals (the CLI's reports run without them).
    void notRecordingFlagIntervalsChangesNoDecision() {
        const scen::Scenario s = scenarioFrom(kRandomWorkload);
        Engine with = scen::instantiate(s, 4, TraceOptions{.samples = true, .flags = true});
        Engine without = scen::instantiate(s, 4, TraceOptions{.samples = true, .flags = false});
        with.runUntil(300 * kNsPerMs), without.runUntil(300 * kNsPerMs);
        with.finish(), without.finish();
        QVERIFY(with.trace().flags.size() > 1000);
        QCOMPARE(without.trace().flags.size(), size_t(0));
        Trace a = with.trace();
        a.flags = {};
        QVERIFY(serialize(a) == serialize(without.trace()));
        QCOMPARE(with.eventsProcessed(), without.eventsProcessed());
    }
    void steppingEventByEventEqualsRunningThrough() {
        Engine a = engineFrom(kRandomWorkload, 3, true), b = engineFrom(kRandomWorkload, 3, true);
        a.runUntil(150 * kNsPerMs);
        while (b.nextEventTime() <= 150 * kNsPerMs)
            b.step();
        b.runUntil(150 * kNsPerMs);
        a.finish();
        b.finish();
        QVERIFY(serialize(a.trace()) == serialize(b.trace()));
    }
};

QTEST_GUILESS_MAIN(TestDeterminism)
#include "tst_determinism.moc"
