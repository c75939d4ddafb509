// SPDX-License-Identifier: GPL-3.0-or-later
// Per-entity load tracking (kernel/sched/pelt.c), the utilisation half: a geometric series over
// 1024 us periods, decaying by y per period with y^32 = 1/2, of the time the fair class ran. The
// engine keeps one per CPU, for the root cfs_rq's util_avg, which SIS_UTIL reads summed over the
// LLC (update_idle_cpu_scan()). The arithmetic is the kernel's: decay_load() with its table of
// y^n, __accumulate_pelt_segments() for a run that crosses period boundaries, and util_avg =
// util_sum / (LOAD_AVG_MAX - 1024 + period_contrib), refreshed only when a period ends.
#pragma once

#include "base/types.h"

#include <array>
#include <cstdint>

namespace sched {

namespace pelt {

constexpr int kLoadAvgPeriod = 32;      // LOAD_AVG_PERIOD: y^32 = 1/2
constexpr uint32_t kLoadAvgMax = 47742; // LOAD_AVG_MAX: the series' limit for 1024 per period
constexpr int kCapacityShift = 10;      // SCHED_CAPACITY_SHIFT

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
        int64_t delta = now - lastUpdate;
        if (delta < 0) {
            lastUpdate = now;
            return;
        }
        delta >>= 10; // ns -> (about) us
        if (delta == 0) return;
        lastUpdate += delta << 10;
        if (!queued) running = false;
        uint32_t contrib = uint32_t(delta);
        uint64_t d = uint64_t(delta) + periodContrib;
        const uint64_t periods = d / 1024;
        if (periods) {
            utilSum = pelt::decayLoad(utilSum, periods);
            d %= 1024;
            if (queued) contrib = pelt::accumulateSegments(periods, 1024 - periodContrib, uint32_t(d));
        }
        periodContrib = uint32_t(d);
        if (running) utilSum += uint64_t(contrib) << pelt::kCapacityShift;
        if (periods) utilAvg = uint32_t(utilSum / (pelt::kLoadAvgMax - 1024 + periodContrib));
    }
};

} // namespace sched
