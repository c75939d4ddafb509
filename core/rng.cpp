// SPDX-License-Identifier: GPL-3.0-or-later
#include "rng.h"

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
    for (auto& w : s_) w = splitmix64(sm);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t Rng::next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

// Lemire's multiply-and-shift ("Fast random integer generation in an interval", 2019): the high
// word of x * n, rejecting the few x whose low word falls below 2^64 mod n, so every value is
// equally likely; the division runs only on the rare path.
__extension__ typedef unsigned __int128 U128; // GCC and Clang; the project builds with GCC 12

uint64_t Rng::below(uint64_t n) {
    U128 m = U128(next()) * n;
    uint64_t low = uint64_t(m);
    if (low < n) {
        const uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = U128(next()) * n;
            low = uint64_t(m);
        }
    }
    return uint64_t(m >> 64);
}

double Rng::normal() {
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    double u, v, s;
    do {
        u = 2.0 * uniform01() - 1.0;
        v = 2.0 * uniform01() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * detLog(s) / s); // sqrt is correctly rounded by IEEE 754
    spare_ = v * f;
    hasSpare_ = true;
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
    const double r = x - k * kLn2;                // |r| <= ~0.35
    double term = 1.0, sum = 1.0;
    for (int i = 1; i < 30; ++i) {
        term *= r / i;
        sum += term;
    }
    return std::ldexp(sum, int(k)); // exact scaling by 2^k
}

} // namespace sched
