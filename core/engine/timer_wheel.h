// SPDX-License-Identifier: GPL-3.0-or-later
// The timer wheel's rounding (kernel/time/timer.c): where a timer_list timer - schedule_timeout(),
// msleep(), a workqueue's delayed work - really fires, as opposed to an hrtimer.
#pragma once

#include <cstdint>

namespace sched {

// The jiffy at which a timer armed for `expires` fires when the wheel's clock is `clk`
// (calc_wheel_index() with calc_index()): the wheel has LVL_DEPTH levels of 64 buckets, level n
// holding timers 63 * 8^(n-1) .. 63 * 8^n - 1 jiffies away in buckets 8^n jiffies wide. A timer
// goes to the first level whose range holds it and its bucket is the next granule boundary
// strictly after `expires` - so it never fires early, and fires up to 8^n jiffies late (a 500 ms
// timeout at HZ 250, 125 jiffies, fires 128 jiffies after a tick on the 8-jiffy grid).
inline uint64_t timerWheelBucketExpiry(uint64_t expires, uint64_t clk, int hz) {
    constexpr unsigned kLvlClkShift = 3;     // LVL_CLK_SHIFT
    constexpr uint64_t kLvlSize = 64;        // LVL_SIZE (1 << LVL_BITS)
    const unsigned depth = hz > 100 ? 9 : 8; // LVL_DEPTH
    auto lvlShift = [](unsigned lvl) { return lvl * kLvlClkShift; };
    auto lvlStart = [](unsigned n) { return (kLvlSize - 1) << ((n - 1) * kLvlClkShift); };
    auto calcIndex = [&](uint64_t e, unsigned lvl) { return ((e >> lvlShift(lvl)) + 1) << lvlShift(lvl); };
    const uint64_t delta = expires - clk;
    for (unsigned lvl = 0; lvl + 1 < depth; ++lvl)
        if (delta < lvlStart(lvl + 1)) return calcIndex(expires, lvl);
    if (int64_t(delta) < 0) return clk;      // already expired: the current bucket
    const uint64_t cutoff = lvlStart(depth); // WHEEL_TIMEOUT_CUTOFF
    const uint64_t maxTimeout = cutoff - (uint64_t(1) << lvlShift(depth - 1)); // WHEEL_TIMEOUT_MAX
    if (delta >= cutoff) expires = clk + maxTimeout;
    return calcIndex(expires, depth - 1);
}

} // namespace sched
