// SPDX-License-Identifier: GPL-3.0-or-later
// The pixel-bounded lane summaries equal a brute-force render at the same zoom: for every pixel
// column, the busy fraction and the task computed by scanning every slice. Zoomed out they come
// from time buckets: busy within the edge buckets' share, the task one that ran there, the flag
// columns marked wherever an interval is, the buckets bounded by the intervals they hold.
#include "tests/test_support.h"
#include "widgets/model/coverage_buckets.h"
#include "widgets/model/flag_index.h"
#include "widgets/model/lane_index.h"
#include "widgets/model/task_lane_index.h"

#include <tuple>

using namespace sched;
using namespace view;

namespace {

// Brute force by the same definition: busy = covered time / column time; task = the slice
// covering most of the column if at most 8 overlap it, else the one running at its middle or
// the next to start.
std::vector<Column> bruteColumns(const Trace& tr, int cpu, Time t0, Time t1, int width) {
    std::vector<Column> cols(static_cast<size_t>(width));
    for (int x = 0; x < width; ++x) {
        const Time a = t0 + Time((int128(t1 - t0) * x) / width),
                   b = t0 + Time((int128(t1 - t0) * (x + 1)) / width);
        Time busy = 0, best = 0;
        std::vector<size_t> over;
        for (size_t i = 0; i < tr.slices.size(); ++i) {
            if (tr.slices.cpu[i] != cpu || tr.slices.end[i] <= a || tr.slices.start[i] >= b) continue;
            over.push_back(i);
            busy += std::min(b, tr.slices.end[i]) - std::max(a, tr.slices.start[i]);
        }
        std::sort(over.begin(), over.end(),
                  [&](size_t p, size_t q) { return tr.slices.start[p] < tr.slices.start[q]; });
        Column& c = cols[size_t(x)];
        if (over.size() <= 8) {
            for (size_t i : over) {
                const Time cover = std::min(b, tr.slices.end[i]) - std::max(a, tr.slices.start[i]);
                if (cover > best) best = cover, c.task = tr.slices.task[i];
            }
        } else {
            const Time mid = a + (b - a) / 2;
            for (size_t i : over) // running at the middle, else the first to start after it
                if (tr.slices.end[i] > mid) {
                    c.task = tr.slices.task[i];
                    break;
                }
            if (c.task < 0) c.task = tr.slices.task[over.back()]; // all ended before the middle
        }
        c.busy = float(double(busy) / double(b - a));
    }
    return cols;
}

} // namespace

class TestLaneIndex : public QObject {
    Q_OBJECT
  private slots:
    // A lane keeps a busy-time checkpoint before every 32nd slice; a view that starts after the
    // lane's last slice, or a column over more than 32 slices up to its end, asks for the busy time
    // before all of them - with 32 and 64 slices exactly there is no checkpoint there (a review
    // found the read past the end: a busy fraction of -0.21).
    void busyTimeAtTheLanesEndWithWholeCheckpoints() {
        for (size_t count : {31, 32, 33, 64}) {
            Trace tr;
            tr.cpus = 1;
            for (size_t i = 0; i < count; ++i) // 10 ns slices every 15 ns
                tr.slices.push(Time(15 * i), Time(15 * i + 10), TaskId(i % 3), 0, 0, kNoReason);
            LaneIndex idx;
            idx.update(tr);
            const Time last = Time(15 * count);
            for (const auto& [t0, t1, w] : {std::tuple<Time, Time, int>{last - 5, last + 100, 10},
                                            {0, last + 300, 1},
                                            {20, last, 3},
                                            {last + 10, last + 50, 4}}) {
                const auto got = idx.columns(0, t0, t1, w), want = bruteColumns(tr, 0, t0, t1, w);
                for (int x = 0; x < w; ++x)
                    QVERIFY2(std::abs(got[size_t(x)].busy - want[size_t(x)].busy) < 1e-6,
                             qPrintable(QString("%1 slices, [%2, %3) in %4: column %5 busy %6, want %7")
                                            .arg(count)
                                            .arg(t0)
                                            .arg(t1)
                                            .arg(w)
                                            .arg(x)
                                            .arg(got[size_t(x)].busy)
                                            .arg(want[size_t(x)].busy)));
            }
            QCOMPARE(idx.busyIn(0, 0, last + 1000), Time(10 * count));
        }
    }
    void columnsEqualBruteForceAtEveryZoom() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 3, "hz": 1000, "preempt": "lazy"},
          "tasks": [ {"comm": "w", "count": 7, "behavior": [{"repeat": "forever", "body": [
              {"run": {"dist": "exponential", "mean": "300us"}}, {"sleep": {"dist": "exponential", "mean": "500us"}}]}]},
                     {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "5ms"}]}]} ]})J");
        e.runUntil(300 * kNsPerMs);
        e.finish();
        LaneIndex idx;
        idx.update(e.trace());
        int compared = 0, multi = 0;
        for (const auto& [t0, t1, w] :
             std::vector<std::tuple<Time, Time, int>>{{0, 300 * kNsPerMs, 97},
                                                      {0, 300 * kNsPerMs, 1000},
                                                      {37 * kNsPerMs, 39 * kNsPerMs, 200},
                                                      {100 * kNsPerMs, 100 * kNsPerMs + 5000, 50},
                                                      {250 * kNsPerMs, 400 * kNsPerMs, 333}}) {
            for (int cpu = 0; cpu < 3; ++cpu) {
                const auto fast = idx.columns(cpu, t0, t1, w);
                const auto slow = bruteColumns(e.trace(), cpu, t0, t1, w);
                for (int x = 0; x < w; ++x) {
                    QVERIFY2(std::fabs(fast[size_t(x)].busy - slow[size_t(x)].busy) < 1e-6,
                             qPrintable(QString("cpu %1 x %2: busy %3 vs %4")
                                            .arg(cpu)
                                            .arg(x)
                                            .arg(fast[size_t(x)].busy)
                                            .arg(slow[size_t(x)].busy)));
                    QCOMPARE(fast[size_t(x)].task, slow[size_t(x)].task);
                    multi += fast[size_t(x)].slices > 8;
                    ++compared;
                }
            }
        }
        QVERIFY(compared > 5000);
        QVERIFY(multi > 100);             // the many-slices-per-pixel path was exercised
        for (int cpu = 0; cpu < 3; ++cpu) // none of these zooms was read from the buckets
            QVERIFY(!idx.summarised(cpu, 0, 300 * kNsPerMs, 97));
    }
    // Zoomed out far enough that a column spans at least eight of a lane's buckets, the columns
    // come from the buckets: each column's busy fraction within the two edge buckets' share of the
    // exact one, and its task one that ran in the column or in the bucket at either edge. The
    // flag columns are marked wherever the exact sweep marks them.
    void zoomedOutColumnsComeFromTheBuckets() {
        Engine e = engineFrom(R"J({"machine": {"cpus": 3, "hz": 1000, "preempt": "lazy"},
          "tasks": [ {"comm": "w", "count": 7, "behavior": [{"repeat": "forever", "body": [
              {"run": {"dist": "exponential", "mean": "300us"}}, {"sleep": {"dist": "exponential", "mean": "500us"}}]}]},
                     {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "5ms"}]}]} ]})J");
        const Time T = 6 * kNsPerSec;
        e.runUntil(T);
        e.finish();
        LaneIndex idx;
        idx.update(e.trace());
        FlagIndex fi;
        fi.update(e.trace());
        const Slices& s = e.trace().slices;
        const FlagIntervals& f = e.trace().flags;
        int compared = 0;
        for (const auto& [t0, t1, w] : std::vector<std::tuple<Time, Time, int>>{
                 {0, T, 60}, {kNsPerSec, 5 * kNsPerSec, 40}, {123456789, T, 30}}) {
            for (int cpu = 0; cpu < 3; ++cpu) {
                QVERIFY(idx.summarised(cpu, t0, t1, w));
                const auto cols = idx.columns(cpu, t0, t1, w);
                const auto exact = bruteColumns(e.trace(), cpu, t0, t1, w);
                const auto flags = fi.columns(cpu, 0, t0, t1, w);
                for (int x = 0; x < w; ++x) {
                    const Time a = t0 + Time((int128(t1 - t0) * x) / w),
                               b = t0 + Time((int128(t1 - t0) * (x + 1)) / w);
                    // The buckets read: the coarsest level with at least eight to a column.
                    double bucket = double(idx.bucketWidth(cpu));
                    while (16 * bucket <= double(t1 - t0) / double(w))
                        bucket *= 2;
                    QVERIFY2(std::fabs(cols[size_t(x)].busy - exact[size_t(x)].busy) <=
                                 2 * bucket / double(b - a),
                             qPrintable(QString("cpu %1 x %2: busy %3 vs %4")
                                            .arg(cpu)
                                            .arg(x)
                                            .arg(cols[size_t(x)].busy)
                                            .arg(exact[size_t(x)].busy)));
                    bool ranThere = false, flagThere = false;
                    for (size_t i = 0; i < s.size() && !ranThere; ++i)
                        ranThere = s.cpu[i] == cpu && s.task[i] == cols[size_t(x)].task &&
                                   s.end[i] > a - Time(bucket) && s.start[i] < b + Time(bucket);
                    QVERIFY2(ranThere, qPrintable(QString("cpu %1 x %2").arg(cpu).arg(x)));
                    for (size_t i = 0; i < f.size() && !flagThere; ++i)
                        flagThere = f.cpu[i] == cpu && f.bit[i] == 0 && f.set[i] < b && f.clear[i] > a;
                    if (flagThere)
                        QVERIFY2(flags[size_t(x)] != 0, qPrintable(QString("flag column %1").arg(x)));
                    ++compared;
                }
            }
        }
        QVERIFY(compared > 350);
    }
    // The finest buckets are at most an eighth as many as the intervals (or 1,024), also after a
    // one-hour gap, and what they hold adds up: every nanosecond covered, the longest cover's key,
    // every interval counted, on the finest level and on a coarser one.
    void bucketsStayBoundedAndAddUp() {
        CoverageBuckets b;
        Time t = 5 * kNsPerSec; // a trace that starts late, as an imported one does
        const Time start = t;
        for (int i = 0; i < 100000; ++i) { // key 7 runs 900 ns, then key 3 runs 100 ns
            b.add(t, t + 900, 7);
            b.add(t + 900, t + 1000, 3);
            t += 1000;
        }
        b.flush();
        QVERIFY2(b.size() <= 200000 / 8, qPrintable(QString::number(b.size())));
        QVERIFY(b.summarises(double(t - start) / 100));
        const auto cells = b.columns(start, t, 100);
        double covered = 0;
        uint64_t touches = 0;
        for (const auto& c : cells) {
            QCOMPARE(c.key, 7);
            covered += c.covered;
            touches += c.touches;
        }
        // Inner column edges split a bucket's cover exactly; only the outer two are pro rata.
        QVERIFY2(std::fabs(covered - double(t - start)) <= double(Time(2) << b.shift()),
                 qPrintable(QString::number(covered)));
        QVERIFY(touches >= 200000); // each interval in each bucket it touches
        // Wider columns read a coarser level (the levels above hold at most as many again): the
        // same cover and key from 5 columns as from 100.
        QVERIFY2(b.buckets() <= 2 * b.size() + 64, qPrintable(QString::number(b.buckets())));
        double coarse = 0;
        for (const auto& c : b.columns(start, t, 5)) {
            QCOMPARE(c.key, 7);
            coarse += c.covered;
        }
        QVERIFY2(std::fabs(coarse - double(t - start)) <= double(Time(2) << (b.shift() + 5)),
                 qPrintable(QString::number(coarse)));
        CoverageBuckets gap;
        gap.add(0, 10, 1);
        gap.add(3600 * kNsPerSec, 3600 * kNsPerSec + 10, 2);
        gap.flush();
        QVERIFY2(gap.size() <= 2048, qPrintable(QString::number(gap.size())));
        const auto two = gap.columns(0, 3600 * kNsPerSec + 10, 2);
        QCOMPARE(two[0].key, 1);
        QCOMPARE(two[1].key, 2);
        // Sparse intervals (10 ns each 1 ms) reach the bound: an eighth of them, and not less
        // than half of that (the buckets coarsen only as far as they must).
        CoverageBuckets sparse;
        for (int i = 0; i < 100000; ++i)
            sparse.add(Time(i) * kNsPerMs, Time(i) * kNsPerMs + 10, i % 3);
        sparse.flush();
        QVERIFY2(sparse.size() <= 100000 / 8 && sparse.size() > 100000 / 16,
                 qPrintable(QString::number(sparse.size())));
    }
    void slicesInReturnsExactlyTheOverlappingSlicesInOrder() {
        Engine e = builtinEngine("pipe-pingpong");
        e.runUntil(50 * kNsPerMs);
        e.finish();
        LaneIndex idx;
        idx.update(e.trace());
        const Time t0 = 10 * kNsPerMs, t1 = 11 * kNsPerMs;
        const auto got = idx.slicesIn(0, t0, t1, 100000);
        std::vector<uint32_t> expect;
        const Slices& s = e.trace().slices;
        for (uint32_t i = 0; i < s.size(); ++i)
            if (s.cpu[i] == 0 && s.end[i] > t0 && s.start[i] < t1) expect.push_back(i);
        std::sort(expect.begin(), expect.end(),
                  [&](uint32_t a, uint32_t b) { return s.start[a] < s.start[b]; });
        QCOMPARE(got, expect);
        QVERIFY(!got.empty());
    }
    // Zero-length slices at t0 do not overlap [t0, t1); touching ones are each counted once.
    void slicesInAtZeroLengthAndTouchingSlices() {
        Trace tr;
        tr.cpus = 1;
        Time t = 0;
        for (int i = 0; i < 40; ++i) { // 10 ns, then a zero-length one, then a touching 5 ns
            tr.slices.push(t, t + 10, TaskId(0), 0, 0, kNoReason);
            tr.slices.push(t + 10, t + 10, TaskId(1), 0, 0, kNoReason);
            tr.slices.push(t + 10, t + 15, TaskId(2), 0, 0, kNoReason);
            t += 20;
        }
        LaneIndex idx;
        idx.update(tr);
        for (Time t0 = 0; t0 < t; ++t0)
            for (Time len : {1, 5, 33}) {
                std::vector<uint32_t> want;
                for (uint32_t i = 0; i < tr.slices.size(); ++i)
                    if (tr.slices.end[i] > t0 && tr.slices.start[i] < t0 + len) want.push_back(i);
                QCOMPARE(idx.slicesIn(0, t0, t0 + len, 1000), want);
            }
    }
    void indexCatchesUpIncrementally() {
        Engine e = builtinEngine("balance-8-on-4");
        LaneIndex inc;
        for (Time t = 10 * kNsPerMs; t <= 200 * kNsPerMs; t += 10 * kNsPerMs) {
            e.runUntil(t);
            inc.update(e.trace());
        }
        LaneIndex full;
        full.update(e.trace());
        for (int c = 0; c < 4; ++c)
            QCOMPARE(inc.slicesOnCpu(c), full.slicesOnCpu(c));
        QCOMPARE(inc.busyIn(1, 0, 200 * kNsPerMs), full.busyIn(1, 0, 200 * kNsPerMs));
    }
    void taskLanesShowRunningRunnableAndSleeping() {
        // One CPU: a hog and a sleeper that runs 1 ms, sleeps 2 ms. Every column of a task lane
        // agrees with a scan of the task's slices and wakeups.
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "none"},
          "tasks": [ {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "sl", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "2ms"}]}]} ]})J");
        e.runUntil(200 * kNsPerMs);
        e.finish();
        TaskLaneIndex idx;
        idx.update(e.trace());
        const TaskId sl = taskByComm(e, "sl");
        const Time t0 = 50 * kNsPerMs, t1 = 150 * kNsPerMs;
        const int w = 1000; // 100 us per column
        const auto cols = idx.columns(sl, t0, t1, w);
        const auto slices = slicesOf(e.trace(), sl);
        int running = 0, runnable = 0, sleeping = 0;
        for (int x = 0; x < w; ++x) {
            const Time mid = t0 + (t1 - t0) * x / w + (t1 - t0) / w / 2;
            bool inSlice = false;
            for (const auto& s : slices)
                inSlice = inSlice || (s.start <= mid && s.end > mid);
            if (inSlice) QCOMPARE(cols[size_t(x)], view::TaskState::Running);
            running += cols[size_t(x)] == view::TaskState::Running;
            runnable += cols[size_t(x)] == view::TaskState::Runnable;
            sleeping += cols[size_t(x)] == view::TaskState::Sleeping;
        }
        QVERIFY(running > 100 && runnable > 50 && sleeping > 200); // all three states occur
        // the hog is never asleep: it is running or waiting for the CPU
        for (auto st : idx.columns(taskByComm(e, "hog"), t0, t1, w))
            QVERIFY(st != view::TaskState::Sleeping);
    }
    void taskLanesShowAMutexSleepAsUninterruptible() {
        // priority-inversion: the editor sleeps 20 ms (S), then waits for the logger's mutex in D
        // from its switch-out (prev_state D) to the unlock's wakeup.
        Engine e = builtinEngine("priority-inversion");
        e.runUntil(1300 * kNsPerMs);
        e.finish();
        TaskLaneIndex idx;
        idx.update(e.trace());
        const TaskId ed = taskByComm(e, "editor");
        const auto s = slicesOf(e.trace(), ed);
        size_t d = 0;
        while (d < s.size() && s[d].endPoint != uint8_t(SwitchPoint::BlockUninterruptible))
            ++d;
        QVERIFY(d + 1 < s.size());
        const Time dFrom = s[d].end, dTo = s[d + 1].start; // woken before dTo (no wait: the CPU is its)
        QVERIFY(dTo - dFrom > 500 * kNsPerMs);
        const int w = 1300; // 1 ms per column
        const auto cols = idx.columns(ed, 0, 1300 * kNsPerMs, w);
        const auto at = [&](Time t) { return cols[size_t(t / kNsPerMs)]; };
        QCOMPARE(at(10 * kNsPerMs), view::TaskState::Sleeping); // its first sleep(20ms)
        QCOMPARE(at(dFrom + 5 * kNsPerMs), view::TaskState::Uninterruptible);
        QCOMPARE(at((dFrom + dTo) / 2), view::TaskState::Uninterruptible);
        for (auto st : idx.columns(taskByComm(e, "hog"), 0, 1300 * kNsPerMs, w))
            QVERIFY(st != view::TaskState::Uninterruptible);
    }
    void taskLanesShowThePresentBeforeItIsInTheTrace() {
        // The running task's open slice and the waiting task's open wait are not in the trace
        // until they end; with the live state the lanes must look as they will once both have ended.
        Engine e = engineFrom(R"J({"machine": {"cpus": 1, "hz": 250, "preempt": "none"},
          "tasks": [ {"comm": "hog", "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "sl", "behavior": [{"repeat": "forever", "body": [{"run": "1ms"}, {"sleep": "2ms"}]}]} ]})J");
        for (Time until : {Time(73 * kNsPerMs + 300000), Time(120 * kNsPerMs + 1)}) {
            Engine live = e;
            live.runUntil(until);
            const TaskId curr = live.cpus()[0].curr;
            QVERIFY(curr >= 0);
            const Time since = live.cpus()[0].sliceStart;
            QVERIFY(since < live.now());
            TaskLaneIndex open;
            open.update(live.trace());
            Engine closed = live; // runs on until both open stretches have ended
            closed.runUntil(live.now() + 40 * kNsPerMs);
            closed.finish();
            TaskLaneIndex done;
            done.update(closed.trace());
            const Time t0 = live.now() - 20 * kNsPerMs, t1 = live.now();
            for (TaskId t : {taskByComm(live, "hog"), taskByComm(live, "sl")}) {
                const auto withLive = open.columns(t, t0, t1, 400, live.now(), t == curr ? since : -1);
                QCOMPARE(withLive, done.columns(t, t0, t1, 400));
                if (t == curr)
                    QCOMPARE(withLive.back(), view::TaskState::Running);
                else
                    QVERIFY(withLive.back() != view::TaskState::Running);
            }
        }
    }
    void flagColumnsMarkTheSetIntervals() {
        Engine e = builtinEngine("kernel-hogs-waker");
        e.runUntil(200 * kNsPerMs);
        e.finish();
        FlagIndex fi;
        fi.update(e.trace());
        const FlagIntervals& f = e.trace().flags;
        const int w = 400;
        const auto cols = fi.columns(0, int(ReschedBit::Eager), 0, 200 * kNsPerMs, w);
        for (int x = 0; x < w; ++x) {
            const Time a = Time(x) * 500000, b = a + 500000;
            bool any = false;
            for (size_t i = 0; i < f.size(); ++i)
                any = any || (f.cpu[i] == 0 && f.bit[i] == 0 && f.set[i] < b && f.clear[i] > a);
            if (any) QVERIFY2(cols[size_t(x)] != 0, qPrintable(QString("column %1").arg(x)));
        }
    }
};

QTEST_GUILESS_MAIN(TestLaneIndex)
#include "tst_lane_index.moc"
