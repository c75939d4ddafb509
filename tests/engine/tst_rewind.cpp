// SPDX-License-Identifier: GPL-3.0-or-later
// Rewind: restoring a snapshot and replaying to a time gives exactly the state and trace an
// uninterrupted run has at that time.
#include "tests/test_support.h"

using namespace sched;

namespace {

bool sameTrace(const Trace& a, const Trace& b) {
    return a.slices.start == b.slices.start && a.slices.end == b.slices.end &&
           a.slices.task == b.slices.task && a.slices.cpu == b.slices.cpu &&
           a.slices.endPoint == b.slices.endPoint && a.slices.endReason == b.slices.endReason &&
           a.flags.set == b.flags.set && a.flags.clear == b.flags.clear && a.flags.reason == b.flags.reason &&
           a.wakeups.time == b.wakeups.time && a.wakeups.wakee == b.wakeups.wakee &&
           a.migrations.time == b.migrations.time && a.samples == b.samples &&
           a.tasks.size() == b.tasks.size() && a.markers.size() == b.markers.size();
}

const char* kWorkload = R"J({"machine": {"cpus": 3, "hz": 1000, "preempt": "lazy"},
  "channels": [{"name": "ch", "capacity": 2}],
  "programs": {"child": [{"run": {"dist": "exponential", "mean": "2ms"}}, {"exit": true}]},
  "tasks": [
    {"comm": "w", "count": 6, "behavior": [{"repeat": "forever", "body": [
        {"run": {"dist": "exponential", "mean": "500us"}, "mode": "kernel"}, {"sleep": {"dist": "exponential", "mean": "1ms"}}]}]},
    {"comm": "forker", "behavior": [{"repeat": "forever", "body": [{"fork": "child", "count": 2}, {"wait": "children"}, {"sleep": "3ms"}]}]},
    {"comm": "p", "behavior": [{"repeat": "forever", "body": [{"run": "100us"}, {"write": "ch"}]}]},
    {"comm": "c", "behavior": [{"repeat": "forever", "body": [{"read": "ch"}, {"run": "150us"}]}]} ],
  "changes": [{"at": "150ms", "preempt": "full"}, {"at": "220ms", "task": "w", "nice": 5}]})J";

} // namespace

class TestRewind : public QObject {
    Q_OBJECT
  private slots:
    void restoredSnapshotReplaysToTheSameState() {
        Engine e = engineFrom(kWorkload, 11, true);
        std::vector<Engine> snaps;
        for (Time t = 50 * kNsPerMs; t <= 300 * kNsPerMs; t += 50 * kNsPerMs) {
            e.runUntil(t);
            snaps.push_back(e.snapshot());
        }
        QVERIFY(e.trace().slices.size() > 1000);
        // Step back to 120 ms from the snapshot at 100 ms ...
        e.restore(snaps[1]);
        QCOMPARE(e.now(), 100 * kNsPerMs);
        e.runUntil(120 * kNsPerMs);
        Engine fresh = engineFrom(kWorkload, 11, true);
        fresh.runUntil(120 * kNsPerMs);
        QVERIFY(sameTrace(e.trace(), fresh.trace())); // the trace is the prefix an uninterrupted run has
        QCOMPARE(e.eventsProcessed(), fresh.eventsProcessed());
        // ... and going on from there reproduces the rest, live changes and forks included.
        e.runUntil(300 * kNsPerMs);
        fresh.runUntil(300 * kNsPerMs);
        e.finish();
        fresh.finish();
        QVERIFY(sameTrace(e.trace(), fresh.trace()));
        QCOMPARE(e.trace().markers.size(), size_t(2));
        QCOMPARE(e.tasks().size(), fresh.tasks().size());
    }
    void aSnapshotDoesNotCarryTheTrace() {
        Engine e = engineFrom(kWorkload, 3, true);
        e.runUntil(200 * kNsPerMs);
        const Engine s = e.snapshot();
        QCOMPARE(s.trace().slices.size(), size_t(0));
        QCOMPARE(s.now(), e.now());
    }
};

QTEST_GUILESS_MAIN(TestRewind)
#include "tst_rewind.moc"
