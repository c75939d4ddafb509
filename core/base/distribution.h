// SPDX-License-Identifier: GPL-3.0-or-later
// Durations drawn by task behaviours: fixed, uniform, exponential, normal, lognormal, or an
// empirical distribution given by its quantiles, each with optional bounds. All in integer
// nanoseconds; sampling uses only the engine's Rng.
#pragma once

#include "base/rng.h"
#include "base/types.h"

#include <memory>
#include <string_view>
#include <vector>

namespace sched {

struct Distribution {
    enum class Kind : uint8_t { Fixed, Uniform, Exponential, Normal, LogNormal, Empirical };
    Kind kind = Kind::Fixed;
    Time a = 0;   // fixed value / uniform min / mean (exponential, normal, lognormal)
    Time b = 0;   // uniform max / standard deviation (normal, lognormal)
    Time min = 0; // draws are clamped to [min, max]
    Time max = kNever;
    // Empirical: the values at the evenly spaced probabilities 0, 1/(n-1), ..., 1 (ascending, n >= 2);
    // a draw interpolates linearly between the two around a uniform position, so a measured shape
    // (two humps, a long tail) is kept as it was. Shared because ops are copied as they run.
    std::shared_ptr<const std::vector<Time>> quantiles;

    static Distribution fixed(Time v) { return {Kind::Fixed, v, 0, 0, kNever, nullptr}; }
    static Distribution uniform(Time lo, Time hi) { return {Kind::Uniform, lo, hi, 0, kNever, nullptr}; }
    static Distribution exponential(Time mean) { return {Kind::Exponential, mean, 0, 0, kNever, nullptr}; }
    static Distribution normal(Time mean, Time sd) { return {Kind::Normal, mean, sd, 0, kNever, nullptr}; }
    static Distribution lognormal(Time mean, Time sd) {
        return {Kind::LogNormal, mean, sd, 0, kNever, nullptr};
    }
    static Distribution empirical(std::vector<Time> q) {
        return {Kind::Empirical, 0, 0, 0, kNever, std::make_shared<const std::vector<Time>>(std::move(q))};
    }

    // A fixed duration (most runs and every syscall path) is answered inline.
    Time sample(Rng& rng) const {
        return kind == Kind::Fixed ? (a < min ? min : a > max ? max : a) : sampleDrawn(rng);
    }
    Time sampleDrawn(Rng& rng) const;
};

std::string_view distributionKindName(Distribution::Kind k);

} // namespace sched
