// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/rng.h"

#include <bit>
#include <cmath>

namespace sched {

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t mixSeed(uint64_t a, uint64_t b) {
    uint64_t s = a ^ (b * 0x9e3779b97f4a7c15ULL);
    splitmix64(s);
    return splitmix64(s);
}

Rng::Rng(uint64_t seed) {
    uint64_t sm = seed;
    s_.s0 = splitmix64(sm);
    s_.s1 = splitmix64(sm);
    s_.s2 = splitmix64(sm);
    s_.s3 = splitmix64(sm);
}

double Rng::normal() {
    if (spare_ != kNoSpare) {
        const double d = std::bit_cast<double>(spare_);
        spare_ = kNoSpare;
        return d;
    }
    double u, v, s;
    do {
        u = 2.0 * uniform01() - 1.0;
        v = 2.0 * uniform01() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * detLog(s) / s); // sqrt is correctly rounded by IEEE 754
    spare_ = std::bit_cast<uint64_t>(v * f);          // finite: never kNoSpare
    return u * f;
}

namespace {
constexpr double kLn2 = 0.69314718055994530942;
}

double detLog(double x) {
    if (!(x > 0)) return -INFINITY;
    int e = 0;
    double m = std::frexp(x, &e); // exact: m in [0.5, 1)
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        --e;
    }
    // log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172: the series converges fast.
    const double s = (m - 1.0) / (m + 1.0);
    const double s2 = s * s;
    double term = s, sum = 0.0;
    for (int k = 1; k < 40; k += 2) {
        sum += term / k;
        term *= s2;
    }
    return 2.0 * sum + e * kLn2;
}

double detExp(double x) {
    if (x > 700) return INFINITY;
    if (x < -700) return 0.0;
    const double k = std::floor(x / kLn2 + 0.5); // floor is exact
    const double r = x - k * kLn2;               // |r| <= ~0.35
    double term = 1.0, sum = 1.0;
    for (int i = 1; i < 30; ++i) {
        term *= r / i;
        sum += term;
    }
    return std::ldexp(sum, int(k)); // exact scaling by 2^k
}

} // namespace sched
