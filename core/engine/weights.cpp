// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/weights.h"

#include <algorithm>
#include <array>
#include <bit>

namespace sched {

namespace {
// sched_prio_to_weight[40], index = nice + 20 (kernel/sched/core.c).
constexpr std::array<uint32_t, 40> kPrioToWeight{
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906,  3121,  2501,  1991,  1586,  1277,  1024,  820,   655,   526,   423,  335,  272,  215,
    172,   137,   110,   87,    70,    56,    45,    36,    29,    23,    18,   15};

// sched_prio_to_wmult[40] = 2^32 / weight.
constexpr std::array<uint32_t, 40> kPrioToWmult{
    48388,    59856,    76040,    92818,    118348,   147320,    184698,    229616,    287308,    360437,
    449829,   563644,   704093,   875809,   1099582,  1376151,   1717300,   2157191,   2708050,   3363326,
    4194304,  5237765,  6557202,  8165337,  10153587, 12820798,  15790321,  19976592,  24970740,  31350126,
    39045157, 49367440, 61356676, 76695844, 95443717, 119304647, 148102320, 186737708, 238609294, 286331153};

int nicIndex(int nice) {
    return std::clamp(nice, -20, 19) + 20;
}
} // namespace

uint32_t niceToWeight(int nice) {
    return kPrioToWeight[size_t(nicIndex(nice))];
}
uint32_t niceToWmult(int nice) {
    return kPrioToWmult[size_t(nicIndex(nice))];
}

LoadWeight loadWeightFor(Policy policy, int nice) {
    // set_load_weight(): SCHED_IDLE entities get the minimum weight whatever their nice.
    if (policy == Policy::Idle) return {kIdlePrioWeight, kIdlePrioWmult};
    return {niceToWeight(nice), niceToWmult(nice)};
}

LoadWeight loadWeightOf(uint32_t weight) {
    constexpr uint32_t kWmultConst = ~0u; // WMULT_CONST
    if (weight == 0) return {0, kWmultConst};
    return {weight, kWmultConst / weight};
}

uint64_t calcDelta(uint64_t delta, const LoadWeight& lw) {
    // As __calc_delta(delta_exec, NICE_0_LOAD, lw) on 64-bit: fact = 1024, then fact *= inv_weight
    // with the high word folded into the shift so that the product stays within 32 bits.
    uint64_t fact = kNice0Weight;
    int shift = 32; // WMULT_SHIFT
    fact = fact * uint64_t(lw.invWeight);
    if (uint32_t hi = uint32_t(fact >> 32); hi != 0) {
        const int fs = 32 - std::countl_zero(hi); // fls()
        shift -= fs;
        fact >>= fs;
    }
    // mul_u64_u32_shr(): 128-bit product, then shift.
    const uint128 prod = static_cast<uint128>(delta) * fact;
    return uint64_t(prod >> shift);
}

} // namespace sched
