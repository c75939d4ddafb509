// SPDX-License-Identifier: GPL-3.0-or-later
// The machine between a timer or a wakeup and the woken task's first instruction: the timer
// wheel's rounding of schedule_timeout() (calc_wheel_index(), kernel/time/timer.c), the idle
// exit drawn from a machine's measured distribution, and a wakeup that does not look for an idle
// CPU until a periodic balance has set nr_idle_scan (sd_llc_shared is kzalloc()ed).
#include "tests/test_support.h"

#include "engine/timer_wheel.h"

using namespace sched;

namespace {

// Switch-in times of a task, in order.
std::vector<Time> switchIns(const Engine& e, TaskId t) {
    std::vector<Time> v;
    for (const SliceView& s : slicesOf(e.trace(), t))
        v.push_back(s.start);
    return v;
}

// (wakeup time, next switch-in time) of each wakeup of t that was not sched_wakeup_new.
std::vector<std::pair<Time, Time>> wakeToRun(const Engine& e, TaskId t) {
    const Wakeups& w = e.trace().wakeups;
    const std::vector<Time> in = switchIns(e, t);
    std::vector<std::pair<Time, Time>> v;
    for (size_t i = 0; i < w.size(); ++i) {
        if (w.wakee[i] != t || w.isNew[i]) continue;
        const auto it = std::lower_bound(in.begin(), in.end(), w.time[i]);
        if (it != in.end()) v.push_back({w.time[i], *it});
    }
    return v;
}

} // namespace

class TestMachineWakeup : public QObject {
    Q_OBJECT
  private slots:
    // calc_index(): expires = (expires >> LVL_SHIFT(lvl)) + 1, bucket = expires << LVL_SHIFT(lvl);
    // calc_wheel_index() takes the level from delta = expires - clk: level 0 below 63 jiffies,
    // level 1 (8-jiffy buckets) below 504, level 2 (64) below 4032, ...; past WHEEL_TIMEOUT_CUTOFF
    // (LVL_START(LVL_DEPTH)) the expiry is cut to clk + WHEEL_TIMEOUT_MAX. The values are worked
    // out by hand from those lines.
    void calcWheelIndexRoundsUpToTheLevelGranularity() {
        QCOMPARE(timerWheelBucketExpiry(1, 0, 250), uint64_t(2));         // level 0: one jiffy late
        QCOMPARE(timerWheelBucketExpiry(62, 0, 250), uint64_t(63));       // the last of level 0
        QCOMPARE(timerWheelBucketExpiry(63, 0, 250), uint64_t(64));       // level 1: (63 >> 3 + 1) << 3
        QCOMPARE(timerWheelBucketExpiry(125, 0, 250), uint64_t(128));     // 500 ms at HZ 250
        QCOMPARE(timerWheelBucketExpiry(131, 6, 250), uint64_t(136));     // armed 6 jiffies later
        QCOMPARE(timerWheelBucketExpiry(128, 0, 250), uint64_t(136));     // on a boundary: the next one
        QCOMPARE(timerWheelBucketExpiry(503, 0, 250), uint64_t(504));     // the last of level 1
        QCOMPARE(timerWheelBucketExpiry(504, 0, 250), uint64_t(512));     // level 2: 64-jiffy buckets
        QCOMPARE(timerWheelBucketExpiry(1000, 200, 250), uint64_t(1024)); // delta 800: level 2
        QCOMPARE(timerWheelBucketExpiry(5, 10, 250), uint64_t(10));       // already expired: now
        // LVL_DEPTH 9 above HZ 100: cutoff 63 << 24, WHEEL_TIMEOUT_MAX = cutoff - (1 << 24),
        // which level 8 rounds up to the next 2^24 boundary; LVL_DEPTH 8 at HZ 100.
        const uint64_t cut9 = uint64_t(63) << 24, cut8 = uint64_t(63) << 21;
        QCOMPARE(timerWheelBucketExpiry(uint64_t(1) << 40, 0, 250), cut9);
        QCOMPARE(timerWheelBucketExpiry(uint64_t(1) << 40, 0, 100), cut8);
    }
    // schedule_timeout(msecs_to_jiffies(500)) in a loop with 1 ms of work: the task sleeps at a
    // jiffy J (a multiple of 8 after the first round) and the wheel fires at J + 128, so it wakes
    // 512 ms apart, each time on a tick (plus the timer interrupt's entry); an hrtimer sleep of
    // the same length wakes 500 ms + the fair task's 50 us slack after it slept. At HZ 1000 the
    // 500 jiffies go to level 1 as well: 504.
    void scheduleTimeoutWakesOnATickRoundedByTheWheel() {
        for (const int hz : {250, 1000}) {
            const std::string json = R"({"machine": {"cpus": 1, "hz": )" + std::to_string(hz) +
                                     R"(, "costs": {"timer_irq": "3us"}}, "tasks": [
                {"comm": "kd", "behavior": [{"repeat": "forever", "body": [
                    {"sleep": "500ms", "jiffies": true}, {"run": "1ms", "mode": "kernel"}]}]},
                {"comm": "hr", "behavior": [{"repeat": "forever", "body": [
                    {"sleep": "500ms"}, {"run": "1ms"}]}]}]})";
            Engine e = engineFrom(json);
            e.runUntil(2100 * kNsPerMs);
            const Time period = (hz == 250 ? 128 * 4 : 504) * kNsPerMs;
            const auto kd = wakeToRun(e, taskByComm(e, "kd"));
            QCOMPARE(kd.size(), size_t(4));
            for (size_t i = 0; i < kd.size(); ++i)
                QCOMPARE(kd[i].first, Time(i + 1) * period + 3 * kNsPerUs);
            const auto hr = wakeToRun(e, taskByComm(e, "hr"));
            QVERIFY(hr.size() >= 3);
            // Each hrtimer sleep starts when the 1 ms run ends; the wake is 500 ms + 50 us + 3 us later.
            const std::vector<SliceView> runs = slicesOf(e.trace(), taskByComm(e, "hr"));
            for (size_t i = 1; i < hr.size(); ++i) {
                const auto prev = std::find_if(runs.rbegin(), runs.rend(),
                                               [&](const SliceView& s) { return s.end <= hr[i].first; });
                QVERIFY(prev != runs.rend());
                QCOMPARE(hr[i].first - prev->end, 500 * kNsPerMs + 53 * kNsPerUs);
            }
        }
    }
    // An idle CPU's exit drawn per wakeup from the machine's distribution (its own stream per
    // CPU): every wakeup-to-run delay of a task waking an idle CPU lies in the distribution's
    // range and they differ; a fixed idle exit gives one value; and the same seed gives the same
    // draws.
    void idleExitIsDrawnFromTheMachinesDistribution() {
        const auto delays = [](const std::string& idleExit, uint64_t seed) {
            const std::string json =
                R"({"machine": {"cpus": 1, "hz": 250, "costs": {"idle_exit": )" + idleExit +
                R"(}}, "tasks": [{"comm": "t", "behavior": [{"repeat": "forever", "body": [
                                       {"sleep": "1ms"}, {"run": "20us"}]}]}]})";
            Engine e = engineFrom(json, seed);
            e.runUntil(500 * kNsPerMs);
            std::vector<Time> d;
            for (const auto& [w, r] : wakeToRun(e, taskByComm(e, "t")))
                d.push_back(r - w);
            return d;
        };
        const std::vector<Time> drawn = delays(R"({"dist": "uniform", "min": "10us", "max": "30us"})", 1);
        QVERIFY(drawn.size() > 400);
        Time lo = kNever, hi = 0, sum = 0;
        for (const Time d : drawn) {
            lo = std::min(lo, d), hi = std::max(hi, d), sum += d;
        }
        QVERIFY2(lo >= 10 * kNsPerUs && hi <= 30 * kNsPerUs, qPrintable(QString("%1 .. %2").arg(lo).arg(hi)));
        QVERIFY2(hi - lo > 15 * kNsPerUs, qPrintable(QString("%1 .. %2").arg(lo).arg(hi)));
        const double mean = double(sum) / double(drawn.size()) / 1e3;
        QVERIFY2(std::abs(mean - 20) < 1.5, qPrintable(QString("mean %1 us").arg(mean)));
        QCOMPARE(delays(R"({"dist": "uniform", "min": "10us", "max": "30us"})", 1), drawn);
        QVERIFY(delays(R"({"dist": "uniform", "min": "10us", "max": "30us"})", 2) != drawn);
        for (const Time d : delays("\"7us\"", 1))
            QCOMPARE(d, 7 * kNsPerUs);
    }
    // sd_llc_shared is kzalloc()ed, so nr_idle_scan is 0 until a periodic load balance of the
    // LLC runs update_idle_cpu_scan(): a wakeup before that does not scan (select_idle_cpu()
    // returns at once) and stays on its busy previous CPU with the other CPU idle. The busy
    // CPU's first tick balances (the sleeper runs first and sleeps before the hog starts on its
    // CPU, so nothing else moves it there first): on two CPUs any utilisation above zero gives a depth of
    // 2 * (1024 - x^2 * 117^2 / 10240000) / 1024, rounded down, = 1, and select_idle_cpu()
    // then looks at nr_idle_scan + 1 - 1 = 1 CPU after the target: the next wakeups find the idle one.
    void wakeupBeforeAnyBalanceDoesNotLookForAnIdleCpu() {
        const std::string json = R"J({"machine": {"cpus": 2, "hz": 250, "preempt": "none",
              "features": {"DELAY_DEQUEUE": false}},
          "tasks": [ {"comm": "hog", "start": "100us", "cpus": [0], "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]},
                     {"comm": "sleeper", "start_cpu": 0, "behavior": [{"repeat": "forever", "body": [{"run": "50us"}, {"sleep": "1ms"}]}]} ]})J";
        Engine e = engineFrom(json);
        e.runUntil(2 * kNsPerMs);
        QCOMPARE(e.nrIdleScan(), 0);
        e.runUntil(40 * kNsPerMs);
        QCOMPARE(e.nrIdleScan(), 1);
        const Wakeups& w = e.trace().wakeups;
        const TaskId sl = taskByComm(e, "sleeper");
        std::vector<std::pair<Time, uint16_t>> v;
        for (size_t i = 0; i < w.size(); ++i)
            if (w.wakee[i] == sl && !w.isNew[i]) v.push_back({w.time[i], w.targetCpu[i]});
        QVERIFY(v.size() > 5);
        QCOMPARE(v[0].second, uint16_t(0)); // before the first tick: stays with the hog
        QVERIFY(v[0].first < 4 * kNsPerMs);
        QCOMPARE(v.back().second, uint16_t(1)); // after it: the idle CPU
    }
};

QTEST_GUILESS_MAIN(TestMachineWakeup)
#include "tst_machine_wakeup.moc"
