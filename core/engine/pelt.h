// SPDX-License-Identifier: GPL-3.0-or-later
// Per-entity load tracking (kernel/sched/pelt.c): a geometric series over 1024 us periods,
// decaying by y per period with y^32 = 1/2. The utilisation half: one per CPU, of the time the
// fair class ran, for the root cfs_rq's util_avg, which SIS_UTIL reads summed over the LLC
// (update_idle_cpu_scan()). The load half: a task group's cfs_rq integrates its queued weight and
// a grouped task its time on the runqueue, which calc_group_shares() weighs the group's entities
// by (fair_group.cpp). The arithmetic is the kernel's: decay_load() with its table of y^n,
// __accumulate_pelt_segments() for a stretch that crosses period boundaries, and the average =
// sum / (LOAD_AVG_MAX - 1024 + period_contrib), refreshed only when a period ends.
#pragma once

#include "base/types.h"

#include <array>
#include <cstdint>

namespace sched {

namespace pelt {

constexpr int kLoadAvgPeriod = 32;                   // LOAD_AVG_PERIOD: y^32 = 1/2
constexpr uint32_t kLoadAvgMax = 47742;              // LOAD_AVG_MAX: the series' limit for 1024 per period
constexpr int kCapacityShift = 10;                   // SCHED_CAPACITY_SHIFT
constexpr uint32_t kMinDivider = kLoadAvgMax - 1024; // PELT_MIN_DIVIDER

// runnable_avg_yN_inv[n] = (2^32 - 1) * y^n, truncated (Documentation/scheduler/sched-pelt.c's
// formula; tst_pelt recomputes it).
constexpr std::array<uint32_t, kLoadAvgPeriod> kYnInv{
    0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb, 0xdbfbb796,
    0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46,
    0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
    0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698};

// decay_load(): val * y^n.
constexpr uint64_t decayLoad(uint64_t val, uint64_t n) {
    if (n > uint64_t(kLoadAvgPeriod) * 63) return 0;
    if (n >= uint64_t(kLoadAvgPeriod)) {
        val >>= n / kLoadAvgPeriod;
        n %= kLoadAvgPeriod;
    }
    // mul_u64_u32_shr(val, y^n, 32) without overflow: split val in halves.
    const uint64_t hi = val >> 32, lo = val & 0xffffffffu, m = kYnInv[size_t(n)];
    return hi * m + ((lo * m) >> 32);
}

// __accumulate_pelt_segments(): d1 (the rest of the first period) decayed by all the periods,
// the full periods between, and d3 (the start of the current one) undecayed.
constexpr uint32_t accumulateSegments(uint64_t periods, uint32_t d1, uint32_t d3) {
    const uint32_t c1 = uint32_t(decayLoad(d1, periods));
    const uint32_t c2 = kLoadAvgMax - uint32_t(decayLoad(kLoadAvgMax, periods)) - 1024;
    return c1 + c2 + d3;
}

// ___update_load_sum()'s clock and accumulate_sum()'s split of the stretch since the last update:
// false if less than 1024 ns passed (nothing changes); else the whole periods that ended and
// what a constant input of 1 contributed over the stretch (__accumulate_pelt_segments() when a
// period ended, the microseconds otherwise).
inline bool step(Time now, Time& lastUpdate, uint32_t& periodContrib, uint64_t& periods, uint32_t& contrib) {
    int64_t delta = now - lastUpdate;
    if (delta < 0) {
        lastUpdate = now;
        return false;
    }
    delta >>= 10; // ns -> (about) us
    if (delta == 0) return false;
    lastUpdate += delta << 10;
    contrib = uint32_t(delta);
    uint64_t d = uint64_t(delta) + periodContrib;
    periods = d / 1024;
    if (periods) {
        d %= 1024;
        contrib = accumulateSegments(periods, 1024 - periodContrib, uint32_t(d));
    }
    periodContrib = uint32_t(d);
    return true;
}

} // namespace pelt

// struct sched_avg, the util fields, for one cfs_rq.
struct UtilAvg {
    Time lastUpdate = 0;        // last_update_time, advanced in 1024 ns steps
    uint32_t periodContrib = 0; // period_contrib: us into the current period
    uint64_t utilSum = 0;
    uint32_t utilAvg = 0;

    // ___update_load_sum() + ___update_load_avg() up to `now`: `queued` is whether the cfs_rq has
    // load (anything queued), `running` whether a fair task ran since the last update.
    void update(Time now, bool queued, bool running) {
        uint64_t periods = 0;
        uint32_t contrib = 0;
        if (!pelt::step(now, lastUpdate, periodContrib, periods, contrib)) return;
        if (periods) utilSum = pelt::decayLoad(utilSum, periods);
        if (queued && running) utilSum += uint64_t(contrib) << pelt::kCapacityShift;
        if (periods) utilAvg = uint32_t(utilSum / (pelt::kLoadAvgMax - 1024 + periodContrib));
    }
};

// struct sched_avg, the load fields: ___update_load_sum() / ___update_load_avg() with a constant
// input `load` since the last update - a cfs_rq's queued weight (its average is then the load
// itself, factor 1), or a task's on_rq 0 / 1 (its average is its weight times the sum).
struct LoadAvg {
    Time lastUpdate = 0;
    uint32_t periodContrib = 0;
    uint64_t loadSum = 0;
    int64_t loadAvg = 0;
    friend bool operator==(const LoadAvg&, const LoadAvg&) = default;

    uint32_t divider() const { return pelt::kMinDivider + periodContrib; } // get_pelt_divider()
    // Accumulates `load` up to `now`; true when a period ended (the average was refreshed: the
    // kernel's "decayed", which lets update_tg_load_avg() run). `factor` scales the average.
    bool update(Time now, uint64_t load, int64_t factor) {
        uint64_t periods = 0;
        uint32_t contrib = 0;
        if (!pelt::step(now, lastUpdate, periodContrib, periods, contrib)) return false;
        if (periods) loadSum = pelt::decayLoad(loadSum, periods);
        loadSum += load * contrib;
        if (!periods) return false;
        loadAvg = int64_t(uint64_t(factor) * loadSum / divider());
        return true;
    }
};

} // namespace sched
