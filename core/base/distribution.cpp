// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/distribution.h"

#include <algorithm>
#include <cmath>

namespace sched {

std::string_view distributionKindName(Distribution::Kind k) {
    switch (k) {
    case Distribution::Kind::Fixed:
        return "fixed";
    case Distribution::Kind::Uniform:
        return "uniform";
    case Distribution::Kind::Exponential:
        return "exponential";
    case Distribution::Kind::Normal:
        return "normal";
    case Distribution::Kind::LogNormal:
        return "lognormal";
    case Distribution::Kind::Empirical:
        return "empirical";
    }
    return "?";
}

Time Distribution::sampleDrawn(Rng& rng) const {
    double v = 0;
    switch (kind) {
    case Kind::Fixed:
        return std::clamp(a, min, max);
    case Kind::Uniform:
        if (b <= a) return std::clamp(a, min, max);
        return std::clamp(a + Time(rng.below(uint64_t(b - a) + 1)), min, max);
    case Kind::Exponential:
        v = -double(a) * detLog(1.0 - rng.uniform01());
        break;
    case Kind::Normal:
        v = double(a) + double(b) * rng.normal();
        break;
    case Kind::LogNormal: {
        // Parameterised by the mean and standard deviation of the result itself.
        const double m = double(a), s = double(b);
        if (m <= 0) return std::clamp<Time>(0, min, max);
        const double sigma2 = detLog(1.0 + (s * s) / (m * m));
        const double mu = detLog(m) - sigma2 / 2.0;
        v = detExp(mu + std::sqrt(sigma2) * rng.normal());
        break;
    }
    case Kind::Empirical: {
        // In integers, so that every machine draws the same: a position in 1/65536 steps.
        const std::vector<Time>& q = *quantiles;
        const uint64_t x = rng.below(uint64_t(q.size() - 1) << 16);
        const size_t i = size_t(x >> 16);
        return std::clamp(q[i] + ((q[i + 1] - q[i]) * Time(x & 0xffff) >> 16), min, max);
    }
    }
    if (!(v >= 0)) v = 0; // also catches NaN
    if (v > 9.0e18) v = 9.0e18;
    return std::clamp(Time(std::llround(v)), min, max);
}

} // namespace sched
