// SPDX-License-Identifier: GPL-3.0-or-later
// Load weights and the kernel's fixed-point virtual-time conversion (kernel/sched/core.c
// sched_prio_to_weight / sched_prio_to_wmult, fair.c __calc_delta / calc_delta_fair).
#pragma once

#include "base/types.h"

namespace sched {

constexpr uint32_t kNice0Weight = 1024;         // scale_load_down(NICE_0_LOAD)
constexpr uint32_t kIdlePrioWeight = 3;         // WEIGHT_IDLEPRIO
constexpr uint32_t kIdlePrioWmult = 1431655765; // WMULT_IDLEPRIO

struct LoadWeight {
    uint32_t weight = kNice0Weight; // the unscaled table value (what EEVDF sums use)
    uint32_t invWeight = 4194304;   // 2^32 / weight, precomputed as in the kernel
};

// nice in [-20, 19]; SCHED_IDLE ignores nice and gets WEIGHT_IDLEPRIO (set_load_weight()).
LoadWeight loadWeightFor(Policy policy, int nice);
// update_load_set() with __update_inv_weight(): any weight (a group entity's share), with
// inv_weight = WMULT_CONST / weight.
LoadWeight loadWeightOf(uint32_t weight);
uint32_t niceToWeight(int nice);
uint32_t niceToWmult(int nice);

// __calc_delta(delta, NICE_0_LOAD, lw): delta * 1024 / weight in the kernel's 32.32 fixed point,
// bit-exact, including the shift normalisation.
uint64_t calcDelta(uint64_t delta, const LoadWeight& lw);

// calc_delta_fair(): real time -> virtual time of this entity. Nice 0 returns delta unchanged.
inline int64_t calcDeltaFair(int64_t delta, const LoadWeight& lw) {
    if (lw.weight == kNice0Weight || delta <= 0) return delta;
    return int64_t(calcDelta(uint64_t(delta), lw));
}

} // namespace sched
