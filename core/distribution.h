// SPDX-License-Identifier: GPL-3.0-or-later
// Durations drawn by task behaviours: fixed, uniform, exponential, normal, lognormal, each with
// optional bounds. All in integer nanoseconds; sampling uses only the engine's Rng.
#pragma once

#include "rng.h"
#include "types.h"

#include <string_view>

namespace sched {

struct Distribution {
    enum class Kind : uint8_t { Fixed, Uniform, Exponential, Normal, LogNormal };
    Kind kind = Kind::Fixed;
    Time a = 0;     // fixed value / uniform min / mean (exponential, normal, lognormal)
    Time b = 0;     // uniform max / standard deviation (normal, lognormal)
    Time min = 0;   // draws are clamped to [min, max]
    Time max = kNever;

    static Distribution fixed(Time v) { return {Kind::Fixed, v, 0, 0, kNever}; }
    static Distribution uniform(Time lo, Time hi) { return {Kind::Uniform, lo, hi, 0, kNever}; }
    static Distribution exponential(Time mean) { return {Kind::Exponential, mean, 0, 0, kNever}; }
    static Distribution normal(Time mean, Time sd) { return {Kind::Normal, mean, sd, 0, kNever}; }
    static Distribution lognormal(Time mean, Time sd) { return {Kind::LogNormal, mean, sd, 0, kNever}; }

    Time sample(Rng& rng) const;
};

std::string_view distributionKindName(Distribution::Kind k);

} // namespace sched
